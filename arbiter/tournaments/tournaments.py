"""Tournaments as a resource (issue 11, "Tournaments" and "Organiser tools").

An organiser (a personal token with ``tournaments:write``) creates a tournament: an
engine, the players per game (``table_size``, within what the engine plays), the format
(``round_robin``: every pairing, the schedule fixed at the start; ``swiss``: a fixed
number of ``rounds``), the scoring (points by place, and what a bye scores; default
:func:`arbiter.tournaments.formats.default_scoring`), whether its games are rated, the
games' options and clock, a round deadline (``round_seconds``), an entry reliability
threshold, and built-in bots as entrants (``bots``, ``fill_with_bot``:
:mod:`arbiter.tournaments.bot_entries`). Accounts enter with their own tokens; the
organiser starts it; rounds are then paired, played and ended by
:mod:`arbiter.tournaments.tournament_rounds`.

Entries and withdrawals: before the start anyone (reliable enough) may enter and
withdraw, and enter again after withdrawing (the same entry comes back). After it, a
Swiss with ``late_entries`` takes entries that are paired from the next round on
(with no points so far); a round robin's schedule is fixed, so it takes none; a
withdrawal made after the start is final. A withdrawal takes effect from the next
round; the withdrawn player's games of the current round go on (the organiser may
have the timeout policy play them: :func:`replace`).

Reliability (``arbiter/accounts/ratings.py``): an account's ``(timeouts +
resignations) / games`` over all its seats, counted per game and only against the
seat to blame (its own clock ran out, it owed a move at a round deadline, or it
resigned); an entry is refused when that is above the tournament's
``reliability_threshold``. A round deadline follows ``deadline_policy``: ``forfeit``
(the default: the seats that owe a move lose by forfeit) or ``timeout-move``. A seat
resigned because the organiser withdrew and replaced the entry is not the player's
resignation (:func:`replace`).

Every change is an event in the tournament's own log (``tournament_log``). Bad input
is a problem with a stable code and writes nothing. Each write takes the
:class:`~arbiter.uow.UnitOfWork` it commits and returns a plain result: the tournament,
the entry, or :class:`ActedOn` (the tournament and the games an organiser's action
touched); how a channel shows it (:func:`summary`, ``tournament_results.entry_json``)
and whether it answers a retry again (``Idempotency-Key``) is the channel's business.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import sqlalchemy as sa

from arbiter import settings
from arbiter.accounts import ratings
from arbiter.accounts.identity import Principal
from arbiter.errors import Conflict, Forbidden, NotFound, Unprocessable
from arbiter.extensions import db
from arbiter.games import adjudication, clock_actions, games
from arbiter.games import clock as clocks
from arbiter.games.store import StaleVersion
from arbiter.models import Rating, Tournament, TournamentEntry, TournamentRound
from arbiter.models.timestamps import iso, utcnow
from arbiter.tournaments import bot_entries, tournament_log
from arbiter.tournaments import formats as pairing
from arbiter.tournaments import tournament_results as res
from arbiter.tournaments import tournament_rounds as rounds
from arbiter.tournaments.tournament_log import TournamentMoved
from arbiter.uow import UnitOfWork
from engines.base import EngineError

FORMATS = ("round_robin", "swiss")

RETRIES = 5
"""How often an entry or a withdrawal that raced another change of the tournament is
tried again (each re-reads the tournament)."""


def _retried(uow: UnitOfWork, action):
    """Run ``action()`` again while it loses a race (:class:`TournamentMoved`; ``uow``
    is rolled back before each new try)."""
    for attempt in range(RETRIES):
        try:
            return action()
        except TournamentMoved:
            uow.rollback()
            if attempt == RETRIES - 1:
                raise


@dataclass(frozen=True)
class ActedOn:
    """The result of an organiser's :func:`pause`, :func:`resume` or :func:`replace`:
    the tournament after it, and the games it paused, resumed or handed to the
    timeout policy (ids)."""

    tournament: Tournament
    games: list[str]


# --------------------------------------------------------------------------- reading


def get(tournament_id: str) -> Tournament:
    """Return the tournament ``tournament_id``.

    :raises NotFound: ``tournament-not-found``.
    """
    found = db.session.get(Tournament, tournament_id)
    if found is None:
        raise NotFound(f"There is no tournament {tournament_id!r}.", code="tournament-not-found")
    return found


def late_entries(t: Tournament) -> bool:
    """True when the tournament takes entries after its start: a Swiss that asked for
    them (a round robin never does, whatever was asked: its pairings are fixed at the
    start; rows stored before this rule may say True)."""
    return bool(t.late_entries) and t.format == "swiss"


def deadline_policy(t: Tournament) -> str:
    """Return what the round deadline does to a game still being played: the
    tournament's ``deadline_policy`` (``forfeit`` or ``timeout-move``), or for a
    tournament made before the choice, its games' clock policy."""
    return t.deadline_policy or (t.clock or {}).get("timeout_policy", "timeout-move")


