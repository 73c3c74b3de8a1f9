"""Dark Horse component data: Bugs, Track spaces, Move cards, Goal cards, scoring chart.

The rulebook lists the components (rules/dark-horse.md, "Components") but not the
cards; the default set lives in ``components.json`` beside this module, with every
invented value marked ``"invented": true`` (shared/components/dark-horse.md). It is
read once, at import, into :data:`DEFAULT`; :func:`load` checks any other set so
that a real deck can be dropped in without touching code.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

BUG_CARD = "bug"
"""A pictured Bug moving a fixed number of spaces (``steps`` < 0: backward)."""
BUG_EITHER_CARD = "bug-either"
"""A pictured Bug with a "±" symbol: the player chooses the direction."""
POSITIONS_CARD = "positions"
"""Board positions with "±" symbols: their Bugs move, all in one chosen direction."""
RUN_CARD = "run-for-your-life"
"""Special card "Run for your life!"."""
BAD_ENCOUNTER_CARD = "bad-encounter"
"""Special card "Bad encounter!"."""

CARD_KINDS = (BUG_CARD, BUG_EITHER_CARD, POSITIONS_CARD, RUN_CARD, BAD_ENCOUNTER_CARD)
DIRECTED_KINDS = (BUG_EITHER_CARD, POSITIONS_CARD)
"""Card kinds whose player chooses forward or backward."""
MOVE_PREFIX = "mv-"
"""Every Move card id starts with it; the notation drops it (``fly+2``)."""


@dataclass(frozen=True)
class Bug:
    """One of the seven racing Bugs (rules/dark-horse.md, "Components").

    :param id: short lower-case id used in states and moves (``ladybug``).
    :param name: the name printed in the book (``Ladybug``).
    """

    id: str
    name: str


@dataclass(frozen=True)
class Space:
    """One Track card (rules/dark-horse.md, "Setup" 2).

    :param number: 1 is the front of the race (1st place), the last is the back.
    :param name: the picture on the card (``sugar cube``, ``cherry``, ``stone``).
    """

    number: int
    name: str


@dataclass(frozen=True)
class MoveCard:
    """One of the 34 Move cards, special cards included (rules/dark-horse.md,
    "Gameplay" and "Special Cards").

    :param id: a distinctive id (``mv-ladybug+2``); never a substring of another.
    :param kind: one of :data:`CARD_KINDS`.
    :param bug: the pictured Bug (``bug`` and ``bug-either`` cards).
    :param steps: spaces moved; negative for a backward ``bug`` card.
    :param positions: the Track spaces named by a ``positions`` card.
    :param from_space: Run for your life!: the space whose Bug runs (the cherry).
    :param to_space: Run for your life!: where it goes (the stone, the last space).
    :param name: the printed title of a special card.
    """

    id: str
    kind: str
    bug: str | None = None
    steps: int = 0
    positions: tuple[int, ...] = ()
    from_space: int = 0
    to_space: int = 0
    name: str = ""

    @property
    def directed(self) -> bool:
        """Return True when its player must choose forward or backward (a "±" card,
        rules/dark-horse.md, "Gameplay")."""
        return self.kind in DIRECTED_KINDS

    def positions_can_move(self, forward: bool, spaces: int) -> bool:
        """Return True when every Bug on this ``positions`` card's spaces can move its
        full ``steps`` that way on a Track of ``spaces`` spaces: forward (toward space
        1) or backward (toward the last space). rules/dark-horse.md, "Gameplay": "each
        Bug must move in the same direction", so a direction in which one of them
        cannot move is not offered (shared/components/dark-horse.md, "Decisions")."""
        if forward:
            return min(self.positions) - self.steps >= 1
        return max(self.positions) + self.steps <= spaces

    @property
    def code(self) -> str:
        """Return the card's name in the move notation: its id without ``mv-``."""
        return self.id[len(MOVE_PREFIX) :] if self.id.startswith(MOVE_PREFIX) else self.id


@dataclass(frozen=True)
class GoalCard:
    """A secret Goal card naming one Bug (rules/dark-horse.md, "Setup" 1).

    :param id: a distinctive id (``goal-fly-1``).
    :param bug: the Bug whose final place it scores.
    """

    id: str
    bug: str


@dataclass(frozen=True)
class Components:
    """A whole component set, checked by :func:`load` (rules/dark-horse.md, "Components").

    :param bugs: the Bugs in the data file's order (used for stable listings).
    :param spaces: the Track, space 1 (front, first place) first.
    :param move_cards: the Move card deck in its printed order (before shuffling).
    :param goal_cards: the Goal card deck in its printed order.
    :param scoring_chart: points by finishing place, 1st first.
    :param ant_tokens: Ant tokens in the box (Dilly Dally Variant).
    """

    bugs: tuple[Bug, ...]
    spaces: tuple[Space, ...]
    move_cards: tuple[MoveCard, ...]
    goal_cards: tuple[GoalCard, ...]
    scoring_chart: tuple[int, ...]
    ant_tokens: int
    bug_by_id: Mapping[str, Bug] = field(init=False, repr=False, compare=False)
    move_by_id: Mapping[str, MoveCard] = field(init=False, repr=False, compare=False)
    goal_by_id: Mapping[str, GoalCard] = field(init=False, repr=False, compare=False)
    labels: Mapping[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "bug_by_id", {b.id: b for b in self.bugs})
        object.__setattr__(self, "move_by_id", {m.id: m for m in self.move_cards})
        object.__setattr__(self, "goal_by_id", {g.id: g for g in self.goal_cards})
        object.__setattr__(self, "labels", {m.id: self._label(m) for m in self.move_cards})

    def bug_name(self, bug: str) -> str:
        """Return the printed name of Bug ``bug`` (``Ladybug``)."""
        return self.bug_by_id[bug].name

    def label(self, card_id: str) -> str:
        """Return a Move card as a player reads it: ``Ladybug +2``, ``Fly ±1``,
        ``Positions 1 and 2 ±1``, ``Run for your life!`` (rules/dark-horse.md,
        "Gameplay", "Special Cards")."""
        return self.labels[card_id]

    def _label(self, card: MoveCard) -> str:
        """Return the label of ``card`` (computed once, in ``__post_init__``)."""
        if card.kind == BUG_CARD:
            return f"{self.bug_name(card.bug)} {card.steps:+d}"
        if card.kind == BUG_EITHER_CARD:
            return f"{self.bug_name(card.bug)} ±{card.steps}"
        if card.kind == POSITIONS_CARD:
            named = " and ".join(str(p) for p in card.positions)
            return f"Position{'s' if len(card.positions) > 1 else ''} {named} ±{card.steps}"
        return card.name


