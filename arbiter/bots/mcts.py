"""Monte Carlo tree search over any engine, from one seat's view (information set MCTS).

Each iteration draws a determinization (:func:`arbiter.bots.sampling.determinize`: a full
state consistent with the view, the unseen cards dealt at random by the bot), then walks
one shared tree keyed by the moves played (open loop: chance outcomes are never stored
in the tree; each walk rolls them from one of :data:`FUTURES` seeds the bot drew, in
turn), selects with UCB1 counted over the iterations in which a move was available (Cowling,
Powley and Whitehouse 2012, "Information Set Monte Carlo Tree Search"), adds one node,
plays random legal moves to the end and credits each move with its mover's reward
(:func:`arbiter.bots.rewards.rewards`). A simultaneous turn is walked one seat at a
time, the bot's seat first at the root; each mover chooses from its own statistics only.

The search receives the view and the seat's legal moves, never the state.
"""

from __future__ import annotations

import json
import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

from arbiter.bots import sampling
from arbiter.bots.budget import Budget
from arbiter.bots.rewards import rewards
from engines.base import Chance, Engine, EngineError, Over

EXPLORATION = 0.7
"""UCB1's exploration constant for rewards in [0, 1]."""

FUTURES = 16
"""How many chance futures a search samples: walk ``i`` rolls every die and shuffle from
seed ``i % FUTURES`` (:func:`arbiter.bots.sampling.outcome`, the ``n``-th roll of the
walk as event ``n``). The moves at a node are so compared under the same rolls (common
random numbers), and the search still averages over several futures rather than
planning on one. Star Maps at level 3, 40 games (seeds 20-59): a fresh roll on every
walk won 25, one future per search 32, 4 futures 31, 16 futures 33 (``bench/README.md``)."""

MAX_STEPS = 5000
"""A walk that has not ended after this many inputs counts as a draw for everyone."""


@dataclass
class Node:
    """A move in the tree: who made it, and how it fared.

    :param seat: the mover; :param visits: walks through it; :param wins: the mover's
        rewards summed over them; :param avail: walks in which it was legal at its parent.
    """

    seat: int
    visits: int = 0
    wins: float = 0.0
    avail: int = 0
    children: dict[Any, Node] = field(default_factory=dict)

    def score(self) -> float:
        """Return UCB1 over availability (unvisited nodes first)."""
        if self.visits == 0:
            return math.inf
        mean = self.wins / self.visits
        return mean + EXPLORATION * math.sqrt(math.log(max(self.avail, 1)) / self.visits)


@dataclass
class Search:
    """One move's search: the engine, the seat's view and legal moves, the bot's rng."""

    engine: Engine
    view: dict
    seat: int
    legal: list[Any]
    rng: random.Random
    root: Node = field(init=False)
    iterations: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        self.root = Node(seat=self.seat)
        self.unseen = sampling.pools(self.engine, self.view, self.seat)
        self.fixed: dict | None = None
        self.root_keys = [key(m) for m in self.legal]
        self.futures = [sampling.new_seed(self.rng) for _ in range(FUTURES)]

    def run(self, budget: Budget) -> Any:
        """Search within ``budget``; return the most visited of ``legal``, unchanged.

        :raises NotImplementedError: the engine cannot rebuild a state from the view.
        """
        start = time.process_time()
        while budget.iterations is None or self.iterations < budget.iterations:
            if budget.seconds is not None and time.process_time() - start >= budget.seconds:
                break
            self.iterate()
            self.iterations += 1
        best = max(
            range(len(self.legal)),
            key=lambda i: (
                self.root.children[k].visits
                if (k := self.root_keys[i]) in self.root.children
                else -1
            ),
        )
        return self.legal[best]

    def sample(self) -> dict:
        """Return a determinization (the same one when nothing is hidden)."""
        if not self.unseen:
            if self.fixed is None:
                self.fixed = sampling.determinize(
                    self.engine, self.view, self.seat, self.unseen, self.rng
                )
            return self.fixed
        return sampling.determinize(self.engine, self.view, self.seat, self.unseen, self.rng)

    def iterate(self) -> None:
        """One walk: select and expand in the tree, play out at random, back up."""
        state = self.sample()
        node, path, in_tree, rolls = self.root, [], True, 0
        future = self.futures[self.iterations % FUTURES]
        for _ in range(MAX_STEPS):
            prompt = self.engine.prompt(state)
            if isinstance(prompt, Over):
                self.backup(path, rewards(prompt.result, len(prompt.result["scores"])))
                return
            if isinstance(prompt, Chance):
                rolls += 1
                state = self.engine.resolve(state, sampling.outcome(prompt.spec, future, rolls))
                continue
            mover = self.seat if node is self.root else min(prompt.seats)
            if node is self.root:
                moves, keys = self.legal, self.root_keys
            else:
                moves = self.engine.legal_moves(state, mover)
                keys = [key(m) for m in moves] if in_tree else None
            if in_tree:
                i = self.select(node, mover, keys)
                node = node.children[keys[i]]
                path.append(node)
                in_tree = node.visits > 0
            else:
                i = self.rng.randrange(len(moves))
            try:
                state = self.engine.play(state, mover, moves[i])
            except EngineError:  # a determinization the view did not allow: drop it
                return
        self.backup(path, None)

    def select(self, node: Node, mover: int, keys: list[Any]) -> int:
        """Return the index of the move to follow from ``node``: an untried one at random,
        else the best by UCB1; counts every listed move as available."""
        untried = []
        for i, k in enumerate(keys):
            child = node.children.get(k)
            if child is None:
                child = node.children[k] = Node(seat=mover)
            child.avail += 1
            if child.visits == 0:
                untried.append(i)
        if untried:
            return self.rng.choice(untried)
        return max(range(len(keys)), key=lambda i: node.children[keys[i]].score())

    def backup(self, path: list[Node], reward: list[float] | None) -> None:
        """Credit each node on ``path`` with its mover's reward (a half when unended)."""
        for node in path:
            node.visits += 1
            node.wins += 0.5 if reward is None else reward[node.seat]


def key(move: Any) -> Any:
    """Return a move as a hashable canonical value (equal moves, equal keys; moves that
    differ, keys that differ): a string or number as it is, ``true``, ``false`` and
    ``null`` as their JSON text marked as such (``true`` is not ``1``), a list as a
    tuple of keys, an object as a marked tuple of its ``(name, key)`` pairs by name.
    Cheaper than JSON text: the search takes a key of every move it lists in the tree."""
    if isinstance(move, dict):
        return (_OBJECT, *sorted((k, key(v)) for k, v in move.items()))
    if isinstance(move, list):
        return tuple(key(v) for v in move)
    if isinstance(move, bool) or move is None:
        return (_LITERAL, json.dumps(move))
    return move


_OBJECT = object()
"""Marks the key of a JSON object (so that it differs from the key of any list)."""
_LITERAL = object()
"""Marks the key of ``true``, ``false`` or ``null``."""
