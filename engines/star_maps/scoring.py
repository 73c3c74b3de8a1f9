"""Final scoring, the ranking, and the losers' vote for a new bonus.

rules/star-maps.md, "Final Scoring": a seat adds the values of its filled-out stars of each
type (stars of a locked arm do not count, "Arms"; unlocked pre-filled stars count,
"Lock/Unlock", once their two boxes are filled), plus the sheet's own scoring rules
(data, read by :func:`rule_count`).
Highest total wins; a tie goes to the seat that used fewer bonuses; a tie on both is
shared. rules/star-maps.md, "Bonuses": after a multiplayer game the losers choose one new
bonus together; here each loser votes and :func:`tally` settles it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engines.base import ranking_from_scores
from engines.star_maps import sheet as sh
from engines.star_maps.bonuses import BONUS_IDS, NO_BONUS
from engines.star_maps.sheet import Layout


def rule_count(
    layout: Layout,
    marks: Mapping,
    rule: Mapping,
    complete: Sequence[int] | None = None,
    arms: Sequence[str] | None = None,
) -> int:
    """Return how many times a sheet rule scores its points.

    ``per-complete-type``: each type whose stars are all found (pre-filled ones unlocked);
    ``per-unlocked-arm``: each arm whose lock is open. ``complete`` and ``arms`` are
    ``sheet.complete_types`` and ``sheet.unlocked_arms`` of ``marks``, if known.
    """
    if rule["rule"] == "per-complete-type":
        return len(sh.complete_types(layout, marks) if complete is None else complete)
    if rule["rule"] == "per-unlocked-arm":
        return len(sh.unlocked_arms(layout, marks) if arms is None else arms)
    raise ValueError(f"unknown sheet rule {rule['rule']!r}")


def score_marks(layout: Layout, marks: Mapping) -> dict:
    """Return a seat's score breakdown; ``total`` is the sum of ``by_type`` and
    ``sheet_points`` (rules/star-maps.md, "Final Scoring")."""
    arms = sh.unlocked_arms(layout, marks)
    complete = sh.complete_types(layout, marks)
    by_type = {str(die): 0 for die in layout.types}
    counted: dict[str, int] = {}
    locked: dict[str, int] = {}
    for star_id, star in layout.stars.items():
        value = sh.star_value(layout, marks, star_id)
        # a star that is not pre-filled holds a value only once found
        if value is None or (star.value is not None and not sh.is_found(layout, marks, star_id)):
            continue
        if sh.is_unlocked(layout, marks, star_id, arms):
            counted[star_id] = value
            by_type[str(star.type)] += value
        else:
            locked[star_id] = value
    rules = []
    for rule in layout.scoring:
        count = rule_count(layout, marks, rule, complete, arms)
        rules.append(
            {
                "rule": rule["rule"],
                "points": rule["points"],
                "count": count,
                "score": count * rule["points"],
            }
        )
    sheet_points = sum(r["score"] for r in rules)
    return {
        "by_type": by_type,
        "stars": counted,
        "locked_stars": locked,
        "complete_types": complete,
        "unlocked_arms": arms,
        "sheet_rules": rules,
        "sheet_points": sheet_points,
        "bonuses_used": list(marks["bonuses_used"]),
        "total": sum(by_type.values()) + sheet_points,
    }


def rank(scores: Sequence[int], bonuses_used: Sequence[int]) -> list[list[int]]:
    """Return ranking groups, best first: higher score, then fewer bonuses used; seats
    equal on both share a group (rules/star-maps.md, "Final Scoring")."""
    return ranking_from_scores(scores, [-n for n in bonuses_used])


def final(layout: Layout, all_marks: Sequence[Mapping]) -> dict:
    """Return the result without the vote: ``scores``, ``ranking``, ``details`` (one
    :func:`score_marks` per seat), ``winners`` and ``losers``."""
    details = [{"seat": seat, **score_marks(layout, marks)} for seat, marks in enumerate(all_marks)]
    scores = [d["total"] for d in details]
    ranking = rank(scores, [len(d["bonuses_used"]) for d in details])
    return {
        "scores": scores,
        "ranking": ranking,
        "details": details,
        "winners": ranking[0],
        "losers": sorted(s for g in ranking[1:] for s in g),
    }


def tally(votes: Sequence[str | None]) -> str | None:
    """Return the bonus with most votes, a tie going to the one earlier in the bonus list
    (``bonuses.json``); None without votes for a bonus. Votes are counted, so their order
    is irrelevant. ``None`` is a seat that does not vote; :data:`NO_BONUS` a vote for no
    bonus, which wins only with more votes than every bonus: on a tie
    the losers have still cooperated to choose one."""
    cast = [v for v in votes if v is not None]
    bonuses = sorted({v for v in cast if v != NO_BONUS}, key=BONUS_IDS.index)
    if not bonuses:
        return None
    best = max(bonuses, key=cast.count)
    return None if cast.count(NO_BONUS) > cast.count(best) else best
