"""The standard setup, as the book runs it (rulebook, Setup 1-7; issue 14, Deliver 1)
and its bad input (a Map Tile not touching, overlapping or off the board; a Thing in
Water or in a full hex; a Reference Card seen early)."""

from __future__ import annotations

import json

import pytest

from engines.base import Chance, Decision, IllegalMove
from engines.hexgrid import Hex
from engines.worms import ENGINE, board
from engines.worms.rules.setup import pile, tile_hexes
from tests.engines.worms.helpers import BULLSEYE, WIND, shuffle_all


def xy(key: str) -> list[int]:
    """Return ``"q,r"`` as ``[q, r]``."""
    return [int(v) for v in key.split(",")]


def first_choice(state: dict) -> dict:
    """Play the first legal move of the seat that owes a decision."""
    seat = ENGINE.prompt(state).seats[0]
    return ENGINE.play(state, seat, ENGINE.legal_moves(state, seat)[0])


def until(state: dict, kind: str) -> dict:
    """Answer decisions with their first choice and shuffles in order until ``kind``."""
    while True:
        p = ENGINE.prompt(state)
        if isinstance(p, Decision):
            if p.kind == kind:
                return state
            state = first_choice(state)
        elif p.spec["kind"] == "shuffle":
            state = shuffle_all(state)
        elif p.spec.get("for") == kind:
            return state
        else:
            raise AssertionError(f"unexpected {p}")


def test_youngest_places_first_then_clockwise() -> None:
    """ "The youngest player is the first player during setup"; "starting with the first
    player and going clockwise, take it in turns to place a single Map Tile" (Setup 1)."""
    s = ENGINE.setup(3, {"youngest": 2})
    seats = []
    for _ in range(3):
        p = ENGINE.prompt(s)
        assert p.kind == "tile"
        seats.append(p.seats[0])
        s = first_choice(s)
    assert seats == [2, 0, 1]
    assert ENGINE.prompt(s).kind == "place" and ENGINE.prompt(s).seats == (2,)


def test_tiles_touch_the_dial_or_a_tile_and_the_board_grows() -> None:
    """Map Tiles "must be placed touching either the Wind Dial hex or any already placed
    Tile by joining one or more edges"; phantom Water surrounds what was built."""
    s = ENGINE.setup(2, {})
    dial = Hex(0, 0)
    for _ in range(2):
        taken = set(s["land"]) | {"0,0"}
        for mv in ENGINE.legal_moves(s, ENGINE.prompt(s).seats[0]):
            hexes = tile_hexes(mv["tile"], mv["at"], mv["rot"])
            assert not taken & set(hexes)
            assert any(n.key() in taken for k in hexes for n in Hex.parse(k).neighbors())
        s = first_choice(s)
    assert len(s["land"]) == 9  # tiles A (5) and B (4)
    far = max(dial.distance(Hex.parse(k)) for k in s["land"])
    assert s["radius"] == far + 1
    assert ENGINE.view(s, None)["map"]["radius"] == far + 1


@pytest.mark.parametrize(
    "move,code",
    [
        ({"move": "tile", "tile": "A", "at": [5, 0], "rot": 0}, "not-touching"),
        ({"move": "tile", "tile": "A", "at": [1, 0], "rot": 0}, "overlapping"),  # covers 0,0
        ({"move": "tile", "tile": "A", "at": [9, 0], "rot": 0}, "off-the-board"),
        ({"move": "tile", "tile": "E", "at": [1, 0], "rot": 0}, "no-such-tile"),  # Larger map only
    ],
)
def test_bad_tiles_are_refused(move: dict, code: str) -> None:
    s = ENGINE.setup(2, {})
    before = json.dumps(s, sort_keys=True)
    with pytest.raises(IllegalMove) as err:
        ENGINE.play(s, 0, move)
    assert err.value.code == code and json.dumps(s, sort_keys=True) == before


