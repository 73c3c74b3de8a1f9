"""The FIDE (Dutch) System, C.04.3 (FIDE Handbook, the rules applied from 1 July 2025),
for 2-player games: one round's pairs and colours.

How (the method bbpPairings uses, the FIDE-endorsed engine we check against; its source
taught us how, this is our own code): the players are ordered by score, then pairing
number; brackets are paired from the top scoregroup down, each with the players moved
down from the one above. For each bracket one maximum-weight matching over *all* players
still unpaired (so the rest can always be completed, C.4) is taken with the criteria as
weights (``dutch_weights``), plus, below them, the bracket's own order of choice that the
rules' sequential generation of candidates would reach first:

1. moved-down players (MDPs): the higher ones are paired first, each with the highest
   resident possible (C.04.3 article 3: S1 = MDPs against S2 = residents, in order);
2. the remainder (the residents left): S1 = its first P players (P = the pairs it can
   make), S2 the rest; fewest exchanges between S1 and S2, then the smallest difference
   of the exchanged pairing numbers, then the lowest S1 players and the highest S2
   players exchanged, then each S1 player in order against the highest S2 player
   possible (articles 3 and 4: transpositions and exchanges).
Each of these is a lexicographic preference, so it is one more field of the weights and
one matching settles each step. The pairs the step makes are final; the players left
over move down to the next bracket.

With an odd number, one player is left over and receives the pairing-allocated bye: the
lowest score possible (completion first, C.4), then (2025 rules) the fewest unplayed
games. Colours follow C.04.3 article 5 (``dutch_colours``).

When the absolute criteria leave no pairing at all (small fields, many rounds), they are
given up one at a time, as ``dutch_weights.RELAXATIONS`` lists, rather than refusing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from arbiter.tournaments.formats import dutch_weights as dw
from arbiter.tournaments.formats.dutch_colours import colour
from arbiter.tournaments.formats.dutch_state import BLACK, WHITE, Player, players, units
from arbiter.tournaments.formats.history import Cell
from arbiter.tournaments.formats.matching import best_matching
from arbiter.tournaments.formats.model import Scoring


@dataclass(frozen=True)
class Pairing:
    """One round's outcome: boards as (white, black) in board order, and the bye.

    relaxed: how many of ``dutch_weights.RELAXATIONS`` had to be given up (0: none).
    """

    boards: tuple[tuple[str, str], ...]
    bye: str | None
    relaxed: int = 0


class Incomplete(Exception):
    """No pairing satisfies the criteria at this relaxation."""


def pair_round(
    seeding: Sequence[str],
    to_pair: Sequence[str],
    cells: Mapping[str, Sequence[Cell]],
    scoring: Scoring,
    total_rounds: int,
    initial_colour: str = WHITE,
) -> Pairing:
    """Pair the next round of a 2-player Swiss by the Dutch rules.

    Takes every entrant in pairing-number order (``seeding``: rating, then entry order;
    withdrawn ones too, they keep their numbers), those to pair now (``to_pair``: present
    and without a bye set for this round), every entrant's rounds so far
    (``history.record``, opponents included), the scoring, the tournament's number of
    rounds and the colour the top seed has in round 1. Returns the ``Pairing``.
    Raises ValueError when ``to_pair`` names someone not seeded, or a game so far has no
    result.
    """
    unknown = set(to_pair) - set(seeding)
    if unknown:
        raise ValueError(f"not seeded: {sorted(unknown)}")
    found = players(seeding, to_pair, cells, scoring)
    order = sorted(found, key=lambda p: (-p.score, p.rank))
    played_rounds = max((len(row) for row in cells.values()), default=0)
    met: dict = {}
    for entrant, row in cells.items():
        for cell in row:
            if cell.played and cell.opponent is not None:
                key = frozenset((entrant, cell.opponent))
                met[key] = met.get(key, 0) + 1
    best = max(units(scoring.place_points[0]), units(sum(scoring.place_points) / 2))
    topscore = Fraction(int(played_rounds * best * 10) // 2, 10)
    for relax in range(len(dw.RELAXATIONS)):
        context = dw.Criteria(
            order=order,
            met=met,
            played_rounds=played_rounds,
            last_round=played_rounds >= total_rounds - 1,
            topscore=topscore,
            relax=relax,
            eligible=_eligible(order, relax),
        )
        try:
            pairs, bye = Brackets(context).pair()
        except Incomplete:
            continue
        boards = [colour(order[a], order[b], initial_colour) for a, b in pairs]
        by_id = {p.id: p for p in order}
        boards.sort(key=lambda board: _board_key(by_id[board[0]], by_id[board[1]]))
        return Pairing(tuple(boards), order[bye].id if bye is not None else None, relax)
    raise AssertionError("the last relaxation always pairs")  # pragma: no cover


def _eligible(order: list[Player], relax: int) -> list[bool]:
    """Who may have the bye: C.2, or from the first relaxation on, those with the fewest
    byes and unplayed wins."""
    if relax == 0:
        return [p.eligible_for_bye for p in order]
    fewest = min((p.unplayed_wins for p in order), default=0)
    return [p.unplayed_wins == fewest for p in order]


def _board_key(white: Player, black: Player) -> tuple:
    """Board order (C.04.2: the higher player's score, the lower's, then the higher's
    pairing number)."""
    high, low = sorted((white, black), key=lambda p: (-p.score, p.rank))
    return (-high.score, -low.score, high.rank)


class Brackets:
    """The bracket-by-bracket procedure of one round (see the module)."""

    def __init__(self, context: dw.Criteria) -> None:
        self.ctx = context
        self.n = len(context.order)
        self.alive = set(range(self.n))
        self.weights: dict[tuple[int, int], int] = {}
        self.pairs: list[tuple[int, int]] = []
        self.first = self.n % 2 == 0
        groups: list[list[int]] = []
        for v, g in enumerate(context.group):
            if g == len(groups):
                groups.append([])
            groups[g].append(v)
        self.groups = groups

    def pair(self) -> tuple[list[tuple[int, int]], int | None]:
        """(pairs of vertices, the bye's vertex or None); raises ``Incomplete``."""
        if self.n == 0:
            return [], None
        self._start()
        mdps: list[int] = []
        residents = self.groups[0]
        for g in range(1, len(self.groups) + 1):
            following = self.groups[g] if g < len(self.groups) else []
            if len(mdps) + len(residents) <= 1 and not following:
                break
            mdps = self._bracket(mdps, residents, following)
            residents = following
        left = sorted(self.alive)
        return self.pairs, (left[0] if left else None)

    # ------------------------------------------------------------------ the start

    def _start(self) -> None:
        """With an odd number: check a complete pairing exists, find the lowest score
        the bye can go to (and whether criterion 5 applies to the top bracket). Set
        every pair's weight outside any bracket. (With an even number the first
        bracket's matching, whose top field is completion, is the check.)"""
        ctx, everyone = self.ctx, range(self.n)
        if self.n % 2:
            mate = best_matching(everyone, self._bye_weights())
            self._check(mate)
            left = next(v for v in everyone if v not in mate)
            ctx.bye_score = ctx.order[left].score
            top = ctx.order[0].score
            ctx.single = ctx.bye_score >= top and all(
                ctx.order[mate.get(v, v)].score >= top for v in self.groups[0]
            )
            same = [v for v in everyone if ctx.order[v].score == ctx.bye_score]
            counts = sorted((ctx.order[v].played for v in same), reverse=True)
            rank_of = {games: i for i, games in enumerate(counts)}
            ctx.unplayed_rank = {v: rank_of[ctx.order[v].played] for v in same}
        for b in everyone:
            for a in range(b):
                self.weights[(a, b)] = ctx.base(a, b, False, False)

    def _bye_weights(self) -> dict[tuple[int, int], int]:
        """Weights that find the lowest score the bye can go to: most pairs, most
        players who may not have the bye paired, the highest scores paired, then the
        most pairs inside the top scoregroup."""
        ctx, groups = self.ctx, len(self.groups)
        count = (3 * self.n + 1).bit_length() + 1
        widths = (count, count, (2 * self.n * groups + 1).bit_length() + 1, count)
        found = {}
        for b in range(self.n):
            for a in range(b):
                if not ctx.compatible(a, b):
                    continue
                fields = (
                    1 + (not ctx.eligible[a]) + (not ctx.eligible[b]),
                    int(ctx.relax >= 2 and not ctx.meetings(a, b)),
                    (groups - 1 - ctx.group[a]) + (groups - 1 - ctx.group[b]),
                    int(ctx.group[b] == 0),
                )
                found[(a, b)] = _pack(fields, widths)
        return found

    def _check(self, mate: Mapping[int, int]) -> None:
        """Raise ``Incomplete`` unless everyone but at most one eligible player is
        paired."""
        left = [v for v in range(self.n) if v not in mate]
        if len(left) > 1 or (left and not self.ctx.eligible[left[0]]):
            raise Incomplete

    # ------------------------------------------------------------------ a bracket

    def _bracket(self, mdps: list[int], residents: list[int], following: list[int]) -> list[int]:
        """Pair one bracket (MDPs + residents, the next scoregroup in view); return the
        players who move down."""
        ctx = self.ctx
        inside = mdps + residents
        view = inside + following
        for jb in range(len(mdps), len(view)):
            b = view[jb]
            if b not in self.alive:
                continue
            current = jb < len(inside)
            for a in view[:jb]:
                if a in self.alive:
                    self.weights[(a, b)] = ctx.base(a, b, current, not current)
        mate, settled = None, False
        if mdps:
            mate, settled = self._pair_mdps(mdps, residents)
        if not settled:
            remainder = [r for r in residents if r in self.alive]
            mate = self._pair_remainder(remainder, mate) or mate
        if self.first:
            mate = self._matching({}, 0)  # checks completion (see _matching)
        down = [v for v in inside if v in self.alive]
        self._single(down, following, mate)
        return down

    def _matching(self, extra: Mapping[tuple[int, int], int], bits: int) -> dict:
        """The best matching of the players still unpaired, with ``extra`` (order
        fields, ``bits`` wide) below the criteria."""
        weights = {}
        for (a, b), w in self.weights.items():
            if w and a in self.alive and b in self.alive:
                weights[(a, b)] = (w << bits) + extra.get((a, b), 0)
        mate = best_matching(self.alive, weights)
        if self.first:  # even number: the round's first matching checks completion
            self.first = False
            self._check(mate)
        return mate

    def _fix(self, a: int, b: int) -> None:
        self.pairs.append((a, b))
        self.alive -= {a, b}

    def _pair_mdps(self, mdps: list[int], residents: list[int]) -> tuple[dict, bool]:
        """Pair the MDPs that can be, the higher first, each with the highest resident
        possible (the step's order fields); return the matching, and whether it paired
        the remainder too.

        Below the MDPs' fields go the remainder's, for the remainder the MDPs most
        likely leave (``_likely_partners``): the MDPs' fields rank above, so their pairs
        are those of a matching without the remainder's fields; if the remainder left
        is the one guessed, with the pairs guessed, the remainder's pairs are those its
        own matching would make, and one matching did both steps."""
        m, r = len(mdps), len(residents)
        opp_bits = ((r + 1) ** m).bit_length() + 1
        guess = self._likely_partners(mdps, residents)
        rest = [v for v in residents if v not in guess]
        rest_extra, rest_bits = self._remainder_fields(rest, len(rest) // 2)
        extra = dict(rest_extra)
        for p, a in enumerate(mdps):
            for q, b in enumerate(residents):
                choose = 1 << (m - 1 - p)
                prefer = (r - q) * (r + 1) ** (m - 1 - p)
                extra[(a, b)] = ((choose << opp_bits) + prefer) << rest_bits
        mate = self._matching(extra, m + 1 + opp_bits + rest_bits)
        chosen = set(residents)
        for a in mdps:
            if mate.get(a) in chosen:
                self._fix(a, mate[a])
        remainder = [v for v in residents if v in self.alive]
        inside = set(remainder)
        pairs = sum(1 for v in remainder if mate.get(v, -1) in inside) // 2
        if remainder != rest or pairs != len(rest) // 2:
            return mate, False
        self._fix_remainder(remainder, mate)
        return mate, True

    def _likely_partners(self, mdps: list[int], residents: list[int]) -> set[int]:
        """The residents the MDPs will likely take: each MDP in order, the first resident
        left who may meet it with both colour preferences granted."""
        taken: set[int] = set()
        order = self.ctx.order
        for a in mdps:
            for b in residents:
                pa, pb = order[a].preference, order[b].preference
                agree = pa is None or pb is None or pa != pb
                if b not in taken and self.weights.get((a, b)) and agree:
                    taken.add(b)
                    break
        return taken

    def _pair_remainder(self, remainder: list[int], mate: dict | None) -> dict | None:
        """Pair the remainder (see the module); return the matching used, or None when
        nothing was to pair."""
        if len(remainder) < 2:
            return None
        inside = set(remainder)
        if mate is not None:
            guess = sum(1 for v in remainder if mate.get(v, -1) in inside) // 2
        else:
            guess = len(remainder) // 2
        found = self._matching(*self._remainder_fields(remainder, guess))
        pairs = sum(1 for v in remainder if found.get(v, -1) in inside) // 2
        if pairs != guess:
            found = self._matching(*self._remainder_fields(remainder, pairs))
        self._fix_remainder(remainder, found)
        return found

    def _fix_remainder(self, remainder: list[int], mate: Mapping[int, int]) -> None:
        """Make final the remainder's pairs in ``mate``."""
        position = {v: i for i, v in enumerate(remainder)}
        for i, a in enumerate(remainder):
            b = mate.get(a)
            if b in position and position[b] > i:
                self._fix(a, b)

    def _remainder_fields(self, remainder: list[int], s1: int) -> tuple[dict, int]:
        """(order fields, their width) of the remainder for an S1 of ``s1`` players: S1
        players as the higher of a pair, then the smallest sum of those players'
        positions, then the lowest S1 / highest S2 players exchanged, then each higher
        player against the highest partner possible."""
        size = len(remainder)
        widths = [
            (s1 + 1).bit_length() + 1,
            (size * size + 1).bit_length() + 1,
            (size << max(s1, 1)).bit_length() + 1,
            (1 << size).bit_length() + 1,
            ((size + 1) ** size).bit_length() + 1,
        ]
        extra = {}
        for i, a in enumerate(remainder):
            for j in range(i + 1, size):
                fields = (
                    int(i < s1),
                    size - i,
                    (1 << s1) - 1 - ((1 << i) if i < s1 else 0),
                    (1 << (size - 1 - i)) if i >= s1 else 0,
                    (size - j) * (size + 1) ** (size - 1 - i),
                )
                extra[(a, remainder[j])] = _pack(fields, widths)
        return extra, sum(widths)

    def _single(self, down: list[int], following: list[int], mate: dict | None) -> None:
        """Whether the next bracket's downfloater will be the bye (criterion 5): the
        bye's score reaches the next scoregroup, and in the bracket's matching every
        player of the next bracket (moved down or resident) is paired inside it or left
        over, none lower."""
        ctx = self.ctx
        if not (self.n % 2 and following):
            ctx.single = False
            return
        floor = ctx.order[following[0]].score
        ctx.single = ctx.bye_score >= floor
        if ctx.single:
            mate = mate if mate is not None else self._matching({}, 0)
            ctx.single = all(ctx.order[mate.get(v, v)].score >= floor for v in down + following)


def _pack(fields: Sequence[int], widths: Sequence[int]) -> int:
    """Fields (most significant first) side by side in one integer."""
    value = 0
    for width, field in zip(widths, fields):
        value = (value << width) + field
    return value


__all__ = ["BLACK", "WHITE", "Pairing", "pair_round"]
