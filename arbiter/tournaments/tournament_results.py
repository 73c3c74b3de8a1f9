"""What a tournament's games say: results, byes, standings (JSON and CSV), the rounds,
the full record and the FIDE TRF export.

Results are read from the games themselves (a finished game's result never changes):
each game's ``result["ranking"]`` (groups of tied seats, best first; resigned seats
last) becomes the places of :class:`arbiter.tournaments.GameResult` in competition
order (``[[0, 1], [2]]`` -> places ``(1, 1, 3)``: the two tied seats span 1st and 2nd
and share those places' points, per the scoring of ``arbiter/tournaments``). The
standings and their tie-breaks are the pure package's
(:func:`arbiter.tournaments.formats.standings`).
"""

from __future__ import annotations

from collections import Counter

import sqlalchemy as sa
from sqlalchemy.orm import defer

import engines
from arbiter.errors import Conflict, NotFound
from arbiter.extensions import db
from arbiter.games import reading
from arbiter.models import Event, Game, Tournament, TournamentEntry, TournamentGame, TournamentRound
from arbiter.models.timestamps import iso
from arbiter.tournaments import formats as pairing
from arbiter.tournaments import tournament_log
from arbiter.tournaments import tournament_standings as standings_of
from arbiter.tournaments.formats import export
from arbiter.tournaments.formats import trf as pairing_trf
from arbiter.tournaments.formats.crosstable import round_robin_as_played

CSV_COLUMNS = (
    "rank",
    "entry",
    "name",
    "points",
    "games",
    "byes",
    "buchholz",
    "sonneborn_berger",
    "head_to_head",
    "withdrawn",
)
"""The columns of the standings as CSV, in order."""


def places(ranking: list[list[int]], players: int) -> tuple[int, ...]:
    """Return each seat's place (1 = first) in competition order from a result's
    ``ranking``; tied seats share the best place of their group, and a seat in no
    group comes after every ranked one."""
    place = [0] * players
    ranked = 0
    for group in ranking:
        for seat in group:
            place[seat] = ranked + 1
        ranked += len(group)
    return tuple(p or ranked + 1 for p in place)


def scoring_of(tournament: Tournament) -> pairing.Scoring:
    """Return the tournament's :class:`arbiter.tournaments.Scoring`."""
    return pairing.Scoring(
        tuple(tournament.scoring["place_points"]), tournament.scoring["bye_points"]
    )


def tables(tournament_id: str, number: int | None = None) -> list[tuple[TournamentGame, Game]]:
    """Return the tournament's tables (of round ``number`` only, if given) with their
    games (state not read), in round and table order."""
    query = (
        sa.select(TournamentGame, Game)
        .join(Game, Game.id == TournamentGame.game_id)
        .options(defer(Game.state))
        .where(TournamentGame.tournament_id == tournament_id)
        .order_by(TournamentGame.round, TournamentGame.table)
    )
    if number is not None:
        query = query.where(TournamentGame.round == number)
    return [tuple(row) for row in db.session.execute(query).all()]


def game_result(
    table: TournamentGame, game: Game, absent: set[int] | None = None
) -> pairing.GameResult | None:
    """Return the table's result, None while its game is being played.

    :param absent: the seats that lost by forfeit at a round deadline without having
        made a move (:func:`absent_seats`): the result says they ``forfeited`` (the
        TRF's ``-``, their opponent's ``+``; a forfeit is no game played).
    """
    if game.status != "over" or game.result is None:
        return None
    if absent is None:
        absent = absent_seats([game.id]).get(game.id, set())
    return pairing.GameResult(
        table.round,
        tuple(table.players),
        places(game.result.get("ranking", []), len(table.players)),
        tuple(p for i, p in enumerate(table.players) if i in absent),
    )


