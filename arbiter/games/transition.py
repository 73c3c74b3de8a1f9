"""A transition: the inputs one request or task applies to a game, then settles.

A :class:`Transition` starts from a game's snapshot, applies moves and chance
outcomes through the engine, and collects the events to append. ``settle`` carries
the game forward as far as the arbiter itself may: resigned seats' decisions are
played by their timeout move, chance is rolled when the caller is a worker, and a
game that reaches ``Over`` gets its ``game-over`` and ``seed-revealed`` events.
Nothing is written here; :func:`arbiter.games.commit.commit` does that.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from arbiter import fairness
from arbiter.games import events
from arbiter.games.store import NewEvent
from arbiter.models import Game
from engines.base import Chance, Decision, Engine, Over

MAX_SETTLE_STEPS = 10_000


@dataclass
class Transition:
    """Inputs applied to one game in one transaction.

    :param game: the game row as read; :param engine: its engine;
    :param state: the engine state, moved forward by each input.
    """

    game: Game
    engine: Engine
    state: dict
    events: list[NewEvent] = field(default_factory=list)
    result: dict | None = None

    @property
    def next_seq(self) -> int:
        """Return the seq the next appended event will get."""
        return self.game.version + len(self.events) + 1

    def prompt(self):
        """Return the engine's prompt for the current state."""
        return self.engine.prompt(self.state)

    def move(self, seat: int, move: Any, **extra: Any) -> None:
        """Apply ``seat``'s move and record a ``move`` event (private if the decision is).

        :raises engines.base.EngineError: the move is unreadable or illegal.
        """
        after = self.engine.play(self.state, seat, move)  # the engine's own, precise refusal
        decision = self.engine.check_turn(self.state, seat)  # and never out of turn
        self.state = after
        self.events.append(
            events.Move(
                seat=seat,
                move=move,
                text=self.engine.describe(move),
                private=bool(decision.private),
                **extra,
            )
        )

    def roll(self) -> None:
        """Derive the outcome of the current Chance from the seed and apply it."""
        chance = self.prompt()
        assert isinstance(chance, Chance)
        spec = dict(chance.spec)
        outcome = fairness.derive(spec, self.game.seed, self.next_seq)
        self.state = self.engine.resolve(self.state, outcome)
        seats = None if chance.visible_to is None else list(chance.visible_to)
        self.events.append(
            events.ChanceOutcome(
                spec=spec,
                outcome=outcome,
                text=self.engine.describe_outcome(spec, outcome),
                visible_to=seats,
            )
        )

    def finish(self, result: dict) -> None:
        """Record the end: ``game-over`` with ``result``, then ``seed-revealed``; the
        result lists under ``autopilot`` the seats the autopilot held at any time
        (:mod:`arbiter.games.autopilot`)."""
        held = sorted(s.seat for s in self.game.seats if s.autopilot)
        result = {**result, "autopilot": held} if held else result
        self.result = result
        self.events.append(events.GameOver(result=result))
        self.events.append(events.SeedRevealed(seed=self.game.seed))


def settle(tr: Transition, resigned: set[int], roll: bool) -> None:
    """Carry ``tr`` forward until it waits for a live seat, or for chance when
    ``roll`` is False, or the game is over.

    :param resigned: seats that resigned; their decisions are played by the engine's
        timeout move (and they rank last).
    """
    players = len(tr.game.seats)
    for _ in range(MAX_SETTLE_STEPS):
        if tr.result is not None:
            return
        if players > 1 and players - len(resigned) <= 1 or players == len(resigned):
            tr.finish(resignation_result(players, resigned))
            return
        prompt = tr.prompt()
        if isinstance(prompt, Over):
            tr.finish(rank_resigned_last(dict(prompt.result), resigned))
            return
        if isinstance(prompt, Chance):
            if not roll:
                return
            tr.roll()
            continue
        assert isinstance(prompt, Decision)
        auto = [s for s in prompt.seats if s in resigned]
        if not auto:
            return
        seat = auto[0]
        tr.move(seat, tr.engine.timeout_move(tr.state, seat), auto="resigned")
    raise RuntimeError(f"game {tr.game.id} did not settle in {MAX_SETTLE_STEPS} steps")


def rank_resigned_last(result: dict, resigned: set[int]) -> dict:
    """Return ``result`` with resigned seats moved into a last ranking group."""
    if not resigned:
        return result
    groups = [[s for s in g if s not in resigned] for g in result.get("ranking", [])]
    groups = [g for g in groups if g] + [sorted(resigned)]
    return {**result, "ranking": groups, "resigned": sorted(resigned)}


def resignation_result(players: int, resigned: set[int]) -> dict:
    """Return the result of a game ended because too few seats remain."""
    standing = [s for s in range(players) if s not in resigned]
    ranking = ([standing] if standing else []) + [sorted(resigned)]
    return {
        "scores": [None] * players,
        "ranking": ranking,
        "reason": "resignation",
        "resigned": sorted(resigned),
    }