def load(data: Mapping[str, Any]) -> Components:
    """Return the component set described by ``data`` (the JSON file's shape;
    rules/dark-horse.md, "Components").

    :raises ValueError: the set breaks a fact the rules need (one Bug per space,
        unknown Bugs or spaces on cards, duplicate or overlapping ids, a chart that
        does not score every place).
    """
    bugs = tuple(Bug(b["id"], b["name"]) for b in data["bugs"])
    spaces = tuple(Space(int(s["space"]), s["name"]) for s in data["track"])
    moves = tuple(_move_card(m) for m in data["move_cards"])
    goals = tuple(GoalCard(g["id"], g["bug"]) for g in data["goal_cards"])
    chart = tuple(int(p) for p in data["scoring_chart"]["points"])
    ants = int(data["ant_tokens"]["count"])
    components = Components(bugs, spaces, moves, goals, chart, ants)
    _check(components)
    return components


def _move_card(m: Mapping[str, Any]) -> MoveCard:
    """Return one Move card from its JSON entry."""
    return MoveCard(
        id=m["id"],
        kind=m["kind"],
        bug=m.get("bug"),
        steps=int(m.get("steps", 0)),
        positions=tuple(int(p) for p in m.get("positions", ())),
        from_space=int(m.get("from_space", 0)),
        to_space=int(m.get("to_space", 0)),
        name=m.get("name", ""),
    )


def _check(c: Components) -> None:
    """Raise ValueError unless ``c`` is a playable component set."""

    def need(ok: bool, message: str) -> None:
        if not ok:
            raise ValueError(f"Dark Horse components: {message}")

    bug_ids = [b.id for b in c.bugs]
    need(len(set(bug_ids)) == len(bug_ids), "duplicate Bug ids")
    need(
        [s.number for s in c.spaces] == list(range(1, len(c.spaces) + 1)),
        "Track spaces must be numbered 1, 2, ... in order",
    )
    need(len(c.spaces) == len(c.bugs), "exactly one Bug per Track space")
    need(len(c.scoring_chart) == len(c.spaces), "the chart scores every finishing place")
    ids = [m.id for m in c.move_cards] + [g.id for g in c.goal_cards]
    need(len(set(ids)) == len(ids), "duplicate card ids")
    need(
        not any(a != b and a in b for a in ids for b in ids),
        "a card id is part of another (leak searches need distinct ids)",
    )
    spaces = range(1, len(c.spaces) + 1)
    for m in c.move_cards:
        need(m.kind in CARD_KINDS, f"{m.id}: unknown kind {m.kind!r}")
        need(m.id.startswith(MOVE_PREFIX), f"{m.id}: Move card ids start with {MOVE_PREFIX!r}")
        if m.kind in (BUG_CARD, BUG_EITHER_CARD):
            need(m.bug in c.bug_by_id and m.steps != 0, f"{m.id}: needs a known Bug and steps")
        if m.kind in (BUG_EITHER_CARD, POSITIONS_CARD):
            need(m.steps > 0, f"{m.id}: a '±' card moves a positive number of spaces")
        if m.kind == POSITIONS_CARD:
            need(
                bool(m.positions)
                and all(p in spaces for p in m.positions)
                and len(set(m.positions)) == len(m.positions),
                f"{m.id}: bad positions",
            )
            need(
                any(m.positions_can_move(f, len(c.spaces)) for f in (True, False)),
                f"{m.id}: its Bugs can move neither forward nor backward together",
            )
        if m.kind == RUN_CARD:
            need(m.from_space in spaces and m.to_space in spaces, f"{m.id}: bad spaces")
    for g in c.goal_cards:
        need(g.bug in c.bug_by_id, f"{g.id}: unknown Bug {g.bug!r}")


def _read(name: str) -> dict:
    """Return the bundled data file ``name`` (read once, at import)."""
    return json.loads(resources.files(__package__).joinpath(name).read_text("utf-8"))


_DEFAULT_DATA = _read("components.json")
DEFAULT = load(_DEFAULT_DATA)
"""The bundled default component set."""

V1_COMPONENTS = load({**_DEFAULT_DATA, "move_cards": _read("components-v1.json")["move_cards"]})
"""The default set with the Move card deck engine version 1 dealt from
(``components-v1.json``), so that its games replay and go on as they were dealt."""