def absent_seats(game_ids: list[str]) -> dict[str, set[int]]:
    """Return ``{game: seats}`` of the seats a round deadline forfeited that never made
    a move of their own (``resigned`` with ``"absent": true``,
    :func:`arbiter.games.adjudication.decide_by_clock`)."""
    if not game_ids:
        return {}
    found: dict[str, set[int]] = {}
    rows = db.session.execute(
        sa.select(Event.game_id, Event.seat, Event.payload).where(
            Event.game_id.in_(game_ids), Event.kind == "resigned"
        )
    )
    for game_id, seat, payload in rows:
        if (payload or {}).get("absent"):
            found.setdefault(game_id, set()).add(seat)
    return found


def results(tournament_id: str, *, number: int | None = None) -> list[pairing.GameResult]:
    """Return the results of every finished game of the tournament (of round
    ``number`` only, if given)."""
    pairs = tables(tournament_id, number)
    absent = absent_seats([g.id for _, g in pairs if g.status == "over"])
    out = [game_result(t, g, absent.get(g.id, set())) for t, g in pairs]
    return [r for r in out if r is not None]


def rounds(tournament_id: str) -> list[TournamentRound]:
    """Return the tournament's paired rounds, in order."""
    return list(
        db.session.scalars(
            sa.select(TournamentRound)
            .where(TournamentRound.tournament_id == tournament_id)
            .order_by(TournamentRound.number)
        )
    )


def paired_rounds(tournament_id: str, before: int | None = None) -> list[pairing.Round]:
    """Return the rounds paired so far (those before round ``before``, if given) as the
    pairing package's :class:`arbiter.tournaments.Round`: tables in board order, the
    pairing-allocated byes and the byes set before the round was paired."""
    boards: dict[int, list[pairing.Table]] = {}
    for table, _ in tables(tournament_id):
        boards.setdefault(table.round, []).append(pairing.Table(tuple(table.players)))
    return [
        pairing.Round(
            r.number,
            tuple(boards.get(r.number, [])),
            tuple(r.byes),
            tuple((e, k) for e, k in (r.requested_byes or [])),
        )
        for r in rounds(tournament_id)
        if before is None or r.number < before
    ]


def took_part(rows: list[TournamentEntry], upto: int | None = None) -> list[TournamentEntry]:
    """Return the entries that take or took part in at least one round (not those
    withdrawn before their first; with ``upto``, not those whose first round comes
    after it), in entry order."""
    return [
        e
        for e in rows
        if (e.withdrawn_round is None or e.withdrawn_round > e.joined_round)
        and (upto is None or e.joined_round <= upto)
    ]


def seeding(tournament_id: str) -> list[str]:
    """Return the pairing numbers' order (:func:`arbiter.tournaments.seeding_order`):
    every entry that takes or took part, by the engine rating it was seeded with
    (``seed_rating``), then entry order."""
    return seeding_of(took_part(entries(tournament_id)))


def requested_byes(rows: list[TournamentEntry], number: int) -> dict[str, str]:
    """Return ``{entry: letter}`` of the byes the given entries asked for in round
    ``number``."""
    found = {e.id: (e.bye_requests or {}).get(str(number)) for e in rows}
    return {e: k for e, k in found.items() if k}


def byes(tournament_id: str) -> dict[str, int]:
    """Return ``{entry id: byes received}`` over the paired rounds."""
    return dict(Counter(e for r in rounds(tournament_id) for e in r.byes))


def entries(tournament_id: str) -> list[TournamentEntry]:
    """Return the tournament's entries in the order they entered."""
    return list(
        db.session.scalars(
            sa.select(TournamentEntry)
            .where(TournamentEntry.tournament_id == tournament_id)
            .order_by(TournamentEntry.created_at, TournamentEntry.id)
        )
    )


def entry_json(entry: TournamentEntry) -> dict:
    """Return an entry as the API shows it."""
    return {
        "id": entry.id,
        "name": entry.name,
        "account": entry.account_id,
        **({"bot": dict(entry.bot)} if entry.bot else {}),
        "joined_round": entry.joined_round,
        "withdrawn_round": entry.withdrawn_round,
        "byes_requested": {n: k for n, k in sorted((entry.bye_requests or {}).items())},
        "entered_at": iso(entry.created_at),
    }


