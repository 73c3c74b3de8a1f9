"""Answers built in their schema's exact shape, sent without a marshmallow dump.

``blp.response(200, Schema)`` still documents them; flask-smorest returns a
``Response`` as it is. For long lists of plain values (``/v1/me/games``: 500 games,
8 fields each) the dump cost more CPU than the query. A test dumps each such answer
through its schema and expects it unchanged.
"""

from __future__ import annotations

from flask import Response, current_app


def response(body) -> Response:
    """Return ``body`` (JSON values, exactly the fields of the route's schema) as the
    JSON response the schema's dump would have given."""
    return current_app.json.response(body)
