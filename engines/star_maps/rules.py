"""The game flow: rounds of a public roll and a simultaneous answer, the end, the vote.

rules/star-maps.md, "Round": a round is a Roll Phase (one public roll of two dice, a
:class:`~engines.base.Chance`) and a Choose Phase (one :class:`~engines.base.Decision` for
every seat that owes an answer). State (plain JSON, never changed in place)::

    {"sheet": "plain", "players": 2, "unlocked": [bonus ids], "phase": "roll",
     "round": 1, "roll": None | [a, b], "answered": [seats], "stuck": [seats],
     "marks": [per seat {"boxes", "connections", "bonuses_used"}],
     "voters": [seats], "votes": [bonus id | None per seat], "result": None | {...},
     "unlocks": [{"bonus", "type", "round", "by": [seats]}]}   bonuses unlocked in play

The functions that apply a rule an older version played differently are handed the
engine (``game``) and read that rule there: the bonuses its games know
(``game.bonuses``), the bonus each star type unlocks in play (``game.unlocked_by``),
what a loser may vote for besides a bonus (``game.blank_votes``) and the sheets as its
rules read them (``game.sheets``: when a pre-filled star is found); the older versions are
in ``versions.py`` (:mod:`engines.base`, "Rules versions").

Decisions (documented in ``engines/star_maps/__init__.py``):

- Answers are applied as they arrive. Each answer writes only on its own seat's marks and
  its legality reads only those marks and the round's roll, so any order of the same
  answers gives the same state.
- A seat that can neither use the dice nor make a connection at the roll is *stuck*: it
  is not asked (no mail, no deadline), the others finish the round, then the game ends
  ("Choose Phase", note; "Game End"). If every seat is stuck the game ends at the roll.
- A second answer in a round is refused with :class:`AlreadyAnswered`.
- Bonuses unlocked during play (rules/star-maps.md, "Bonuses": "During the course of the
  game, players unlock bonuses for future use. This is done cooperatively and all
  bonuses unlocked are available for use by all players"): when a round's answers are
  all in, every type whose stars are all found on some sheet unlocks the bonus keyed to
  it in ``bonuses.json`` (``unlocked_by``), if not unlocked yet. It is usable by every
  player from the next round on ("for future use"; the answers of one round are
  simultaneous, so none may depend on another's) and is carried into the campaign's
  later games (``unlocked_after``).
- After a multiplayer game with losers and bonuses left to unlock, the losers vote
  (Decision kind ``choose-bonus``) for one bonus, or for none ("may cooperate to
  choose"); see ``scoring.tally``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from engines.base import BadOutcome, Chance, Decision, IllegalMove, Over, Prompt, shown
from engines.star_maps import scoring, turn
from engines.star_maps import sheet as sh
from engines.star_maps.bonuses import BONUS_IDS, NO_BONUS
from engines.star_maps.sheet import Layout

ROLL, CHOOSE, VOTE, OVER = "roll", "choose", "vote", "over"

ALREADY_ANSWERED_CODE = "already-answered"
"""The code of a second answer in one round. The issue's name for it is
``already-answered``, but the generic ``tests/engines/test_contract.py`` requires
``not-your-turn`` for every seat outside the Decision, and a seat that has answered is
outside it. :class:`AlreadyAnswered` keeps the case distinct (HTTP 409, ``reason``);
set this to ``"already-answered"`` once the contract test accepts it."""


class Game(Protocol):
    """What the rules read from the engine they play for (an older version overrides
    it: :mod:`engines.star_maps.versions`)."""

    bonuses: tuple[str, ...]
    """The bonuses its games know, in list order."""
    unlocked_by: Mapping[int, str]
    """Star type (its die value) -> the bonus that finding its last star unlocks in play."""
    blank_votes: tuple[str, ...]
    """What a loser may vote for besides a bonus."""
    sheets: Mapping[str, Layout]
    """Every sheet by id, as its rules read it (how a pre-filled star is found)."""


class AlreadyAnswered(IllegalMove):
    """A seat answered twice in one round (or voted twice): the arbiter answers 409.

    ``code`` is :data:`ALREADY_ANSWERED_CODE`; ``reason`` is always ``already-answered``.
    """

    code = ALREADY_ANSWERED_CODE
    reason = "already-answered"


# --------------------------------------------------------------------------- setup


def new_game(sheet_id: str, players: int, unlocked: Sequence[str]) -> dict:
    """Return the state before the first roll (rules/star-maps.md, "Setup")."""
    return {
        "sheet": sheet_id,
        "players": players,
        "unlocked": list(unlocked),
        "phase": ROLL,
        "round": 1,
        "roll": None,
        "answered": [],
        "stuck": [],
        "marks": [sh.blank_marks() for _ in range(players)],
        "voters": [],
        "votes": [None] * players,
        "result": None,
        "unlocks": [],
    }


def unlock_found_types(game: Game, state: Mapping) -> dict:
    """Return the state with the bonuses unlocked by the types found so far: each type
    whose stars are all found on some sheet unlocks the bonus ``game.unlocked_by`` keys
    to it for everyone, once (rules/star-maps.md, "Bonuses"; module docstring)."""
    layout = game.sheets[state["sheet"]]
    unlocks = list(state["unlocks"])
    taken = {*state["unlocked"], *(u["bonus"] for u in unlocks)}
    for die, bonus in sorted(game.unlocked_by.items()):
        if bonus in taken:
            continue
        need = layout.type_boxes[die]  # type_complete's first test, without the call
        by = [
            s
            for s, marks in enumerate(state["marks"])
            if marks["boxes"].keys() >= need and sh.type_complete(layout, marks, die)
        ]
        if by:
            unlocks.append({"bonus": bonus, "type": die, "round": state["round"], "by": by})
            taken.add(bonus)
    new = {u["bonus"] for u in unlocks}
    unlocked = [b for b in BONUS_IDS if b in state["unlocked"] or b in new]
    return {**state, "unlocked": unlocked, "unlocks": unlocks}


def owing(state: Mapping) -> list[int]:
    """Return the seats that owe a decision now (an answer, or a vote)."""
    if state["phase"] == CHOOSE:
        return [
            s
            for s in range(state["players"])
            if s not in state["answered"] and s not in state["stuck"]
        ]
    if state["phase"] == VOTE:
        return [s for s in state["voters"] if state["votes"][s] is None]
    return []


def chance_spec(state: Mapping) -> dict:
    """Return the round's roll: two public six-sided dice ("Roll Phase")."""
    return {"kind": "dice", "faces": [6, 6], "for": f"round {state['round']}"}