def schedule(tournament_id: str) -> tuple[list[str], list[pairing.Round]] | None:
    """Return a started round robin's entrants and schedule as ``tournament-started``
    logged them (None before the start, or for a Swiss)."""
    started = db.session.scalars(
        sa.select(tournament_log.TournamentEvent.payload).where(
            tournament_log.TournamentEvent.tournament_id == tournament_id,
            tournament_log.TournamentEvent.kind == "tournament-started",
        )
    ).first()
    if not started or started.get("schedule") is None:
        return None
    return list(started["entries"]), schedule_rounds(started["schedule"])


def schedule_rounds(logged: list[dict]) -> list[pairing.Round]:
    """Return a round robin's schedule (as ``tournament-started`` logs it) as rounds."""
    return [
        pairing.Round(
            n, tuple(pairing.Table(tuple(p)) for p in r["tables"]), tuple(r.get("byes", []))
        )
        for n, r in enumerate(logged, start=1)
    ]


def standings(tournament: Tournament, after_round: int | None = None) -> list[dict]:
    """Return the standings after round ``after_round`` (default: the last round whose
    every game is over), as :func:`arbiter.tournaments.tournament_standings.rows_json`
    shows them.

    :raises Conflict: ``round-not-over`` (``after_round`` is not over yet).
    """
    rows = entries(tournament.id)
    names = {e.id: e.name for e in rows}
    upto = tournament.round if tournament.status == "over" else None
    present = took_part(rows, upto)
    withdrawn = {e.id: e.withdrawn_round for e in present if e.withdrawn_round is not None}
    if tournament.status == "open":
        present = [e for e in rows if e.withdrawn_round is None]
        withdrawn = {}
    paired = paired_rounds(tournament.id)
    got = results(tournament.id)
    fixed = schedule(tournament.id) if tournament.format == "round_robin" else None
    entrants = fixed[0] if fixed else seeding_of(present)
    try:
        table = standings_of.compute(
            tournament.format,
            entrants,
            paired,
            got,
            scoring_of(tournament),
            schedule=fixed[1] if fixed else None,
            withdrawn=withdrawn,
            least_players=max(2, engines.get(tournament.engine).min_players),
            after_round=after_round,
        )
    except ValueError:
        if after_round is None:
            raise
        raise Conflict(
            f"Round {after_round} is not over yet: the standings can be read after "
            f"round {standings_of.last_over(paired, got)} at most.",
            code="round-not-over",
        ) from None
    return standings_of.rows_json(table, names, withdrawn)


def after_round(tournament: Tournament, wanted: int | None) -> int:
    """Return the round standings follow: ``wanted``, or the last round over."""
    if wanted is not None:
        return wanted
    return standings_of.last_over(paired_rounds(tournament.id), results(tournament.id))


def seeding_of(rows: list[TournamentEntry]) -> list[str]:
    """Return the given entries in pairing-number order (rating, then entry order)."""
    return pairing.seeding_order([e.id for e in rows], {e.id: e.seed_rating for e in rows})


def standings_csv(rows: list[dict]) -> str:
    """Return standings rows as CSV text (RFC 4180, a header line first), safe to open
    in a spreadsheet (:func:`arbiter.tournaments.formats.export.csv_text`): a name that starts
    like a formula (``=``, ``+``, ``-``, ``@``) gets a leading ``'``, ``withdrawn`` is
    ``1``/``0`` (issue 22, item 9)."""
    return export.csv_text(CSV_COLUMNS, [[row.get(k) for k in CSV_COLUMNS] for row in rows])


