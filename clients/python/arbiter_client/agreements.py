"""``client.agreements``: agreed undo and abort. Ask to take back your last move or to
abort the game; answer another player's request (``/v1/games/{id}/undo-requests``,
``/v1/games/{id}/abort-requests``)."""

from __future__ import annotations

from typing import Literal, TypedDict, cast

from arbiter_client.base import Area, seg

Kind = Literal["undo", "abort"]


class Agreement(TypedDict, total=False):
    """Where an undo or abort request stands (``status``: ``pending``, ``agreed``,
    ``refused`` or ``lapsed``; ``request``: its number)."""

    kind: str
    request: int
    seat: int
    status: str
    accepted: list[int]
    waiting_for: list[int]
    version: int
    game_status: str
    expires_at: str | None
    move_seq: int | None
    text: str | None
    undone: list[int]
    why: str | None


class Agreements(Area):
    """Agreed undo and abort (the session's token must hold a seat of the game)."""

    def ask(self, game_id: str, kind: Kind, *, idempotency_key: str | None = None) -> Agreement:
        """Ask the other players to let you take back your last move (``undo``) or to
        abort the game (``abort``).

        :raises Conflict: ``undo-not-allowed`` (with the reason), ``abort-not-allowed``,
            ``undo-pending`` / ``abort-pending``, ``game-over``.
        """
        path = f"/v1/games/{seg(game_id)}/{kind}-requests"
        return cast(Agreement, self._s.request("POST", path, idempotency_key=idempotency_key))

    def answer(
        self,
        game_id: str,
        kind: Kind,
        request: int,
        accept: bool,
        *,
        idempotency_key: str | None = None,
    ) -> Agreement:
        """Accept or refuse request ``request``; the last acceptance takes the move
        back (undo) or ends the game unrated (abort).

        :raises Conflict: ``request-closed``, ``own-request``, ``already-answered``.
        :raises NotFound: no such request.
        """
        verb = "accept" if accept else "refuse"
        path = f"/v1/games/{seg(game_id)}/{kind}-requests/{seg(request)}/{verb}"
        return cast(Agreement, self._s.request("POST", path, idempotency_key=idempotency_key))

    def get(self, game_id: str, kind: Kind, request: int) -> Agreement:
        """Return where request ``request`` stands."""
        path = f"/v1/games/{seg(game_id)}/{kind}-requests/{seg(request)}"
        return cast(Agreement, self._s.request("GET", path))
