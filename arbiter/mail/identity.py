"""Whose mail is a seat's: the one place that says which address speaks for a seat.

A seat's address speaks for it only once it has agreed to play
(:func:`arbiter.mail.consent.may_mail`: the seat is held by an account, a
verified address, and did not unsubscribe). An address that has not agreed gets no
game mail, and mail from it is not acted on or answered (an invitation's reply
``accept`` is the one exception: :mod:`arbiter.mailin.invitation`).
"""

from __future__ import annotations

from arbiter.mail.consent import may_mail
from arbiter.models import Seat


def seat_address(seat: Seat) -> str | None:
    """Return the address that receives ``seat``'s mail and may act for it by mail
    (lower-cased), or None when there is none or it has not agreed to game mail."""
    return seat.email.strip().lower() if may_mail(seat) else None