def summary(t: Tournament, with_entries: bool = False) -> dict:
    """Return a tournament as the API shows it (its entries too when asked)."""
    body = {
        "id": t.id,
        "name": t.name,
        "engine": t.engine,
        "table_size": t.table_size,
        "format": t.format,
        "rounds": t.rounds,
        "scoring": t.scoring,
        "rated": t.rated,
        "options": t.options,
        "clock": t.clock,
        "round_seconds": t.round_seconds,
        "deadline_policy": deadline_policy(t),
        "reliability_threshold": t.reliability_threshold,
        "late_entries": late_entries(t),
        "fill_with_bot": t.fill_with_bot,
        "organiser": t.organiser_account_id,
        "status": t.status,
        "paused": t.paused_at is not None,
        "round": t.round,
        "deadline": iso(t.deadline),
        "version": t.version,
        "created_at": iso(t.created_at),
    }
    if with_entries:
        body["entries"] = [res.entry_json(e) for e in res.entries(t.id)]
    return body


def list_tournaments(status: str | None = None, engine: str | None = None) -> Any:
    """Return a select of tournaments, newest first, filtered by status and engine.

    :raises Unprocessable: ``unknown-engine`` (issue 22, item 15).
    """
    if engine:
        games.engine_for(engine)
    query = sa.select(Tournament).order_by(Tournament.created_at.desc(), Tournament.id.desc())
    if status:
        query = query.where(Tournament.status == status)
    if engine:
        query = query.where(Tournament.engine == engine)
    return query


# --------------------------------------------------------------------------- creation


def create(uow: UnitOfWork, who: Principal, data: dict) -> Tournament:
    """Create a tournament organised by the caller's account (``tournaments:write``,
    checked by the route's guard); log ``tournament-created``; commit ``uow``; return
    the tournament.

    :param data: as ``POST /v1/tournaments`` takes it (the schema checked its shape).
    :raises Unprocessable: ``unknown-engine``, ``bad-player-count``, ``bad-options``,
        ``bad-clock``, ``bad-scoring``, ``rounds-needed`` (a Swiss without rounds),
        ``rounds-not-allowed`` (a round robin with them).
    """
    t = _new(who, data)
    uow.commit(t)
    return t


def _new(who: Principal, data: dict) -> Tournament:
    """Check ``data`` and add the tournament and its first log entry to the session
    (not committed). :raises Unprocessable: as :func:`create`."""
    engine = games.engine_for(data["engine"])
    size = data["table_size"]
    try:
        options = engine.load_options(size, data.get("options"))
    except EngineError as err:
        raise Unprocessable(err.detail, code=err.code) from None
    clock = clocks.load_config(data.get("clock"))
    if data["format"] == "swiss" and not data.get("rounds"):
        raise Unprocessable("A Swiss tournament needs its number of rounds.", code="rounds-needed")
    if data["format"] == "round_robin" and data.get("rounds"):
        raise Unprocessable(
            "A round robin's rounds follow from its entries; leave 'rounds' out.",
            code="rounds-not-allowed",
        )
    t = Tournament(
        id=secrets.token_hex(8),
        name=data["name"],
        engine=engine.id,
        table_size=size,
        format=data["format"],
        rounds=data.get("rounds"),
        scoring=_scoring(data.get("scoring"), size),
        rated=data["rated"],
        options=options,
        clock=clock,
        round_seconds=data.get("round_seconds"),
        deadline_policy=data.get("deadline_policy") or "forfeit",
        reliability_threshold=data.get("reliability_threshold"),
        late_entries=data["late_entries"] and data["format"] == "swiss",
        organiser_account_id=who.account.id,
        status="open",
        round=0,
        version=0,
        created_at=utcnow(),
        fill_with_bot=bot_entries.fill_with(data.get("fill_with_bot")),
    )
    bots = [bot_entries.entry(t, name, bot) for name, bot in bot_entries.checked(data.get("bots"))]
    tournament_log.append(
        t,
        [
            (
                "tournament-created",
                {**summary(t), "version": None, "created_at": iso(t.created_at)},
            ),
            *(bot_entries.added(row) for row in bots),
        ],
        rows=bots,
    )
    return t


