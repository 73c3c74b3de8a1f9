"""The problem details schema (RFC 9457) every error answer follows."""

from marshmallow import Schema, fields


class ProblemSchema(Schema):
    """``application/problem+json``: a stable ``code`` and a sentence in ``detail``."""

    type = fields.String(metadata={"description": "a URI naming the problem type"})
    title = fields.String()
    status = fields.Integer()
    detail = fields.String(metadata={"description": "a sentence a player understands"})
    code = fields.String(metadata={"description": "stable machine code, e.g. stale-version"})
