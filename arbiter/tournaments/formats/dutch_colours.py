"""Colours of a Dutch pair (C.04.3 article 5, as bbpPairings applies it): which of two
paired players has white (seat 0, the first move)."""

from __future__ import annotations

from arbiter.tournaments.formats.dutch_state import WHITE, Player, invert


def colour(p: Player, o: Player, initial: str) -> tuple[str, str]:
    """(white, black) of two paired players, by C.04.3 article 5 (5.2.1 both
    preferences granted, 5.2.2 the stronger preference, 5.2.3 alternate from the last
    round their colours differed, 5.2.4 the higher ranked player's preference, 5.2.5 by
    pairing number and the initial colour)."""
    if o.rank < p.rank:
        p, o = o, p
    mine = _neutral(p, o)
    if mine is None:
        lower = (p.score, o.rank) < (o.score, p.rank)
        if p.preference is None:
            if lower:
                mine = initial if o.rank % 2 else invert(initial)
            else:
                mine = invert(initial) if p.rank % 2 else initial
        else:
            mine = invert(o.preference) if lower else p.preference
    return (p.id, o.id) if mine == WHITE else (o.id, p.id)


def _neutral(p: Player, o: Player) -> str | None:
    """p's colour when the preferences decide it, else None."""
    if p.preference != o.preference or p.preference is None or o.preference is None:
        if p.preference is not None:
            return p.preference
        return invert(o.preference)
    if p.absolute and (p.imbalance > o.imbalance or not o.absolute):
        return p.preference
    if o.absolute and (o.imbalance > p.imbalance or not p.absolute):
        return invert(o.preference)
    if p.strong and not o.strong:
        return p.preference
    if o.strong and not p.strong:
        return invert(o.preference)
    for mine, theirs in zip(reversed(p.colours), reversed(o.colours)):
        if mine != theirs:
            return theirs
    return None
