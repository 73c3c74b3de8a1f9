"""The Dutch criteria as edge weights of a maximum-weight matching.

As bbpPairings does (and as the FIDE "Pairing Guidelines for Programmers" allow), every
possible pair of two players gets one integer whose bits hold, from the most significant
down, how much the pair serves each criterion; a matching of the greatest total weight
then satisfies the criteria in their order of priority. Each criterion is a *field* wide
enough that no sum over a matching can carry into the field above, so sums compare
field by field (lexicographically). The fields, from the top:

1. compatibility: the pair may meet at all (C.1 no second game, C.3 no two players with
   the same absolute colour preference, except topscorers in the last round); weight 0
   otherwise. ``relax`` > 0 loosens these when nothing else pairs everyone (see
   ``RELAXATIONS``).
2. completion (C.4, and C.2 for the bye): 1 + each player of the pair who may not have
   the pairing-allocated bye, so the one left over is one who may. When repeats are
   allowed (``relax`` >= 2), a field just below counts the pairs that never met.
3. pairs in the bracket being paired, then the scores of those pairs' higher players,
   one sub-field per scoregroup from the top (C.5 maximise pairs, C.6 minimise score
   differences).
4. the same for the next bracket (C.7: the downfloaters chosen so the next bracket pairs
   best).
5. when the bracket's downfloater will be the one left over: the fewer games a player
   has played, the more pairing him counts (C.9 of the 2025 rules: minimise the unplayed
   games of the bye's receiver).
6. colours, in the bracket: topscorers kept within a colour difference of 2 and off a
   third colour in a row (C.10, C.11), preferences met (C.12), strong ones (C.13).
7. floats, in the bracket: no second downfloat or upfloat in a row or two rounds apart
   (C.14-C.17), then the scores of those who float again (C.18-C.21).
Below the fields, ``Layout.order_bits`` are left for the bracket's own order of choice
(``dutch`` adds them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from arbiter.tournaments.formats.dutch_state import DOWN, UP, Player, invert

RELAXATIONS = (
    "none",
    "the bye may go to a player who had one (fewest first)",
    "players may meet again (fewest repeats)",
    "two players with the same absolute colour preference may meet",
)
"""What each ``relax`` level gives up, cumulatively, when the rules leave no pairing."""


@dataclass
class Criteria:
    """What the weights of one round depend on (and the criteria as functions).

    order: the players in pairing order (score, then pairing number), index = vertex.
    met: {frozenset(pair): games played}; bye_score: the lowest score the bye can go to
    (None with an even number); single: the downfloater of the current bracket will be
    the bye (criterion 5 applies); played_rounds / last_round: where we are; topscore:
    above this score a player is a topscorer (last round only); relax: see RELAXATIONS.
    """

    order: list[Player]
    met: dict
    played_rounds: int
    last_round: bool
    topscore: Fraction
    relax: int = 0
    bye_score: Fraction | None = None
    single: bool = False
    eligible: list[bool] = field(default_factory=list)
    unplayed_rank: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        scores = sorted({p.score for p in self.order}, reverse=True)
        self.group = [scores.index(p.score) for p in self.order]
        sizes = [self.group.count(g) for g in range(len(scores))]
        n = len(self.order)
        self.layout = Layout(n, sizes)
        if not self.eligible:
            self.eligible = [p.eligible_for_bye for p in self.order]

    def meetings(self, a: int, b: int) -> int:
        """Games vertices a and b played against each other."""
        return self.met.get(frozenset((self.order[a].id, self.order[b].id)), 0)

    def compatible(self, a: int, b: int) -> bool:
        """May vertices a and b meet (field 1)?"""
        pa, pb = self.order[a], self.order[b]
        if self.relax < 2 and self.meetings(a, b):
            return False
        if self.relax >= 3 or not (pa.absolute and pb.absolute):
            return True
        if pa.preference != pb.preference:
            return True
        return self.last_round and (pa.score > self.topscore or pb.score > self.topscore)

    def candidate(self, v: int) -> bool:
        """May vertex v be left over for the bye (field 2)?"""
        score = self.bye_score if self.bye_score is not None else 0
        return self.eligible[v] and self.order[v].score <= score

    def base(self, a: int, b: int, current: bool, following: bool) -> int:
        """The weight of the pair of vertices a < b (a ranked higher) when b is in the
        bracket being paired (``current``) or the next one (``following``); 0 when they
        may not meet."""
        if not self.compatible(a, b):
            return 0
        lay, values = self.layout, {}
        if self.relax >= 2:
            values["fresh"] = (
                0 if self.met.get(frozenset((self.order[a].id, self.order[b].id))) else 1
            )
        values["complete"] = 1 + (not self.candidate(a)) + (not self.candidate(b))
        high = self.group[a]
        if current:
            values["pairs"] = 1
            values[("scores", high)] = 1
        if following:
            values["next_pairs"] = 1
            values[("next_scores", high)] = 1
        if self.single:
            values["unplayed"] = self.unplayed_rank.get(a, 0) + self.unplayed_rank.get(b, 0)
        if current:
            self._colours(a, b, values)
            self._floats(a, b, values)
        return lay.fold(values)

    def _colours(self, a: int, b: int, values: dict) -> None:
        """Field 6 for a pair in the bracket (a higher, b lower)."""
        hi, lo = self.order[a], self.order[b]
        same = hi.preference == lo.preference
        values["c_imbalance"] = int(not (hi.absolute_imbalance and lo.absolute_imbalance and same))
        values["c_third"] = int(not (hi.absolute and lo.absolute and same) or _no_third(lo, hi))
        values["c_preference"] = int(not same or hi.preference is None)
        strong_hi = hi.strong or hi.absolute
        strong_lo = lo.strong or lo.absolute
        values["c_strong"] = int(
            not (strong_hi and strong_lo) or (hi.absolute and lo.absolute) or not same
        )

    def _floats(self, a: int, b: int, values: dict) -> None:
        """Field 7 for a pair in the bracket (a higher, b lower)."""
        hi, lo = self.order[a], self.order[b]
        higher = hi.score > lo.score
        for back, name in ((0, "last"), (1, "before")):
            if self.played_rounds <= back:
                continue
            down_lo = lo.floats[back] == DOWN
            down_hi = hi.floats[back] == DOWN
            values[f"down_{name}"] = down_lo + (not higher and down_hi)
            values[f"up_{name}"] = int(not (higher and lo.floats[back] == UP))
            scores = values.setdefault(f"down_scores_{name}", {})
            scores[self.group[b]] = scores.get(self.group[b], 0) + down_lo
            scores[self.group[a]] = scores.get(self.group[a], 0) + down_hi
            if not (lo.floats[back] == UP and higher):
                values[(f"up_scores_{name}", self.group[a])] = 1


def _no_third(player: Player, opponent: Player) -> bool:
    """Of two players with the same absolute colour preference, the one who will not get
    it (the smaller colour difference; on equal ones, either) does not get a third
    colour in a row (C.11, as bbpPairings decides it)."""
    if player.imbalance == opponent.imbalance:
        return player.repeated is None or player.repeated != opponent.repeated
    loser = opponent if player.imbalance > opponent.imbalance else player
    return loser.repeated != invert(player.preference)


SCALARS_TOP = ("complete", "fresh", "pairs")
SCALARS_MID = ("next_pairs",)
COLOURS = ("c_imbalance", "c_third", "c_preference", "c_strong")
FLOATS = ("down_last", "up_last", "down_before", "up_before")
VECTORS_LOW = ("down_scores_last", "up_scores_last", "down_scores_before", "up_scores_before")


class Layout:
    """Where each field sits in a weight (see the module); ``fold`` builds a weight."""

    def __init__(self, n: int, sizes: Sequence[int]) -> None:
        count = (3 * n + 1).bit_length() + 1
        group = [(s + 1).bit_length() + 1 for s in sizes]
        rank = (2 * n * n + 1).bit_length() + 1
        slots: list[tuple[object, int]] = []
        slots += [(name, count) for name in SCALARS_TOP]
        slots += [(("scores", g), w) for g, w in enumerate(group)]
        slots += [(name, count) for name in SCALARS_MID]
        slots += [(("next_scores", g), w) for g, w in enumerate(group)]
        slots += [("unplayed", rank)]
        slots += [(name, count) for name in COLOURS + FLOATS]
        for name in VECTORS_LOW:
            slots += [((name, g), w) for g, w in enumerate(group)]
        self.offset: dict = {}
        bit = 0
        for key, width in reversed(slots):
            self.offset[key] = bit
            bit += width
        self.bits = bit

    def fold(self, values: dict) -> int:
        """The weight holding ``values`` ({field: value}, a vector field's values as
        {group: value} or under (name, group))."""
        weight = 0
        for key, value in values.items():
            if isinstance(value, dict):
                for g, v in value.items():
                    weight += v << self.offset[(key, g)]
            elif value:
                weight += value << self.offset[key]
        return weight
