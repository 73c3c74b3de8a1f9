"""Dark Horse rules: setup, turns, the special cards, the end and the Dilly Dally Variant.

Pure functions of a component set, a plain-JSON state and an input; nothing is
changed in place. The state (every key always present):

- ``players``: the number of seats (0-based seats, clockwise order);
- ``dilly_dally``: the variant is in play (rules/dark-horse.md, "Dilly Dally Variant");
- ``goals``: ``null`` until dealt, then each seat's Goal card ids (secret: only that
  seat sees its own); a swapped card keeps its slot;
- ``goal_deck``: the Goal cards left, top first (seen by nobody);
- ``first``: the start player, ``null`` until drawn;
- ``track``: Bug ids, front first: the placement row while the Bugs are placed, then
  the Track itself (space 1, the sugar cube, first; the last space, the stone, last);
- ``black_base``: the Bug with the black base (Dilly Dally), else ``null``;
- ``hands``: ``null`` until dealt, then each seat's Move card ids (secret);
- ``set_aside``: the Move cards not dealt (seen by nobody);
- ``ant_choices``: ``"take"`` / ``"pass"`` in turn order from the start player;
- ``played``: every card played, in order: ``{"seat", "card"}`` plus the move's
  ``direction``, ``swap`` or ``choose`` (and the chosen seat's ``swap`` once answered);
- ``pending``: ``{"seat": chosen, "by": player}`` while a player chosen by Bad
  encounter! must pick the Goal card to swap, else ``null``.

The functions that apply a rule an older version played differently are handed the
engine (``game``, see :class:`Game`) instead of its component set, and ask it: the
directions a ± card may be played in (``game.directions``) and the Bug that gets the
black base (``game.black_base``); the older versions are in ``versions.py``
(:mod:`engines.base`, "Rules versions").

Whose turn it is follows from the counts: a placement, an Ant choice and a played
card each pass the turn clockwise from the start player.

Orders decided here (the book is silent): the Goal cards are dealt one at a time from
seat 0 (the start player is drawn after them); the Move cards one at a time from the
start player; a hand is kept in the deck's printed order. The placement row is read
front first: its front Bug goes on space 1 and its back Bug on the last space, the
stone. Laid out from the start of the Track (rules/dark-horse.md, "Setup" 2: "7, 6,
..., 1 from the start to the finish"), that is "the first Bug on the first space".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from engines.base import (
    BadOutcome,
    Chance,
    Decision,
    IllegalMove,
    InvalidMove,
    Over,
    Prompt,
    ranking_from_scores,
    shown,
)

from . import track as tr
from .cards import (
    BAD_ENCOUNTER_CARD,
    BUG_CARD,
    BUG_EITHER_CARD,
    POSITIONS_CARD,
    RUN_CARD,
    Components,
)

# --------------------------------------------------------------------------- rules data

MIN_PLAYERS, MAX_PLAYERS = 2, 6
GOALS_DEALT = {2: 3, 3: 2, 4: 2, 5: 2, 6: 2}
"""Goal cards per player (rules/dark-horse.md, "Setup" 1)."""
HAND_SIZE = {2: 8, 3: 7, 4: 6, 5: 6, 6: 5}
"""Move cards per player (rules/dark-horse.md, "Setup" 4)."""
ANT_TOKENS = {2: 1, 3: 2, 4: 2, 5: 3, 6: 3}
"""Ant tokens in play (rules/dark-horse.md, "Dilly Dally Variant" 1)."""
ANT_BONUS, ANT_PENALTY, ANT_TOP_PLACES = 5, -3, 3
"""Dilly Dally scoring (rules/dark-horse.md, "Dilly Dally Variant" 5)."""

FORWARD, BACKWARD = "forward", "backward"
DIRECTIONS = (FORWARD, BACKWARD)
TAKE, PASS = "take", "pass"
END_REASON = "all-cards-played"

# phases, derived from the state by :func:`phase`
DEAL_GOALS, START_PLAYER, PLACE, DEAL_MOVES = "deal-goals", "start-player", "place", "deal-moves"
ANTS, PLAY, BAD_ENCOUNTER, OVER = "ants", "play", "bad-encounter", "over"
CHANCE_PHASES = (DEAL_GOALS, START_PLAYER, DEAL_MOVES)

DECISION_KINDS = {
    PLACE: "place-bug",
    ANTS: "ant-token",
    PLAY: "play-card",
    BAD_ENCOUNTER: "bad-encounter-swap",
}
EXPECTED = {
    PLACE: 'place a Bug ({"place": BUG, "end": "front" or "back"}; "place fly front")',
    ANTS: 'take an Ant token or pass ({"ant": "take"} or {"ant": "pass"}; "ant take")',
    PLAY: 'play a Move card ({"play": CARD}; "play 3")',
    BAD_ENCOUNTER: 'pick one of your Goal cards to swap ({"swap": N}; "swap 1")',
}
MOVE_KEYS = {
    "place": {"place", "end"},
    "ant": {"ant"},
    "play": {"play", "direction", "swap", "choose"},
    "swap": {"swap"},
}
MOVE_PHASE = {"place": PLACE, "ant": ANTS, "play": PLAY, "swap": BAD_ENCOUNTER}


# --------------------------------------------------------------------------- setup


def setup(players: int, dilly_dally: bool) -> dict:
    """Return the state before the Goal cards are dealt (rules/dark-horse.md, "Setup")."""
    return {
        "players": players,
        "dilly_dally": bool(dilly_dally),
        "goals": None,
        "goal_deck": None,
        "first": None,
        "track": [],
        "black_base": None,
        "hands": None,
        "set_aside": None,
        "ant_choices": [],
        "played": [],
        "pending": None,
    }


def directions(c: Components, card_id: str, track: list[str]) -> list[str]:
    """Return the directions a ± card may be played in on ``track`` (rules/dark-horse.md,
    "Gameplay"): for a pictured Bug those in which it can move ("the pictured Bug must be
    moved forward or backward one space": not forward from space 1, not backward from
    the last space); for a positions card those in which every Bug on its positions can
    move ("each Bug must move in the same direction")."""
    card = c.move_by_id[card_id]
    if card.kind == BUG_EITHER_CARD:
        return [d for d in DIRECTIONS if tr.can_move(track, card.bug, d == FORWARD)]
    return positions_directions(c, card_id)


def positions_directions(c: Components, card_id: str) -> list[str]:
    """Return the directions a ± card may be played in whatever the Track: for a
    positions card only those in which every Bug on its positions can move
    (rules/dark-horse.md, "Gameplay": "each Bug must move in the same direction"), both
    for any other card."""
    card = c.move_by_id[card_id]
    if card.kind != POSITIONS_CARD:
        return list(DIRECTIONS)
    return [d for d in DIRECTIONS if card.positions_can_move(d == FORWARD, len(c.spaces))]


class Game(Protocol):
    """What the rules read from the engine they play for (an older version overrides
    it: :mod:`engines.dark_horse.versions`)."""

    components: Components

    def directions(self, card_id: str, track: list[str]) -> list[str]:
        """Return the directions the ± card ``card_id`` may be played in on ``track``."""

    def black_base(self, row: list[str], placed: str) -> str:
        """Return the Bug that gets the black base once ``placed`` completes ``row``."""


# --------------------------------------------------------------------------- prompt


def phase(c: Components, state: Mapping[str, Any]) -> str:
    """Return the step of the game now: ``deal-goals``, ``start-player``, ``place``,
    ``deal-moves``, ``ants``, ``play``, ``bad-encounter`` or ``over``
    (rules/dark-horse.md, "Setup", "Gameplay", "Dilly Dally Variant")."""
    if state["goals"] is None:
        return DEAL_GOALS
    if state["first"] is None:
        return START_PLAYER
    if len(state["track"]) < len(c.bugs):
        return PLACE
    if state["hands"] is None:
        return DEAL_MOVES
    if state["dilly_dally"] and not ants_done(state):
        return ANTS
    if state["pending"] is not None:
        return BAD_ENCOUNTER
    if any(state["hands"]):
        return PLAY
    return OVER


def seat_to_act(state: Mapping[str, Any], step: str) -> int | None:
    """Return the seat that owes the decision of ``step``, clockwise from the start
    player (rules/dark-horse.md, "Setup" 3, "Gameplay"); ``None`` when nobody does."""
    n, first = state["players"], state["first"]
    if step == PLACE:
        return (first + len(state["track"])) % n
    if step == ANTS:
        return (first + len(state["ant_choices"])) % n
    if step == PLAY:
        return (first + len(state["played"])) % n
    if step == BAD_ENCOUNTER:
        return state["pending"]["seat"]
    return None


def prompt(c: Components, state: Mapping[str, Any]) -> Prompt:
    """Return what the game waits for: a shuffle or the start-player roll (Chance), a
    seat's decision, or the result (rules/dark-horse.md, "Setup", "End of the Game").

    Shuffles are seen by nobody (``visible_to=()``); each seat learns only its own
    cards, through its view. The start-player roll is public.
    """
    step = phase(c, state)
    if step == DEAL_GOALS:
        return Chance(
            {
                "kind": "shuffle",
                "size": len(c.goal_cards),
                "deck": "goal",
                "for": "Deal the Goal cards",
            },
            visible_to=(),
        )
    if step == START_PLAYER:
        return Chance(
            {"kind": "dice", "faces": [state["players"]], "for": "Choose the start player"},
            visible_to=None,
        )
    if step == DEAL_MOVES:
        return Chance(
            {
                "kind": "shuffle",
                "size": len(c.move_cards),
                "deck": "move",
                "for": "Deal the Move cards",
            },
            visible_to=(),
        )
    if step == OVER:
        return Over(result(c, state))
    return Decision((seat_to_act(state, step),), DECISION_KINDS[step])


def ants_done(state: Mapping[str, Any]) -> bool:
    """Return True once every Ant token is taken or every player has chosen
    (rules/dark-horse.md, "Dilly Dally Variant" 3)."""
    choices = state["ant_choices"]
    return choices.count(TAKE) >= ANT_TOKENS[state["players"]] or len(choices) >= state["players"]


def ant_holders(state: Mapping[str, Any]) -> list[int]:
    """Return the seats that took an Ant token (rules/dark-horse.md, "Dilly Dally
    Variant" 3)."""
    n, first = state["players"], state["first"]
    return sorted((first + i) % n for i, c in enumerate(state["ant_choices"]) if c == TAKE)


def ants_left(state: Mapping[str, Any]) -> int:
    """Return the Ant tokens still on the table (0 once the round is over or without
    the variant) (rules/dark-horse.md, "Dilly Dally Variant" 3)."""
    if not state["dilly_dally"] or ants_done(state):
        return 0
    return ANT_TOKENS[state["players"]] - state["ant_choices"].count(TAKE)


# --------------------------------------------------------------------------- chance


def resolve(c: Components, state: Mapping[str, Any], outcome: Any) -> dict:
    """Apply a shuffle or the start-player roll and deal what follows from it
    (rules/dark-horse.md, "Setup" 1, 3 and 4).

    :raises BadOutcome: the game waits for no chance, or the outcome does not fit.
    """
    step = phase(c, state)
    n = state["players"]
    if step == DEAL_GOALS:
        deck = [c.goal_cards[i].id for i in _permutation(outcome, len(c.goal_cards))]
        dealt = GOALS_DEALT[n] * n
        goals = [deck[s:dealt:n] for s in range(n)]
        return {**state, "goals": goals, "goal_deck": deck[dealt:]}
    if step == START_PLAYER:
        if (
            not isinstance(outcome, list)
            or len(outcome) != 1
            or type(outcome[0]) is not int
            or not 1 <= outcome[0] <= n
        ):
            raise BadOutcome("bad-outcome", f"The start player roll is one die of {n} faces.")
        return {**state, "first": outcome[0] - 1}
    if step == DEAL_MOVES:
        order = _permutation(outcome, len(c.move_cards))
        dealt = HAND_SIZE[n] * n
        first = state["first"]
        hands = [sorted(order[(s - first) % n : dealt : n]) for s in range(n)]
        return {
            **state,
            "hands": [[c.move_cards[i].id for i in h] for h in hands],
            "set_aside": [c.move_cards[i].id for i in order[dealt:]],
        }
    raise BadOutcome("not-awaiting-chance", "The game is not waiting for a shuffle or a roll.")


def _permutation(outcome: Any, size: int) -> list[int]:
    """Return ``outcome`` if it is a permutation of ``range(size)``.

    :raises BadOutcome: it is not.
    """
    if (
        not isinstance(outcome, list)
        or any(type(i) is not int for i in outcome)
        or sorted(outcome) != list(range(size))
    ):
        raise BadOutcome(
            "bad-outcome", f"A shuffle of {size} cards is a permutation of 0..{size - 1}."
        )
    return outcome


# --------------------------------------------------------------------------- legal moves


def legal_moves(game: Game, state: Mapping[str, Any], seat: int) -> list[dict]:
    """Return every move ``seat`` may make now, ``[]`` when it owes none
    (rules/dark-horse.md, "Setup" 3, "Gameplay", "Special Cards", "Dilly Dally")."""
    c = game.components
    step = phase(c, state)
    if step in CHANCE_PHASES or step == OVER or seat != seat_to_act(state, step):
        return []
    if step == PLACE:
        row = state["track"]
        free = [b.id for b in c.bugs if b.id not in row]
        if not row:
            return [{"place": b} for b in free]
        return [{"place": b, "end": e} for b in free for e in (tr.FRONT, tr.BACK)]
    if step == ANTS:
        return [{"ant": TAKE}, {"ant": PASS}]
    if step == BAD_ENCOUNTER:
        return [{"swap": k} for k in range(1, len(state["goals"][seat]) + 1)]
    moves: list[dict] = []
    for card_id in state["hands"][seat]:
        card = c.move_by_id[card_id]
        if card.directed:
            ways = game.directions(card_id, state["track"])
            moves += [{"play": card_id, "direction": d} for d in ways]
        elif card.kind == BAD_ENCOUNTER_CARD:
            moves += [{"play": card_id, "swap": k} for k in range(1, len(state["goals"][seat]) + 1)]
            moves += [
                {"play": card_id, "choose": other}
                for other in range(state["players"])
                if other != seat
            ]
        else:
            moves.append({"play": card_id})
    return moves


# --------------------------------------------------------------------------- moves


def play(game: Game, state: Mapping[str, Any], seat: int, move: Any) -> dict:
    """Apply ``seat``'s move and return the new state (rules/dark-horse.md, "Setup" 3,
    "Gameplay", "Special Cards", "Dilly Dally Variant" 3).

    :raises IllegalMove: ``game-over``, ``awaiting-chance``, ``not-your-turn``,
        ``wrong-phase`` or a rule code of the move's kind.
    :raises InvalidMove: ``bad-move``: the move is not a move of this game.
    """
    step = check_turn(game.components, state, seat)
    kind = _move_kind(move)
    if MOVE_PHASE[kind] != step:
        raise IllegalMove("wrong-phase", f"That move does not fit now: {EXPECTED[step]}.")
    if kind == "place":
        return _place(game, state, move)
    if kind == "ant":
        return _ant(state, move)
    if kind == "swap":
        return _answer_bad_encounter(state, seat, move)
    return _play_card(game, state, seat, move)


def check_turn(c: Components, state: Mapping[str, Any], seat: Any) -> str:
    """Return the phase if ``seat`` owes the decision now (rules/dark-horse.md,
    "Gameplay": each player in turn; "Special Cards": the chosen player).

    :raises IllegalMove: ``game-over``, ``awaiting-chance``, ``not-your-turn``, or
        ``not-your-choice`` while a seat chosen by Bad encounter! decides.
    """
    step = phase(c, state)
    if step == OVER:
        raise IllegalMove("game-over", "The game is over; no more moves are taken.")
    if step in CHANCE_PHASES:
        raise IllegalMove(
            "awaiting-chance", "The game is waiting for a shuffle or a roll, not for a move."
        )
    actor = seat_to_act(state, step)
    if seat != actor:
        if step == BAD_ENCOUNTER:
            raise IllegalMove(
                "not-your-choice",
                (
                    f"Seat {actor} was chosen by Bad encounter! and must pick which of "
                    f"their Goal cards to swap; nobody else can answer for them."
                ),
            )
        detail = f"It is seat {actor}'s turn to {EXPECTED[step].split(' (')[0]}, not yours."
        raise IllegalMove("not-your-turn", detail)
    return step


def _move_kind(move: Any) -> str:
    """Return which kind of move ``move`` is (``place``, ``ant``, ``play``, ``swap``).

    :raises InvalidMove: ``bad-move``: not a dict, unknown or missing keys.
    """
    if isinstance(move, dict):
        for kind in ("place", "ant", "play", "swap"):
            if kind in move and set(move) <= MOVE_KEYS[kind]:
                return kind
    raise InvalidMove(
        "bad-move",
        'A Dark Horse move is one of {"place": BUG, "end": '
        '"front"|"back"}, {"ant": "take"|"pass"}, {"play": CARD, '
        '"direction"?: "forward"|"backward", "swap"?: N, "choose"?: '
        'SEAT} or {"swap": N}.',
    )


def _place(game: Game, state: Mapping[str, Any], move: dict) -> dict:
    """Add a Bug to the placement row; with the last Bug, the row becomes the Track
    (rules/dark-horse.md, "Setup" 3). Dilly Dally ("Dilly Dally Variant" 2: "after
    having placed the Bugs on their corresponding space, put a black base on the last
    Bug"): ``game.black_base`` says which Bug gets it."""
    c, bug, row = game.components, move["place"], state["track"]
    if not isinstance(bug, str) or bug not in c.bug_by_id:
        names = ", ".join(b.id for b in c.bugs)
        raise IllegalMove(
            "no-such-bug", f"There is no Bug called {shown(bug)}; the Bugs are {names}."
        )
    if bug in row:
        raise IllegalMove("bug-already-placed", f"The {c.bug_name(bug)} is already placed.")
    end = move.get("end")
    if not row and end is not None:
        raise IllegalMove(
            "first-bug-has-no-end", "The first Bug starts the row: place it without front or back."
        )
    if row and end is None:
        raise IllegalMove(
            "end-required",
            "Place the Bug just in front of the row or just "
            "behind it (front or back); never between two Bugs.",
        )
    if row and end not in (tr.FRONT, tr.BACK):
        raise InvalidMove("bad-move", f'The end is "front" or "back", not {shown(end)}.')
    new_row = tr.add_to_row(row, bug, end)
    black = None
    if state["dilly_dally"] and len(new_row) == len(c.bugs):
        black = game.black_base(new_row, bug)
    return {**state, "track": new_row, "black_base": black}


def _ant(state: Mapping[str, Any], move: dict) -> dict:
    """Take an Ant token or pass (rules/dark-horse.md, "Dilly Dally Variant" 3)."""
    choice = move["ant"]
    if choice not in (TAKE, PASS):
        raise InvalidMove("bad-move", f'Answer "take" or "pass", not {shown(choice)}.')
    return {**state, "ant_choices": [*state["ant_choices"], choice]}


def _play_card(game: Game, state: Mapping[str, Any], seat: int, move: dict) -> dict:
    """Play a Move card face up and move the Bugs as it says (rules/dark-horse.md,
    "Gameplay", "Special Cards")."""
    c = game.components
    card_id = move["play"]
    hand = state["hands"][seat]
    if not isinstance(card_id, str):
        raise InvalidMove(
            "bad-move", f'Name the card by its id ("mv-fly+2"), not {shown(card_id)}.'
        )
    if card_id not in hand:
        raise IllegalMove(
            "card-not-in-hand",
            f"You hold no Move card {shown(card_id)}; your cards are {', '.join(hand)}.",
        )
    card = c.move_by_id[card_id]
    direction = move.get("direction")
    if direction is not None and direction not in DIRECTIONS:
        raise InvalidMove(
            "bad-move", f'The direction is "forward" or "backward", not {shown(direction)}.'
        )
    if direction is not None and not card.directed:
        raise IllegalMove(
            "no-direction-on-card",
            f"{c.label(card_id)} shows no ±: it moves as printed, so leave the direction out.",
        )
    if direction is None and card.directed:
        raise IllegalMove(
            "direction-required",
            f'{c.label(card_id)} moves forward or backward: say which ("forward" or "backward").',
        )
    allowed = game.directions(card_id, state["track"]) if card.directed else []
    if direction is not None and direction not in allowed:
        if card.kind == BUG_EITHER_CARD:
            space = tr.place_of(state["track"], card.bug)
            end = "first" if space == 1 else "last"
            why = (
                f"{c.label(card_id)} cannot move the {c.bug_name(card.bug)} {direction}: "
                f"it is on space {space}, the {end} space, so"
            )
        else:
            why = (
                f"{c.label(card_id)} moves every Bug it names the same way, and one of "
                f"them cannot move {direction}:"
            )
        raise IllegalMove("direction-blocked", f"{why} play it {' or '.join(allowed)}.")
    if card.kind != BAD_ENCOUNTER_CARD and ("swap" in move or "choose" in move):
        raise IllegalMove(
            "not-bad-encounter", "Only Bad encounter! swaps Goal cards or chooses a player."
        )
    entry = {"seat": seat, "card": card_id, **{k: v for k, v in move.items() if k != "play"}}
    new = {
        **state,
        "hands": _replace(state["hands"], seat, [h for h in hand if h != card_id]),
        "played": [*state["played"], entry],
    }
    if card.kind == BAD_ENCOUNTER_CARD:
        return _bad_encounter(c, new, seat, move)
    return {**new, "track": effect(c, state["track"], card_id, direction)}


def effect(c: Components, track: list[str], card_id: str, direction: str | None) -> list[str]:
    """Return the Track after Move card ``card_id`` (not Bad encounter!) is resolved
    (rules/dark-horse.md, "Gameplay", "Special Cards")."""
    card = c.move_by_id[card_id]
    sign = -1 if direction == BACKWARD else 1
    if card.kind == BUG_CARD:
        return tr.move_bug(track, card.bug, card.steps)
    if card.kind == BUG_EITHER_CARD:
        return tr.move_bug(track, card.bug, sign * card.steps)
    if card.kind == POSITIONS_CARD:
        return tr.move_positions(track, card.positions, card.steps, direction == FORWARD)
    if card.kind == RUN_CARD:
        return tr.run_for_your_life(track, card.from_space, card.to_space)
    raise ValueError(f"{card_id} does not move Bugs")


def _bad_encounter(c: Components, state: dict, seat: int, move: dict) -> dict:
    """Bad encounter!: swap one of your Goal cards with the top of the Goal deck, or
    choose another player who must swap one of theirs (rules/dark-horse.md, "Special
    Cards"). The chosen player then owes a decision (``pending``)."""
    has_swap, has_choose = "swap" in move, "choose" in move
    if has_swap and has_choose:
        raise InvalidMove(
            "bad-move",
            "Bad encounter! either swaps one of your Goal cards "
            "or chooses another player, not both.",
        )
    if not has_swap and not has_choose:
        raise IllegalMove(
            "choice-required",
            "Bad encounter!: swap one of your Goal cards "
            '("swap": N) or choose another player ("choose": SEAT).',
        )
    if has_swap:
        return swap_goal(state, seat, move["swap"])
    other = move["choose"]
    if type(other) is not int:
        raise InvalidMove("bad-move", f"Choose a player by seat number, not {shown(other)}.")
    if not 0 <= other < state["players"]:
        raise IllegalMove(
            "no-such-player",
            f"There is no seat {other}; the seats are 0 to {state['players'] - 1}.",
        )
    if other == seat:
        raise IllegalMove(
            "choose-another-player",
            'Choose another player; to swap one of your own Goal cards, use "swap": N.',
        )
    return {**state, "pending": {"seat": other, "by": seat}}


def _answer_bad_encounter(state: Mapping[str, Any], seat: int, move: dict) -> dict:
    """The player chosen by Bad encounter! picks which of their Goal cards to swap
    (rules/dark-horse.md, "Special Cards"; shared/components/dark-horse.md)."""
    new = swap_goal(state, seat, move["swap"])
    last = {**state["played"][-1], "swap": move["swap"]}
    return {**new, "pending": None, "played": [*state["played"][:-1], last]}


def swap_goal(state: Mapping[str, Any], seat: int, slot: Any) -> dict:
    """Return the state after ``seat`` swaps its Goal card number ``slot`` (1-based)
    with the top of the Goal deck; the given card goes to the bottom and the new one
    takes its slot, seen only by its owner (rules/dark-horse.md, "Special Cards";
    shared/components/dark-horse.md, "Decisions on rules questions").

    :raises InvalidMove: ``bad-move``: ``slot`` is not a number.
    :raises IllegalMove: ``goal-not-held``: no such Goal card.
    """
    goals = state["goals"][seat]
    if type(slot) is not int:
        raise InvalidMove("bad-move", f"Name the Goal card by its number, not {shown(slot)}.")
    if not 1 <= slot <= len(goals):
        raise IllegalMove(
            "goal-not-held",
            f"You hold no Goal card number {slot}; your Goal cards are numbered 1 to {len(goals)}.",
        )
    deck = state["goal_deck"]  # never empty: DarkHorse checks the deck outlasts the deal
    given = goals[slot - 1]
    mine = [*goals[: slot - 1], deck[0], *goals[slot:]]
    return {**state, "goals": _replace(state["goals"], seat, mine), "goal_deck": [*deck[1:], given]}


def _replace(rows: list, index: int, value: Any) -> list:
    """Return a copy of ``rows`` with ``rows[index]`` replaced by ``value``."""
    return [value if i == index else row for i, row in enumerate(rows)]


# --------------------------------------------------------------------------- timeouts


def timeout_move(game: Game, state: Mapping[str, Any], seat: int) -> dict:
    """Return the move played for ``seat`` when its deadline passes: the least
    surprising one (package docstring, "Timeouts"; rules/dark-horse.md, "Gameplay":
    a turn plays a card).

    :raises IllegalMove: the seat owes no move (``not-your-turn`` and the like).
    """
    c = game.components
    step = check_turn(c, state, seat)
    if step == PLACE:
        row = state["track"]
        bug = next(b.id for b in c.bugs if b.id not in row)
        return {"place": bug} if not row else {"place": bug, "end": tr.BACK}
    if step == ANTS:
        return {"ant": PASS}
    if step == BAD_ENCOUNTER:
        return {"swap": 1}
    card_id = state["hands"][seat][0]
    card = c.move_by_id[card_id]
    if card.directed:
        return {"play": card_id, "direction": game.directions(card_id, state["track"])[0]}
    if card.kind == BAD_ENCOUNTER_CARD:
        return {"play": card_id, "swap": 1}
    return {"play": card_id}


# --------------------------------------------------------------------------- the end


def result(c: Components, state: Mapping[str, Any]) -> dict:
    """Return the final result: the ranking from space 1, each seat's Goal cards
    scored with the chart, Ant tokens scored, and seats ranked by total, ties sharing
    a group (rules/dark-horse.md, "End of the Game"; "Dilly Dally Variant" 5)."""
    track = state["track"]
    places = {bug: i + 1 for i, bug in enumerate(track)}
    black = state["black_base"]
    holders = ant_holders(state) if state["dilly_dally"] else []
    details = []
    for seat in range(state["players"]):
        goals = []
        for goal_id in state["goals"][seat]:
            bug = c.goal_by_id[goal_id].bug
            goals.append(
                {
                    "card": goal_id,
                    "bug": bug,
                    "place": places[bug],
                    "points": c.scoring_chart[places[bug] - 1],
                }
            )
        ant = None
        if seat in holders:
            top = places[black] <= ANT_TOP_PLACES
            ant = {
                "bug": black,
                "place": places[black],
                "points": ANT_BONUS if top else ANT_PENALTY,
            }
        goal_points = sum(g["points"] for g in goals)
        details.append(
            {
                "seat": seat,
                "goals": goals,
                "goal_points": goal_points,
                "ant": ant,
                "total": goal_points + (ant["points"] if ant else 0),
            }
        )
    scores = [d["total"] for d in details]
    finish = [
        {"place": i + 1, "space": c.spaces[i].name, "bug": bug} for i, bug in enumerate(track)
    ]
    return {
        "scores": scores,
        "ranking": ranking_from_scores(scores),
        "reason": END_REASON,
        "details": details,
        "finish": finish,
        "black_base": black,
    }
