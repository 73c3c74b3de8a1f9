"""The unfinished connections of a web process (idle, or still sending a head or a
body) and whom each counts for: the accounting behind the caps of
:class:`arbiter.serve.ProblemHttpToolsProtocol` (see :mod:`arbiter.serve`)."""

from __future__ import annotations

import functools
import ipaddress

from arbiter import settings


class Pending:
    """The unfinished connections of one web process (idle, or still sending a head or
    a body), oldest first, each with the loop time it became so: all of them, and per
    client key (:func:`client_key`)."""

    def __init__(self) -> None:
        self.all: dict = {}
        self.clients: dict[str, dict] = {}

    def add(self, conn, key: str, now: float) -> None:
        """Count ``conn`` of client ``key`` as the newest unfinished connection."""
        self.all[conn] = now
        self.clients.setdefault(key, {})[conn] = now

    def discard(self, conn, key: str) -> None:
        """Stop counting ``conn`` (of client ``key``), if it was."""
        self.all.pop(conn, None)
        mine = self.clients.get(key)
        if mine is not None:
            mine.pop(conn, None)
            if not mine:
                del self.clients[key]

    def oldest(self, key: str, client_cap: int, cap: int, before: float):
        """Return the oldest connection over a cap (client ``key``'s first) that has
        been unfinished since ``before`` or earlier, or None."""
        for conns, most in ((self.clients.get(key, {}), client_cap), (self.all, cap)):
            if len(conns) > most:
                conn, since = next(iter(conns.items()))
                if since <= before:
                    return conn
        return None


def pending_of(server_state) -> Pending:
    """Return the :class:`Pending` of a uvicorn server (one per web process)."""
    pending = getattr(server_state, "arbiter_pending", None)
    if pending is None:
        pending = server_state.arbiter_pending = Pending()
    return pending


@functools.lru_cache(maxsize=4096)
def client_key(host: str) -> str:
    """Return whom a connection from ``host`` counts for: its address; an IPv6
    address's /64 (one subscriber's usual share); an IPv4-mapped one's IPv4.
    Remembered for the last 4,096 hosts: every new connection asks."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network((ip, 64), strict=False))
    return str(ip)


@functools.cache
def _proxies(allowed: str) -> tuple[bool, tuple, frozenset]:
    """Return ``(everyone, networks, literals)`` of a ``--forwarded-allow-ips``."""
    items = [item.strip() for item in allowed.split(",") if item.strip()]
    networks, literals = [], set()
    for item in items:
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            literals.add(item)
    return "*" in items, tuple(networks), frozenset(literals)


def trusts(config, host: str) -> bool:
    """True when uvicorn ``config`` believes the proxy headers of peer ``host``
    (``--proxy-headers`` and ``--forwarded-allow-ips``, as uvicorn reads them)."""
    if not config.proxy_headers:
        return False
    allowed = config.forwarded_allow_ips
    return _trusted(allowed if isinstance(allowed, str) else ",".join(allowed), host)


@functools.lru_cache(maxsize=4096)
def _trusted(allowed: str, host: str) -> bool:
    """True when ``host`` is among the ``--forwarded-allow-ips`` ``allowed``
    (remembered for the last 4,096 pairs: every new connection asks)."""
    everyone, networks, literals = _proxies(allowed)
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return everyone or host in literals
    return everyone or any(ip in net for net in networks)


@functools.cache
def limits() -> dict:
    """Return this process's connection limits by name (:func:`arbiter.settings.connections`)."""
    return settings.named(settings.connections())
