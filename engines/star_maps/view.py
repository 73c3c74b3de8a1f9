"""What a seat sees, and the few lines of a "your turn" mail.

Star Maps hides nothing: every sheet is public and the dice are announced aloud
(rules/star-maps.md, "Roll Phase"), so every seat and a spectator get the same view, with
``seat`` naming the viewer. The view says which seats still owe an answer this round
(``to_answer``), which have answered, and which cannot move (the game then ends after the
round, "Choose Phase", note).
"""

from __future__ import annotations

from collections.abc import Mapping

from engines.star_maps import bonuses as bz
from engines.star_maps import notation, rules, scoring
from engines.star_maps import sheet as sh
from engines.star_maps.sheet import Layout


def layout_view(layout: Layout) -> dict:
    """Return the printed sheet as JSON: types, boxes, stars with their two boxes (and the
    connection each box needs, if any), connections, arms, locks, scoring rules."""
    return {
        "id": layout.id,
        "title": layout.title,
        "types": {str(die): name for die, name in layout.types.items()},
        "boxes": list(layout.boxes),
        "stars": {
            s.id: {
                "type": s.type,
                "value": s.value,
                "arm": s.arm,
                "boxes": [{"box": box, "via": via} for box, via in s.links],
            }
            for s in layout.stars.values()
        },
        "connections": {cid: list(ids) for cid, ids in layout.connections.items()},
        "arms": {aid: dict(arm) for aid, arm in layout.arms.items()},
        "locks": {lid: dict(lock) for lid, lock in layout.locks.items()},
        "scoring": [dict(rule) for rule in layout.scoring],
    }


def marks_view(layout: Layout, marks: Mapping) -> dict:
    """Return one seat's sheet: what it wrote, the value each star holds (None if not
    found), open locks, unlocked arms, complete types, bonuses used and its score so far."""
    return {
        "boxes": dict(marks["boxes"]),
        "connections": list(marks["connections"]),
        "stars": {s: sh.star_value(layout, marks, s) for s in layout.stars},
        "open_locks": sh.open_locks(layout, marks),
        "unlocked_arms": sh.unlocked_arms(layout, marks),
        "complete_types": sh.complete_types(layout, marks),
        "bonuses_used": list(marks["bonuses_used"]),
        "score": scoring.score_marks(layout, marks)["total"],
    }


def view(game: rules.Game, state: Mapping, seat: int | None) -> dict:
    """Return the public view of the game for ``seat`` (``None``: a spectator)."""
    layout = game.sheets[state["sheet"]]
    return {
        "seat": seat,
        "round": state["round"],
        "phase": state["phase"],
        "roll": state["roll"],
        "to_answer": rules.owing(state),
        "answered": list(state["answered"]),
        "cannot_move": list(state["stuck"]),
        "last_round": bool(state["stuck"]) or state["phase"] in (rules.VOTE, rules.OVER),
        "unlocked_bonuses": list(state["unlocked"]),
        "bonus_limit": bz.BONUS_LIMIT,
        "unlocked_in_play": [dict(u) for u in state.get("unlocks", [])],
        "bonuses": {
            b: {
                "name": bz.CATALOG[b]["name"],
                "text": bz.CATALOG[b]["text"],
                "unlocked_by": bz.CATALOG[b].get("unlocked_by"),
            }
            for b in game.bonuses
        },
        "sheet": layout_view(layout),
        "sheets": [{"seat": s, **marks_view(layout, m)} for s, m in enumerate(state["marks"])],
        "voters": list(state["voters"]),
        "votes": list(state["votes"]),
        "result": state["result"],
    }


def brief(game: rules.Game, state: Mapping, seat: int) -> str:
    """Return the lines of a "your turn" mail: the roll and what each die picks (the
    mail lists the moves themselves, once), or the bonuses a loser may vote for."""
    layout = game.sheets[state["sheet"]]
    if seat not in rules.owing(state):
        return "You owe no move now."
    if state["phase"] == rules.VOTE:
        lines = [
            "The last round is played and you are among the losers: choose one new "
            "bonus for the campaign. Most votes wins; a tie goes to the bonus listed "
            "first."
        ]
        lines += [
            f"- choose {b}: {bz.CATALOG[b]['name']}, {bz.CATALOG[b]['text']}"
            for b in rules.candidates(game, state)
        ]
        if bz.NO_BONUS in rules.vote_choices(game, state):
            lines.append(
                "- choose none: no new bonus (it wins only with more votes than every bonus)"
            )
        return "\n".join(lines)
    a, b = state["roll"]
    moves = rules.legal_moves(game, state, seat)
    lines = [f"Round {state['round']}: the dice show {a} and {b}."]
    for die, value in sh.dice_pairs((a, b)):
        if any(m["act"] == "dice" and m["star"] == die for m in moves):
            lines.append(
                f"Use the dice: die {die} picks {layout.types[die]} stars (star {die}), "
                f"and {value} goes in a box."
            )
    if any(m["act"] == "connect" for m in moves):
        lines.append("Or make a connection.")
    with_bonus = [m for m in moves if "bonuses" in m]
    if with_bonus:
        lines.append(
            f"{len(with_bonus)} moves find the last star of a type and may add a "
            f"bonus, for example: {notation.describe(with_bonus[0])}."
        )
    return "\n".join(lines)