def prompt(state: Mapping) -> Prompt:
    """Return a Chance (roll), a Decision (``choose`` or ``choose-bonus``) or Over."""
    phase = state["phase"]
    if phase == ROLL:
        return Chance(chance_spec(state))
    if phase == OVER:
        return Over(state["result"])
    return Decision(tuple(owing(state)), kind="choose" if phase == CHOOSE else "choose-bonus")


# --------------------------------------------------------------------------- chance


def resolve(game: Game, state: Mapping, outcome: Any) -> dict:
    """Apply the roll; find the stuck seats; end at once if every seat is stuck.

    :raises BadOutcome: ``no-chance-pending``, or ``bad-outcome`` (not two dice 1..6).
    """
    if state["phase"] != ROLL:
        raise BadOutcome("no-chance-pending", "The game is not waiting for a roll.")
    if (
        not isinstance(outcome, list)
        or len(outcome) != 2
        or any(type(d) is not int or d not in sh.DIE_VALUES for d in outcome)
    ):
        raise BadOutcome("bad-outcome", f"A roll is two dice from 1 to 6, not {shown(outcome)}.")
    layout = game.sheets[state["sheet"]]
    stuck = [
        s for s, marks in enumerate(state["marks"]) if not turn.can_act(layout, outcome, marks)
    ]
    new = {**state, "phase": CHOOSE, "roll": list(outcome), "answered": [], "stuck": stuck}
    if len(stuck) == state["players"]:
        return _finish(game, new)
    return new


# --------------------------------------------------------------------------- moves


def check_seat(state: Mapping, seat: Any) -> None:
    """Check that ``seat`` owes a decision now.

    :raises IllegalMove: ``game-over``, ``awaiting-chance``, ``not-your-turn`` (not in the
        Decision: a stuck seat, a winner at the vote, no such seat), or
        :class:`AlreadyAnswered`.
    """
    phase = state["phase"]
    if phase == OVER:
        raise IllegalMove("game-over", "The game is over; no more moves are taken.")
    if phase == ROLL:
        raise IllegalMove("awaiting-chance", "The dice for this round are not rolled yet.")
    if type(seat) is int and seat in owing(state):
        return
    if phase == CHOOSE and seat in state["answered"]:
        raise AlreadyAnswered(
            detail=f"Seat {seat} has already answered round "
            f"{state['round']}; one answer per seat per round."
        )
    if phase == VOTE and seat in state["voters"]:
        raise AlreadyAnswered(detail=f"Seat {seat} has already chosen a bonus.")
    if phase == CHOOSE and seat in state["stuck"]:
        raise IllegalMove(
            "not-your-turn",
            f"Seat {seat} can neither use the dice nor make a "
            "connection this round, so it owes no answer; the "
            "game ends after this round.",
        )
    if phase == VOTE:
        raise IllegalMove(
            "not-your-turn", f"Seat {seat} is not among the losers, who choose the new bonus."
        )
    raise IllegalMove("not-your-turn", f"It is not seat {seat}'s turn to move.")


def legal_moves(game: Game, state: Mapping, seat: int) -> list[dict]:
    """Return the seat's legal moves now; ``[]`` when it owes none."""
    if seat not in owing(state):
        return []
    if state["phase"] == VOTE:
        return [{"act": "choose-bonus", "bonus": b} for b in vote_choices(game, state)]
    return turn.answers(
        game.sheets[state["sheet"]], state["roll"], state["unlocked"], state["marks"][seat]
    )


