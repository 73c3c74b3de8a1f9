"""The client: one object per API area over one session, like ``berserk.Client``."""

from __future__ import annotations

import httpx

from arbiter_client.account import Account
from arbiter_client.agreements import Agreements
from arbiter_client.campaigns import Campaigns
from arbiter_client.engines import Engines
from arbiter_client.events import Events
from arbiter_client.games import Games
from arbiter_client.moves import Moves
from arbiter_client.session import Retry, Session
from arbiter_client.tournaments import Tournaments
from arbiter_client.webhooks import Webhooks

DEFAULT_URL = "http://127.0.0.1:8000"
"""Where ``make run`` serves."""


class Client:
    """The Arbiter API, one attribute per area:

    - ``engines``: the rules engines (:class:`~arbiter_client.engines.Engines`)
    - ``games``: create, list, read, resign, the clock (:class:`~arbiter_client.games.Games`)
    - ``moves``: legal moves and playing one (:class:`~arbiter_client.moves.Moves`)
    - ``agreements``: agreed undo and abort (:class:`~arbiter_client.agreements.Agreements`)
    - ``events``: the log, long-polls and streams (:class:`~arbiter_client.events.Events`)
    - ``account``: sign-in, my account, games and tokens (:class:`~arbiter_client.account.Account`)
    - ``webhooks``: my web hooks (:class:`~arbiter_client.webhooks.Webhooks`)
    - ``tournaments``: tournaments (:class:`~arbiter_client.tournaments.Tournaments`)
    - ``campaigns``: Star Maps campaigns (:class:`~arbiter_client.campaigns.Campaigns`)

    :param base_url: the service, e.g. ``https://arbiter.example.org``.
    :param token: a bearer token: a seat token (from a game's creation), a creator or
        organiser token, or a personal ``arb_...`` token; None: anonymous.
    :param retry: when to send a refused request again (429 and 503 after their
        ``Retry-After``; :class:`~arbiter_client.session.Retry`).
    :param timeout: seconds to wait for an ordinary answer (a long-poll adds its wait).
    :param stream_timeout: seconds a stream may stay silent before it is reconnected
        (longer than the service's keep-alive, 15 s).
    :param http: an httpx client of your own (proxies, event hooks, a transport); its
        ``base_url`` is set to ``base_url``.

    Use it as a context manager, or call :meth:`close`, to close its connections;
    :meth:`with_token` makes a client for another token over the same connections.
    """

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        token: str | None = None,
        *,
        retry: Retry | None = None,
        timeout: float = 60.0,
        stream_timeout: float = 60.0,
        http: httpx.Client | None = None,
    ) -> None:
        if http is None:
            http = httpx.Client(
                timeout=timeout,
                transport=httpx.HTTPTransport(retries=2),  # connection attempts only
                headers={"User-Agent": "arbiter-client/0.1"},
            )
        http.base_url = httpx.URL(base_url.rstrip("/"))
        self._owns_http = http
        self._setup(Session(http, token, retry or Retry(), stream_timeout))

    def _setup(self, session: Session) -> None:
        self.session = session
        self.engines = Engines(session)
        self.games = Games(session)
        self.agreements = Agreements(session)
        self.moves = Moves(session)
        self.events = Events(session)
        self.account = Account(session)
        self.webhooks = Webhooks(session)
        self.tournaments = Tournaments(session)
        self.campaigns = Campaigns(session)

    @property
    def token(self) -> str | None:
        """The bearer token this client sends."""
        return self.session.token

    def with_token(self, token: str | None) -> Client:
        """Return a client that sends ``token``, sharing this one's connections and
        retry policy (close only the first)."""
        other = Client.__new__(Client)
        other._owns_http = self._owns_http
        other._setup(self.session.with_token(token))
        return other

    def close(self) -> None:
        """Close the connections (shared with the clients of :meth:`with_token`)."""
        self._owns_http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