def test_collect_and_place_in_turn_never_a_fourth_thing() -> None:
    """Collect: "4 worms in one of the available colours; 1 Oil Drum, Mine, and Supply
    Crate" per player; Place: in turn, "Don't place any more than three Things in each
    hex" (Setup 2-3)."""
    s = until(ENGINE.setup(2, {}), "place")
    assert s["pile"] == pile(2) == {"blue": 4, "red": 4, "drum": 2, "mine": 2, "crate": 2}
    seats = []
    for _ in range(14):
        p = ENGINE.prompt(s)
        assert p.kind == "place"
        seats.append(p.seats[0])
        moves = ENGINE.legal_moves(s, p.seats[0])
        assert all(board.count_in(s, Hex(*m["at"]).key()) < 3 for m in moves)
        s = ENGINE.play(s, p.seats[0], moves[0])  # always the first hex: fills it
    assert seats == [0, 1] * 7
    assert sum(s["pile"].values()) == 0
    worms = [t for t in s["things"].values() if t["kind"] == "worm"]
    assert len(worms) == 8 and {t["team"] for t in worms} == {"blue", "red"}
    assert all(board.count_in(s, k) <= 3 for k in s["land"])


def test_bad_placements_are_refused() -> None:
    """A Thing placed in Water or into a hex with three Things is refused."""
    s = until(ENGINE.setup(2, {}), "place")
    key = s["land"][0]
    for kind in ("blue", "drum", "red"):
        s = ENGINE.play(
            s, ENGINE.prompt(s).seats[0], {"move": "place", "thing": kind, "at": xy(key)}
        )
    seat = ENGINE.prompt(s).seats[0]
    for move, code in [
        ({"move": "place", "thing": "mine", "at": xy(key)}, "full-hex"),
        ({"move": "place", "thing": "mine", "at": [0, 0]}, "into-water"),
        ({"move": "place", "thing": "green", "at": xy(s["land"][1])}, "not-in-pile"),
    ]:
        with pytest.raises(IllegalMove) as err:
            ENGINE.play(s, seat, move)
        assert err.value.code == code


def test_select_hides_other_colours_until_the_game_starts() -> None:
    """Select: Reference Cards shuffled and dealt at random; each seat sees only its own
    colour (no view shows another seat's colour before the start), then all is public."""
    s = ENGINE.setup(3, {})
    while not (
        isinstance(ENGINE.prompt(s), Chance)
        and ENGINE.prompt(s).spec.get("deck") == "reference-cards"
    ):
        s = first_choice(s)
    p = ENGINE.prompt(s)
    assert p.visible_to == () and p.spec["size"] == 3
    s = ENGINE.resolve(s, [2, 0, 1])  # seat 0 yellow, 1 blue, 2 red
    assert s["teams"] == ["yellow", "blue", "red"]
    for seat in range(3):
        view = ENGINE.view(s, seat)
        assert view["teams"] == [t if i == seat else None for i, t in enumerate(s["teams"])]
        assert view["team"] == s["teams"][seat]
        assert view["turn"]["seat"] is None
    assert ENGINE.view(s, None)["teams"] == [None, None, None]
    s = shuffle_all(s)  # Starting hand, Decks
    assert ENGINE.prompt(s).spec["for"] == "starting-wind"
    assert ENGINE.view(s, None)["teams"] == ["yellow", "blue", "red"]  # Blue takes the token


def test_first_player_rolls_until_a_number_for_the_wind() -> None:
    """ "The player with the lowest number (usually blue) takes the Target Token. That
    player then rolls a die until they get a numerical value and sets the Wind" (Setup
    7); each roll is a logged chance event; that player takes the first turn."""
    s = until(ENGINE.setup(2, {}), "starting-wind")
    blue = s["teams"].index("blue")
    s = ENGINE.resolve(s, [WIND])
    assert ENGINE.prompt(s).spec["for"] == "starting-wind"
    s = ENGINE.resolve(s, [BULLSEYE])
    assert ENGINE.prompt(s).spec["for"] == "starting-wind"
    s = ENGINE.resolve(s, [5])
    assert s["wind"] == 5
    p = ENGINE.prompt(s)
    assert p.seats == (blue,) and s["turn"]["number"] == 1
    assert all(len(h) == 5 for h in s["hands"])  # Starting hand
    assert len(s["drop"]) == 2 * 2 + 2 + 1  # Decks: two per player, two, SD


def test_the_board_is_drawn_during_the_setup_without_naming_teams() -> None:
    """The picture of a setup in progress (no Wind yet, colours still hidden) is valid
    SVG and names no seat's colour."""
    import xml.etree.ElementTree as ET

    s = ENGINE.setup(3, {})
    for state in (s, until(s, "place")):
        for seat in (None, 0):
            svg = ENGINE.board_svg(ENGINE.view(state, seat))
            ET.fromstring(svg)
            assert "Setup" in svg and "Wind: not set yet" in svg
