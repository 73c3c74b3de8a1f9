"""Schemas of ``/v1/me/webhooks``: a hook, its creation, its delivery log."""

from marshmallow import Schema, fields, validate

from arbiter.hooks.webhook_urls import URL_PATTERN
from arbiter.hooks.webhooks import EVENTS
from arbiter.resources.fields import JsonBoolean


class WebhookCreateSchema(Schema):
    """``POST /v1/me/webhooks``."""

    url = fields.String(
        required=True,
        validate=[
            validate.Length(min=1, max=2000),
            validate.Regexp(URL_PATTERN, error="Must not contain spaces or control characters."),
        ],
        metadata={
            "description": "an https:// URL on a public address, "
            "without spaces or control characters "
            "(422 invalid-request), its port (if "
            "given) 1 to 65535 (see the configuration's "
            "WEBHOOK_* settings; 422 "
            "webhook-url-invalid, "
            "webhook-url-not-https)"
        },
    )
    events = fields.List(
        fields.String(validate=validate.OneOf(EVENTS)),
        required=True,
        validate=validate.Length(min=1, max=len(EVENTS)),
        metadata={"description": "of " + ", ".join(EVENTS)},
    )


class WebhookPatchSchema(Schema):
    """``PATCH /v1/me/webhooks/{id}``: any of events, enabled."""

    events = fields.List(
        fields.String(validate=validate.OneOf(EVENTS)),
        validate=validate.Length(min=1, max=len(EVENTS)),
    )
    enabled = JsonBoolean(
        metadata={"description": "true: enable again (clears the failure count); false: disable"}
    )


class WebhookSchema(Schema):
    """A web hook (never its secret, except in the creation answer)."""

    id = fields.String()
    url = fields.String()
    events = fields.List(fields.String())
    created_at = fields.String()
    failures = fields.Integer(metadata={"description": "failed tries since the last delivered one"})
    last_success_at = fields.String(allow_none=True)
    disabled_at = fields.String(
        allow_none=True, metadata={"description": "set when it gets nothing more"}
    )
    disabled_reason = fields.String(allow_none=True)


class WebhookCreatedSchema(WebhookSchema):
    """A web hook just made: ``secret`` is shown this once."""

    secret = fields.String(
        metadata={
            "description": "the Standard Webhooks signing secret (whsec_...): verify each "
            "delivery's webhook-signature with it, e.g. with the "
            "standardwebhooks library"
        }
    )


class DeliverySchema(Schema):
    """One delivery of an event to the hook's URL."""

    id = fields.Integer()
    message_id = fields.String(
        metadata={"description": "the webhook-id header, the same on every try"}
    )
    event = fields.String()
    url = fields.String()
    state = fields.String(metadata={"description": "pending, delivered or failed"})
    created_at = fields.String()
    attempts = fields.Integer()
    delivered_at = fields.String(allow_none=True)
    given_up_at = fields.String(allow_none=True)
    next_try_at = fields.String(allow_none=True)
    last_status = fields.Integer(allow_none=True, metadata={"description": "HTTP status"})
    last_error = fields.String(allow_none=True)
    payload = fields.Dict(metadata={"description": "the body's data"})


class DeliveriesQuerySchema(Schema):
    """``GET .../deliveries`` arguments."""

    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=500))


class DeliveriesSchema(Schema):
    """``GET /v1/me/webhooks/{id}/deliveries``: newest first."""

    deliveries = fields.List(fields.Nested(DeliverySchema))
