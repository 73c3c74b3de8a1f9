"""Which web hook URLs the service may POST to, checked when a hook is registered and
again on every connection (server-side request forgery).

A URL must be ``https`` (``http`` too when ``WEBHOOK_ALLOW_HTTP`` is on: by default
only on the embedded default), carry no user name or password, and name a host whose
every address is public: never loopback, private (RFC 1918, unique-local), link-local,
shared (100.64/10), multicast, reserved or unspecified, unless the operator lists its
network in ``WEBHOOK_ALLOWED_NETWORKS`` (comma-separated CIDRs, e.g. ``127.0.0.0/8``).
A name may resolve to a public address when registered and to a private one later
(DNS rebinding), so the delivery's own connection resolves the name again, refuses
before connecting when any address it resolves to is not allowed, and checks the address
it actually connected to before sending a byte (:class:`GuardedAdapter`). The same
connection keeps to the attempt's deadline (:mod:`arbiter.hooks.webhook_deadline`):
resolving and connecting wait at most what is left of it, and the socket is watched by
it.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from urllib.parse import urlsplit, urlunsplit

import requests
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import ConnectTimeoutError, NameResolutionError, NewConnectionError
from urllib3.util.connection import allowed_gai_family

from arbiter import settings
from arbiter.errors import Unprocessable
from arbiter.hooks import webhook_deadline

DEFAULT_PORTS = {"http": 80, "https": 443}

URL_PATTERN = "^[^\\s\\u0000-\\u001f\\u007f]+$"
"""A URL as registered: no white space (``%20`` for a space) and no control character
(PostgreSQL stores no NUL; a raw one would reach logs). The same rule in Python's
``re`` and in JSON Schema (the contract's pattern)."""


class RefusedAddress(OSError):
    """A web hook's host is (or now resolves to) an address the service may not reach."""


def allowed_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """Return the networks of ``WEBHOOK_ALLOWED_NETWORKS`` (config; default none)."""
    raw = settings.current().hooks.allowed_networks
    return [
        ipaddress.ip_network(part.strip(), strict=False) for part in raw.split(",") if part.strip()
    ]


NAT64_WELL_KNOWN = ipaddress.ip_network("64:ff9b::/96")
"""RFC 6052's well-known NAT64 prefix: the last 32 bits are the IPv4 address reached."""

NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")
"""RFC 8215's local-use NAT64 prefix: not globally reachable, and where it embeds an
IPv4 address is the operator's choice, so it is refused as a whole."""

IPV4_COMPATIBLE = ipaddress.ip_network("::/96")
"""RFC 4291's deprecated IPv4-compatible addresses (``::a.b.c.d``)."""


GLOBAL_UNICAST_V6 = ipaddress.ip_network("2000::/3")
"""RFC 4291's global unicast space: an IPv6 address outside it (reserved, IPv4-translated
``::ffff:0:0:0/96``, unassigned ``4000::/3`` ...) is never a web hook's target."""

DOCUMENTATION_V6 = ipaddress.ip_network("3fff::/20")
"""RFC 9637's second documentation prefix (this Python's ``is_global`` predates it)."""


def embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """Return the IPv4 addresses an IPv6 address ``ip`` leads to through a translation
    or tunnel: IPv4-mapped (``::ffff:0:0/96``), IPv4-compatible (``::/96``), 6to4
    (``2002::/16``, RFC 3056), Teredo (``2001::/32``, RFC 4380: server and client)
    and the well-known NAT64 prefix (``64:ff9b::/96``, RFC 6052); empty for others."""
    out = []
    if ip.ipv4_mapped:
        out.append(ip.ipv4_mapped)
    if ip.sixtofour:
        out.append(ip.sixtofour)
    if ip.teredo:
        out.extend(ip.teredo)
    if ip in NAT64_WELL_KNOWN or (ip in IPV4_COMPATIBLE and int(ip) > 1):
        out.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    return out


def address_allowed(address: str) -> bool:
    """True when the service may connect to IP ``address``: a public (global unicast,
    not reserved; for IPv6 inside ``2000::/3`` and not documentation ``3fff::/20``, or
    NAT64 ``64:ff9b::/96`` of a public IPv4 address) address, or one inside
    ``WEBHOOK_ALLOWED_NETWORKS``. An IPv6 address that embeds an IPv4 one (:func:`embedded_ipv4`:
    mapped, compatible, 6to4, Teredo, NAT64) is
    allowed only when every embedded IPv4 address is (a NAT64 gateway or 6to4 relay
    would carry the connection there); the local-use NAT64 prefix ``64:ff9b:1::/48``
    only when listed. The same rule at registration and on every connection."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    if any(ip.version == net.version and ip in net for net in allowed_networks()):
        return True
    if not ip.is_global or ip.is_multicast:
        return False
    if isinstance(ip, ipaddress.IPv6Address):
        if ip in NAT64_LOCAL:
            return False
        if ip not in NAT64_WELL_KNOWN and (ip not in GLOBAL_UNICAST_V6 or ip in DOCUMENTATION_V6):
            return False
        return all(address_allowed(str(v4)) for v4 in embedded_ipv4(ip))
    return not ip.is_reserved


def normalise(url: str) -> str:
    """Return ``url`` checked for form and normalised (scheme and host lower-case, no
    default port, no fragment, ``/`` for an empty path); nothing is resolved.

    :raises Unprocessable: ``webhook-url-invalid`` (also a space or control character,
        see ``URL_PATTERN``, or port 0) or ``webhook-url-not-https``.
    """
    if not re.fullmatch(URL_PATTERN, url):
        raise _bad(
            "A web hook URL may not contain spaces or control characters; write a space as %20."
        )
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise _bad("This web hook URL cannot be read.") from None
    if port == 0:
        raise _bad("A web hook URL's port must be 1 to 65535.")
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not (parts.hostname or "").rstrip("."):
        schemes = "https:// or http://" if settings.current().hooks.allow_http else "https://"
        raise _bad(f"A web hook URL must be an absolute {schemes} address with a host name.")
    if scheme == "http" and not settings.current().hooks.allow_http:
        raise Unprocessable(
            "This server only calls https:// web hooks.", code="webhook-url-not-https"
        )
    if parts.username is not None or parts.password is not None:
        raise _bad(
            "A web hook URL may not carry a user name or password; put a secret "
            "in the path if you need one, and check the signature."
        )
    host = parts.hostname.lower().rstrip(".")
    shown = f"[{host}]" if ":" in host else host
    netloc = shown if port in (None, DEFAULT_PORTS[scheme]) else f"{shown}:{port}"
    return urlunsplit((scheme, netloc, parts.path or "/", parts.query, ""))


def _bad(detail: str) -> Unprocessable:
    return Unprocessable(detail, code="webhook-url-invalid")


def check(url: str) -> str:
    """Return ``url`` normalised once it is allowed: its form (:func:`normalise`) and
    every address its host resolves to (:func:`address_allowed`).

    :raises Unprocessable: ``webhook-url-invalid``, ``webhook-url-not-https``,
        ``webhook-url-unresolvable`` (no address), ``webhook-url-private`` (an address
        the service may not reach).
    """
    clean = normalise(url)
    parts = urlsplit(clean)
    try:
        addresses = resolve(parts.hostname, parts.port or DEFAULT_PORTS[parts.scheme])
    except OSError:
        raise Unprocessable(
            f"The host {parts.hostname} of this web hook URL has no address.",
            code="webhook-url-unresolvable",
        ) from None
    refused = [a for a in addresses if not address_allowed(a)]
    if refused:
        raise Unprocessable(
            f"The host {parts.hostname} resolves to {refused[0]}, a loopback, private or "
            "link-local address this server does not call.",
            code="webhook-url-private",
        )
    return clean


def resolve(host: str, port: int) -> list[str]:
    """Return every IP address ``host`` resolves to (an IP literal: itself).

    :raises OSError: the name does not resolve.
    """
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return sorted({info[4][0] for info in infos})


def _checked(sock: socket.socket) -> socket.socket:
    """Return ``sock`` if its peer is an allowed address; close it and raise if not."""
    peer = sock.getpeername()[0]
    if not address_allowed(peer):
        sock.close()
        raise _refuse(peer)
    return sock


def _refuse(address: str) -> RefusedAddress:
    return RefusedAddress(
        f"refused to connect to {address}: a loopback, private or link-local address"
    )


def connect(conn: HTTPConnection) -> socket.socket:
    """Return a socket connected to ``conn``'s host and port, for a delivery attempt.

    The host is resolved again (within the attempt's deadline); when any address it
    resolves to is not allowed (:func:`address_allowed`, the rule of registration),
    nothing is connected. The addresses are tried in turn, each connect given at most
    ``conn.timeout`` (the connect timeout) and what is left of the deadline, none
    started once it has passed; the peer is checked again (:func:`_checked`) and the
    socket watched by the deadline (:meth:`~arbiter.hooks.webhook_deadline.Deadline.watch`).

    :raises RefusedAddress: an address is not allowed.
    :raises NameResolutionError: the name does not resolve.
    :raises ConnectTimeoutError: the last address tried did not answer in time.
    :raises NewConnectionError: no address could be connected to (the deadline passed,
        or each refused the connection).
    """
    deadline = webhook_deadline.current()
    host = conn.host.strip("[]")

    def left() -> float:
        return deadline.remaining() if deadline is not None else float("inf")

    try:
        infos = webhook_deadline.resolve_within(host, conn.port, allowed_gai_family(), left())
    except socket.gaierror as err:
        raise NameResolutionError(conn.host, conn, err) from err
    except webhook_deadline.DeadlineExpired as err:
        raise NewConnectionError(conn, f"Failed to establish a new connection: {err}") from err
    refused = [info[4][0] for info in infos if not address_allowed(info[4][0])]
    if refused:
        raise _refuse(refused[0])
    error: OSError = OSError("the name resolves to no address")
    for family, kind, proto, _, address in infos:
        if deadline is not None and deadline.remaining() <= 0:
            error = webhook_deadline.DeadlineExpired("the deadline passed while connecting")
            break
        sock = socket.socket(family, kind, proto)
        try:
            for option in conn.socket_options or ():
                sock.setsockopt(*option)
            timeout = conn.timeout if isinstance(conn.timeout, int | float) else None
            sock.settimeout(min(timeout or float("inf"), left(), 3600.0))
            sock.connect(address)
        except OSError as err:
            sock.close()
            error = err
            continue
        sock = _checked(sock)
        if deadline is not None:
            try:
                deadline.watch(sock)
            except OSError:
                sock.close()
                raise
        return sock
    if isinstance(error, TimeoutError):
        raise ConnectTimeoutError(conn, f"Connection to {conn.host} timed out.") from error
    raise NewConnectionError(conn, f"Failed to establish a new connection: {error}") from error


class _GuardedHTTPConnection(HTTPConnection):
    def _new_conn(self) -> socket.socket:
        return connect(self)


class _GuardedHTTPSConnection(HTTPSConnection):
    def _new_conn(self) -> socket.socket:
        return connect(self)


class _GuardedHTTPPool(HTTPConnectionPool):
    ConnectionCls = _GuardedHTTPConnection


class _GuardedHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _GuardedHTTPSConnection


class GuardedAdapter(HTTPAdapter):
    """A requests transport whose connections are made by :func:`connect`: none to an
    address :func:`address_allowed` refuses (checked before connecting and again after,
    before sending), all within the attempt's deadline."""

    def init_poolmanager(self, *args, **kwargs) -> None:
        """Build the pool manager with the guarded connection pools."""
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {
            "http": _GuardedHTTPPool,
            "https": _GuardedHTTPSPool,
        }


def session() -> requests.Session:
    """Return a requests session for web hooks: guarded connections, no proxies from
    the environment (a proxy would hide the real peer), no cookies kept."""
    out = requests.Session()
    out.trust_env = False
    for prefix in ("http://", "https://"):
        out.mount(prefix, GuardedAdapter())
    return out
