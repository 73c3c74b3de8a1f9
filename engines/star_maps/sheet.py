"""The sheet model: a printed sheet (data from ``sheets/*.json``) and what a seat wrote on it.

A :class:`Layout` is the printed sheet, the same for every seat: star types keyed to die
values, boxes, stars, connections, arms and locks (rules/star-maps.md, "Components",
"Using the Dice", "Make a Connection", "Arms", "Lock/Unlock"). A seat's *marks* are plain
JSON, ``{"boxes": {box: value}, "connections": [id, ...], "bonuses_used": [id, ...]}``,
and everything else (found stars, open locks, complete types) is read from the marks by
the pure functions below, so the state holds no derived data that could disagree.

Model decisions (documented in ``engines/star_maps/__init__.py``):

- Each star has exactly two boxes: boxes printed next to it, and boxes joined to it by
  a connection's dotted line. A box reached through a connection is adjacent only once
  that connection is filled ("Make a Connection").
- A star is found when both of its boxes are adjacent and filled; it holds their
  difference ("Using the Dice", step 3).
- A star with a printed value is *pre-filled*: its value is printed, so it is never the
  star a die is trying to find; its two boxes (written for neighbouring stars) must differ
  by exactly that value ("Lock/Unlock": "the player must fill out the two adjacent squares
  in a way that makes the pre-filled value true"). The rule holds for both boxes whether
  or not a connection to them is filled yet, so filling a connection never breaks it. It
  is found (it scores, counts for its type and for a lock naming it) only once both its
  boxes are adjacent and filled, like any star; version 2 counted it found from the start
  (:attr:`Layout.prefilled_found`).
- A lock opens by itself ("Filling in an Unlocked symbol does not require an action") once
  all its connections are filled and all its listed stars are found. Stars of an arm can be
  written around while locked but score only once the arm's lock is open ("Arms").
- A type is complete when each of its stars is found, pre-filled stars counting only once
  unlocked ("Using the Dice", step 4 and its note).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from engines.base import IllegalMove

SHEETS_DIR = Path(__file__).parent / "sheets"
DEFAULT_SHEET = "plain"
DIE_VALUES = (1, 2, 3, 4, 5, 6)
"""The values a box can hold: one die's face (rules/star-maps.md, "Components")."""

SHEET_RULES = ("per-complete-type", "per-unlocked-arm")
"""Sheet scoring rules that ``scoring.sheet_points`` knows how to interpret."""

_BOX_ID = re.compile(r"^[A-Z][A-Z0-9]*$")
_STAR_ID = re.compile(r"^[a-z][a-z0-9]*$")


class SheetError(ValueError):
    """A sheet data file that does not describe a playable sheet."""


@dataclass(frozen=True)
class Star:
    """One star printed on a sheet.

    :param id: the star's id (lower case, ``a3``).
    :param type: the die value that picks this star's type (1 to 6).
    :param links: its two boxes, each ``(box, connection)`` with ``connection`` None for a
        box printed next to it, else the connection whose filling makes it adjacent.
    :param value: the printed value of a pre-filled star, else None.
    :param arm: the arm the star lies in, else None.
    """

    id: str
    type: int
    links: tuple[tuple[str, str | None], ...]
    value: int | None
    arm: str | None

    @property
    def boxes(self) -> tuple[str, ...]:
        """Return the star's two boxes, adjacent now or not."""
        return tuple(box for box, _ in self.links)


