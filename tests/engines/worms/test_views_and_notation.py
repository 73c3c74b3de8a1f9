"""Views hide hands and decks; notation reads back; timeouts never choose Water;
the SVG picture (issue 6, Deliver 8-9)."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET

from arbiter.playout import random_game
from engines.base import Decision
from engines.worms import ENGINE, board_svg
from engines.worms.notation import describe, parse
from tests.engines.worms.helpers import start


def test_views_never_leak_hands_or_decks() -> None:
    """Keep your cards secret (Setup 5); decks are face down (Setup 6)."""
    rng = random.Random("leaks")
    for _ in range(5):
        players = rng.choice([2, 3, 4])
        game = random_game(ENGINE, players, {}, rng, keep_states=True)
        for state in game.states:
            if state["over"]:
                continue
            hidden = ENGINE.hidden(state)
            for seat in [None, *range(players)]:
                text = json.dumps(ENGINE.view(state, seat))
                assert not [c for c in hidden if c in text]
                others = [c for s in range(players) if s != seat for c in ENGINE.secrets(state, s)]
                assert not [c for c in others if c in text]
                if seat is not None:
                    assert all(c in text for c in ENGINE.secrets(state, seat))


def test_view_shows_hand_sizes_and_the_map() -> None:
    s = start(3)
    v = ENGINE.view(s, 1)
    assert v["hand_sizes"] == [5, 5, 5] and len(v["hand"]) == 5
    assert v["map"]["dial"] == "0,0" and "-2,1" in v["map"]["land"]
    assert "hand" not in ENGINE.view(s, None)
    assert {t["id"] for t in v["things"]} >= {"B1", "R1", "Y1"}


def test_notation_examples_from_the_issue() -> None:
    for text, mv in [
        ("activate B2", {"move": "activate", "worm": "B2"}),
        ("inch 3", {"move": "inch", "dir": 3}),
        ("jump 3,-1", {"move": "jump", "to": [3, -1]}),
        ("play bazooka at 2,0", {"move": "play", "card": "bazooka", "at": [2, 0]}),
        (
            "play air-strike at 2,0 dir 3",
            {"move": "play", "card": "air-strike", "at": [2, 0], "dir": 3},
        ),
        ("pick die 3", {"move": "pick", "die": 3}),
        ("pick die wind", {"move": "pick", "die": "wind"}),
        ("order worms B1 R2", {"move": "order", "what": "worms", "ids": ["B1", "R2"]}),
        ("prod crate2", {"move": "prod", "id": "crate2"}),
        ("direction 5", {"move": "direction", "dir": 5}),
        ("target -1,2", {"move": "target", "at": [-1, 2]}),
        ("skip", {"move": "skip"}),
    ]:
        assert parse(text) == mv
        assert describe(mv) == text
    assert parse("  Activate b2 ") == {"move": "activate", "worm": "B2"}


def test_timeouts_never_choose_water_when_land_exists() -> None:
    """Timeout moves skip moving and playing, and a Knockback direction avoids Water."""
    rng = random.Random("timeouts")
    seen = set()
    for _ in range(20):
        game = random_game(ENGINE, rng.choice([2, 3, 4]), {}, rng, keep_states=True)
        for state in game.states:
            p = ENGINE.prompt(state)
            if not isinstance(p, Decision):
                continue
            mv = ENGINE.timeout_move(state, p.seats[0])
            seen.add(p.kind)
            if p.kind in ("move", "card"):
                assert mv == {"move": "skip"}
            if p.kind == "direction":
                from engines.hexgrid import Hex

                here = Hex.parse(state["things"][state["ask"]["thing"]]["hex"])
                lands = [d for d in range(1, 7) if here.neighbor(d).key() in state["land"]]
                if lands:
                    assert here.neighbor(mv["dir"]).key() in state["land"]
    assert {"activate", "move", "card", "target", "pick"} <= seen


def test_svg_draws_the_board() -> None:
    s = start(4)
    svg = board_svg.render(ENGINE.view(s, None))
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    assert svg.count('class="land"') == len(s["land"])
    assert svg.count('class="worm"') == 8
    s["things"]["B1"]["damaged"] = True
    s["target"] = {"hex": "1,1", "dir": 2}
    svg = board_svg.render(ENGINE.view(s, 0))
    assert 'data-damaged="true"' in svg and 'class="target"' in svg
    ET.fromstring(svg)
