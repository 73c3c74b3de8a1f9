"""The clock sweep: timeouts, outage recovery and reminders, each exactly once.

Run by Celery beat every ``CLOCK_SWEEP_SECONDS`` (default 15 s). One sweep:

1. **Heartbeat.** It records its run time in ``clock_sweeps``. When the gap since the
   last run is longer than ``CLOCK_OUTAGE_SECONDS`` (default 300 s), the gap is
   recorded as an outage (``clock_outages``).
2. **Timeouts.** It reads the games whose ``games.deadline`` (indexed) has passed,
   oldest deadline first, and settles them ``BATCH_GAMES`` per transaction: one
   ``SELECT .. FOR UPDATE SKIP LOCKED`` claims a batch (of two sweepers, each game is
   locked by one; the other skips it, and finds it no longer due once the first has
   committed), then every game of the batch is settled at the version it was read at:
   the engine's ``timeout_move`` for each seat whose deadline passed, a ``move`` event
   whose payload carries ``"timeout": {"deadline": ...}``; with the ``forfeit``
   policy, the miss that reaches ``forfeit_after`` also appends ``resigned``
   (``"forfeit": true``), so the seat moves by timeout from then on and ranks last;
   with the ``autopilot`` policy, a bot takes the seat and makes that move
   (:mod:`arbiter.games.autopilot`). A bot seat whose task was late plays its own
   bot's move (never a forfeit or the autopilot).
   The batch is written with one statement per kind of row and one commit. A move
   that won the race makes the append stale: that timeout is a no-op (the batch falls
   back to one game per transaction; the loser of the other order, the move, gets 409
   ``stale-version``). A worker lost mid-batch leaves nothing: its transaction is
   rolled back and the next sweep finds the games still due. (:func:`claim_due` and
   :func:`enforce` settle one game at a time, with a lease on the deadline column.)
3. **Outage policy.** A deadline that fell inside a recorded outage is not enforced:
   it is extended by the outage's length (a ``deadline-extended`` event with
   ``"reason": "outage"``), once per game and outage, in deadline order, and the
   reminders of the extended deadlines are due again (for the new deadline). A stop of the
   sweep shorter than the threshold is no outage: deadlines it missed are enforced late.
4. **Reminders.** It claims the games whose ``games.remind_at`` has passed the same
   way, and reminds each seat still owing a move once per threshold per prompt and
   deadline (``clock_reminders`` keys that; an outage extension clears it), never after the seat
   moved (its clock has
   stopped) and never a resigned seat (its clock never runs). A player (one email
   address) with several games due in the same sweep gets one mail listing them all.
"""

from __future__ import annotations

import hashlib
import logging
from collections import defaultdict
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

import engines
from arbiter import queue, settings
from arbiter.extensions import db
from arbiter.games import autopilot, clock, events, naming
from arbiter.games.commit import commit, write_many
from arbiter.games.games import load
from arbiter.games.store import StaleVersion
from arbiter.games.transition import Transition, settle
from arbiter.mail import identity
from arbiter.models import ClockOutage, ClockReminder, ClockSweep, Game, OutboxMail
from arbiter.models.timestamps import iso, utcnow
from arbiter.uow import UnitOfWork

log = logging.getLogger(__name__)

LEASE_SECONDS = 60
"""How long a claim (:func:`claim_due`) holds a due game before another sweep may
claim it again."""

CLOCK = "clock"
"""The ``clock_sweeps`` row of the sweep's heartbeat (its last run)."""

ATTEMPT = "clock-attempt"
"""The ``clock_sweeps`` row of the last attempted sweep (run or skipped)."""

BATCH_GAMES = 100
"""Due games settled per transaction: one lock, one snapshot update (executemany),
one insert of the events and one commit for all of them."""


def sweep(now: datetime | None = None, limit: int = 500) -> dict:
    """Run one sweep at ``now`` (UTC, default the current time); return counts:
    ``{"outage": seconds or 0, "claimed", "timeouts", "extended", "reminders"}``.

    The due games (at most ``limit``, earliest deadline first) are settled
    ``BATCH_GAMES`` at a time, each batch in one transaction (:func:`enforce_due`).
    """
    now = now or utcnow()
    outage = heartbeat(now)
    if outage is None:  # another session holds the clock's row: its turn, not ours
        return {
            "outage": 0.0,
            "claimed": 0,
            "timeouts": 0,
            "extended": 0,
            "reminders": 0,
            "skipped": 1,
        }
    counts = {"outage": outage, "claimed": 0, "timeouts": 0, "extended": 0}
    outages = list(db.session.scalars(sa.select(ClockOutage).order_by(ClockOutage.id)))
    for row in outages:
        db.session.expunge(row)  # read once: the batches' commits must not expire them
    due = due_ids(now, limit)
    for start in range(0, len(due), BATCH_GAMES):
        outcomes = enforce_due(due[start : start + BATCH_GAMES], now, outages)
        counts["claimed"] += len(outcomes)
        for outcome in outcomes:
            if outcome in ("timeouts", "extended"):
                counts[outcome] += 1
    counts["reminders"] = remind(now, limit)
    return counts


