"""Reply addresses that are capabilities: who may answer which prompt of which game.

The local part is ``<game>-<seat>-<version>-<mac>``: the game id (hex), the seat, the
version at which the prompt began, and the first 12 characters of the base32
HMAC-SHA256 of ``"arbiter/reply|<game>|<seat>|<version>"`` under ``SECRET_KEY``. All
of it is lower-case letters, digits and hyphens, so it survives every mail system and
is read case-insensitively; it is about 36 characters. With ``MAIL_REPLY_MAILBOX`` set
the capability is plus-addressed (``arbiter+<capability>@MAIL_DOMAIN``), otherwise
it is the whole local part of an address at a dedicated (sub)domain.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass
from email.utils import getaddresses
from urllib.parse import urlparse

from arbiter import settings
from arbiter.mail.mailboxes import as_mail_domain

MAC_CHARS = 12
"""Characters of the base32 HMAC kept in the address (60 bits)."""

_LOCAL = re.compile(rf"^([0-9a-f]{{1,32}})-(\d{{1,3}})-(\d{{1,9}})-([a-z2-7]{{{MAC_CHARS}}})$")


@dataclass(frozen=True)
class Capability:
    """A verified reply address: game id, seat, and the prompt's version."""

    game_id: str
    seat: int
    version: int


def _mac(game_id: str, seat: int, version: int) -> str:
    """Return the address's MAC for one (game, seat, version)."""
    secret = settings.current().service.secret_key.encode()
    digest = hmac.new(
        secret, f"arbiter/reply|{game_id}|{seat}|{version}".encode(), hashlib.sha256
    ).digest()
    return base64.b32encode(digest).decode().lower()[:MAC_CHARS]


def mail_domain() -> str:
    """Return ``MAIL_DOMAIN``, by default the host of ``BASE_URL``; an IP address is
    written as the address literal mail takes (RFC 5321, 4.1.3: ``[127.0.0.1]``,
    ``[IPv6:::1]``), never bare (``x@127.0.0.1``, which strict clients refuse: issue
    22, item 14)."""
    return as_mail_domain(
        settings.current().mail.domain
        or urlparse(settings.current().service.base_url).hostname
        or "localhost"
    )


def is_ours(domain: str) -> bool:
    """True when ``domain`` (of a recipient) is :func:`mail_domain`, compared without
    case; an IP address counts written either way (a reply to a mail sent before
    reply addresses used the literal still arrives)."""
    return as_mail_domain(domain) == mail_domain()


def reply_address(game_id: str, seat: int, version: int) -> str:
    """Return the reply address for ``seat`` answering the prompt begun at ``version``."""
    local = f"{game_id}-{seat}-{version}-{_mac(game_id, seat, version)}"
    mailbox = settings.current().mail.reply_mailbox
    if mailbox:
        local = f"{mailbox}+{local}"
    return f"{local}@{mail_domain()}"


def read(address: str) -> Capability | None:
    """Return the capability of a reply address, or None when it is not one of ours
    or its MAC does not verify (tampered, truncated, another game's or seat's)."""
    address = (address or "").strip().strip("<>").lower()
    local, at, domain = address.rpartition("@")
    if not at or not is_ours(domain):
        return None
    local = local.rpartition("+")[2]
    match = _LOCAL.match(local)
    if not match:
        return None
    game_id, seat, version, mac = (
        match.group(1),
        int(match.group(2)),
        int(match.group(3)),
        match.group(4),
    )
    if not hmac.compare_digest(mac, _mac(game_id, seat, version)):
        return None
    return Capability(game_id, seat, version)


def find(addresses: list[str]) -> Capability | None:
    """Return the first capability among ``addresses`` (envelope recipients, or
    header values such as ``To``), or None."""
    for _, address in getaddresses(addresses):
        cap = read(address)
        if cap is not None:
            return cap
    return None
