"""A confirmation step before anything that cannot be undone (issue 23, item 6):
resigning, leaving a tournament, revoking a token, deleting an account.

The page's button posts its form as before; the route acts only when the form also
carries ``confirm=yes``. Without it, the answer is a second page (:func:`ask`) that
says what will happen, with the same fields and ``confirm=yes`` in a form of its own,
and a way back. No JavaScript is needed, and one click never does it.
"""

from __future__ import annotations

from flask import render_template, request

from arbiter.web.forms import LeaveForm

CONFIRMED = "yes"


def confirmed() -> bool:
    """True when the posted form carries the confirmation (``confirm=yes``)."""
    return request.form.get("confirm") == CONFIRMED


def ask(title: str, question: str, button: str, back: str, fields: dict | None = None) -> str:
    """Return the confirmation page: ``question`` (what will happen, that it cannot be
    undone), a ``button`` that posts the same form to the same address with
    ``confirm=yes`` (and ``fields``, kept hidden), and a link ``back``."""
    return render_template(
        "confirm.html",
        title=title,
        question=question,
        button=button,
        action=request.path,
        back=back,
        fields=fields or {},
        form=LeaveForm(),
    )