def _scoring(raw: dict | None, size: int) -> dict:
    """Return the scoring to store: the default for ``size`` with ``raw``'s fields.

    :raises Unprocessable: ``bad-scoring`` (not one number per place, or not from
        best to worst).
    """
    default = pairing.default_scoring(size)
    points = list((raw or {}).get("place_points") or default.place_points)
    bye = (raw or {}).get("bye_points")
    if len(points) != size:
        raise Unprocessable(
            f"place_points needs one number per place: {size}, not {len(points)}.",
            code="bad-scoring",
        )
    if any(a < b for a, b in zip(points, points[1:])):
        raise Unprocessable(
            "place_points go from first place to last and never rise.", code="bad-scoring"
        )
    return {"place_points": points, "bye_points": float(default.bye_points if bye is None else bye)}


# --------------------------------------------------------------------------- entries


def enter(uow: UnitOfWork, tournament_id: str, who: Principal) -> TournamentEntry:
    """Enter the caller's account; see :func:`_enter` (retried after a race)."""
    return _retried(uow, lambda: _enter(uow, tournament_id, who))


def _enter(uow: UnitOfWork, tournament_id: str, who: Principal) -> TournamentEntry:
    """Enter the caller's account (a personal token with ``games:play``); log
    ``entry-added``; commit ``uow``; return the entry.

    An account that withdrew before the start enters again with the same entry
    (:func:`_enter_again`).

    :raises Conflict: ``entries-closed`` (started and no late entries, a round robin
        under way, or over), ``already-entered``, ``withdrawn`` (withdrew after the
        start), ``tournament-full``.
    :raises Forbidden: ``too-unreliable`` (above the reliability threshold),
        ``bot-cannot-enter`` (a bot account: the organiser enters bots).
    """
    t = get(tournament_id)
    if who.account is not None and who.account.is_bot:
        raise Forbidden(
            "A bot account cannot enter a tournament: its seats would be played by the "
            "account, not its token. The organiser can enter built-in bots (bots, "
            "fill_with_bot) when creating it.",
            code="bot-cannot-enter",
        )
    if t.status == "over" or (t.status == "running" and not late_entries(t)):
        raise Conflict(
            "This tournament takes no more entries: it has started and takes no late entries."
            if t.status == "running"
            else "This tournament is over.",
            code="entries-closed",
        )
    account = who.account
    before = db.session.scalar(
        sa.select(TournamentEntry).where(
            TournamentEntry.tournament_id == t.id, TournamentEntry.account_id == account.id
        )
    )
    if before is not None:
        return _enter_again(uow, t, before, account)
    count = db.session.scalar(
        sa.select(sa.func.count())
        .select_from(TournamentEntry)
        .where(TournamentEntry.tournament_id == t.id)
    )
    if count >= settings.current().limits.tournament_max_entries:
        raise Conflict(f"This tournament is full ({count} entries).", code="tournament-full")
    _check_reliable(t, account)
    entry = TournamentEntry(
        id=secrets.token_hex(8),
        tournament_id=t.id,
        account_id=account.id,
        name=account.display_name,
        joined_round=t.round + 1,
        created_at=utcnow(),
        seed_rating=_rating_of(account.id, t.engine),
    )
    tournament_log.append(
        t,
        [
            (
                "entry-added",
                {"entry": entry.id, "name": entry.name, "joined_round": entry.joined_round},
            )
        ],
        rows=[entry],
    )
    uow.commit(entry)
    return entry


