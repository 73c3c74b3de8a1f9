"""``client.account``: signing in, my account, my games, my personal tokens."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from arbiter_client.base import Area, seg
from arbiter_client.types import (
    JSON,
    Bot,
    BotMade,
    Me,
    MyGame,
    SignedIn,
    Token,
    TokenCreated,
    Webhook,
    WebhookCreated,
)


class Account(Area):
    """``/v1/auth/*`` and ``/v1/me*`` (a personal ``arb_...`` token, except sign-in)."""

    def request_link(self, email: str, display_name: str | None = None) -> JSON:
        """Mail a one-time sign-in link to ``email`` (an account is made on first use)."""
        body = {"email": email, "display_name": display_name}
        return cast(JSON, self._s.request("POST", "/v1/auth/links", json=_given(body)))

    def sign_in(self, email: str, token: str) -> SignedIn:
        """Use a mailed link (its ``email`` and ``token`` values); return the account and
        a personal token with every scope (``["token"]["token"]``, shown this once)."""
        body = {"email": email, "token": token}
        return cast(SignedIn, self._s.request("POST", "/v1/auth/sessions", json=body))

    def me(self) -> Me:
        """Return my account, with my ratings and reliability."""
        return cast(Me, self._s.request("GET", "/v1/me"))

    def update(
        self,
        *,
        display_name: str | None = None,
        tz: str | None = None,
        digest: bool | None = None,
    ) -> Me:
        """Change my display name, time zone or digest option (``account:write``)."""
        body = {"display_name": display_name, "tz": tz, "digest": digest}
        return cast(Me, self._s.request("PATCH", "/v1/me", json=_given(body)))

    def delete(self) -> None:
        """Delete my account: address and name erased, every token revoked."""
        self._s.request("DELETE", "/v1/me")

    def games(self, *, to_act: bool | None = None, status: str | None = None) -> list[MyGame]:
        """Return my games, most recently moved first; ``to_act``: only those where one
        of my seats owes a move."""
        params = {"to_act": to_act, "status": status}
        return cast(list[MyGame], self._s.request("GET", "/v1/me/games", params=params)["games"])

    def invitations(self) -> list[JSON]:
        """Return the pending invitations to my address."""
        return cast(list[JSON], self._s.request("GET", "/v1/me/invitations"))

    def tokens(self, *, page: int = 1, page_size: int = 50) -> list[Token]:
        """Return one page of my tokens that are not revoked, oldest first (never the
        tokens themselves; an account holds at most the server's TOKENS_PER_ACCOUNT,
        50 by default)."""
        params = {"page": page, "page_size": page_size}
        return cast(list[Token], self._s.request("GET", "/v1/me/tokens", params=params))

    def create_token(
        self, name: str, scopes: Sequence[str], *, expires_in: int | None = None
    ) -> TokenCreated:
        """Make a personal token with ``scopes`` (e.g. ``["games:play"]`` for a bot);
        ``["token"]`` is shown this once."""
        body = {"name": name, "scopes": list(scopes), "expires_in": expires_in}
        return cast(TokenCreated, self._s.request("POST", "/v1/me/tokens", json=_given(body)))

    def revoke_token(self, token_id: str) -> None:
        """Revoke one of my tokens: its open streams end, it opens nothing more."""
        self._s.request("DELETE", f"/v1/me/tokens/{seg(token_id)}")

    def bots(self) -> list[Bot]:
        """Return my bot accounts, oldest first (never their tokens)."""
        return cast(list[Bot], self._s.request("GET", "/v1/me/bots"))

    def create_bot(self, name: str, *, public: bool = False) -> BotMade:
        """Make a bot account (no address, never mailed, marked as a bot in games);
        ``["token"]["token"]``, its play-scoped token (``games:play``), is shown this
        once. ``public``: anybody may seat it (else only I may)."""
        body = {"name": name, "public": public}
        return cast(BotMade, self._s.request("POST", "/v1/me/bots", json=body))

    def new_bot_token(self, bot_id: str) -> BotMade:
        """Give my bot a new token (shown this once) and revoke its others."""
        path = f"/v1/me/bots/{seg(bot_id)}/token"
        return cast(BotMade, self._s.request("POST", path))

    def delete_bot(self, bot_id: str) -> None:
        """Delete my bot account: its tokens are revoked, its streams end."""
        self._s.request("DELETE", f"/v1/me/bots/{seg(bot_id)}")

    def bot_webhooks(self, bot_id: str) -> list[Webhook]:
        """Return my bot's web hooks."""
        path = f"/v1/me/bots/{seg(bot_id)}/webhooks"
        return cast(list[Webhook], self._s.request("GET", path))

    def create_bot_webhook(
        self, bot_id: str, url: str, events: Sequence[str] = ("turn",)
    ) -> WebhookCreated:
        """Register a URL told of my bot's events (``turn``, ``game_over``); the
        signing secret (``["secret"]``) is shown this once."""
        path = f"/v1/me/bots/{seg(bot_id)}/webhooks"
        body = {"url": url, "events": list(events)}
        return cast(WebhookCreated, self._s.request("POST", path, json=body))

    def delete_bot_webhook(self, bot_id: str, hook_id: str) -> None:
        """Delete one of my bot's web hooks."""
        self._s.request("DELETE", f"/v1/me/bots/{seg(bot_id)}/webhooks/{seg(hook_id)}")

    def accept_invitation(self, invitation_id: str, token: str | None = None) -> JSON:
        """Accept an invitation (the mailed link's ``token``, or this session's personal
        token of the invited address): the seat joins the game."""
        path = f"/v1/invitations/{seg(invitation_id)}/accept"
        return cast(JSON, self._s.request("POST", path, json={"token": token}))

    def decline_invitation(self, invitation_id: str, token: str | None = None) -> JSON:
        """Decline an invitation: the seat stays unfilled."""
        path = f"/v1/invitations/{seg(invitation_id)}/decline"
        return cast(JSON, self._s.request("POST", path, json={"token": token}))

    def ratings(self, engine: str, limit: int | None = None) -> JSON:
        """Return the leaderboard of ``engine``: ratings by ordinal, with reliability."""
        path = f"/v1/ratings/{seg(engine)}"
        return cast(JSON, self._s.request("GET", path, params={"limit": limit}))


def _given(body: dict[str, Any]) -> dict[str, Any]:
    """Return ``body`` without its None members."""
    return {k: v for k, v in body.items() if v is not None}
