"""One mailbox, however its address is spelt: what "one invitation, ever", blocking,
unsubscribing from everything and the sign-in limits count.

An address is folded to its mailbox by lower-casing it and dropping a ``+tag`` from
its local part (``Victim+1@Example.org`` and ``victim+2@example.org`` are the mailbox
``victim@example.org``): mail providers deliver plus-tagged addresses to the same
inbox, so counting exact addresses let one inbox be invited once per tag. Dots are
left alone (only some providers ignore them in the local part), as is any other
separator. Folding may join two mailboxes of a server that gives ``+`` no meaning;
that errs on the side of sending less.
"""

from __future__ import annotations


def mailbox(email: str) -> str:
    """Return the mailbox of ``email``: trimmed, lower-cased, without a ``+tag`` in the
    local part (``Ann+games@Example.org`` -> ``ann@example.org``). An address without
    ``@`` is returned trimmed and lower-cased."""
    address = email.strip().lower()
    local, at, domain = address.rpartition("@")
    if not at:
        return address
    return f"{local.split('+', 1)[0] or local}@{domain}"