def _enter_again(
    uow: UnitOfWork, t: Tournament, entry: TournamentEntry, account
) -> TournamentEntry:
    """Take back the withdrawal of ``entry`` when it was made before the start (the
    same entry plays from round 1, as if it had never left; log ``entry-returned``);
    commit ``uow``; return the entry.

    :raises Conflict: ``already-entered`` (not withdrawn), ``withdrawn`` (withdrawn
        once the tournament had started: that is final, the rounds went on without it).
    :raises Forbidden: ``too-unreliable``.
    """
    if entry.withdrawn_round is None:
        raise Conflict("You have already entered this tournament.", code="already-entered")
    if t.status != "open":
        raise Conflict(
            f"You withdrew from this tournament (from round "
            f"{entry.withdrawn_round} on); a withdrawal once it has started is "
            "final, so you cannot enter again.",
            code="withdrawn",
        )
    _check_reliable(t, account)
    entry.withdrawn_round = None
    tournament_log.append(
        t,
        [
            (
                "entry-returned",
                {"entry": entry.id, "name": entry.name, "joined_round": entry.joined_round},
            )
        ],
        rows=[entry],
    )
    uow.commit(entry)
    return entry


def _rating_of(account_id: str | None, engine: str) -> float | None:
    """Return the account's rating at ``engine`` as the leaderboard orders it (the
    ordinal ``mu - 3 sigma``); None when it has played no rated game there, or for a
    bot entry (no account)."""
    if account_id is None:  # a bot entry
        return None
    row = db.session.get(Rating, (account_id, engine))
    return None if row is None else row.mu - 3 * row.sigma


BYE_KINDS = {"half": pairing.HALF_BYE, "zero": pairing.ZERO_BYE, "none": None}
"""The byes an entrant may ask for, by the name the API takes: a half-point bye (a
draw's points) or a zero-point bye (sitting the round out); ``none`` takes a request
back."""


def request_bye(
    uow: UnitOfWork, tournament_id: str, entry_id: str, who: Principal, number: int, kind: str
) -> TournamentEntry:
    """Ask for a bye in round ``number`` of a Swiss (the entrant with ``games:play``,
    or the organiser with ``tournaments:write``): the entry is not paired in that
    round and scores a half-point bye's points (``half``) or nothing (``zero``);
    ``none`` takes the request back. Log ``bye-requested``; commit ``uow``; return
    the entry.

    :raises Forbidden: ``not-your-entry``.
    :raises Conflict: ``byes-swiss-only`` (a round robin's schedule is fixed),
        ``tournament-over``, ``already-withdrawn`` (not playing that round).
    :raises Unprocessable: ``bad-bye-round`` (a round already paired, beyond the
        last, or before the entry's first).
    """
    return _retried(uow, lambda: _request_bye(uow, tournament_id, entry_id, who, number, kind))


def _request_bye(
    uow: UnitOfWork, tournament_id: str, entry_id: str, who: Principal, number: int, kind: str
) -> TournamentEntry:
    """See :func:`request_bye`."""
    t = get(tournament_id)
    entry = entry_of(t, entry_id)
    organiser = who.account.id == t.organiser_account_id and who.has("tournaments:write")
    if not organiser and not (entry.account_id == who.account.id and who.has("games:play")):
        raise Forbidden(
            "Only the entrant (games:play) or the organiser (tournaments:write) may ask "
            "for a bye for this entry.",
            code="not-your-entry",
        )
    if t.format != "swiss":
        raise Conflict(
            "A round robin's rounds are fixed at its start: there are no byes to ask for.",
            code="byes-swiss-only",
        )
    if t.status == "over":
        raise Conflict("The tournament is over.", code="tournament-over")
    if entry.withdrawn_round is not None and entry.withdrawn_round <= number:
        raise Conflict(
            f"This entry has withdrawn and is not paired from round {entry.withdrawn_round} on.",
            code="already-withdrawn",
        )
    if number <= t.round or number > (t.rounds or 0) or number < entry.joined_round:
        raise Unprocessable(
            f"A bye can be asked for a round not paired yet, from round "
            f"{max(t.round + 1, entry.joined_round)} to {t.rounds}; not round {number}.",
            code="bad-bye-round",
        )
    letter = BYE_KINDS[kind]
    asked = dict(entry.bye_requests or {})
    if letter is None:
        asked.pop(str(number), None)
    else:
        asked[str(number)] = letter
    entry.bye_requests = asked or None
    tournament_log.append(
        t,
        [("bye-requested", {"entry": entry.id, "round": number, "bye": letter})],
        rows=[entry],
    )
    uow.commit(entry)
    return entry


