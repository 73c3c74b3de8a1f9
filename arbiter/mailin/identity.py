"""Whose mail is a seat's: the one place that says which address speaks for a seat.

Until accounts with consent exist (issue 10), a seat's address is the email given for
it at creation; once they do, this returns the address only when it has agreed to
play, so that an address that has not agreed gets no mail and its mail is not acted on.
"""

from __future__ import annotations

from arbiter.models import Seat


def seat_address(seat: Seat) -> str | None:
    """Return the address that receives ``seat``'s mail and may act for it by mail
    (lower-cased), or None when there is none."""
    return seat.email.strip().lower() if seat.email else None
