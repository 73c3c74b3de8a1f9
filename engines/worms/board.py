"""The map and the Things on it: pure helpers over the JSON state.

State keys used here: ``land`` (sorted "q,r" keys of Land hexes), ``dial``,
``radius`` (every hex within it of the dial is on the board; beyond is off the map,
and everything not Land is Water, phantom hexes included), ``things`` (id -> Thing),
``pool`` (kind -> count in the box), ``next_id``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from engines.hexgrid import Hex

DATA = Path(__file__).parent / "data"
MAP = json.loads((DATA / "map.json").read_text())
DICE = json.loads((DATA / "dice.json").read_text())

DIE_FACES = DICE["die"]["faces"]
DIE_RESULTS = DICE["die"]["results"]  # outcome k -> DIE_RESULTS[k-1]
FLIPPER_FACES = DICE["flipper"]["faces"]
FLIPPER_RESULTS = DICE["flipper"]["results"]

BOX = {k: v for k, v in MAP["box"].items() if isinstance(v, int) and not isinstance(v, bool)}
"""Component counts in the box: the pool Place draws from (rulebook, Components)."""

TEAM_LETTERS = {"blue": "B", "red": "R", "yellow": "Y", "green": "G"}
MOVABLE = ("worm", "drum", "crate", "mine", "sentry")
"""Things that can be moved (Craters and Fire are immoveable: rulebook, Crater, Fire)."""


@lru_cache(maxsize=16)
def board_hexes(dial: str, radius: int) -> tuple[str, ...]:
    """Return the keys of every hex on the board (within ``radius`` of the dial)."""
    return tuple(h.key() for h in Hex.parse(dial).within(radius))


@lru_cache(maxsize=16)
def board_coords(dial: str, radius: int) -> tuple[tuple[str, int, int], ...]:
    """Return ``(key, q, r)`` of every hex on the board, in :func:`board_hexes` order
    (parsed once: the target listings test every board hex in plain integers)."""
    return tuple((h.key(), h.q, h.r) for h in Hex.parse(dial).within(radius))


@lru_cache(maxsize=16)
def board_set(dial: str, radius: int) -> frozenset[str]:
    """Return the board hexes as a set."""
    return frozenset(board_hexes(dial, radius))


@lru_cache(maxsize=4096)
def board_near(dial: str, radius: int, key: str, n: int) -> tuple[Hex, ...]:
    """Return the board hexes within ``n`` of hex ``key`` (itself included), sorted."""
    board = board_set(dial, radius)
    return tuple(h for h in Hex.parse(key).within(n) if h.key() in board)


@lru_cache(maxsize=4096)
def neighbor_keys(key: str) -> tuple[str, ...]:
    """Return the keys of the six hexes next to hex ``key``, in direction order 1..6."""
    return tuple(h.key() for h in Hex.parse(key).neighbors())


def on_board(st: dict, key: str) -> bool:
    """Return True when the hex is on the board (Land or Water, phantom included)."""
    return key in board_set(st["dial"], st["radius"])


def is_land(st: dict, key: str) -> bool:
    """Return True when the hex is a Land hex (everything else is Water)."""
    return key in st["land"]


def face(outcome: int) -> str:
    """Return the die face for an outcome 1..8: ``"1"``..``"6"``, ``"wind"``, ``"bullseye"``."""
    return DIE_RESULTS[outcome - 1]


def face_label(outcome: int) -> int | str:
    """Return the die face as a move value: an int 1..6, or ``"wind"`` / ``"bullseye"``."""
    f = face(outcome)
    return int(f) if f.isdigit() else f


def direction_of(st: dict, label: int | str) -> int | None:
    """Return the direction a die face points to (Wind -> the Wind Direction), None for
    a Bullseye."""
    if label == "bullseye":
        return None
    if label == "wind":
        return st["wind"]
    return int(label)


def things_in(st: dict, key: str, kinds: tuple[str, ...] | None = None) -> list[str]:
    """Return the ids of the Things in a hex (optionally only those kinds), by id."""
    return sorted(
        i
        for i, t in st["things"].items()
        if t["hex"] == key and (kinds is None or t["kind"] in kinds)
    )


def counts(st: dict) -> dict[str, int]:
    """Return how many Things each hex holds (hexes holding none are left out)."""
    out: dict[str, int] = {}
    for t in st["things"].values():
        out[t["hex"]] = out.get(t["hex"], 0) + 1
    return out


def count_in(st: dict, key: str) -> int:
    """Return how many Things are in a hex."""
    return sum(1 for t in st["things"].values() if t["hex"] == key)


def worms_of(st: dict, team: str) -> list[str]:
    """Return the ids of a team's worms on the map."""
    return sorted(i for i, t in st["things"].items() if t["kind"] == "worm" and t["team"] == team)


def has_worms(st: dict, team: str) -> bool:
    """Return True when a team has a worm on the map (:func:`worms_of` is not empty)."""
    return any(t["kind"] == "worm" and t["team"] == team for t in st["things"].values())


def seat_of_team(st: dict, team: str) -> int:
    """Return the seat playing ``team``."""
    return st["teams"].index(team)


def add_thing(st: dict, kind: str, key: str) -> str | None:
    """Take a Thing of ``kind`` from the pool into hex ``key``; return its id, or None
    when the pool is empty or the hex is Water (it sinks at once and goes back)."""
    if st["pool"].get(kind, 0) <= 0:
        return None
    if not is_land(st, key):
        return None
    st["pool"][kind] -= 1
    st["next_id"][kind] = st["next_id"].get(kind, 0) + 1
    thing_id = f"{kind}{st['next_id'][kind]}"
    st["things"][thing_id] = {"kind": kind, "hex": key}
    return thing_id


def emptiest(st: dict) -> list[str]:
    """Return the Land hexes holding the fewest Things (rulebook, Emptiest)."""
    if not st["land"]:
        return []
    counts = {k: 0 for k in st["land"]}
    for t in st["things"].values():
        if t["hex"] in counts:
            counts[t["hex"]] += 1
    low = min(counts.values())
    return sorted(k for k, n in counts.items() if n == low)


def full_hexes(st: dict) -> list[str]:
    """Return the hexes holding four or more Things (rulebook, Full hex), sorted."""
    counts: dict[str, int] = {}
    for t in st["things"].values():
        counts[t["hex"]] = counts.get(t["hex"], 0) + 1
    return sorted(k for k, n in counts.items() if n >= 4)


def first_game_map(players: int, tiles: list[dict]) -> tuple[list[str], list[dict], list[str]]:
    """Return (Land hexes, Things, teams) of the first-game layout for ``players`` on the
    Map Tiles ``tiles`` of it (``MAP["first_game"]["tiles"]`` kept for that count: the
    rules say which); Things on removed tiles and worms of teams nobody plays are left
    out (rulebook, Setting up your first game)."""
    layout = MAP["first_game"]
    teams = layout["teams"][:players]
    land: set[str] = set()
    for placed in tiles:
        anchor = Hex.parse(placed["at"])
        for off in MAP["tiles"][placed["tile"]]["hexes"]:
            land.add((anchor + Hex.parse(off)).key())
    things = [
        dict(t)
        for t in layout["things"]
        if t["hex"] in land and (t["kind"] != "worm" or t["team"] in teams)
    ]
    return sorted(land, key=lambda k: Hex.parse(k)), things, teams