def _check_reliable(t: Tournament, account) -> None:
    """:raises Forbidden: ``too-unreliable`` above the tournament's threshold."""
    if t.reliability_threshold is None:
        return
    seen = ratings.reliability(account)
    share = (seen["timeouts"] + seen["resignations"]) / max(seen["games"], 1)
    if share > t.reliability_threshold:
        raise Forbidden(
            f"This tournament takes players with at most "
            f"{t.reliability_threshold:g} timeouts and resignations per game; "
            f"you have {share:.2f} ({seen['timeouts']} timeouts, "
            f"{seen['resignations']} resignations in {seen['games']} games).",
            code="too-unreliable",
            extra={"reliability": seen},
        )


def entry_of(t: Tournament, entry_id: str) -> TournamentEntry:
    """:raises NotFound: ``entry-not-found``."""
    entry = db.session.get(TournamentEntry, entry_id)
    if entry is None or entry.tournament_id != t.id:
        raise NotFound(f"This tournament has no entry {entry_id!r}.", code="entry-not-found")
    return entry


def withdraw(uow: UnitOfWork, tournament_id: str, entry_id: str, who: Principal) -> TournamentEntry:
    """Withdraw an entry; see :func:`_withdraw` (retried after a race)."""
    return _retried(uow, lambda: _withdraw(uow, tournament_id, entry_id, who))


def _withdraw(
    uow: UnitOfWork, tournament_id: str, entry_id: str, who: Principal
) -> TournamentEntry:
    """Withdraw an entry (its own account with ``games:play``, or the organiser with
    ``tournaments:write``); it is not paired from the next round on. Log
    ``entry-withdrawn``; commit ``uow``; return the entry.

    :raises Forbidden: ``not-your-entry``. :raises Conflict: ``already-withdrawn``,
        ``tournament-over``.
    """
    t = get(tournament_id)
    entry = entry_of(t, entry_id)
    organiser = who.account.id == t.organiser_account_id and who.has("tournaments:write")
    if not organiser and not (entry.account_id == who.account.id and who.has("games:play")):
        raise Forbidden(
            "Only the entrant (games:play) or the organiser "
            "(tournaments:write) may withdraw this entry.",
            code="not-your-entry",
        )
    if entry.withdrawn_round is not None:
        raise Conflict("This entry has already withdrawn.", code="already-withdrawn")
    if t.status == "over":
        raise Conflict("The tournament is over.", code="tournament-over")
    entry.withdrawn_round = t.round + 1
    tournament_log.append(
        t,
        [
            (
                "entry-withdrawn",
                {
                    "entry": entry.id,
                    "from_round": entry.withdrawn_round,
                    "by": "organiser"
                    if organiser and entry.account_id != who.account.id
                    else "entrant",
                },
            )
        ],
        rows=[entry],
    )
    uow.commit(entry)
    return entry


# --------------------------------------------------------------------------- organiser


def organised(tournament_id: str, who: Principal) -> Tournament:
    """Return the tournament if the caller organises it.

    :raises Forbidden: ``not-organiser``.
    """
    t = get(tournament_id)
    if who.account.id != t.organiser_account_id:
        raise Forbidden("Only the tournament's organiser may do this.", code="not-organiser")
    return t


