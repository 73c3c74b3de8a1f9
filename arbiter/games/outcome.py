"""A finished game's result in words, for mails and pages.

A result is ``{"scores": [...], "ranking": [[seat, ...], ...], "reason": ...,
"resigned": [seat, ...]}`` (:mod:`arbiter.games.transition`); a game ended by
resignation has no scores (each is ``None``), so the words say who resigned and the
ranking instead of "Ann: None".
"""

from __future__ import annotations


def has_scores(result: dict) -> bool:
    """True when at least one seat of ``result`` has a score (not ``None``)."""
    return any(score is not None for score in result.get("scores") or [])


def score_text(result: dict, seat: int) -> str:
    """Return ``seat``'s score as text, or "-" when it has none."""
    scores = result.get("scores") or []
    score = scores[seat] if seat < len(scores) else None
    return "-" if score is None else str(score)


def outcome_lines(result: dict, names: dict[int, str]) -> list[str]:
    """Return the lines that tell how a game ended: who resigned (if any), the scores
    (only when there are any) and the ranking, best first.

    :param names: each seat's name by seat number.
    """

    def name(seat: int) -> str:
        return names.get(seat, f"seat {seat}")

    if result.get("reason") == "aborted":
        return ["The players agreed to abort the game: no scores, and it is not rated."]
    lines = []
    resigned = result.get("resigned") or []
    if resigned:
        lines.append(f"Resigned: {', '.join(name(s) for s in resigned)}.")
    if has_scores(result):
        lines += ["Scores:", *(f"  {name(s)}: {score_text(result, s)}" for s in sorted(names))]
    else:
        lines.append("No scores: the game ended before it was scored.")
    ranking = "; ".join(", ".join(name(s) for s in group) for group in result.get("ranking") or [])
    lines.append(f"Ranking, best first: {ranking}")
    return lines
