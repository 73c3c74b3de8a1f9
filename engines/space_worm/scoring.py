"""Space Worm scoring: fruit points, Hearts, the unvisited-Planet penalty, the result.

All functions read a player's sheet from the game state (see ``rules.py`` for its
shape) and return plain JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import ranking_from_scores
from engines.space_worm.sheet import Sheet

HEART_VP = 2
"""VP for each Heart not coloured in (rules/space-worm.md, "Scoring")."""


def planet_penalty(missed: int) -> int:
    """Return the VP lost for ``missed`` Planets not eaten: the triangular number.

    The rulebook's table (rules/space-worm.md, "Scoring") gives 1, 3, 6, 10, 15, 21,
    28, 36 for 1 to 8; the components page (shared/components/space-worm.md, "Not
    known") extends it as triangular numbers for any count. ``0`` gives ``0``.

    :raises ValueError: ``missed`` is negative.
    """
    if missed < 0:
        raise ValueError("a count of Planets cannot be negative")
    return missed * (missed + 1) // 2


def fruit_points(sheet: Sheet, player: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Return per fruit type ``{"track": int | None, "plus": int, "points": int}``.

    ``track`` is the number written when the player completed that fruit type (``None``
    while not completed); ``plus`` the +1 marks made; ``points`` what counts: track
    number plus +1 marks once completed, else 0 (+1 marks count only when the player
    completes that fruit type: shared/components/space-worm.md, "Decisions";
    rules/space-worm.md, "Fruit").
    """
    out = {}
    for fruit in sheet.fruits:
        mine = player["fruit"][fruit.type]
        scored = mine["scored"]
        points = 0 if scored is None else scored + mine["plus"]
        out[fruit.type] = {"track": scored, "plus": mine["plus"], "points": points}
    return out


def breakdown(sheet: Sheet, player: Mapping[str, Any]) -> dict[str, Any]:
    """Return one player's score and its parts (rules/space-worm.md, "Scoring").

    ``{"fruit": {type: {...}}, "fruit_points": int, "hearts_coloured": int,
    "heart_points": int, "planets_eaten": [int], "planets_missed": [int],
    "planet_penalty": int, "score": int}``, where score = fruit_points + heart_points
    - planet_penalty.
    """
    fruit = fruit_points(sheet, player)
    fruit_total = sum(f["points"] for f in fruit.values())
    hearts = player["hearts"]
    heart_points = HEART_VP * (sheet.hearts - hearts)
    eaten = sorted(player["planets"])
    missed = [p for p in sheet.planets if p not in eaten]
    penalty = planet_penalty(len(missed))
    return {
        "fruit": fruit,
        "fruit_points": fruit_total,
        "hearts_coloured": hearts,
        "heart_points": heart_points,
        "planets_eaten": eaten,
        "planets_missed": missed,
        "planet_penalty": penalty,
        "score": fruit_total + heart_points - penalty,
    }


def final_result(sheet: Sheet, state: Mapping[str, Any], reason: str, seat: int) -> dict[str, Any]:
    """Return the ``Over`` result: scores, ranking (ties share a place), reason, details.

    :param reason: ``"all-hearts"`` or ``"all-fruit"`` (rules/space-worm.md, "Game End");
    :param seat: the seat whose move ended the game.
    """
    details = [dict(breakdown(sheet, p), seat=s) for s, p in enumerate(state["sheets"])]
    scores = [d["score"] for d in details]
    if reason == "all-hearts":
        text = f"Seat {seat} coloured in all {sheet.hearts} Hearts."
    else:
        text = f"Seat {seat} went through every fruit space on their map."
    return {
        "scores": scores,
        "ranking": ranking_from_scores(scores),
        "reason": reason,
        "ended_by": seat,
        "text": text,
        "round": state["round"],
        "details": details,
    }