def play(game: Game, state: Mapping, seat: int, move: Any) -> dict:
    """Apply a seat's answer (or vote); close the round when it was the last one owed.

    :raises InvalidMove: ``bad-move``.
    :raises IllegalMove: see :func:`check_seat`, ``turn.apply_answer`` and :func:`_vote`.
    """
    turn.read_move(move)
    check_seat(state, seat)
    if state["phase"] == VOTE:
        return _vote(game, state, seat, move)
    if move["act"] == "choose-bonus":
        raise IllegalMove(
            "not-voting",
            "Bonuses are chosen by the losers after the game; "
            "now use the dice or make a connection.",
        )
    layout = game.sheets[state["sheet"]]
    marks = turn.apply_answer(layout, state["roll"], state["unlocked"], state["marks"][seat], move)
    new = {
        **state,
        "marks": [marks if s == seat else m for s, m in enumerate(state["marks"])],
        "answered": sorted([*state["answered"], seat]),
    }
    if owing(new):
        return new
    new = unlock_found_types(game, new)
    if new["stuck"]:
        return _finish(game, new)
    return {
        **new,
        "phase": ROLL,
        "round": new["round"] + 1,
        "roll": None,
        "answered": [],
        "stuck": [],
    }


def timeout_move(game: Game, state: Mapping, seat: int) -> dict:
    """Return the first legal move: the first dice use, else the first connection, else
    ``pass``; at the vote, no bonus.

    :raises IllegalMove: as :func:`check_seat`.
    """
    check_seat(state, seat)
    if state["phase"] == VOTE:
        return {"act": "choose-bonus", "bonus": NO_BONUS}
    return legal_moves(game, state, seat)[0]


def candidates(game: Game, state: Mapping) -> list[str]:
    """Return the bonuses the losers may unlock: those the game knows
    (``game.bonuses``) that are not unlocked yet, in list order (rules/star-maps.md,
    "Bonuses")."""
    return [b for b in game.bonuses if b not in state["unlocked"]]


def vote_choices(game: Game, state: Mapping) -> list[str]:
    """Return what a loser may vote for: a candidate, or ``game.blank_votes`` (``none``,
    no bonus: "the losers of the game may cooperate to choose one new bonus")."""
    return [*candidates(game, state), *game.blank_votes]


# --------------------------------------------------------------------------- the end


def _finish(game: Game, state: Mapping) -> dict:
    """Score the game; open the losers' vote or end (rules/star-maps.md, "Game End",
    "Final Scoring", "Bonuses")."""
    layout = game.sheets[state["sheet"]]
    result = scoring.final(layout, state["marks"])
    stuck = state["stuck"]
    result.update(
        {
            "reason": (
                f"Round {state['round']}: seat{'s' if len(stuck) > 1 else ''} "
                f"{', '.join(map(str, stuck))} could neither use the dice "
                f"{state['roll'][0]} and {state['roll'][1]} nor make a connection."
            ),
            "ended_round": state["round"],
            "cannot_move": list(stuck),
            "unlocked_bonuses": list(state["unlocked"]),
            "votes": [None] * state["players"],
            "new_bonus": None,
            "unlocked_after": list(state["unlocked"]),
            "unlocked_in_play": [dict(u) for u in state["unlocks"]],
        }
    )
    voters = result["losers"] if state["players"] > 1 else []
    if voters and candidates(game, state):
        return {**state, "phase": VOTE, "voters": voters, "result": result}
    return {**state, "phase": OVER, "result": result}


def _vote(game: Game, state: Mapping, seat: int, move: Mapping) -> dict:
    """Record a loser's vote; when the last is in, settle it and end the game.

    :raises IllegalMove: ``game-over`` (not a vote), ``no-such-bonus``, ``already-unlocked``.
    """
    if move["act"] != "choose-bonus":
        raise IllegalMove(
            "game-over",
            "The rounds are over; the losers are choosing a new "
            "bonus (choose <bonus>, or choose none).",
        )
    choices = vote_choices(game, state)
    bonus = move["bonus"]
    if bonus in state["unlocked"]:
        raise IllegalMove(
            "already-unlocked",
            f"Bonus {bonus} is already unlocked; choose one of {', '.join(choices)}.",
        )
    if bonus not in choices:
        raise IllegalMove(
            "no-such-bonus",
            f"There is no bonus {shown(bonus)}; choose one of {', '.join(choices)}.",
        )
    votes = [bonus if s == seat else v for s, v in enumerate(state["votes"])]
    new = {**state, "votes": votes}
    if owing(new):
        return new
    chosen = scoring.tally(votes)
    result = {
        **state["result"],
        "votes": votes,
        "new_bonus": chosen,
        "unlocked_after": [b for b in BONUS_IDS if b in state["unlocked"] or b == chosen],
    }
    return {**new, "phase": OVER, "result": result}
