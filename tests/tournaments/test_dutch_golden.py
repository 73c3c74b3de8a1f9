"""Golden fixtures: our Dutch pairing (C.04.3, the 2025 rules) against bbpPairings, the
FIDE-endorsed reference engine, on TRF files our exporter wrote and bbpPairings paired
(tests/tournaments/fixtures/make_dutch_fixtures.py says how they were made). Every
round must pair identically: the same boards, the same colours, the same bye.

``make check`` pairs every fifth round of each file (every scenario), every regression
and every round bbpPairings could not pair; the other rounds are marked slow, so
``make test`` pairs them all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arbiter.tournaments.formats.dutch import pair_round
from arbiter.tournaments.formats.trf_read import read_trf

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "dutch"


QUICK_EVERY = 5
"""``make check`` pairs one round in this many of each file (the first, the sixth, ...)
, every round of ``regressions.json`` and every round bbpPairings found no pairing for;
the others are marked slow."""


def fixtures() -> list:
    found = []
    for path in sorted(FIXTURES.glob("*.json")):
        data = json.loads(path.read_text())
        rounds = [(event, fixture) for event in data["events"] for fixture in event["rounds"]]
        for index, (event, fixture) in enumerate(rounds):
            name = f"{data['scenario']}-{event['seed']}-r{fixture['round']}"
            quick = (
                index % QUICK_EVERY == 0
                or data["scenario"] == "regressions"
                or fixture["boards"] is None  # bbpPairings found no valid pairing
            )
            marks = () if quick else (pytest.mark.slow,)
            found.append(pytest.param(fixture, id=name, marks=marks))
    return found


def our_pairing(text: str) -> tuple[list[list[int]], int | None, int]:
    """Our engine's boards ([white, black] by starting rank), bye and relaxation for a
    TRF."""
    event = read_trf(text)
    to_pair = [p for p in event.players if p not in event.upcoming]
    found = pair_round(
        event.players,
        to_pair,
        event.cells,
        event.scoring,
        event.total_rounds,
        event.initial_colour or "w",
    )
    boards = [[int(w), int(b)] for w, b in found.boards]
    return boards, int(found.bye) if found.bye is not None else None, found.relaxed


def disagreement(fixture: dict) -> str | None:
    """None when we pair a fixture as bbpPairings did (or, where it found no valid
    pairing, we had to give up an absolute criterion too), else what differs."""
    boards, bye, relaxed = our_pairing(fixture["trf"])
    if fixture["boards"] is None:
        return None if relaxed else f"bbpPairings found no valid pairing, we did: {boards}"
    if boards == fixture["boards"] and bye == fixture["bye"] and not relaxed:
        return None
    return (
        f"ours {boards} bye {bye} (relaxed {relaxed}); "
        f"bbpPairings {fixture['boards']} bye {fixture['bye']}"
    )


ALL = fixtures()


def test_there_are_at_least_300_rounds_of_every_kind():
    ids = [p.id for p in ALL]
    assert len(ids) >= 300
    for scenario in ("swiss16x5", "swiss15x5", "swiss11x6_changes", "swiss30x7", "swiss29x7"):
        assert any(i.startswith(scenario + "-") for i in ids), scenario
    assert any(p.values[0]["boards"] is None for p in ALL)  # bbpPairings found none


@pytest.mark.parametrize("fixture", ALL)
def test_we_pair_as_bbppairings(fixture):
    assert disagreement(fixture) is None
