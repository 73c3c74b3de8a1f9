"""Board pictures of every engine (issue 12, "A board picture for every engine"): valid
SVG with a title and a text alternative, drawn from the seat's view only, rendered to PNG
by a real SVG renderer (cairosvg), readable at phone width, colour-blind safe (a shape or
label besides colour)."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

import engines
from arbiter.games.naming import named_view
from arbiter.playout import random_game
from engines.dark_horse import board_svg as dark_horse_svg
from engines.svg import SHAPES
from tests.engines.dark_horse.support import E as DARK_HORSE
from tests.engines.dark_horse.support import dealt

SVG = "{http://www.w3.org/2000/svg}"
PLAYERS = {"space-worm": 3, "dark-horse": 3, "star-maps": 2, "worms": 2}
OPTIONS = {"star-maps": {"sheet": "arms"}}


def moments(engine, seed: int = 5) -> list[dict]:
    """Return three states of a random game: the start, the middle and the end."""
    game = random_game(
        engine,
        PLAYERS[engine.id],
        OPTIONS.get(engine.id, {}),
        random.Random(seed),
        keep_states=True,
    )
    return [game.states[2], game.states[len(game.states) // 2], game.state]


@pytest.mark.parametrize("engine_id", list(engines.ENGINE_MODULES))
def test_every_engine_draws_every_moment_for_every_reader(engine_id) -> None:
    """Each engine draws its board at the start, mid-game and the end, for a seat and a
    spectator, as well-formed SVG that a real renderer turns into a PNG, with the board
    in words beside it."""
    cairosvg = pytest.importorskip("cairosvg", reason="cairosvg renders SVG to PNG")
    engine = engines.get(engine_id)
    for state in moments(engine):
        for seat in (0, None):
            view = engine.view(state, seat)
            svg = engine.board_svg(view)
            root = ET.fromstring(svg)
            assert root.tag == SVG + "svg"
            png = cairosvg.svg2png(bytestring=svg.encode(), output_width=360)
            assert png.startswith(b"\x89PNG") and len(png) > 2000
            words = engine.board_text(view)
            assert words and all(isinstance(line, str) and line for line in words)


@pytest.mark.parametrize("engine_id", list(engines.ENGINE_MODULES))
def test_pictures_carry_a_title_and_their_words(engine_id) -> None:
    """The picture names itself (``<title>``) and carries the board in words
    (``<desc>``) for screen readers."""
    engine = engines.get(engine_id)
    view = engine.view(moments(engine)[1], 0)
    root = ET.fromstring(engine.board_svg(view))
    assert root.get("role") == "img"
    assert root.find(SVG + "title").text
    assert root.find(SVG + "desc").text == " ".join(engine.board_text(view))


@pytest.mark.parametrize("engine_id", ["space-worm", "dark-horse", "star-maps"])
def test_new_pictures_fit_a_phone(engine_id) -> None:
    """Space Worm, Dark Horse and Star Maps pictures are at most 380 units wide, so they
    scale to a 360-pixel phone screen at no less than 95 % (Worms' map is wider and
    scales down with the page)."""
    engine = engines.get(engine_id)
    root = ET.fromstring(engine.board_svg(engine.view(moments(engine)[1], 0)))
    assert float(root.get("viewBox").split()[2]) <= 380


def test_dark_horse_picture_shows_only_the_seats_own_cards() -> None:
    """A seat's picture shows its own hand and Goal cards, never another seat's hand;
    a spectator's shows no hand (rules/dark-horse.md, "Setup" 1 and 4)."""
    state = dealt(3)
    components = DARK_HORSE.components
    own = DARK_HORSE.board_svg(DARK_HORSE.view(state, 1))
    for card in state["hands"][1]:
        assert components.label(card) in own
    for other in (0, 2):
        for card in state["hands"][other]:
            assert components.label(card) not in own
    spectator = DARK_HORSE.board_svg(DARK_HORSE.view(state, None))
    assert "Your Move cards" not in spectator and "Your Goal cards" not in spectator
    for seat in range(3):
        for card in state["hands"][seat]:
            assert components.label(card) not in spectator


def test_dark_horse_picture_names_every_bug_on_the_track() -> None:
    """The Track shows the seven Bugs, by name, space 1 first (rules/dark-horse.md,
    "Setup" 2)."""
    state = dealt(3)
    view = DARK_HORSE.view(state, 0)
    svg = dark_horse_svg.render(view)
    bugs = re.findall(r'class="bug" data-bug="([a-z]+)"', svg)
    assert bugs == [t["bug"] for t in view["track"]] and len(bugs) == 7


def test_seats_differ_by_shape_not_only_colour() -> None:
    """Every seat marker of a six-player Space Worm picture has its own shape and its
    number (colour-blind players tell them apart without colour)."""
    engine = engines.get("space-worm")
    state = random_game(engine, 6, {}, random.Random(2)).state
    assert len(set(SHAPES)) == 6
    svg = engine.board_svg(engine.view(state, None))
    for seat in range(6):
        assert f">seat {seat}" in svg or f">you (seat {seat})" in svg


def test_star_types_are_drawn_as_their_named_shapes() -> None:
    """A star of type 2 (Triangle) is a triangle, 3 (Square) a square: the type is told
    by shape as the sheet names it (rules/star-maps.md, "Components")."""
    from engines.star_maps.board_svg import type_shape

    layout = engines.get("star-maps").view(moments(engines.get("star-maps"))[0], 0)["sheet"]
    assert [type_shape(layout, t) for t in range(1, 7)] == [
        "circle",
        "triangle",
        "square",
        "diamond",
        "pentagon",
        "hexagon",
    ]


def test_the_space_worm_picture_marks_who_took_each_die() -> None:
    """The dice of the round are drawn with the marker of the seat that took each one
    (rules/space-worm.md, "Turns")."""
    engine = engines.get("space-worm")
    state = moments(engine)[1]
    view = engine.view(state, 0)
    svg = engine.board_svg(view)
    assert svg.count('class="die"') == len(view["dice"])
    taken = [d for d in view["dice"] if d["taken_by"] is not None]
    words = " ".join(engine.board_text(view))
    for d in taken:
        assert f"die {d['die']} {d['colour']} {d['pips']} taken by" in words


@pytest.mark.parametrize("engine_id", list(engines.ENGINE_MODULES))
def test_a_named_picture_says_no_seat_number(engine_id) -> None:
    """Issue 23 ("names, not seat numbers"): given the players' names (what pages and
    mails pass, :func:`arbiter.games.naming.named_view`), neither the picture's
    ``<title>`` nor its words say ``seat N``, and the viewer is "you" in good grammar
    (Dark Horse: "You hold 4 Move cards", not "You holds")."""
    engine = engines.get(engine_id)
    names = {0: "Ann", 1: "Bob", 2: "Cy"}
    view = named_view(engine.view(moments(engine)[1], 0), names)
    root = ET.fromstring(engine.board_svg(view))
    said = root.find(SVG + "title").text + " " + " ".join(engine.board_text(view))
    assert not re.search(r"\b[Ss]eat \d", said), said
    assert not re.search(r"\b[Yy]ou holds\b", said), said
