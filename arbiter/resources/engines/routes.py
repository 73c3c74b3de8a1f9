"""``/v1/engines``: the games the arbiter runs."""

from __future__ import annotations

from flask.views import MethodView
from marshmallow import fields as ma_fields
from marshmallow import missing, validate

import engines
from arbiter.errors import NotFound
from arbiter.resources.blueprint import Blueprint
from arbiter.resources.engines.schemas import EngineSchema
from engines.base import Engine

blp = Blueprint(
    "engines",
    __name__,
    url_prefix="/v1/engines",
    description="The games the arbiter runs, their options and notation.",
)


def _field(field: ma_fields.Field) -> dict:
    """Return a short description of one option field: its type (marshmallow's name:
    ``Boolean``, ``Integer``, ``String``, ...), whether it is required, its default,
    and what it accepts: ``enum`` (the only values), ``minimum`` / ``maximum``
    (inclusive), ``nullable`` (``null`` accepted)."""
    kind = next(c for c in type(field).__mro__ if c.__module__.startswith("marshmallow"))
    out = {"type": kind.__name__, "required": field.required}
    default = field.load_default
    if default is not missing and not callable(default):
        out["default"] = default
    for rule in field.validators:
        if isinstance(rule, validate.OneOf):
            out["enum"] = list(rule.choices)
        elif isinstance(rule, validate.Range):
            out.update(
                {k: v for k, v in (("minimum", rule.min), ("maximum", rule.max)) if v is not None}
            )
    if field.allow_none:
        out["nullable"] = True
    if field.metadata.get("description"):
        out["description"] = field.metadata["description"]
    return out


def describe(engine: Engine) -> dict:
    """Return the public description of an engine."""
    schema = engine.options_schema()
    out = {
        "id": engine.id,
        "title": engine.title,
        "version": engine.version,
        "min_players": engine.min_players,
        "max_players": engine.max_players,
        "options": {name: _field(f) for name, f in schema.fields.items()},
        "notation": engine.notation,
    }
    reference = engine.reference()
    if reference is not None:
        out["reference"] = reference
    return out


@blp.route("")
class Engines(MethodView):
    """``/v1/engines``: every engine."""

    @blp.response(200, EngineSchema(many=True))
    def get(self):
        """List the engines."""
        return [describe(e) for e in engines.all_engines()]


@blp.route("/<engine_id>")
class EngineById(MethodView):
    """``/v1/engines/{id}``: one engine."""

    @blp.response(200, EngineSchema)
    def get(self, engine_id):
        """Describe one engine."""
        try:
            return describe(engines.get(engine_id))
        except engines.UnknownEngine:
            raise NotFound(
                f"There is no game called {engine_id!r}.", code="unknown-engine"
            ) from None
