"""A tournament's rounds at correspondence pace: pairing, starting, ending.

- A round is paired by the pure package (:mod:`arbiter.tournaments`): round robin from
  the schedule fixed at the start (``tournament-started`` holds it), Swiss from the
  rounds paired so far and their results (2-player games: the FIDE Dutch system,
  pairing numbers by the engine rating each entry was seeded with, then entry order;
  the byes entrants asked for in that round are set before it is paired, and kept
  with the round as ``requested_byes``). Its games are created together through the
  bulk creation's staging (:func:`arbiter.games.bulk.stage_games`) in the transaction that appends
  ``round-paired`` to the tournament's log, so a round's games all start together, or
  none does. Entrants paired in the round are those with ``joined_round <= n`` and not
  withdrawn before it.
- Round robin after a withdrawal: a scheduled table loses its withdrawn players; if
  fewer remain than the engine plays (or fewer than two), they have a bye instead.
- Too few left to play (:func:`can_go_on`): when withdrawals leave fewer active
  entrants for the next round than one table needs (a Swiss: ``table_size``; a round
  robin: two, or the engine's least), the tournament ends with the round just
  ended: ``tournament-over`` says ``"reason": "too-few-entrants"`` (the tournament's
  ``round`` is the last one played), the standings are final, and no byes are given
  for the rounds not played (a lone entrant cannot be paired; a bye is a round sat
  out, not points for rounds nobody plays). A tournament that played all its rounds
  says ``"reason": "rounds-played"``.
- The round ends when its last game ends (the game's commit enqueues
  :func:`advance`), or at its deadline (``round_seconds`` after its start, moved by
  extensions and pauses): then every unfinished game is decided by the tournament's
  ``deadline_policy`` (``forfeit``, the default: the seats that owe a move lose by
  forfeit; ``timeout-move``) (:func:`arbiter.games.adjudication.decide_by_clock`). Ending appends
  ``round-ended`` with every table's places and, in the same transaction, pairs the
  next round or appends ``tournament-over``.
- Web hooks (:func:`arbiter.hooks.webhooks.notify`, in the same transaction):
  ``round_paired`` to the organiser and every entrant of the round (seated or on a
  bye), ``tournament_over`` to the organiser and every entrant.
- Nothing happens while the tournament is paused. The sweep (:func:`sweep`, beat
  every ``TOURNAMENT_SWEEP_SECONDS``) applies due deadlines and ends rounds whose
  task was lost. A tournament whose advance raises is skipped (the others go on) and
  logged with its traceback once per process while it keeps failing the same way
  (later sweeps log one line at DEBUG), and again once it is mended and fails anew.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

import sqlalchemy as sa

import engines
from arbiter import queue
from arbiter.extensions import db
from arbiter.games import adjudication, bulk
from arbiter.games.games import NewPlayer
from arbiter.hooks import webhooks
from arbiter.models import Account, Tournament, TournamentEntry, TournamentGame, TournamentRound
from arbiter.models.timestamps import iso, utcnow
from arbiter.tournaments import bot_entries, tournament_log
from arbiter.tournaments import formats as pairing
from arbiter.tournaments import tournament_results as res
from arbiter.tournaments.tournament_log import TournamentMoved
from arbiter.uow import Committed, UnitOfWork

log = logging.getLogger(__name__)

RETRIES = 5
"""How often an advance that lost a race is tried again."""

_FAILING: dict[str, str] = {}
"""{tournament id: the error its last sweep raised}, in this process: a failure is
logged with its traceback when it is new, not at every sweep."""


def playing(entries: list[TournamentEntry], number: int) -> list[TournamentEntry]:
    """Return the entries paired in round ``number``, in entry order."""
    return [
        e
        for e in entries
        if e.joined_round <= number and (e.withdrawn_round is None or e.withdrawn_round > number)
    ]


def can_go_on(tournament: Tournament, number: int) -> bool:
    """Return True when round ``number`` has enough active entrants to seat one table
    (a Swiss: ``table_size``; a round robin: two, or the engine's least player count,
    as :func:`plan` seats a reduced table); see the module for what happens otherwise."""
    active = playing(res.entries(tournament.id), number)
    if tournament.format == "swiss":
        return len(active) >= tournament.table_size
    return len(active) >= max(2, engines.get(tournament.engine).min_players)


def plan(tournament: Tournament, number: int, schedule: list[dict] | None) -> pairing.Round:
    """Return round ``number``'s tables and byes (see the module for withdrawals).

    :param schedule: the round robin's rounds as ``tournament-started`` logged them.
    """
    here_now = playing(res.entries(tournament.id), number)
    active = [e.id for e in here_now]
    if tournament.format == "swiss":
        return pairing.swiss_round(
            active,
            res.results(tournament.id),
            res.byes(tournament.id),
            tournament.table_size,
            number,
            res.scoring_of(tournament),
            tournament.rounds,
            history=res.paired_rounds(tournament.id, before=number),
            seeding=res.seeding(tournament.id),
            requested_byes=res.requested_byes(here_now, number),
        )
    planned = schedule[number - 1]
    engine = engines.get(tournament.engine)
    least = max(2, engine.min_players)
    here = set(active)
    tabs, byes = [], [e for e in planned["byes"] if e in here]
    for players in planned["tables"]:
        left = tuple(p for p in players if p in here)
        if len(left) >= least:
            tabs.append(pairing.Table(left))
        else:
            byes.extend(left)
    return pairing.Round(number, tuple(tabs), tuple(byes))


def pair(
    uow: UnitOfWork,
    tournament: Tournament,
    number: int,
    schedule: list[dict] | None,
    events: list[tuple[str, dict]],
    changes: dict,
) -> None:
    """Pair round ``number``, write its games in ``uow`` and append ``events`` +
    ``round-paired`` with ``changes`` to the tournament (the caller commits ``uow``).

    :raises TournamentMoved: another append came first; nothing was written.
    """
    drawn = plan(tournament, number, schedule)
    entries = {e.id: e for e in res.entries(tournament.id)}
    accounts = {
        a.id: a
        for a in db.session.scalars(
            sa.select(Account).where(Account.id.in_([e.account_id for e in entries.values()]))
        )
    }
    organiser = db.session.get(Account, tournament.organiser_account_id)
    specs = [
        bulk.GameSpec(
            tournament.engine,
            [_player(entries[p], accounts.get(entries[p].account_id)) for p in table.players],
            tournament.options,
            tournament.clock,
            _rated(tournament, [entries[p] for p in table.players]),
        )
        for table in drawn.tables
    ]
    staged = bulk.stage_games(uow, specs, organiser)
    now = utcnow()
    deadline = (
        now + timedelta(seconds=tournament.round_seconds) if tournament.round_seconds else None
    )
    rows = [
        TournamentRound(
            tournament_id=tournament.id,
            number=number,
            started_at=now,
            deadline=deadline,
            byes=list(drawn.byes),
            requested_byes=[list(b) for b in drawn.requested_byes],
        )
    ]
    rows += [
        TournamentGame(
            tournament_id=tournament.id,
            round=number,
            table=i,
            game_id=game.id,
            players=list(table.players),
        )
        for i, (table, (game, _)) in enumerate(zip(drawn.tables, staged))
    ]
    paired = {
        "round": number,
        "deadline": iso(deadline),
        "byes": list(drawn.byes),
        "requested_byes": [list(b) for b in drawn.requested_byes],
        "seeding": res.seeding(tournament.id),
        "tables": [
            {"table": i, "game": game.id, "players": list(table.players)}
            for i, (table, (game, _)) in enumerate(zip(drawn.tables, staged))
        ],
    }
    tournament_log.append(
        tournament,
        [*events, ("round-paired", paired)],
        {**changes, "round": number, "status": "running", "deadline": deadline},
        rows,
    )
    told = [
        entries[e].account_id
        for e in [
            *(p for table in drawn.tables for p in table.players),
            *drawn.byes,
            *(e for e, _ in drawn.requested_byes),
        ]
        if entries[e].account_id is not None  # a bot entry has no web hooks
    ]
    webhooks.notify(
        uow,
        "round_paired",
        {"tournament": tournament.id, **paired},
        [tournament.organiser_account_id, *told],
    )


def _rated(tournament: Tournament, entries: list[TournamentEntry]) -> bool:
    """Return whether a table's game is rated: in a rated tournament, every table with
    at least one person's entry (a table of built-in bots only is played unrated, as
    :func:`arbiter.accounts.ratings.check_rated` would refuse it; it counts in the
    standings as any table)."""
    return tournament.rated and any(not e.bot for e in entries)


def _player(entry: TournamentEntry, account: Account | None) -> NewPlayer:
    """Return the seat of an entrant: its name, its account's address (which links the
    seat to the account) and time zone; a bot entry's is a bot seat
    (:func:`arbiter.tournaments.bot_entries.player`)."""
    if entry.bot:
        return bot_entries.player(entry)
    return NewPlayer(entry.name, account.email, account.tz)


def schedule_of(tournament_id: str) -> list[dict] | None:
    """Return the round robin schedule that ``tournament-started`` logged (None for a
    Swiss)."""
    started = db.session.scalars(
        sa.select(tournament_log.TournamentEvent).where(
            tournament_log.TournamentEvent.tournament_id == tournament_id,
            tournament_log.TournamentEvent.kind == "tournament-started",
        )
    ).first()
    return started.payload.get("schedule") if started is not None else None


def advance(tournament_id: str, now: datetime | None = None) -> str:
    """Move the tournament on if its current round is done; return what happened:
    ``"idle"`` (not running, or paused), ``"waiting"`` (games still being played
    before the deadline), ``"advanced"`` (the round ended: next round paired or
    tournament over). Idempotent; safe to run from several workers at once."""
    for _ in range(RETRIES):
        db.session.rollback()  # read the world afresh
        tournament = db.session.get(Tournament, tournament_id)
        if tournament is None or tournament.status != "running" or tournament.paused_at:
            return "idle"
        current = res.tables(tournament.id, tournament.round)
        unfinished = [g for _, g in current if g.status != "over"]
        if unfinished:
            row = db.session.get(TournamentRound, (tournament.id, tournament.round))
            if row.deadline is None or row.deadline > (now or utcnow()):
                return "waiting"
            _apply_deadline(tournament, row, [g.id for g in unfinished])
            continue
        uow = UnitOfWork()
        try:
            end_round(uow, tournament, current)
            uow.commit()
        except TournamentMoved:
            continue
        return "advanced"
    return "waiting"


def _apply_deadline(tournament: Tournament, row: TournamentRound, game_ids: list[str]) -> None:
    """Decide the round's unfinished games by their clock's policy; log the ones this
    call decided (``round-deadline``)."""
    policy = tournament.deadline_policy  # None: the games' clock policy (older tournaments)
    decided = [
        g for g in game_ids if adjudication.decide_by_clock(g, row.deadline, tournament.id, policy)
    ]
    if not decided:
        return
    tournament = db.session.get(Tournament, tournament.id)
    uow = UnitOfWork()
    try:
        tournament_log.append(
            tournament,
            [
                (
                    "round-deadline",
                    {"round": row.number, "deadline": iso(row.deadline), "games": decided},
                )
            ],
        )
        uow.commit()
    except TournamentMoved:
        log.info("tournament %s moved while its deadline was logged", tournament.id)


def end_round(uow: UnitOfWork, tournament: Tournament, current: list[tuple]) -> None:
    """Append ``round-ended`` for the current round and pair the next one, or end the
    tournament (the last round played, or too few entrants left for a table: see the
    module), in ``uow`` (the caller commits it)."""
    number = tournament.round
    absent = res.absent_seats([g.id for _, g in current])
    ended = {"round": number, "results": []}
    for t, g in current:
        result = res.game_result(t, g, absent.get(g.id, set()))
        said = {"table": t.table, "game": g.id, "players": list(t.players)}
        said["places"] = list(result.places)
        if result.forfeited:
            said["forfeited"] = list(result.forfeited)
        ended["results"].append(said)
    row = db.session.get(TournamentRound, (tournament.id, number))
    row.ended_at = utcnow()
    if number >= tournament.rounds or not can_go_on(tournament, number + 1):
        reason = "rounds-played" if number >= tournament.rounds else "too-few-entrants"
        over = (
            "tournament-over",
            {
                "reason": reason,
                "standings": [
                    {"rank": s["rank"], "entry": s["entry"], "points": s["points"]}
                    for s in res.standings(tournament)
                ],
            },
        )
        tournament_log.append(
            tournament, [("round-ended", ended), over], {"status": "over", "deadline": None}, [row]
        )
        webhooks.notify(
            uow,
            "tournament_over",
            {"tournament": tournament.id, **over[1]},
            [tournament.organiser_account_id, *(e.account_id for e in res.entries(tournament.id))],
        )
        return
    pair(uow, tournament, number + 1, schedule_of(tournament.id), [("round-ended", ended)], {})


def sweep(now: datetime | None = None) -> dict:
    """Advance every running tournament that is not paused (due deadlines applied,
    rounds whose last game's task was lost ended); return ``{"advanced", "waiting",
    "failed"}`` counts (a failure is logged once while it repeats: see the module).

    A tournament whose row another session holds (``FOR UPDATE SKIP LOCKED``: an
    advance in progress elsewhere, or a host that died mid-transaction) is left to the
    next sweep rather than waited for."""
    ids = list(
        db.session.scalars(
            sa.select(Tournament.id)
            .where(Tournament.status == "running", Tournament.paused_at.is_(None))
            .with_for_update(skip_locked=True)
        )
    )
    db.session.rollback()  # the lock only sorted out the tournaments another session holds
    counts = {"advanced": 0, "waiting": 0, "failed": 0}
    for tournament_id in ids:
        try:
            outcome = advance(tournament_id, now)
        except Exception as err:  # noqa: BLE001 - one broken tournament must not stop the others
            db.session.rollback()
            counts["failed"] += 1
            said = f"{type(err).__name__}: {err}"
            if _FAILING.get(tournament_id) == said:
                log.debug("tournament %s still cannot be advanced: %s", tournament_id, said)
            else:
                _FAILING[tournament_id] = said
                log.exception(
                    "tournament %s could not be advanced (logged once while it fails the same way)",
                    tournament_id,
                )
            continue
        _FAILING.pop(tournament_id, None)
        if outcome in counts:
            counts[outcome] += 1
    return counts


def look_at_rounds(done: Committed) -> None:
    """Committed handler (:mod:`arbiter.follow_ups`): for each game that ended and is a
    tournament's round game, enqueue a look at whether its round is over
    (:func:`advance`; one indexed SELECT per ended game)."""
    for a in done.appended:
        if a.prompt["type"] != "over":
            continue
        tournament_id = db.session.scalar(
            sa.select(TournamentGame.tournament_id).where(TournamentGame.game_id == a.game_id)
        )
        if tournament_id is not None:
            queue.enqueue(queue.ADVANCE_TOURNAMENT, tournament_id)