# --------------------------------------------------------------------------- heartbeat


def heartbeat(now: datetime) -> float | None:
    """Record this sweep's run; return the outage length in seconds it detected (0),
    or None when another session holds the clock's row.

    The attempt is recorded first, in its own transaction (the ``clock-attempt`` row:
    ``arbiter doctor`` tells a beat that is not running from sweeps that are skipped).
    Then the ``clock`` row is taken with ``FOR UPDATE SKIP LOCKED``: a session that
    holds it (another sweep in progress, or one whose host died mid-transaction) makes
    this sweep skip its turn at once rather than wait on the lock. The dead host's
    session is ended by the server after its ``DB_IDLE_IN_TRANSACTION_SECONDS``
    (workers: 60 s), and the next sweep runs: deadlines wait at most that plus one
    sweep interval.
    """
    record_attempt(now)
    threshold = settings.current().clock.outage_seconds
    row = db.session.scalars(
        sa.select(ClockSweep)
        .where(ClockSweep.name == CLOCK)
        .with_for_update(skip_locked=True)
        .execution_options(populate_existing=True)
    ).first()
    if row is None:
        if db.session.scalar(sa.select(ClockSweep.name).where(ClockSweep.name == CLOCK)):
            db.session.rollback()
            log.warning("clock sweep skipped: another session holds the clock's row")
            return None
        try:
            db.session.add(ClockSweep(name=CLOCK, last_run=now))
            db.session.commit()
        except IntegrityError:
            db.session.rollback()
        return 0.0
    last = row.last_run
    if now <= last:
        db.session.commit()
        return 0.0
    claimed = db.session.execute(
        sa.update(ClockSweep)
        .where(ClockSweep.name == CLOCK, ClockSweep.last_run == last)
        .values(last_run=now)
        .execution_options(synchronize_session=False)
    ).rowcount
    gap = (now - last).total_seconds()
    if claimed == 1 and gap > threshold:
        db.session.add(ClockOutage(started_at=last, ended_at=now))
        log.warning(
            "clock sweep did not run for %.0f s: deadlines in that window are extended by as much",
            gap,
        )
    db.session.commit()
    return gap if claimed == 1 and gap > threshold else 0.0


def record_attempt(now: datetime) -> None:
    """Record that a clock sweep was attempted at ``now`` (the ``clock-attempt`` row),
    in its own transaction, skipping (not waiting) if another session holds the row."""
    held = (
        sa.select(ClockSweep.name)
        .where(ClockSweep.name == ATTEMPT)
        .with_for_update(skip_locked=True)
        .scalar_subquery()
    )
    done = db.session.execute(
        sa.update(ClockSweep)
        .where(ClockSweep.name == ATTEMPT, ClockSweep.name.in_(held))
        .values(last_run=now)
        .execution_options(synchronize_session=False)
    ).rowcount
    if not done and not db.session.scalar(
        sa.select(ClockSweep.name).where(ClockSweep.name == ATTEMPT)
    ):
        try:
            db.session.add(ClockSweep(name=ATTEMPT, last_run=now))
            db.session.commit()
        except IntegrityError:
            db.session.rollback()
        return
    db.session.commit()


# --------------------------------------------------------------------------- timeouts


