"""The places of a move on the board picture (``Engine.board_targets``, issue 23 item 2)
and the moves in words (``Engine.move_words``): checked on every decision of seeded
random games of every engine at every player count."""

from __future__ import annotations

import json
import random
import re

import pytest

import engines
from arbiter.playout import next_input, random_game
from arbiter.web.board_clicks import clickable
from engines.base import Decision, apply
from engines.hexgrid import Hex
from engines.worms import board_svg
from engines.worms.rules.setup import tile_hexes

PLACE = re.compile(r'\bdata-place="([^"]+)"')


def decisions(engine):
    """Yield ``(state, seat)`` for every decision of one random game per player count."""
    for players in range(engine.min_players, engine.max_players + 1):
        played = random_game(engine, players, rng=random.Random(players), keep_states=True)
        for state in played.states[::3]:
            prompt = engine.prompt(state)
            if isinstance(prompt, Decision):
                yield state, prompt.seats[0]


@pytest.mark.parametrize("engine_id", list(engines.ENGINE_MODULES))
def test_the_places_of_every_legal_move_are_drawn(engine_id) -> None:
    """Every place a legal move names is an element of the picture of the mover's view
    (Worms: but a hex of the open sea, which the map leaves out)."""
    engine = engines.get(engine_id)
    clicked = 0
    for state, seat in decisions(engine):
        view = engine.view(state, seat)
        drawn = set(PLACE.findall(engine.board_svg(view)))
        for move in engine.legal_moves(state, seat):
            places = engine.board_targets(view, move)
            missing = [p for p in places if p not in drawn]
            if engine_id == "worms":
                missing = [p for p in missing if not p.startswith("hex:")]
            assert missing == [], (move, places)
            clicked += bool(places)
    assert clicked > 0


@pytest.mark.parametrize("engine_id", list(engines.ENGINE_MODULES))
def test_every_legal_move_has_words(engine_id) -> None:
    """``move_words`` puts every legal move in words, in the past for a log and as an
    order for a button, with no JSON in it."""
    engine = engines.get(engine_id)
    for state, seat in decisions(engine):
        for move in engine.legal_moves(state, seat)[:20]:
            done, offered = engine.move_words(move), engine.move_words(move, past=False)
            assert done and offered and "{" not in done + offered
            if not (engine_id == "worms" and move["move"] == "order"):  # said in notation
                assert done != offered


def test_dark_horse_says_its_cards_by_name() -> None:
    """Dark Horse's words name the card as printed (issue 23: "Alice played Ladybug ±1
    forward", not ``play ladybug-pm1 forward``)."""
    engine = engines.get("dark-horse")
    move = {"play": "mv-ladybug-pm1", "direction": "forward"}
    assert engine.move_words(move) == "played Ladybug ±1 forward"
    assert engine.move_words(move, past=False) == "play Ladybug ±1 forward"
    assert engine.board_targets({"track": [{"bug": "ladybug"}]}, move) == [
        "card:mv-ladybug-pm1",
        "bug:ladybug",
        "dir:forward",
    ]


@pytest.mark.parametrize("engine_id", list(engines.ENGINE_MODULES))
def test_every_engine_says_how_to_win(engine_id) -> None:
    """``how_to_win`` is a short text for the game page and mails."""
    text = engines.get(engine_id).how_to_win
    assert 40 < len(text) < 500 and "win" in text


def test_a_worms_map_tile_is_previewed_on_the_hexes_it_would_cover() -> None:
    """While Map Tiles are placed (rulebook, Setup 1: Create the map), every legal tile
    move has a preview: a shape the picture defines, drawn at its anchor hex, whose hexes
    are exactly those the tile would cover in that turn; the page's data carries it. No
    other move has one."""
    engine = engines.get("worms")
    state = engine.setup(2, engine.load_options(2, {"setup": "standard"}))
    rng, step = random.Random(0), 0
    while not isinstance(engine.prompt(state), Decision):  # the setup's shuffles
        step += 1
        state = apply(engine, state, next_input(engine, state, rng, "0" * 64, step))
    seat = engine.prompt(state).seats[0]
    view = engine.view(state, seat)
    svg = engine.board_svg(view)
    moves = engine.legal_moves(state, seat)
    assert moves and all(m["move"] == "tile" for m in moves)
    centres = {}
    for corners in re.findall(r'<g id="(preview-tile-[^"]+)"[^>]*>(.*?)</g>', svg):
        points = re.findall(r'points="([^"]+)"', corners[1])
        centres[corners[0]] = {
            tuple(round(sum(float(p.split(",")[i]) for p in pts.split()) / 6, 0) for i in (0, 1))
            for pts in points
        }
    for move in moves[::7]:
        shown = engine.board_preview(view, move)
        assert shown["shape"] == f"preview-tile-{move['tile']}-{move['rot']}"
        anchor = Hex(*move["at"]).to_pixel(board_svg.SIZE)
        assert (shown["x"], shown["y"]) == pytest.approx(anchor, abs=0.1)
        covered = {
            tuple(round(c - a, 0) for c, a in zip(Hex.parse(k).to_pixel(board_svg.SIZE), anchor))
            for k in tile_hexes(move["tile"], move["at"], move["rot"])
        }
        assert {(x + 0.0, y + 0.0) for x, y in centres[shown["shape"]]} == {
            (x + 0.0, y + 0.0) for x, y in covered
        }
    rows = json.loads(clickable(engine, view, {"moves": moves}, svg))
    assert all(r["preview"]["shape"] in svg for r in rows)
    assert engine.board_preview(view, {"move": "skip"}) is None
