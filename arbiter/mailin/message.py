"""Reading an inbound message: its addresses, threading headers and command text.

The text is the new part of a reply: the ``text/plain`` part (an HTML-only mail is
turned to text with ``html2text`` first), with the quoted message and the signature
removed by ``mail-parser-reply``.
"""

from __future__ import annotations

import email
import hashlib
import re
from dataclasses import dataclass
from email.message import EmailMessage
from email.policy import default
from email.utils import getaddresses

import html2text
from mailparser_reply import EmailReplyParser

REPLY_LANGUAGES = ["en", "de", "fr", "es", "it", "nl"]
"""Languages whose reply headers ("On ... wrote:") the reply parser recognises."""


@dataclass
class Incoming:
    """What the arbiter reads of an inbound message.

    :param sender: the From address, lower-cased ("" when absent or unreadable);
    :param message_id: ``<...>`` as given, or None; :param references: the
        ``References`` chain then ``In-Reply-To``, oldest first;
    :param text: the new text of the reply (quotes and signature removed).
    """

    msg: EmailMessage
    sender: str
    message_id: str | None
    references: list[str]
    subject: str
    text: str


def parse(raw: bytes) -> EmailMessage:
    """Return the message object of ``raw`` (the parser never raises on bad mail)."""
    return email.message_from_bytes(raw, policy=default)


def message_id_of(raw: bytes) -> str:
    """Return the Message-ID of ``raw``, or ``<sha256.<hex>@arbiter.invalid>`` from its
    bytes when it has none (so the same bytes delivered twice are still one)."""
    value = _header(parse(raw), "Message-ID").strip()
    if value:
        return value[:400]
    return f"<sha256.{hashlib.sha256(raw).hexdigest()}@arbiter.invalid>"


def _header(msg: EmailMessage, name: str) -> str:
    """Return a header as text, "" when absent or unreadable."""
    try:
        value = msg.get(name)
    except (ValueError, TypeError, IndexError):  # a header the parser cannot decode
        return ""
    return "" if value is None else str(value)


def header(msg: EmailMessage, name: str) -> str:
    """Return header ``name`` of ``msg`` as text ("" when absent or unreadable)."""
    return _header(msg, name)


def first_address(value: str) -> str:
    """Return the first address of a header value, lower-cased ("" if none)."""
    pairs = getaddresses([value])
    return pairs[0][1].strip().lower() if pairs and pairs[0][1] else ""


def read(raw: bytes) -> Incoming:
    """Return the :class:`Incoming` of ``raw``."""
    msg = parse(raw)
    refs = _header(msg, "References").split() + _header(msg, "In-Reply-To").split()
    seen: list[str] = []
    for ref in refs:
        if ref not in seen:
            seen.append(ref)
    return Incoming(
        msg=msg,
        sender=first_address(_header(msg, "From")),
        message_id=_header(msg, "Message-ID").strip() or None,
        references=seen,
        subject=_header(msg, "Subject").strip(),
        text=reply_text(msg),
    )


def body_text(msg: EmailMessage) -> str:
    """Return the message's text: its plain part, else its HTML part as text."""
    try:
        part = msg.get_body(preferencelist=("plain",))
        if part is not None:
            return part.get_content()
        part = msg.get_body(preferencelist=("html",))
        if part is not None:
            converter = html2text.HTML2Text()
            converter.ignore_links = converter.ignore_images = True
            converter.body_width = 0
            return converter.handle(part.get_content())
    except (LookupError, ValueError, KeyError, AttributeError):  # unknown charset, bad MIME
        return ""
    return ""


def reply_text(msg: EmailMessage) -> str:
    """Return the new text of a reply: quotes and the signature removed."""
    text = body_text(msg).replace("\r\n", "\n")
    if not text.strip():
        return ""
    reply = EmailReplyParser(languages=REPLY_LANGUAGES).read(text)
    new = reply.replies[0].body if reply.replies else text
    return "\n".join(line for line in new.splitlines() if not re.match(r"\s*>", line))