def round_json(tournament: Tournament, number: int) -> dict:
    """Return round ``number``: its times, byes and tables (game, players, status,
    places once over).

    :raises NotFound: ``round-not-found`` (not paired yet, or beyond the last).
    """
    row = db.session.get(TournamentRound, (tournament.id, number))
    if row is None:
        raise NotFound(
            f"Round {number} of this tournament has not been paired "
            f"(rounds paired so far: {tournament.round}).",
            code="round-not-found",
        )
    names = {e.id: e.name for e in entries(tournament.id)}
    out = []
    for table, game in tables(tournament.id, number):
        result = game_result(table, game)
        out.append(
            {
                "table": table.table,
                "game": game.id,
                "status": game.status,
                "players": [
                    {"entry": p, "name": names[p], "seat": i} for i, p in enumerate(table.players)
                ],
                "places": list(result.places) if result else None,
                "forfeited": list(result.forfeited) if result else [],
            }
        )
    return {
        "number": number,
        "started_at": iso(row.started_at),
        "deadline": iso(row.deadline),
        "ended_at": iso(row.ended_at),
        "byes": [{"entry": e, "name": names[e]} for e in row.byes],
        "requested_byes": [
            {"entry": e, "name": names[e], "bye": k} for e, k in (row.requested_byes or [])
        ],
        "tables": out,
    }


def record(tournament: Tournament, summary: dict) -> dict:
    """Return the full record of a finished tournament: its summary, entries, log,
    every game's record (seed revealed: each verifies with ``arbiter verify``) and
    the final standings. ``arbiter verify`` checks the whole
    (:mod:`arbiter.verify_tournament`).

    :raises Conflict: ``tournament-not-over``.
    """
    if tournament.status != "over":
        raise Conflict(
            "The tournament's record, with every game's seed, is published "
            "when the tournament is over.",
            code="tournament-not-over",
        )
    names = tournament_log.entry_names(tournament.id)
    return {
        "tournament": summary,
        "entries": [entry_json(e) for e in entries(tournament.id)],
        "events": [
            tournament_log.event_json(e, names) for e in tournament_log.events(tournament.id)
        ],
        "games": [reading.record(game.id) for _, game in tables(tournament.id)],
        "standings": standings(tournament),
    }


ROUND_ROBIN_TRF = "Individual: Round-Robin"
"""The TRF ``092`` type of a round robin."""


def trf(tournament: Tournament) -> str:
    """Return the FIDE TRF (TRF-2016 and TRF26) of a tournament of 2-player games, valid
    at every moment (:func:`arbiter.tournaments.trf_export`): entrants in pairing-number
    order (withdrawn ones too), the rounds whose every game is over in the ``001``
    records (``+``/``-`` forfeits, ``U``/``H``/``F``/``Z`` byes, ``Z`` for a round an
    entrant was not in), the round being played as ``###`` comment lines and its set
    byes as ``240`` records, the event's scoring (``162``/``XXS`` when not FIDE's). A
    round robin's rest round scores nothing (``U`` worth 0 in its scoring line); its
    games against an entrant who withdrew before them are forfeits (``-`` theirs,
    ``+`` the opponent's), as the schedule had them.

    :raises Conflict: ``not-two-player-swiss`` (games of more than 2 players).
    """
    if tournament.table_size != 2:
        raise Conflict(
            "The TRF export is for tournaments of 2-player games.",
            code="not-two-player-swiss",
        )
    rows = took_part(entries(tournament.id))
    fixed = schedule(tournament.id) if tournament.format == "round_robin" else None
    if fixed:
        order = {e: i for i, e in enumerate(fixed[0])}
        rows.sort(key=lambda e: order.get(e.id, len(order)))
        ids = [e.id for e in rows]
    else:
        ids = seeding_of(rows)
    names = {e.id: e.name for e in rows}
    scoring = scoring_of(tournament)
    kind = pairing_trf.SWISS
    paired, got = paired_rounds(tournament.id), results(tournament.id)
    if fixed:
        scoring, kind = pairing.Scoring(scoring.place_points, 0.0), ROUND_ROBIN_TRF
        gone = {e.id: e.withdrawn_round for e in rows if e.withdrawn_round is not None}
        paired, got = round_robin_as_played(fixed[1][: tournament.round], got, gone)
    upcoming = {}
    if tournament.status == "open" and tournament.format == "swiss":
        upcoming = requested_byes(rows, 1)
    return pairing.trf_export(
        tournament.name,
        tournament.created_at.strftime("%Y/%m/%d"),
        [(e, names[e]) for e in ids],
        paired,
        got,
        scoring,
        kind,
        total_rounds=tournament.rounds,
        upcoming_byes=upcoming,
    )
