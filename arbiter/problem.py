"""The problem details schema (RFC 9457) every error answer follows."""

from marshmallow import INCLUDE, Schema, fields


class ProblemSchema(Schema):
    """``application/problem+json``: a stable ``code`` and a sentence in ``detail``.

    Extension members (RFC 9457, section 3.2) are allowed; the service sends
    ``errors`` (what is wrong with each field, on 422 ``invalid-request`` and
    ``bad-clock``).
    """

    class Meta:
        """Extension members are part of the format."""

        unknown = INCLUDE

    type = fields.String(required=True, metadata={"description": "a URI naming the problem type"})
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(
        required=True, metadata={"description": "a sentence a player understands"}
    )
    code = fields.String(
        required=True, metadata={"description": "stable machine code, e.g. stale-version"}
    )
    errors = fields.Raw(
        metadata={
            "description": "per field, what is wrong with it (422 invalid-request, bad-clock)"
        }
    )
