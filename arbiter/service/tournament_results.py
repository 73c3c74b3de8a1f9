"""What a tournament's games say: results, byes, standings (JSON and CSV), the rounds,
the full record and the FIDE TRF export.

Results are read from the games themselves (a finished game's result never changes):
each game's ``result["ranking"]`` (groups of tied seats, best first; resigned seats
last) becomes the places of :class:`arbiter.tournaments.GameResult` in competition
order (``[[0, 1], [2]]`` -> places ``(1, 1, 3)``: the two tied seats span 1st and 2nd
and share those places' points, per the scoring of ``arbiter/tournaments``). The
standings and their tie-breaks are the pure package's
(:func:`arbiter.tournaments.standings`).
"""

from __future__ import annotations

import csv
import io
from collections import Counter

import sqlalchemy as sa
from sqlalchemy.orm import defer

from arbiter import tournaments as pairing
from arbiter.errors import Conflict, NotFound
from arbiter.extensions import db
from arbiter.models import Event, Game, Tournament, TournamentEntry, TournamentGame, TournamentRound
from arbiter.models.timestamps import iso
from arbiter.service import reading, tournament_log

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
    :func:`arbiter.service.adjudication.decide_by_clock`)."""
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
        "joined_round": entry.joined_round,
        "withdrawn_round": entry.withdrawn_round,
        "entered_at": iso(entry.created_at),
    }


def standings(tournament: Tournament) -> list[dict]:
    """Return the standings now (finished games only): rank, entry, name, points,
    games, byes, buchholz, sonneborn_berger, head_to_head, withdrawn."""
    rows = entries(tournament.id)
    names = {e.id: e for e in rows}
    table = pairing.standings(
        [e.id for e in rows], results(tournament.id), byes(tournament.id), scoring_of(tournament)
    )
    return [standing_json(s, names[s.entrant]) for s in table]


def standing_json(s: pairing.Standing, entry: TournamentEntry) -> dict:
    """Return one standing row as the API shows it."""
    return {
        "rank": s.rank,
        "entry": s.entrant,
        "name": entry.name,
        "points": s.points,
        "games": s.games,
        "byes": s.byes,
        "buchholz": s.buchholz,
        "sonneborn_berger": s.sonneborn_berger,
        "head_to_head": s.head_to_head,
        "withdrawn": entry.withdrawn_round is not None,
    }


def standings_csv(rows: list[dict]) -> str:
    """Return standings rows as CSV text (RFC 4180, a header line first)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: row[k] for k in CSV_COLUMNS})
    return out.getvalue()


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
            }
        )
    return {
        "number": number,
        "started_at": iso(row.started_at),
        "deadline": iso(row.deadline),
        "ended_at": iso(row.ended_at),
        "byes": [{"entry": e, "name": names[e]} for e in row.byes],
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


def trf(tournament: Tournament) -> str:
    """Return the FIDE TRF-16 export of a 2-player Swiss (:func:`arbiter.tournaments.
    trf_export`).

    :raises Conflict: ``not-two-player-swiss``.
    """
    if tournament.format != "swiss" or tournament.table_size != 2:
        raise Conflict(
            "The TRF export is for Swiss tournaments of 2-player games.",
            code="not-two-player-swiss",
        )
    rows = entries(tournament.id)
    paired = []
    for r in rounds(tournament.id):
        tabs = tuple(pairing.Table(tuple(t.players)) for t, _ in tables(tournament.id, r.number))
        paired.append(pairing.Round(r.number, tabs, tuple(r.byes)))
    return pairing.trf_export(
        tournament.name,
        tournament.created_at.strftime("%Y/%m/%d"),
        [(e.id, e.name) for e in rows],
        paired,
        results(tournament.id),
    )
