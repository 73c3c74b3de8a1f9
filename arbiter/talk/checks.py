"""The checks every post to a game's talk goes through: its text, and its author's
rate (settings ``TALK_*``). Bad input is refused before anything is written."""

from __future__ import annotations

import unicodedata
from datetime import timedelta

import sqlalchemy as sa

from arbiter import settings
from arbiter.errors import TooManyRequests, Unprocessable
from arbiter.extensions import db
from arbiter.models import TalkEvent
from arbiter.models.timestamps import utcnow

ALLOWED_CONTROLS = frozenset("\n\t")


def text(raw: object, limit: int, what: str = "message") -> str:
    """Return ``raw`` as a message's or note's text: stripped, with Windows line ends
    made plain.

    :raises Unprocessable: ``empty-message`` (nothing but spaces), ``message-too-long``
        (over ``limit`` characters), ``bad-characters`` (control characters other than
        a line end or a tab: a NUL cannot even be stored).
    """
    if not isinstance(raw, str) or not raw.strip():
        raise Unprocessable(f"Write something: the {what} is empty.", code="empty-message")
    cleaned = raw.replace("\r\n", "\n").replace("\r", "\n").strip()
    if len(cleaned) > limit:
        raise Unprocessable(
            f"A {what} may be at most {limit} characters long; this one has {len(cleaned)}.",
            code="message-too-long",
            extra={"limit": limit},
        )
    if any(unicodedata.category(c) in ("Cc", "Cs") and c not in ALLOWED_CONTROLS for c in cleaned):
        raise Unprocessable(
            f"The {what} holds control characters; write plain text.", code="bad-characters"
        )
    return cleaned


def rate(game_id: str, author: str) -> None:
    """Refuse a post over ``TALK_MESSAGES_PER_MINUTE`` of one author in one game.

    :raises TooManyRequests: ``talk-rate-limited``, with the seconds to wait.
    """
    limit = settings.current().talk.messages_per_minute
    now = utcnow()
    recent = list(
        db.session.scalars(
            sa.select(TalkEvent.at)
            .where(
                TalkEvent.game_id == game_id,
                TalkEvent.author == author,
                TalkEvent.kind.in_(("message", "message-reported")),
                TalkEvent.at > now - timedelta(minutes=1),
            )
            .order_by(TalkEvent.at)
        )
    )
    if len(recent) >= limit:
        wait = (recent[-limit] + timedelta(minutes=1) - now).total_seconds()
        raise TooManyRequests(
            f"At most {limit} messages a minute in one game: wait a little and send it again.",
            retry_after=int(wait) + 1,
            code="talk-rate-limited",
        )
