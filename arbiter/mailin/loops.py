"""Mail that must never be answered: auto-replies, bounces, lists (RFC 3834).

An answer to an out-of-office reply or a bounce starts a mail loop; such mail is
recorded and dropped without a word.
"""

from __future__ import annotations

from email.message import EmailMessage

from arbiter.mailin.message import first_address, header

BULK_PRECEDENCE = {"bulk", "junk", "list", "auto_reply"}
DAEMONS = ("mailer-daemon@", "postmaster@")


def automatic(msg: EmailMessage, envelope_sender: str | None) -> str | None:
    """Return why ``msg`` is automatic mail (a sentence), or None for a person's mail.

    :param envelope_sender: the SMTP ``MAIL FROM`` (``""`` is the null sender of a
        bounce), or None when unknown (IMAP, a pipe without ``--sender``).
    """
    auto = header(msg, "Auto-Submitted").strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = header(msg, "Precedence").strip().lower()
    if precedence in BULK_PRECEDENCE:
        return f"Precedence: {precedence}"
    for name in ("X-Autoreply", "X-Autorespond", "List-Id"):
        if header(msg, name):
            return f"{name} header"
    if envelope_sender is not None and envelope_sender.strip("<> ") == "":
        return "empty envelope sender (a bounce)"
    senders = [first_address(header(msg, "From")), (envelope_sender or "").lower()]
    if any(s.startswith(DAEMONS) for s in senders):
        return "sent by a mailer daemon (a bounce)"
    if msg.get_content_type() == "multipart/report" or any(
        part.get_content_type() in ("message/delivery-status", "message/disposition-notification")
        for part in msg.walk()
    ):
        return "a delivery status notification"
    return None
