"""``/healthz`` and ``/readyz``: for process managers and load balancers."""

from __future__ import annotations

from flask import current_app
from flask.views import MethodView
from marshmallow import Schema, fields

from arbiter import health
from arbiter.problem import ProblemSchema
from arbiter.problems import problem
from arbiter.resources.blueprint import Blueprint

blp = Blueprint(
    "health",
    __name__,
    url_prefix="",
    description="Liveness and readiness, for process managers and load balancers.",
)

READY_RETRY_SECONDS = 5


class LiveSchema(Schema):
    """The process answers."""

    status = fields.String(metadata={"description": "always ok"})


class ReadySchema(Schema):
    """The process can serve: its database and broker answer."""

    status = fields.String(metadata={"description": "always ready"})
    checks = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={"description": "per dependency, what was found"},
    )


@blp.route("/healthz")
class Live(MethodView):
    """``/healthz``: liveness."""

    @blp.response(200, LiveSchema)
    def get(self):
        """Say the process is alive (touches no database or broker: restart it if this
        fails)."""
        return {"status": "ok"}


@blp.route("/readyz")
class Ready(MethodView):
    """``/readyz``: readiness."""

    @blp.response(200, ReadySchema)
    @blp.alt_response(
        503,
        schema=ProblemSchema,
        description="the database or the broker does not answer, or the "
        "schema is not migrated (not-ready; Retry-After)",
    )
    def get(self):
        """Say whether the process can serve: the database answers and is migrated, the
        broker answers, within ``READY_TIMEOUT_SECONDS`` (a silent database or a cut
        link is "not ready" then, never a hang). Send traffic elsewhere while it is 503."""
        findings = health.ready(current_app._get_current_object())
        failed = [f for f in findings if not f.ok]
        if failed:
            answer = problem(
                503,
                "not-ready",
                "Service unavailable",
                "Not ready: " + "; ".join(f"{f.name}: {f.detail}" for f in failed),
                {"checks": {f.name: f.detail for f in findings}},
            )
            answer.headers["Retry-After"] = str(READY_RETRY_SECONDS)
            return answer
        return {"status": "ready", "checks": {f.name: f.detail for f in findings}}