@dataclass(frozen=True)
class Layout:
    """A printed sheet: identical for every seat, read once from its data file.

    :param id: the ``sheet`` option value; :param title: its name.
    :param types: die value -> star type name.
    :param boxes: box ids in printed order (the order of legal moves).
    :param stars: star id -> :class:`Star`, in file order.
    :param connections: connection id -> the ids (stars and boxes) its dotted line joins.
    :param arms: arm id -> ``{"name", "lock", "stars"}``.
    :param locks: lock id -> ``{"connections": [...], "stars": [...]}``.
    :param scoring: the sheet's own scoring rules (``[{"rule", "points"}]``).
    :param box_links: box id -> ``((star, connection | None), ...)``.
    :param type_stars: die value -> star ids of that type.
    :param raw: the data file as read, for views.
    :param prefilled_found: how the rules read a pre-filled star, not sheet data: False
        (today's rules) counts it found once its two boxes are adjacent and filled; True
        (Star Maps version 2 and older, :mod:`engines.star_maps.versions`) counts it
        found from the start.
    """

    id: str
    title: str
    types: Mapping[int, str]
    boxes: tuple[str, ...]
    stars: Mapping[str, Star]
    connections: Mapping[str, tuple[str, ...]]
    arms: Mapping[str, Mapping]
    locks: Mapping[str, Mapping]
    scoring: tuple[Mapping, ...]
    box_links: Mapping[str, tuple[tuple[str, str | None], ...]]
    type_stars: Mapping[int, tuple[str, ...]]
    raw: Mapping
    prefilled_found: bool = False
    box_index: Mapping[str, int] = field(init=False, repr=False, compare=False)
    """Box id -> its place in printed order (derived, for sorting)."""
    lock_boxes: frozenset[str] = field(init=False, repr=False, compare=False)
    """The boxes next to a pre-filled star: the only ones a value can break a lock in
    (derived)."""
    joined: Mapping[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    """Box or connection id -> the stars it joins (derived)."""
    lock_connections: frozenset[str] = field(init=False, repr=False, compare=False)
    """The connections some lock needs filled (derived)."""
    write_links: Mapping[int | None, tuple[tuple[str, str | None], ...]] = field(
        init=False, repr=False, compare=False
    )
    """Die value (None: any type) -> the ``(box, connection | None)`` links of its stars
    that are not pre-filled, in printed box order (derived)."""
    type_boxes: Mapping[int, frozenset[str]] = field(init=False, repr=False, compare=False)
    """Die value -> the boxes that must all be filled before that type can be complete:
    those of its stars, but for a pre-filled star found from the start (derived)."""
    reach: Mapping[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    """Box or connection id -> the types that writing it or filling it may complete: those
    of the stars it joins, or every type if it may open a lock (derived)."""

    def __post_init__(self) -> None:
        """Derive the lookups the listing of moves reads many times a second."""
        object.__setattr__(self, "box_index", {b: i for i, b in enumerate(self.boxes)})
        prefilled = [s for s in self.stars.values() if s.value is not None]
        object.__setattr__(self, "lock_boxes", frozenset(b for s in prefilled for b in s.boxes))
        joined = {b: tuple(s for s, _ in links) for b, links in self.box_links.items()}
        for c in self.connections:
            joined[c] = tuple(s.id for s in self.stars.values() if c in dict(s.links).values())
        object.__setattr__(self, "joined", joined)
        needed = frozenset(c for lock in self.locks.values() for c in lock["connections"])
        object.__setattr__(self, "lock_connections", needed)
        object.__setattr__(self, "reach", self._reach())
        needs = {
            die: frozenset(
                b
                for s in stars
                if not (self.prefilled_found and self.stars[s].value is not None)
                for b in self.stars[s].boxes
            )
            for die, stars in self.type_stars.items()
        }
        object.__setattr__(self, "type_boxes", needs)
        object.__setattr__(self, "write_links", self._write_links())

    def _write_links(self) -> dict[int | None, tuple[tuple[str, str | None], ...]]:
        """Return :attr:`write_links`."""
        links = {
            die: [
                link for s in stars if self.stars[s].value is None for link in self.stars[s].links
            ]
            for die, stars in self.type_stars.items()
        }
        links[None] = [link for die in self.types for link in links[die]]
        order = self.box_index.__getitem__
        return {
            die: tuple(sorted(ls, key=lambda link: order(link[0]))) for die, ls in links.items()
        }

    def _reach(self) -> dict[str, tuple[int, ...]]:
        """Return :attr:`reach`: a step finds only the stars it joins, and opens a lock
        only if it fills one of the lock's connections or finds one of its stars."""
        in_locks = {i for lock in self.locks.values() for i in lock["connections"] + lock["stars"]}
        return {
            i: tuple(self.types)
            if i in in_locks or in_locks.intersection(stars)
            else tuple(sorted({self.stars[s].type for s in stars}))
            for i, stars in self.joined.items()
        }

    def type_name(self, die: int) -> str:
        """Return ``"Diamond (4)"`` for die value 4."""
        return f"{self.types[die]} ({die})"


# --------------------------------------------------------------------------- loading


def load_layout(data: Mapping) -> Layout:
    """Return the :class:`Layout` described by a sheet's JSON data.

    :raises SheetError: a missing or dangling id, a star without exactly two boxes, a
        type without stars, an unknown scoring rule.
    """
    try:
        return _build(data)
    except (KeyError, TypeError, ValueError) as err:
        if isinstance(err, SheetError):
            raise
        raise SheetError(f"sheet {data.get('id')!r}: malformed ({err!r})") from err


def _build(data: Mapping) -> Layout:
    sid = data["id"]
    _check(isinstance(data.get("invented"), list), sid, "needs an 'invented' list")
    types = {int(k): str(v) for k, v in data["types"].items()}
    _check(sorted(types) == list(DIE_VALUES), sid, "needs six types keyed 1 to 6")
    boxes = tuple(data["boxes"])
    _check(
        len(set(boxes)) == len(boxes) and all(_BOX_ID.match(b) for b in boxes),
        sid,
        "box ids must be unique upper-case ids",
    )
    connections = {cid: tuple(ids) for cid, ids in data["connections"].items()}
    _check(
        all(_BOX_ID.match(c) and c not in boxes for c in connections),
        sid,
        "connection ids must be upper-case ids distinct from boxes",
    )
    arms = {aid: dict(arm) for aid, arm in data.get("arms", {}).items()}
    locks = {
        lid: {
            "connections": list(lock.get("connections", [])),
            "stars": list(lock.get("stars", [])),
        }
        for lid, lock in data.get("locks", {}).items()
    }
    arm_of = {star: aid for aid, arm in arms.items() for star in arm["stars"]}
    _check(
        len(arm_of) == sum(len(arm["stars"]) for arm in arms.values()),
        sid,
        "a star lies in two arms",
    )
    links = _star_links(data, boxes, connections)
    stars = {}
    for star_id, star in data["stars"].items():
        pair = tuple(links[star_id])
        _check(
            len(pair) == 2 and pair[0][0] != pair[1][0],
            sid,
            f"star {star_id} must have exactly two different boxes, has {pair}",
        )
        value = star.get("value")
        _check(value is None or value in range(0, 6), sid, f"star {star_id}: bad value")
        _check(star["type"] in types, sid, f"star {star_id}: bad type")
        stars[star_id] = Star(star_id, star["type"], pair, value, arm_of.get(star_id))
    for lid, lock in locks.items():
        _check(
            all(c in connections for c in lock["connections"])
            and all(s in stars for s in lock["stars"])
            and (lock["connections"] or lock["stars"]),
            sid,
            f"lock {lid} is malformed",
        )
    _check(
        all(
            arm["lock"] in locks and all(s in stars for s in arm["stars"]) for arm in arms.values()
        ),
        sid,
        "an arm names an unknown lock or star",
    )
    scoring = tuple(dict(rule) for rule in data["scoring"])
    _check(
        all(r["rule"] in SHEET_RULES and isinstance(r["points"], int) for r in scoring),
        sid,
        f"scoring rules must be among {SHEET_RULES}",
    )
    box_links = {
        b: tuple((s.id, via) for s in stars.values() for box, via in s.links if box == b)
        for b in boxes
    }
    type_stars = {t: tuple(s.id for s in stars.values() if s.type == t) for t in types}
    _check(all(type_stars.values()), sid, "every type needs at least one star")
    return Layout(
        sid,
        data["title"],
        types,
        boxes,
        stars,
        connections,
        arms,
        locks,
        scoring,
        box_links,
        type_stars,
        data,
    )


def _star_links(
    data: Mapping, boxes: tuple[str, ...], connections: Mapping[str, tuple]
) -> dict[str, list[tuple[str, str | None]]]:
    """Return star id -> its ``(box, connection | None)`` links, printed boxes first."""
    sid = data["id"]
    links: dict[str, list[tuple[str, str | None]]] = {}
    for star_id, star in data["stars"].items():
        _check(bool(_STAR_ID.match(star_id)), sid, f"star id {star_id!r} must be lower case")
        _check(all(b in boxes for b in star["boxes"]), sid, f"star {star_id} names no box")
        links[star_id] = [(b, None) for b in star["boxes"]]
    for cid, ids in connections.items():
        _check(all(i in boxes or i in links for i in ids), sid, f"{cid} joins an unknown id")
        for star_id in (i for i in ids if i in links):
            links[star_id] += [(b, cid) for b in ids if b in boxes]
    return links


def _check(condition: bool, sheet_id: str, message: str) -> None:
    if not condition:
        raise SheetError(f"sheet {sheet_id!r}: {message}")


def load_dir(directory: Path = SHEETS_DIR) -> dict[str, Layout]:
    """Return every sheet in ``directory`` by id (file name without ``.json``).

    :raises SheetError: a file that is not a playable sheet or whose id is not its name.
    """
    layouts = {}
    for path in sorted(directory.glob("*.json")):
        layout = load_layout(json.loads(path.read_text(encoding="utf-8")))
        _check(layout.id == path.stem, layout.id, f"id must match the file name {path.name}")
        layouts[layout.id] = layout
    return layouts


SHEETS: dict[str, Layout] = load_dir()
"""Every shipped sheet by id: ``plain`` (First Light) and ``arms`` (Twin Arms)."""


# --------------------------------------------------------------------------- reading marks


def blank_marks() -> dict:
    """Return a seat's marks on a fresh sheet (rules/star-maps.md, "Setup")."""
    return {"boxes": {}, "connections": [], "bonuses_used": []}


def adjacent_boxes(layout: Layout, marks: Mapping, star_id: str) -> list[str]:
    """Return the star's boxes that are adjacent now (printed, or via a filled connection)."""
    filled = marks["connections"]
    return [box for box, via in layout.stars[star_id].links if via is None or via in filled]


def star_value(layout: Layout, marks: Mapping, star_id: str) -> int | None:
    """Return the value a star holds: its printed value if pre-filled, the difference of its
    two boxes once both are adjacent and filled, else None (rules/star-maps.md, "Using the
    Dice", step 3)."""
    star = layout.stars[star_id]
    if star.value is not None:
        return star.value
    if not boxes_filled(layout, marks, star_id):
        return None
    (first, _), (second, _) = star.links
    return abs(marks["boxes"][first] - marks["boxes"][second])


def boxes_filled(layout: Layout, marks: Mapping, star_id: str) -> bool:
    """Return True when both of the star's boxes are adjacent now and filled (one loop,
    no list: the search bots ask it hundreds of thousands of times a move)."""
    filled, written = marks["connections"], marks["boxes"]
    adjacent = 0
    for box, via in layout.stars[star_id].links:
        if via is None or via in filled:
            if box not in written:
                return False
            adjacent += 1
    return adjacent == 2


def is_found(layout: Layout, marks: Mapping, star_id: str) -> bool:
    """Return True when the star is found: both its boxes adjacent and filled (a star
    holding their difference, or a pre-filled star whose value they make true:
    rules/star-maps.md, "Using the Dice", step 3; "Lock/Unlock"). A pre-filled star read
    with :attr:`Layout.prefilled_found` (version 2) is found from the start."""
    if layout.prefilled_found and layout.stars[star_id].value is not None:
        return True
    return boxes_filled(layout, marks, star_id)


def open_locks(layout: Layout, marks: Mapping) -> list[str]:
    """Return the locks that are open: all their connections filled and their stars found
    (rules/star-maps.md, "Lock/Unlock")."""
    return [
        lid
        for lid, lock in layout.locks.items()
        if all(c in marks["connections"] for c in lock["connections"])
        and all(is_found(layout, marks, s) for s in lock["stars"])
    ]


def unlocked_arms(layout: Layout, marks: Mapping) -> list[str]:
    """Return the arms whose lock is open (rules/star-maps.md, "Arms")."""
    opened = open_locks(layout, marks)
    return [aid for aid, arm in layout.arms.items() if arm["lock"] in opened]


def is_unlocked(
    layout: Layout, marks: Mapping, star_id: str, arms: Iterable[str] | None = None
) -> bool:
    """Return True when the star is outside every arm or its arm is unlocked."""
    arm = layout.stars[star_id].arm
    return arm is None or arm in (unlocked_arms(layout, marks) if arms is None else arms)


def complete_types(layout: Layout, marks: Mapping) -> list[int]:
    """Return the die values whose every star is found, pre-filled ones counting only once
    their boxes are filled and they are unlocked (rules/star-maps.md, "Using the Dice",
    step 4 and its note; "Lock/Unlock")."""
    return [die for die in layout.type_stars if type_complete(layout, marks, die)]


def type_complete(layout: Layout, marks: Mapping, die: int) -> bool:
    """Return True when every star of type ``die`` is found, pre-filled ones counting only
    once their boxes are filled and they are unlocked (see :func:`complete_types`)."""
    if not marks["boxes"].keys() >= layout.type_boxes[die]:
        return False
    arms = None
    for star_id in layout.type_stars[die]:
        star = layout.stars[star_id]
        if not is_found(layout, marks, star_id):
            return False
        if star.value is not None and star.arm is not None:
            arms = unlocked_arms(layout, marks) if arms is None else arms
            if star.arm not in arms:
                return False
    return True


def one_step_targets(layout: Layout, marks: Mapping) -> set[str] | None:
    """Return the boxes whose writing may complete a type in one step from ``marks``: the
    one box each type still misses (a type missing two or more cannot complete in one
    step); None when some incomplete type misses no box (then any step may complete it,
    by a connection or by opening a lock)."""
    written = marks["boxes"].keys()
    targets: set[str] = set()
    for die, boxes in layout.type_boxes.items():
        missing = boxes - written
        if len(missing) == 1:
            targets |= missing
        elif not missing and not type_complete(layout, marks, die):
            return None
    return targets


def may_find(layout: Layout, marks: Mapping, step: str) -> bool:
    """Return False when writing the empty box ``step`` or filling the empty connection
    ``step`` surely completes no type: it finds no star (no star it joins has both boxes
    adjacent and filled after it) and is no lock's connection; True when it may (then
    ask :func:`completed_by`). Reads ``marks`` before the step."""
    if step in layout.lock_connections:
        return True
    filled, written = marks["connections"], marks["boxes"]
    for star_id in layout.joined[step]:
        for box, via in layout.stars[star_id].links:
            if not (via is None or via == step or via in filled):
                break
            if not (box == step or box in written):
                break
        else:
            return True
    return False


def completed_by(layout: Layout, before: Mapping, after: Mapping, step: str) -> int:
    """Return how many types ``after`` completes that ``before`` did not, ``after`` being
    ``before`` with the box or connection ``step`` just written or filled (only the
    types it reaches can change: :attr:`Layout.reach`)."""
    return sum(
        1
        for die in layout.reach[step]
        if type_complete(layout, after, die) and not type_complete(layout, before, die)
    )


def target_stars(layout: Layout, marks: Mapping, die: int | None, box: str) -> list[str]:
    """Return the unfound stars of type ``die`` (None: of any type) that ``box`` is
    adjacent to now."""
    filled = marks["connections"]
    return [
        s
        for s, via in layout.box_links.get(box, ())
        if die in (None, layout.stars[s].type)
        and layout.stars[s].value is None
        and (via is None or via in filled)
        and not is_found(layout, marks, s)
    ]


# --------------------------------------------------------------------------- writing


def lock_breach(
    layout: Layout, marks: Mapping, box: str, value: int
) -> tuple[Star, str, int | None] | None:
    """Return ``(pre-filled star, its other box, the value there or None)`` for the first
    pre-filled star that writing ``value`` in ``box`` breaks, else None.

    Both boxes filled: they must differ by exactly the printed value; one box filled: some
    die value must be left for the other box (rules/star-maps.md, "Lock/Unlock").
    """
    if box not in layout.lock_boxes:
        return None
    for star_id, _ in layout.box_links[box]:
        star = layout.stars[star_id]
        if star.value is None:
            continue
        other = next(b for b in star.boxes if b != box)
        partner = marks["boxes"].get(other)
        if partner is not None and abs(value - partner) != star.value:
            return star, other, partner
        if partner is None and not any(abs(value - v) == star.value for v in DIE_VALUES):
            return star, other, None
    return None


def lock_conflict(layout: Layout, marks: Mapping, box: str, value: int) -> str | None:
    """Return why writing ``value`` in ``box`` breaks a pre-filled star, else None
    (:func:`lock_breach` in words)."""
    breach = lock_breach(layout, marks, box, value)
    if breach is None:
        return None
    star, other, partner = breach
    name = f"Star {star.id} ({layout.types[star.type]}, pre-filled {star.value})"
    if partner is not None:
        return (
            f"{name} needs its boxes {box} and {other} to differ by exactly "
            f"{star.value}; {value} next to the {partner} in {other} does not."
        )
    return (
        f"{name} needs its boxes {box} and {other} to differ by exactly "
        f"{star.value}; after a {value} in {box} no die value could go in {other}."
    )


def check_write(layout: Layout, marks: Mapping, die: int | None, value: int, box: str) -> None:
    """Check that ``value`` may go in ``box`` for a star of type ``die`` (None: any type).

    :raises IllegalMove: ``no-such-box``, ``box-filled``, ``not-adjacent``, ``breaks-lock``.
    """
    if box not in layout.box_links:
        raise IllegalMove("no-such-box", f"There is no box {box} on sheet {layout.title}.")
    if box in marks["boxes"]:
        raise IllegalMove("box-filled", f"Box {box} already holds {marks['boxes'][box]}.")
    if not target_stars(layout, marks, die, box):
        kind = "" if die is None else f" {layout.type_name(die)}"
        raise IllegalMove("not-adjacent", f"Box {box} is not adjacent to an unfound{kind} star.")
    conflict = lock_conflict(layout, marks, box, value)
    if conflict:
        raise IllegalMove("breaks-lock", conflict)


def write_boxes(layout: Layout, marks: Mapping, die: int | None, value: int) -> list[str]:
    """Return the boxes, in printed order, where ``value`` may go for a ``die`` star (None:
    a star of any type)."""
    return [
        box
        for box in open_boxes(layout, marks, die)
        if lock_breach(layout, marks, box, value) is None
    ]


def open_boxes(layout: Layout, marks: Mapping, die: int | None) -> list[str]:
    """Return the empty boxes, in printed order, adjacent now to an unfound star of type
    ``die`` (None: of any type), pre-filled stars aside: where a value may go unless it
    breaks a lock (:func:`write_boxes`). A found star has no empty adjacent box, so
    every star's links are read (:attr:`Layout.write_links`, in printed order)."""
    filled, written = marks["connections"], marks["boxes"]
    out: list[str] = []
    for box, via in layout.write_links[die]:
        if box not in written and (via is None or via in filled) and (not out or out[-1] != box):
            out.append(box)
    return out


def open_boxes_by_type(layout: Layout, marks: Mapping) -> dict[int | None, list[str]]:
    """Return :func:`open_boxes` for every die value and for None (any type)."""
    return {die: open_boxes(layout, marks, die) for die in layout.write_links}


def dice_pairs(roll: Iterable[int]) -> list[tuple[int, int]]:
    """Return the ``(star die, value)`` pairs a roll offers: either die picks the star type
    and the other is written; doubles give one pair (rules/star-maps.md, "Using the Dice",
    steps 1-2; components/star-maps.md, "Decisions")."""
    a, b = roll
    return [(a, b)] if a == b else [(a, b), (b, a)]


def write(marks: Mapping, box: str, value: int) -> dict:
    """Return new marks with ``value`` written in ``box`` (unchecked; see check_write)."""
    return {**marks, "boxes": {**marks["boxes"], box: value}}


def check_connect(layout: Layout, marks: Mapping, connection: str) -> None:
    """Check that ``connection`` may be filled (rules/star-maps.md, "Make a Connection").

    :raises IllegalMove: ``no-such-connection``, ``connection-filled``.
    """
    if connection not in layout.connections:
        raise IllegalMove(
            "no-such-connection", f"There is no connection {connection} on sheet {layout.title}."
        )
    if connection in marks["connections"]:
        raise IllegalMove("connection-filled", f"Connection {connection} is already filled.")


def open_connections(layout: Layout, marks: Mapping) -> list[str]:
    """Return the connections not yet filled, in printed order."""
    return [c for c in layout.connections if c not in marks["connections"]]


def connect(layout: Layout, marks: Mapping, connection: str) -> dict:
    """Return new marks with ``connection`` filled (unchecked; see check_connect)."""
    filled = set(marks["connections"]) | {connection}
    return {**marks, "connections": [c for c in layout.connections if c in filled]}
