"""Polling a hosted mailbox by IMAP (``IMAP_URL``), with ``imap-tools``.

Unseen messages are fetched without marking them; each is passed to
:func:`arbiter.mailin.receive.receive` and only once it is recorded (new or a
duplicate) is it flagged seen, or moved to ``IMAP_DONE_FOLDER`` when set. A crash
before that leaves it unseen for the next poll, where the Message-ID dedupes it.
"""

from __future__ import annotations

import logging
from urllib.parse import unquote, urlparse

from imap_tools import AND, MailBox, MailBoxUnencrypted

from arbiter import settings
from arbiter.mailin.receive import receive

log = logging.getLogger(__name__)

BATCH = 100
"""Messages fetched per poll at most."""


def mailbox(url: str):
    """Return a logged-in imap-tools mailbox for ``imap[s]://user:pass@host:port/Folder``."""
    parts = urlparse(url)
    secure = parts.scheme == "imaps"
    host, port = parts.hostname or "localhost", parts.port or (993 if secure else 143)
    box = MailBox(host, port) if secure else MailBoxUnencrypted(host, port)
    folder = unquote(parts.path.lstrip("/")) or "INBOX"
    return box.login(unquote(parts.username or ""), unquote(parts.password or ""), folder)


def poll(url: str | None = None) -> int:
    """Record every unseen message of the mailbox; return how many were recorded."""
    url = url or settings.current().mail.imap_url
    if not url:
        return 0
    done_folder = settings.current().mail.imap_done_folder
    recorded = 0
    with mailbox(url) as box:
        for msg in box.fetch(AND(seen=False), mark_seen=False, bulk=True, limit=BATCH):
            outcome = receive(msg.obj.as_bytes(), source="imap")
            if outcome.status in ("too-large", "unreadable"):
                log.warning("IMAP message %s refused: %s", msg.uid, outcome.reason)
            if done_folder:
                box.move(msg.uid, done_folder)
            else:
                box.flag(msg.uid, "\\Seen", True)
            recorded += outcome.taken
    return recorded