def start(uow: UnitOfWork, tournament_id: str, who: Principal) -> Tournament:
    """Start the tournament (organiser): fix a round robin's schedule, pair round 1
    and start its games together. Log ``tournament-started`` and ``round-paired``;
    commit ``uow``; return the tournament.

    :raises Conflict: ``already-started``, ``too-few-entries`` (fewer than a table,
        counting the bots ``fill_with_bot`` enters).
    """
    t = organised(tournament_id, who)
    if t.status != "open":
        raise Conflict("This tournament has already started.", code="already-started")
    entrants = [e.id for e in rounds.playing(res.entries(t.id), 1)]
    fillers = bot_entries.fillers(t, len(entrants), {e.name.casefold() for e in res.entries(t.id)})
    if len(entrants) + len(fillers) < t.table_size:
        raise Conflict(
            f"A round needs at least {t.table_size} entries; there are {len(entrants)}.",
            code="too-few-entries",
        )
    db.session.add_all(fillers)
    entrants += [row.id for row in fillers]
    for entry in res.entries(t.id):
        entry.seed_rating = _rating_of(entry.account_id, t.engine)
    started: dict = {"entries": entrants}
    changes: dict = {}
    schedule = None
    if t.format == "round_robin":
        schedule = [
            {"tables": [list(x.players) for x in r.tables], "byes": list(r.byes)}
            for r in pairing.round_robin_schedule(entrants, t.table_size)
        ]
        started["schedule"] = schedule
        changes["rounds"] = len(schedule)
        t.rounds = len(schedule)
    filled = [bot_entries.added(row, filled=True) for row in fillers]
    rounds.pair(uow, t, 1, schedule, [*filled, ("tournament-started", started)], changes)
    uow.commit(t)
    return t


def _running(t: Tournament) -> None:
    """:raises Conflict: ``not-running`` unless the tournament is under way."""
    if t.status != "running":
        raise Conflict("The tournament is not under way.", code="not-running")


def _current_games(t: Tournament) -> list[str]:
    """Return the ids of the current round's games still being played."""
    return [g.id for _, g in res.tables(t.id, t.round) if g.status == "active"]


def pause(uow: UnitOfWork, tournament_id: str, who: Principal) -> ActedOn:
    """Pause the whole tournament (organiser): every clock of its current games and
    its round deadline stop; no round is paired meanwhile. Log ``tournament-paused``
    (commit ``uow``), then pause the games (each its own transaction); return the
    tournament and the games paused.

    :raises Conflict: ``not-running``, ``already-paused``.
    """
    t = organised(tournament_id, who)
    _running(t)
    if t.paused_at is not None:
        raise Conflict("The tournament is already paused.", code="already-paused")
    now = utcnow()
    tournament_log.append(
        t, [("tournament-paused", {"round": t.round})], {"paused_at": now, "deadline": None}
    )
    uow.commit()
    paused = [g for g in _current_games(t) if clock_actions.pause_for(g, f"tournament:{t.id}")]
    return ActedOn(t, paused)


def resume(uow: UnitOfWork, tournament_id: str, who: Principal) -> ActedOn:
    """Resume a paused tournament (organiser): its games' clocks resume and the round
    deadline moves later by the pause's length. Log ``tournament-resumed`` (commit
    ``uow``), then resume the games (each its own transaction) and end the round if
    its last game ended meanwhile; return the tournament and the games resumed.

    :raises Conflict: ``not-paused``.
    """
    t = organised(tournament_id, who)
    if t.paused_at is None:
        raise Conflict("The tournament is not paused.", code="not-paused")
    seconds = (utcnow() - t.paused_at).total_seconds()
    row = db.session.get(TournamentRound, (t.id, t.round))
    if row.deadline is not None:
        row.deadline = row.deadline + timedelta(seconds=seconds)
    tournament_log.append(
        t,
        [
            (
                "tournament-resumed",
                {"round": t.round, "seconds": round(seconds, 3), "deadline": iso(row.deadline)},
            )
        ],
        {"paused_at": None, "deadline": row.deadline},
        [row],
    )
    uow.commit()
    resumed = [g for g in _current_games(t) if clock_actions.resume_for(g, f"tournament:{t.id}")]
    rounds.advance(t.id)  # a round whose last game ended meanwhile moves on now
    return ActedOn(get(tournament_id), resumed)


