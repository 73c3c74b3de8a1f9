"""``/metrics``: Prometheus exposition, for an operator's scraper only."""

from __future__ import annotations

import hmac
import time

from flask import Flask, Response, g, request
from flask.views import MethodView

from arbiter import backlog, metrics, settings
from arbiter.errors import NotFound, Unauthorized
from arbiter.resources.blueprint import Blueprint
from arbiter.resources.problem import ProblemSchema

blp = Blueprint(
    "metrics",
    __name__,
    url_prefix="/metrics",
    description="Prometheus metrics (METRICS_TOKEN bearer token).",
)


@blp.route("")
class Metrics(MethodView):
    """``/metrics``: the service's counters and backlogs."""

    @blp.doc(
        security=[{"metricsToken": []}],
        responses={
            "200": {
                "description": "Prometheus text exposition format",
                "content": {"text/plain": {"schema": {"type": "string"}}},
            }
        },
    )
    @blp.alt_response(401, schema=ProblemSchema, description="missing or wrong token")
    @blp.alt_response(404, schema=ProblemSchema, description="METRICS_TOKEN is not set")
    def get(self):
        """Read request latency by route, moves accepted and refused by code, open
        streams, the outbox and inbound backlogs, the clock sweep's lag and the Celery
        queue depth (Bearer METRICS_TOKEN)."""
        expected = settings.current().service.metrics_token
        if not expected:
            raise NotFound("There is nothing at this address.", code="not-found")
        given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
        if not hmac.compare_digest(given.encode(), expected.encode()):
            raise Unauthorized(
                "/metrics needs 'Authorization: Bearer <METRICS_TOKEN>'.", code="bad-token"
            )
        body, content_type = metrics.exposition(backlog.figures)
        return Response(body, content_type=content_type)


def install_timing(app: Flask) -> None:
    """Time every Flask request into ``arbiter_request_seconds`` (label: the route
    pattern, never the raw path)."""

    @app.before_request
    def _start() -> None:
        g.metrics_started = time.perf_counter()

    @app.after_request
    def _observe(response: Response) -> Response:
        started = g.pop("metrics_started", None)
        if started is not None:
            rule = request.url_rule.rule if request.url_rule else "unmatched"
            metrics.metrics().request_seconds.labels(
                request.method, rule, str(response.status_code)
            ).observe(time.perf_counter() - started)
        return response
