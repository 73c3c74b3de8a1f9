"""One mailbox, however its address is spelt: what "one invitation, ever", blocking,
unsubscribing from everything and the sign-in limits count.

An address is folded to its mailbox by lower-casing it and dropping a ``+tag`` from
its local part (``Victim+1@Example.org`` and ``victim+2@example.org`` are the mailbox
``victim@example.org``): mail providers deliver plus-tagged addresses to the same
inbox, so counting exact addresses let one inbox be invited once per tag. Dots are
left alone (only some providers ignore them in the local part), as is any other
separator. Folding may join two mailboxes of a server that gives ``+`` no meaning;
that errs on the side of sending less.

:func:`as_mail_domain` writes a host as the domain of an address: an IP address as
its literal (``[127.0.0.1]``, ``[IPv6:::1]``), never bare.
"""

from __future__ import annotations

import ipaddress


def mailbox(email: str) -> str:
    """Return the mailbox of ``email``: trimmed, lower-cased, without a ``+tag`` in the
    local part (``Ann+games@Example.org`` -> ``ann@example.org``). An address without
    ``@`` is returned trimmed and lower-cased."""
    address = email.strip().lower()
    local, at, domain = address.rpartition("@")
    if not at:
        return address
    return f"{local.split('+', 1)[0] or local}@{domain}"


def as_mail_domain(host: str) -> str:
    """Return ``host`` as the domain part of an address: a host name in lower case, an
    IP address (bare or already a literal) as its address literal."""
    inner = host.strip()
    if inner.startswith("[") and inner.endswith("]"):
        inner = inner[1:-1]
        if inner.lower().startswith("ipv6:"):
            inner = inner[5:]
    try:
        ip = ipaddress.ip_address(inner)
    except ValueError:
        return host.strip().lower()
    return f"[{ip}]" if ip.version == 4 else f"[IPv6:{ip}]"