def extend(uow: UnitOfWork, tournament_id: str, who: Principal, seconds: int) -> Tournament:
    """Move the current round's deadline ``seconds`` later (organiser). Log
    ``round-extended``; commit ``uow``; return the tournament.

    :raises Conflict: ``not-running``, ``no-round-deadline``.
    """
    t = organised(tournament_id, who)
    _running(t)
    rnd = db.session.get(TournamentRound, (t.id, t.round))
    if rnd.deadline is None:
        raise Conflict("This round has no deadline to extend.", code="no-round-deadline")
    rnd.deadline = rnd.deadline + timedelta(seconds=seconds)
    tournament_log.append(
        t,
        [("round-extended", {"round": t.round, "seconds": seconds, "deadline": iso(rnd.deadline)})],
        {} if t.paused_at else {"deadline": rnd.deadline},
        [rnd],
    )
    uow.commit(t)
    return t


def replace(uow: UnitOfWork, tournament_id: str, entry_id: str, who: Principal) -> ActedOn:
    """Have the timeout policy play a withdrawn entry's unfinished games (organiser):
    each of its seats resigns for it (:func:`arbiter.games.adjudication.stage_replacement`)
    and the engine's timeout move is played for it from then on. Log
    ``entry-replaced``, in the same transaction as the resignations (all or none,
    committed in ``uow``; again when a game moved meanwhile); return the tournament
    and the games replaced. Each resignation says who withdrew the entry
    (``by``): one the organiser withdrew is a forfeit of the organiser's making and
    does not count against the player's reliability (:func:`arbiter.accounts.ratings.reliability`).

    :raises Conflict: ``entry-not-withdrawn``, ``nothing-to-replace`` (no game of it
        is being played).
    """
    t = organised(tournament_id, who)
    entry = entry_of(t, entry_id)
    if entry.withdrawn_round is None:
        raise Conflict(
            "Only a withdrawn entry's games can be handed to the timeout "
            "policy; withdraw it first.",
            code="entry-not-withdrawn",
        )
    seats = [
        (g.id, table.players.index(entry.id))
        for table, g in res.tables(t.id)
        if g.status == "active"
        and entry.id in table.players
        and not g.seats[table.players.index(entry.id)].resigned
    ]
    if not seats:
        raise Conflict("This entry has no game being played.", code="nothing-to-replace")
    by = _withdrawn_by(t.id, entry.id)
    for attempt in range(1, adjudication.RETRIES + 1):
        try:
            done = _stage_replacements(uow, t, entry.id, seats, by)
            uow.commit()  # every resignation and entry-replaced, or none
            break
        except StaleVersion:  # a game moved: nothing was written
            uow.rollback()
            if attempt == adjudication.RETRIES:
                raise
    return ActedOn(get(tournament_id), done)


def _stage_replacements(
    uow: UnitOfWork, t: Tournament, entry_id: str, seats: list[tuple[str, int]], by: str
) -> list[str]:
    """Write each seat's resignation and the tournament's ``entry-replaced`` in
    ``uow``, not committed; return the games replaced.

    :raises StaleVersion: a game moved; the session has been rolled back.
    """
    done = []
    for game_id, seat in seats:
        if adjudication.stage_replacement(uow, game_id, seat, t.id, by):
            done.append(game_id)
    tournament_log.append(
        get(t.id),
        [("entry-replaced", {"entry": entry_id, "policy": "timeout-move", "games": done})],
    )
    return done


def _withdrawn_by(tournament_id: str, entry_id: str) -> str:
    """Return who withdrew the entry, as its ``entry-withdrawn`` event says:
    ``"organiser"`` or ``"entrant"``."""
    said = db.session.scalars(
        sa.select(tournament_log.TournamentEvent.payload)
        .where(
            tournament_log.TournamentEvent.tournament_id == tournament_id,
            tournament_log.TournamentEvent.kind == "entry-withdrawn",
        )
        .order_by(tournament_log.TournamentEvent.seq.desc())
    )
    return next((p.get("by", "entrant") for p in said if p.get("entry") == entry_id), "entrant")
