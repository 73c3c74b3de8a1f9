"""Helpers for the Dark Horse tests: states reached through the real setup, with
chosen chance outcomes, and scenario states with a given Track, hands or goals."""

from __future__ import annotations

from engines.dark_horse import ENGINE, rules
from engines.dark_horse.cards import DEFAULT

E = ENGINE
BUGS = [b.id for b in DEFAULT.bugs]
"""fly, snail, grasshopper, bee, ladybug, wasp, caterpillar (the data file's order)."""
GOALS = [g.id for g in DEFAULT.goal_cards]
MOVES = [m.id for m in DEFAULT.move_cards]


def shuffle_first(deck: list[str], wanted: list[str]) -> list[int]:
    """Return a shuffle outcome putting ``wanted`` on top of ``deck``, the rest after."""
    order = [deck.index(w) for w in wanted]
    return order + [i for i in range(len(deck)) if i not in order]


def after_goals(players: int = 3, dilly: bool = False, goal_order: list[int] | None = None) -> dict:
    """Return the state after the Goal deal (default: the deck in printed order)."""
    state = E.setup(players, {"dilly_dally": dilly})
    return E.resolve(state, goal_order if goal_order is not None else list(range(len(GOALS))))


def placing(players: int = 3, dilly: bool = False, first: int = 0, **kw) -> dict:
    """Return the state at the first placement, seat ``first`` starting."""
    return E.resolve(after_goals(players, dilly, **kw), [first + 1])


def place_all(state: dict, row: list[str] | None = None) -> dict:
    """Place ``row`` (default: BUGS) Bug by Bug, each behind the last: the row front
    first is then ``row``."""
    for i, bug in enumerate(row or BUGS):
        seat = E.to_act(state)[0]
        state = E.play(state, seat, {"place": bug} if i == 0 else {"place": bug, "end": "back"})
    return state


def dealt(
    players: int = 3,
    dilly: bool = False,
    first: int = 0,
    move_order: list[int] | None = None,
    row: list[str] | None = None,
    **kw,
) -> dict:
    """Return the state just after the Move card deal (Track = ``row`` from space 1)."""
    state = place_all(placing(players, dilly, first, **kw), row)
    return E.resolve(state, move_order if move_order is not None else list(range(len(MOVES))))


def in_play(
    players: int = 3,
    first: int = 0,
    track: list[str] | None = None,
    hands: list[list[str]] | None = None,
    goals: list[list[str]] | None = None,
    goal_deck: list[str] | None = None,
    **kw,
) -> dict:
    """Return a play-phase state with the given Track, hands and Goal cards replaced
    (a scenario: the rest comes from the default deal)."""
    state = dealt(players, first=first, **kw)
    if state["dilly_dally"]:
        while rules.phase(DEFAULT, state) == rules.ANTS:
            state = E.play(state, E.to_act(state)[0], {"ant": "pass"})
    changes: dict = {}
    if track is not None:
        changes["track"] = list(track)
    if hands is not None:
        changes["hands"] = [list(h) for h in hands]
    if goals is not None:
        changes["goals"] = [list(g) for g in goals]
    if goal_deck is not None:
        changes["goal_deck"] = list(goal_deck)
    return {**state, **changes}


def finish(state: dict) -> dict:
    """Play the game to its end with timeout moves (first card, forward, swap 1)."""
    while E.to_act(state):
        seat = E.to_act(state)[0]
        state = E.play(state, seat, E.timeout_move(state, seat))
    return state