def claim_due(now: datetime, limit: int = 500) -> list[tuple[str, int]]:
    """Claim active games whose deadline has passed, earliest first; return
    ``(game_id, version)`` of those this call claimed (moving ``deadline`` to a lease).

    One statement: ``UPDATE games SET deadline = <lease> WHERE id IN (SELECT .. WHERE
    deadline <= now AND status = 'active' ORDER BY deadline LIMIT n FOR UPDATE SKIP
    LOCKED) AND deadline <= now RETURNING id, version``; rows another sweeper holds are
    skipped, and a row it claimed no longer matches ``deadline <= now``.
    """
    lease = now + timedelta(seconds=LEASE_SECONDS)
    due = (
        sa.select(Game.id)
        .where(Game.deadline <= now, Game.status == "active")
        .order_by(Game.deadline)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    rows = db.session.execute(
        sa.update(Game)
        .where(Game.id.in_(due.scalar_subquery()), Game.deadline <= now, Game.status == "active")
        .values(deadline=lease)
        .returning(Game.id, Game.version, Game.deadline)
        .execution_options(synchronize_session=False)
    ).all()
    db.session.commit()
    return [(row.id, row.version) for row in rows]


def due_ids(now: datetime, limit: int = 500) -> list[str]:
    """Return the ids of the active games whose deadline has passed at ``now``,
    earliest deadline first (at most ``limit``; the indexed ``games.deadline``)."""
    return list(
        db.session.scalars(
            sa.select(Game.id)
            .where(Game.deadline <= now, Game.status == "active")
            .order_by(Game.deadline, Game.id)
            .limit(limit)
        )
    )


def enforce_due(
    ids: list[str], now: datetime, outages: list[ClockOutage] | None = None
) -> list[str]:
    """Settle the clocks of the games among ``ids`` still due at ``now``, in one
    transaction; return each settled game's outcome (as :func:`enforce`).

    One ``SELECT .. WHERE id IN (..) AND deadline <= now AND status = 'active' FOR
    UPDATE SKIP LOCKED`` claims them (PostgreSQL: a game another sweeper or a move
    holds is skipped, and it stays locked until this commit), then their timeouts or
    outage extensions are written together (:func:`arbiter.games.commit.write_many`).
    When anything in the batch fails (a move that won the race on SQLite, an engine
    error), the batch is rolled back and its games are enforced one by one, as before
    batching: exactly once either way, a broken game never stops the others.
    """
    games = list(
        db.session.scalars(
            sa.select(Game)
            .where(Game.id.in_(ids), Game.deadline <= now, Game.status == "active")
            .order_by(Game.id)
            .with_for_update(skip_locked=True)
            .execution_options(populate_existing=True)
        )
    )
    read = [(game.id, game.version) for game in games]
    outcomes, plans, alone = [], [], []
    try:
        for game in games:
            engine = engines.at_version(game.engine, game.engine_version)
            if engine is None:  # an older engine version: its log is folded alone
                alone.append((game.id, game.version))
                continue
            outcome, tr = _plan(game, engine, game.state, now, outages)
            if tr is None:
                _restore(game, and_commit=False)
            else:
                plans.append(tr)
            outcomes.append(outcome)
        uow = UnitOfWork()
        if plans:
            write_many(uow, plans)
        uow.commit()
    except Exception:  # noqa: BLE001 - one by one: a broken game must not stop the others
        db.session.rollback()
        log.warning(
            "clock: a batch of %d games failed; enforcing them one by one", len(read), exc_info=True
        )
        return [_enforce_logged(game_id, version, now, outages) for game_id, version in read]
    return outcomes + [
        _enforce_logged(game_id, version, now, outages) for game_id, version in alone
    ]


def _enforce_logged(
    game_id: str, version: int, now: datetime, outages: list[ClockOutage] | None
) -> str:
    """:func:`enforce`, an exception logged (the game stays due: the next sweep tries
    again) and answered ``"none"``."""
    try:
        return enforce(game_id, version, now, outages)
    except Exception:  # noqa: BLE001 - one broken game must not stop the others
        db.session.rollback()
        log.exception("clock: game %s could not be enforced; the next sweep tries again", game_id)
        return "none"


def enforce(
    game_id: str,
    version: int,
    now: datetime,
    outages: list[ClockOutage] | None = None,
    uow: UnitOfWork | None = None,
) -> str:
    """Apply the clock of one game still at ``version``, in its own transaction; return
    what was done: ``"timeouts"``, ``"extended"`` (outage policy), or ``"none"`` (stale,
    paused, nothing due: the deadline column is put back).

    :param outages: the recorded outages, when the caller read them once for many
        games (None: they are looked up).
    :param uow: the unit of work that writes and commits the timeouts (a new one by
        default). Raises nothing of its own: a game that moved first is left alone.
    """
    game, engine, state = load(game_id)
    if game.version != version or game.status != "active":
        return "none"
    outcome, tr = _plan(game, engine, state, now, outages)
    if tr is None:
        _restore(game)
        return outcome
    try:
        commit(tr, uow=uow)
    except StaleVersion:
        log.info("game %s moved before its timeout at version %s", game_id, version)
        return "none"
    return outcome


def _plan(
    game: Game, engine, state: dict, now: datetime, outages: list[ClockOutage] | None
) -> tuple[str, Transition | None]:
    """Return what the clock of ``game`` (at ``state``) asks for at ``now``: the
    outcome and the settled transition to write (``("none", None)``: nothing is due).
    Only the reminders an outage extension re-arms are written (in the caller's
    transaction)."""
    due = sorted(((d, s) for s, d in clock.deadlines(game).items() if d <= now))
    if not due:
        return "none", None
    outage = _outage_of(due[0][0], game.clock_state.get("outage", 0), outages)
    tr = Transition(game, engine, state)
    if outage is not None:
        length = (outage.ended_at - outage.started_at).total_seconds()
        seats = [
            s for s, d in clock.deadlines(game).items() if outage.started_at < d <= outage.ended_at
        ]
        _rearm_reminders(game, seats)
        tr.events.append(
            events.DeadlineExtended(
                reason="outage",
                outage=outage.id,
                seconds=length,
                seats=seats,
                outage_from=iso(outage.started_at),
                outage_to=iso(outage.ended_at),
            )
        )
        outcome = "extended"
    else:
        _timeouts(tr, due)
        outcome = "timeouts"
    settle(tr, game.resigned, roll=False)
    return outcome, tr


def _rearm_reminders(game: Game, seats: list[int]) -> None:
    """Forget the reminders given for the old deadlines of ``seats`` in this prompt
    (in the extension's transaction), so that each extended deadline gets every
    reminder due for it, quoting the new deadline."""
    db.session.execute(
        sa.delete(ClockReminder)
        .where(
            ClockReminder.game_id == game.id,
            ClockReminder.prompt_seq == game.prompt_since,
            ClockReminder.seat.in_(seats),
        )
        .execution_options(synchronize_session=False)
    )


def _timeouts(tr: Transition, due: list[tuple[datetime, int]]) -> None:
    """Play the timeout move for each due seat in deadline order; forfeit per policy."""
    game, engine = tr.game, tr.engine
    cfg = clock.config(game)
    turn = clock.turn_deadline(game.clock_state)
    for deadline, seat in due:
        if seat not in engine.to_act(tr.state) or seat in game.resigned:
            continue
        whole_turn = turn is not None and turn == (seat, deadline)
        if game.seats[seat].bot and not whole_turn:
            autopilot.bot_timeout(tr, seat, deadline)
            continue
        if cfg["timeout_policy"] == "autopilot" and not whole_turn:
            autopilot.hand_over(tr, seat, deadline)
            continue
        tr.move(
            seat,
            engine.timeout_move(tr.state, seat),
            timeout={"deadline": iso(deadline), **({"turn": True} if whole_turn else {})},
        )
        if whole_turn:
            continue
        misses = game.clock_state["seats"][seat]["misses"] + 1
        if cfg["timeout_policy"] == "forfeit" and misses >= cfg["forfeit_after"]:
            row = game.seats[seat]
            tr.events.append(events.Resigned(seat=seat, name=row.name, forfeit=True, misses=misses))
            row.resigned = True


def _outage_of(
    deadline: datetime, applied: int, outages: list[ClockOutage] | None = None
) -> ClockOutage | None:
    """Return the recorded outage (newer than id ``applied``) that ``deadline`` fell in,
    from ``outages`` (in id order) when given."""
    if outages is not None:
        return next(
            (o for o in outages if o.id > applied and o.started_at < deadline <= o.ended_at), None
        )
    return db.session.scalars(
        sa.select(ClockOutage)
        .where(
            ClockOutage.id > applied,
            ClockOutage.started_at < deadline,
            ClockOutage.ended_at >= deadline,
        )
        .order_by(ClockOutage.id)
        .limit(1)
    ).first()


def _restore(game: Game, and_commit: bool = True) -> None:
    """Put the deadline column back to the game's earliest deadline (after a claim
    that found nothing due: paused, or moved by an extension); commit unless told not
    to (a batch commits once)."""
    db.session.execute(
        sa.update(Game)
        .where(Game.id == game.id, Game.version == game.version)
        .values(deadline=clock.earliest(game))
        .execution_options(synchronize_session=False)
    )
    if and_commit:
        db.session.commit()


# --------------------------------------------------------------------------- reminders


def remind(now: datetime, limit: int = 500) -> int:
    """Write the reminder mails due at ``now``, one per email address (an account has
    one: the reminders are batched per account, issue 10 item 6) and only to addresses
    that agreed to game mail (:func:`arbiter.mail.identity.seat_address`); return how
    many seat reminders were given (the others are recorded as given, unmailed)."""
    games = list(
        db.session.scalars(
            sa.select(Game)
            .where(Game.remind_at <= now, Game.status == "active")
            .order_by(Game.remind_at)
            .limit(limit)
        )
    )
    items = []
    for game in games:
        free = (
            sa.select(Game.id)
            .where(Game.id == game.id)
            .with_for_update(skip_locked=True)
            .scalar_subquery()
        )
        claimed = db.session.execute(
            sa.update(Game)
            .where(
                Game.id.in_(free),  # a game another session holds is reminded next sweep
                Game.version == game.version,
                Game.remind_at == game.remind_at,
            )
            .values(remind_at=clock.next_reminder(game, now))
            .execution_options(synchronize_session=False)
        ).rowcount
        if claimed == 1:
            items.extend(_due_reminders(game, now))
    by_address = defaultdict(list)
    for item in items:
        address = identity.seat_address(item["game"].seats[item["seat"]])
        if address:  # an account's address that did not unsubscribe: consent
            by_address[address].append(item)
        else:
            _record(item, None)
    mail_ids = []
    for address, its in by_address.items():
        mail = _reminder_mail(address, its)
        db.session.add(mail)
        db.session.flush()
        mail_ids.append(mail.id)
        for item in its:
            _record(item, mail.id)
    db.session.commit()
    for mail_id in mail_ids:
        queue.enqueue(queue.SEND_MAIL, mail_id)
    return len(items)


def _due_reminders(game: Game, now: datetime) -> list[dict]:
    """Return the reminders a claimed game owes now: per seat whose clock runs and
    whose deadline is still ahead, the thresholds crossed and not yet given."""
    cfg = clock.config(game)
    out = []
    for seat, running in clock.reminded(cfg, game.clock_state).items():
        deadline = running["deadline"]
        crossed = [t for t, when in running["times"].items() if when <= now < deadline]
        if not crossed or game.seats[seat].resigned:
            continue
        given = set(
            db.session.scalars(
                sa.select(ClockReminder.threshold).where(
                    ClockReminder.game_id == game.id,
                    ClockReminder.prompt_seq == game.prompt_since,
                    ClockReminder.seat == seat,
                )
            )
        )
        new = [t for t in crossed if t not in given]
        if new:
            out.append(
                {
                    "game": game,
                    "seat": seat,
                    "deadline": deadline,
                    "thresholds": new,
                    "turn": running["turn"],
                }
            )
    return out


def _record(item: dict, mail_id: int | None) -> None:
    game = item["game"]
    for threshold in item["thresholds"]:
        db.session.add(
            ClockReminder(
                game_id=game.id,
                prompt_seq=game.prompt_since,
                seat=item["seat"],
                threshold=threshold,
                mail_id=mail_id,
            )
        )


def _reminder_mail(address: str, items: list[dict]) -> OutboxMail:
    """Return one mail to ``address`` listing every game of ``items`` with its deadline."""
    base = settings.current().service.base_url
    items = sorted(items, key=lambda i: i["deadline"])
    first = items[0]["game"].seats[items[0]["seat"]]
    lines = [
        f"Hello {first.name},",
        "",
        "A deadline is coming in these games, where you still owe a move:",
        "",
    ]
    for item in items:
        game, seat = item["game"], item["game"].seats[item["seat"]]
        timer = " (the turn's Timer: then the turn jumps to its end)" if item["turn"] else ""
        lines += [
            f"- {naming.game_words(game, seat.seat, started=True)}, as {seat.name}: "
            f"deadline {clock.local(item['deadline'], seat.tz)}{timer}",
            f"  {base}/games/{game.id}",
        ]
    keys = sorted(
        f"{i['game'].id}:{i['game'].prompt_since}:{i['seat']}:{t}:{iso(i['deadline'])}"
        for i in items
        for t in i["thresholds"]
    )
    digest = hashlib.sha256("|".join(keys).encode()).hexdigest()[:32]
    subject = (
        f"[Arbiter] Reminder: your move in {naming.game_words(items[0]['game'], items[0]['seat'])}"
        if len(items) == 1
        else f"[Arbiter] Reminder: your move in {len(items)} games"
    )
    return OutboxMail(
        dedupe_key=f"remind:{digest}",
        game_id=items[0]["game"].id,
        seat=items[0]["seat"],
        to_addr=address,
        subject=subject,
        body="\n".join(
            [*lines, "", "Unanswered, each is played by its timeout move when the deadline passes."]
        ),
    )
