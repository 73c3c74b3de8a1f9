"""``client.moves``: the session's seat's legal moves, and playing one."""

from __future__ import annotations

import random
from typing import Any, cast

from arbiter_client.base import Area, seg
from arbiter_client.types import JSON, LegalMoves, Move, MoveAccepted, MovePart

_NO_MOVE: Any = object()


class Moves(Area):
    """``/v1/games/{id}/legal-moves`` and ``/v1/games/{id}/moves`` (a seat token, or a
    personal token acting for its account's seat)."""

    def legal(self, game_id: str) -> LegalMoves:
        """Return the seat's legal moves now (``moves`` empty when it owes none) and the
        ``version`` they were listed at; a large decision also comes as ``parts``
        (:func:`random_move` draws from both).

        :raises Unauthorized: a missing or wrong token.
        """
        return cast(LegalMoves, self._s.request("GET", f"/v1/games/{seg(game_id)}/legal-moves"))

    def play(
        self,
        game_id: str,
        move: Move = _NO_MOVE,
        *,
        text: str | None = None,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> MoveAccepted:
        """Play ``move`` (as ``legal`` lists it) or ``text`` (the game's notation) for
        the seat, against ``expected_version`` (None: no check); a retry sends the same
        Idempotency-Key, so the move is never played twice.

        :raises Conflict: ``stale-version`` (the game moved on), not your turn, over.
        :raises Unprocessable: an illegal or unreadable move.
        """
        body: JSON = {} if expected_version is None else {"expected_version": expected_version}
        if move is not _NO_MOVE:
            body["move"] = move
        if text is not None:
            body["text"] = text
        path = f"/v1/games/{seg(game_id)}/moves"
        return cast(
            MoveAccepted,
            self._s.request("POST", path, json=body, idempotency_key=idempotency_key),
        )


def random_move(legal: LegalMoves, rng: random.Random | None = None) -> Move | None:
    """Return a random legal move of a ``legal`` answer, every listed move and every
    combination of a part about equally likely (a part describes many moves: one value
    of each ``fill`` list merged into its ``move``); None when there is none.

    Draws with ``rng`` (a fresh ``random.Random()`` when None): the same seed gives the
    same moves.
    """
    rng = rng or random.Random()
    moves, parts = legal.get("moves") or [], legal.get("parts") or []
    sizes = [_count(p) for p in parts]
    total = len(moves) + sum(sizes)
    if total == 0:
        return None
    i = rng.randrange(total)
    if i < len(moves):
        return moves[i]
    i -= len(moves)
    for part, size in zip(parts, sizes):
        if i < size:
            return {**part["move"], **{k: rng.choice(v) for k, v in part["fill"].items()}}
        i -= size
    raise AssertionError("unreachable")


def _count(part: MovePart) -> int:
    """Return how many moves a part describes."""
    n = 1
    for values in part["fill"].values():
        n *= len(values)
    return n
