"""Checking a finished tournament's record (``GET /v1/tournaments/{id}/record``).

``verify_tournament(record)`` needs nothing but the record and the engines, like
:func:`arbiter.verify.verify` for one game (``arbiter verify RECORD.json`` takes
either). It checks that:

1. every game's record verifies (seed, every roll, the replay, the result);
2. the games are exactly those the log's ``round-paired`` events name, each seated as
   paired (names in seat order);
3. every ``round-ended`` event's places are those of its game's result;
4. the standings, recomputed from the game records, the log's byes and the scoring
   (:func:`arbiter.tournaments.standings`), are the record's.
"""

from __future__ import annotations

from collections import Counter

from arbiter import tournaments as pairing
from arbiter.service.tournament_results import places
from arbiter.verify import Mismatch, Verdict, verify

COMPARED = (
    "rank",
    "entry",
    "points",
    "games",
    "byes",
    "buchholz",
    "sonneborn_berger",
    "head_to_head",
)
"""The standing fields the check recomputes."""


def verify_tournament(record: dict) -> Verdict:
    """Check a tournament record (see the module); return a :class:`Verdict` whose
    counts add up its games' rolls and moves."""
    verdict = Verdict(ok=True)
    try:
        _check(record, verdict)
    except Mismatch as err:
        verdict.ok, verdict.mismatch = False, str(err)
    except (KeyError, TypeError, ValueError) as err:
        verdict.ok, verdict.mismatch = False, f"the record is incomplete: {err!r}"
    return verdict


def _check(record: dict, verdict: Verdict) -> None:
    games = {g["id"]: g for g in record["games"]}
    for game_id, game in games.items():
        one = verify(game)
        if not one.ok:
            raise Mismatch(f"game {game_id}: {one.mismatch}")
        verdict.rolls += one.rolls
        verdict.moves += one.moves
    names = {e["id"]: e["name"] for e in record["entries"]}
    paired, byes = _pairings(record["events"])
    if set(paired) != set(games):
        raise Mismatch(f"the log pairs games {sorted(paired)}, the record holds {sorted(games)}")
    results = {}
    for game_id, (number, players) in paired.items():
        seated = [p["name"] for p in sorted(games[game_id]["players"], key=lambda p: p["seat"])]
        if seated != [names[p] for p in players]:
            raise Mismatch(
                f"game {game_id} seats {seated}, the log paired {[names[p] for p in players]}"
            )
        ranking = (games[game_id]["result"] or {}).get("ranking", [])
        results[game_id] = pairing.GameResult(number, tuple(players), places(ranking, len(players)))
    _check_round_ends(record["events"], results, paired)
    scoring = record["tournament"]["scoring"]
    table = pairing.standings(
        list(names),
        list(results.values()),
        byes,
        pairing.Scoring(tuple(scoring["place_points"]), scoring["bye_points"]),
    )
    recomputed = [
        {
            "rank": s.rank,
            "entry": s.entrant,
            "points": s.points,
            "games": s.games,
            "byes": s.byes,
            "buchholz": s.buchholz,
            "sonneborn_berger": s.sonneborn_berger,
            "head_to_head": s.head_to_head,
        }
        for s in table
    ]
    given = [{k: row[k] for k in COMPARED} for row in record["standings"]]
    if recomputed != given:
        raise Mismatch(
            f"the standings recomputed from the games are {recomputed}, the record says {given}"
        )


def _pairings(events: list[dict]) -> tuple[dict[str, tuple[int, list[str]]], dict[str, int]]:
    """Return ``{game: (round, players)}`` and ``{entry: byes}`` from the log."""
    paired, byes = {}, Counter()
    for event in events:
        if event["kind"] == "round-paired":
            payload = event["payload"]
            byes.update(payload["byes"])
            for table in payload["tables"]:
                paired[table["game"]] = (payload["round"], table["players"])
    return paired, dict(byes)


def _check_round_ends(events: list[dict], results: dict, paired: dict) -> None:
    """:raises Mismatch: a ``round-ended`` result that is not its game's."""
    for event in events:
        if event["kind"] != "round-ended":
            continue
        for row in event["payload"]["results"]:
            number, players = paired.get(row["game"], (None, None))
            if players != row["players"]:
                raise Mismatch(
                    f"round {event['payload']['round']}: game {row['game']} "
                    "ended with other players than it was paired with"
                )
            logged = tuple(row["places"])
            derived = results[row["game"]].places
            if logged != derived:
                raise Mismatch(
                    f"round {number}: game {row['game']} logged places "
                    f"{list(logged)}, its record gives {list(derived)}"
                )
