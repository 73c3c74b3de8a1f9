"""The rules of Space Worm as pure functions of a JSON state (rules/space-worm.md).

The state (plain JSON, never changed in place; every function returns a new one)::

    {"sheet": "level1",            the sheet's name (sheet.py)
     "players": 3,
     "phase": "start-roll" | "round-roll" | "draft" | "over",
     "round": 0,                   0 before the first round, then 1, 2, ...
     "start_player": 0,            the seat holding the start player marker
     "to_move": 1 | null,          the seat choosing a die now (phase "draft")
     "start_roll_rule": "each" | "shared",   who rolls for the start Planet
     "hungriest": 0,               the first start player (option ``hungriest_seat``)
     "start_roll": [3, 4] | null,  the shared start roll and
     "start_planet": 4 | null,     the Planet it gave (null with "each")
     "start_rolls": [[3, 4] | null, ...],   each seat's start roll ("each"; "shared":
                                   the shared roll for every seat)
     "dice": [pips, ...],          this round's 8 dice (colours: the sheet, by index)
     "taken": [seat | null, ...],  who took each die this round
     "tracks": {"apple": [12, 9, ...]},   numbers still open on each shared fruit track
     "claims": [{"seat", "fruit", "value", "plus", "round"}],   fruit completions, in order
     "sheets": [{"path": [cell, ...],     the worm's path; its last cell is its position
                 "hearts": 0,             Hearts coloured in
                 "planets": [4],          Planets eaten, ascending
                 "fruit": {"apple": {"eaten": 0, "plus": 0, "scored": null}}}],
     "result": null | {...}}       the Over result once the game has ended

A cell is ``row * width + column`` on the sheet. "The hungriest player" (rules/space-worm.md,
"Turns") is the first start player: seat ``hungriest`` (default 0).

Rules versions (a game keeps the rules it was created with): version 1 had one shared
start roll and seat 0 as the hungriest player, and its states lack ``start_roll_rule``,
``hungriest`` and ``start_rolls`` (read as ``"shared"``, 0 and the shared roll).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import BadOutcome, IllegalMove, shown
from engines.space_worm.moves import heart_move, line_move
from engines.space_worm.scoring import final_result
from engines.space_worm.sheet import DIRECTIONS, Sheet, get_sheet

State = dict[str, Any]

START_ROLL, ROUND_ROLL, DRAFT, OVER = "start-roll", "round-roll", "draft", "over"
EACH, SHARED = "each", "shared"
START_ROLL_RULES = (EACH, SHARED)
"""Option ``start_roll``: each player rolls for their own sheet, or one shared roll."""


# --------------------------------------------------------------------------- setup


def new_game(sheet: Sheet, players: int, start_roll: str = EACH, hungriest: int = 0) -> State:
    """Return the state before the start roll: one empty sheet per seat.

    rules/space-worm.md, "Setup": "Each player takes a sheet and a pen."
    ``start_roll``: :data:`EACH` (every seat rolls its own start Planet) or :data:`SHARED`
    (one roll for all); ``hungriest``: the seat that is the first start player ("Turns").
    """
    empty = {f.type: {"eaten": 0, "plus": 0, "scored": None} for f in sheet.fruits}
    return {
        "sheet": sheet.name,
        "players": players,
        "phase": START_ROLL,
        "round": 0,
        "start_player": hungriest,
        "to_move": None,
        "start_roll_rule": start_roll,
        "hungriest": hungriest,
        "start_roll": None,
        "start_planet": None,
        "start_rolls": [None] * players,
        "dice": [],
        "taken": [],
        "tracks": {f.type: list(f.track) for f in sheet.fruits},
        "claims": [],
        "sheets": [
            {
                "path": [],
                "hearts": 0,
                "planets": [],
                "fruit": {k: dict(v) for k, v in empty.items()},
            }
            for _ in range(players)
        ],
        "result": None,
    }


def sheet_of(state: Mapping[str, Any]) -> Sheet:
    """Return the :class:`Sheet` the game is played on."""
    return get_sheet(state["sheet"])


# --------------------------------------------------------------------------- chance


def chance_spec(state: Mapping[str, Any]) -> dict | None:
    """Return the dice roll the game waits for, or ``None`` when it waits for none.

    - phase ``start-roll``: ``{"kind": "dice", "faces": [6, 6], "for": "start-planet",
      "seat": s}``, the start roll of seat ``s`` (rule ``each``: one public roll per seat,
      from the hungriest player clockwise), or without ``seat`` the one roll shared by
      every player (rule ``shared``) (rules/space-worm.md, "Setup": "Roll 2 dice and
      colour in the Planet of the number you rolled");
    - phase ``round-roll``: the start player's roll of all 8 dice (rules/space-worm.md,
      "Turns"): ``{"kind": "dice", "faces": [6] * 8, "for": "round", "round": n,
      "colours": [...], "roller": seat}``.
    """
    sheet = sheet_of(state)
    if state["phase"] == START_ROLL:
        spec = {"kind": "dice", "faces": [sheet.die_faces] * 2, "for": "start-planet"}
        seat = next_start_roller(state)
        return spec if seat is None else {**spec, "seat": seat}
    if state["phase"] == ROUND_ROLL:
        return {
            "kind": "dice",
            "faces": [sheet.die_faces] * len(sheet.dice_colours),
            "for": "round",
            "round": state["round"],
            "colours": list(sheet.dice_colours),
            "roller": state["start_player"],
        }
    return None


def resolve(state: Mapping[str, Any], outcome: Any) -> State:
    """Apply the outcome of the roll asked for by :func:`chance_spec`; return the state.

    :raises BadOutcome: ``no-chance-pending`` when no roll is awaited, ``bad-outcome``
        when the outcome is not one whole number of pips per die of the spec.
    """
    spec = chance_spec(state)
    if spec is None:
        raise BadOutcome("no-chance-pending", "The game is not waiting for a dice roll now.")
    faces = spec["faces"]
    if (
        not isinstance(outcome, list)
        or len(outcome) != len(faces)
        or any(type(v) is not int or not 1 <= v <= f for v, f in zip(outcome, faces))
    ):
        raise BadOutcome(
            "bad-outcome",
            f"Expected {len(faces)} dice showing 1 to {faces[0]} pips each, got {shown(outcome)}.",
        )
    if state["phase"] == START_ROLL:
        return _start_planet(state, outcome)
    return _round_roll(state, outcome)


def next_start_roller(state: Mapping[str, Any]) -> int | None:
    """Return the seat whose own start roll is due (rule ``each``: seats roll in turn
    from the hungriest player clockwise), or None under the shared roll."""
    if state.get("start_roll_rule", SHARED) != EACH:
        return None
    n, first = state["players"], state["hungriest"]
    return next((first + i) % n for i in range(n) if state["start_rolls"][(first + i) % n] is None)


def _start_planet(state: Mapping[str, Any], roll: list[int]) -> State:
    """Put the worm of the seat that rolled (every worm, for the shared roll) on the
    Planet of the roll's sum; that Planet counts as eaten. Once every worm is placed,
    the first round's roll is due.

    rules/space-worm.md, "Setup": "colour in the Planet of the number you rolled";
    shared/components/space-worm.md, "Decisions": the start Planet counts as eaten.
    """
    sheet = sheet_of(state)
    planet = sheet.start_by_sum[sum(roll)]
    placed = {"path": [sheet.planet_cell[planet]], "planets": [planet]}
    seat = next_start_roller(state)
    if seat is None:
        sheets = [dict(p, **placed) for p in state["sheets"]]
        return dict(
            state,
            phase=ROUND_ROLL,
            round=1,
            start_roll=list(roll),
            start_planet=planet,
            start_rolls=[list(roll)] * state["players"],
            sheets=sheets,
        )
    sheets = [dict(p, **placed) if s == seat else p for s, p in enumerate(state["sheets"])]
    rolls = [list(roll) if s == seat else r for s, r in enumerate(state["start_rolls"])]
    new = dict(state, sheets=sheets, start_rolls=rolls)
    if all(r is not None for r in rolls):
        new.update(phase=ROUND_ROLL, round=1)
    return new


def _round_roll(state: Mapping[str, Any], dice: list[int]) -> State:
    """Start the draft of the rolled dice with the start player (rules, "Turns")."""
    return dict(
        state, phase=DRAFT, dice=list(dice), taken=[None] * len(dice), to_move=state["start_player"]
    )


# --------------------------------------------------------------------------- lines


def blocker(
    sheet: Sheet, visited: set[int] | frozenset[int], cell: int, direction: str, pips: int
) -> str | None:
    """Return why a line of ``pips`` from ``cell`` towards ``direction`` is not allowed.

    ``None`` when it is allowed; else the first obstacle met along the line:
    ``blocked-path`` (a space already visited, rules/space-worm.md, "Turns": "You
    cannot move to or through a space you have already been to") or ``off-the-map``
    ("cannot move beyond the edges of the map"; the full distance is required).
    """
    ray = sheet.rays[cell][direction]
    for step in ray[:pips]:
        if step in visited:
            return "blocked-path"
    if len(ray) < pips:
        return "off-the-map"
    return None


def open_directions(sheet: Sheet, player: Mapping[str, Any], pips: int) -> list[str]:
    """Return the directions in which the worm can draw a line of exactly ``pips``.

    In the order of ``sheet.DIRECTIONS`` (up, right, down, left).
    """
    path = player["path"]
    visited, cell = set(path), path[-1]
    return [d for d in DIRECTIONS if blocker(sheet, visited, cell, d, pips) is None]


def legal_moves(state: Mapping[str, Any], seat: int) -> list[dict]:
    """Return every legal move of ``seat``; ``[]`` when it is not that seat's turn.

    Order (so the first one is the timeout move): dice by index ascending; for each
    die its open directions up, right, down, left, or ``heart`` when it has none
    (shared/components/space-worm.md, "Decisions": a die that can move must move).
    """
    if state["phase"] != DRAFT or state["to_move"] != seat:
        return []
    sheet = sheet_of(state)
    player = state["sheets"][seat]
    moves: list[dict] = []
    by_pips: dict[int, list[str]] = {}
    for die, pips in enumerate(state["dice"]):
        if state["taken"][die] is not None:
            continue
        if pips not in by_pips:
            by_pips[pips] = open_directions(sheet, player, pips)
        directions = by_pips[pips]
        if directions:
            moves.extend(line_move(die, d) for d in directions)
        else:
            moves.append(heart_move(die))
    return moves


# --------------------------------------------------------------------------- play


def check_move(state: Mapping[str, Any], seat: int, die: int, direction: str | None) -> None:
    """Check a well-formed move of the seat to move against the rules.

    :raises IllegalMove: ``no-such-die``, ``die-taken``, ``must-move`` (a Heart while the
        die can move), ``off-the-map`` or ``blocked-path`` (rules/space-worm.md, "Turns").
    """
    dice = state["dice"]
    if not 0 <= die < len(dice):
        raise IllegalMove(
            "no-such-die",
            f"There is no die {die}: this round's dice are numbered 0 to {len(dice) - 1}.",
        )
    if state["taken"][die] is not None:
        raise IllegalMove(
            "die-taken",
            f"Die {die} was already taken this round by seat "
            f"{state['taken'][die]}; choose another die.",
        )
    sheet = sheet_of(state)
    player = state["sheets"][seat]
    pips = dice[die]
    if direction is None:
        open_ = open_directions(sheet, player, pips)
        if open_:
            raise IllegalMove(
                "must-move",
                f"Die {die} ({pips}) can still be moved "
                f"({', '.join(open_)}), so you must move it "
                f"instead of colouring a Heart.",
            )
        return
    reason = blocker(sheet, set(player["path"]), player["path"][-1], direction, pips)
    if reason == "off-the-map":
        raise IllegalMove(
            "off-the-map",
            f"A line of {pips} {direction} would leave the map; you must move the full distance.",
        )
    if reason == "blocked-path":
        raise IllegalMove(
            "blocked-path",
            f"A line of {pips} {direction} would go into or "
            f"through a space your worm has already been to.",
        )


def play(state: Mapping[str, Any], seat: int, die: int, direction: str | None) -> State:
    """Apply a checked move of the seat to move and return the new state.

    Takes the die; draws the line (eating Planets and fruit, scoring completed fruit
    types) or colours a Heart; ends the game at once if that seat now has all Hearts
    coloured or has gone through every fruit space (rules/space-worm.md, "Game End");
    else passes the turn clockwise, or, once every die is taken, passes the start
    player marker one seat clockwise and asks for the next roll ("Turns").

    :raises IllegalMove: see :func:`check_move`.
    """
    check_move(state, seat, die, direction)
    sheet = sheet_of(state)
    taken = list(state["taken"])
    taken[die] = seat
    new = dict(state, taken=taken)
    player = state["sheets"][seat]
    if direction is None:
        player = dict(player, hearts=player["hearts"] + 1)
    else:
        cells = sheet.rays[player["path"][-1]][direction][: state["dice"][die]]
        player = _eat(new, sheet, seat, player, cells, sheet.dice_colours[die])
    sheets = list(state["sheets"])
    sheets[seat] = player
    new["sheets"] = sheets
    return _after_move(new, sheet, seat, player)


def _eat(
    new: State,
    sheet: Sheet,
    seat: int,
    player: Mapping[str, Any],
    cells: tuple[int, ...],
    colour: str,
) -> dict:
    """Return the player's sheet after going through ``cells`` with a die of ``colour``.

    Planets on the line are eaten. Each fruit space counts as eaten, and earns a +1
    mark when the die's colour is that fruit's colour. When the line completes a fruit
    type, the player scores the highest number still open on its track (0 when none
    is left) and that number is coloured for everyone, in the order the line completes
    them (rules/space-worm.md, "Fruit"). Sets ``new["tracks"]``/``new["claims"]``.
    """
    planets = player["planets"]
    fruit = player["fruit"]
    changed: dict[str, dict] = {}
    completed: list[str] = []
    for cell in cells:
        if cell in sheet.planet_at and sheet.planet_at[cell] not in planets:
            planets = sorted([*planets, sheet.planet_at[cell]])
        fruit_type = sheet.fruit_at.get(cell)
        if fruit_type is None:
            continue
        mine = changed.setdefault(fruit_type, dict(fruit[fruit_type]))
        mine["eaten"] += 1
        spec = sheet.fruit(fruit_type)
        if spec.colour == colour:
            mine["plus"] += 1
        if mine["eaten"] == len(spec.spaces):
            completed.append(fruit_type)
    if changed:
        fruit = dict(fruit, **changed)
    if completed:
        tracks = dict(new["tracks"])
        claims = list(new["claims"])
        for fruit_type in completed:
            open_ = tracks[fruit_type]
            value = open_[0] if open_ else 0
            tracks[fruit_type] = open_[1:]
            fruit[fruit_type]["scored"] = value
            claims.append(
                {
                    "seat": seat,
                    "fruit": fruit_type,
                    "value": value,
                    "plus": fruit[fruit_type]["plus"],
                    "round": new["round"],
                }
            )
        new["tracks"], new["claims"] = tracks, claims
    return dict(player, path=[*player["path"], *cells], planets=planets, fruit=fruit)


def _after_move(new: State, sheet: Sheet, seat: int, player: Mapping[str, Any]) -> State:
    """End the game, pass the turn, or end the round (see :func:`play`)."""
    reason = None
    if player["hearts"] >= sheet.hearts:
        reason = "all-hearts"
    elif all(f["scored"] is not None for f in player["fruit"].values()):
        reason = "all-fruit"
    if reason:
        new.update(phase=OVER, to_move=None)
        new["result"] = final_result(sheet, new, reason, seat)
        return new
    if all(t is not None for t in new["taken"]):
        new.update(
            phase=ROUND_ROLL,
            to_move=None,
            round=new["round"] + 1,
            start_player=(new["start_player"] + 1) % new["players"],
        )
    else:
        new["to_move"] = (seat + 1) % new["players"]
    return new
