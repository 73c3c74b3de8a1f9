"""Prometheus metrics (prometheus-client): what ``GET /metrics`` shows.

Counted where they happen, in each web process: request latency by route
(``arbiter_request_seconds``), moves accepted and refused by code
(``arbiter_moves_total``), open streams (``arbiter_open_streams``). Several web
processes share their counts through prometheus-client's multiprocess mode: the web
process (:func:`arbiter.streams.asgi.create_app`) sets ``PROMETHEUS_MULTIPROC_DIR`` to
a folder of the instance before the first metric exists, so any of them answers for
all. Read from the database and the broker at each scrape: the outbox and inbound
backlogs, the clock sweep's lag, the Celery queue depth.

``/metrics`` is not public: it answers only a request carrying ``Authorization:
Bearer <METRICS_TOKEN>``, and is 404 while ``METRICS_TOKEN`` is unset.
"""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path
from types import SimpleNamespace

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)


def use_shared_folder(instance_path: str) -> None:
    """Make this web process keep its metrics in ``<instance>/metrics/web-<parent
    pid>`` (shared by the workers of one server, whose parent is the same), unless
    ``PROMETHEUS_MULTIPROC_DIR`` is already set; folders of servers no longer running
    are removed. Call before the first metric is used."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return
    root = Path(instance_path) / "metrics"
    folder = root / f"web-{os.getppid()}"
    folder.mkdir(parents=True, exist_ok=True)
    for old in root.glob("web-*"):
        if old != folder and not _alive(int(old.name.removeprefix("web-") or 0)):
            shutil.rmtree(old, ignore_errors=True)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(folder)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except (OSError, ValueError):
        return False
    return True


_created: list[SimpleNamespace] = []
_lock = threading.Lock()


def metrics() -> SimpleNamespace:
    """Return this process's metric objects, created once on first use (under a lock:
    the first requests of a web process arrive in several threads at once)."""
    if _created:
        return _created[0]
    with _lock:
        if not _created:
            _created.append(_new_metrics())
    return _created[0]


def _new_metrics() -> SimpleNamespace:
    from prometheus_client import Counter, Gauge, Histogram  # noqa: PLC0415 - loaded once metrics are on

    return SimpleNamespace(
        request_seconds=Histogram(
            "arbiter_request_seconds",
            "Time to answer an HTTP request, by route",
            ["method", "route", "status"],
            buckets=LATENCY_BUCKETS,
        ),
        moves=Counter(
            "arbiter_moves_total", "Moves submitted, by outcome and code", ["outcome", "code"]
        ),
        open_streams=Gauge(
            "arbiter_open_streams", "Streams open now (SSE, ndjson)", multiprocess_mode="livesum"
        ),
    )


def move_accepted() -> None:
    """Count one accepted move."""
    metrics().moves.labels("accepted", "").inc()


def move_refused(code: str) -> None:
    """Count one refused move with its problem ``code``."""
    metrics().moves.labels("refused", code).inc()


def exposition(backlog) -> tuple[bytes, str]:
    """Return ``(body, content type)`` of a scrape: every process's counters and the
    figures ``backlog()`` reads now (a list of ``(name, help, value)``)."""
    from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest  # noqa: PLC0415 - loaded once metrics are on
    from prometheus_client.core import GaugeMetricFamily  # noqa: PLC0415 - loaded once metrics are on

    metrics()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess  # noqa: PLC0415 - reads PROMETHEUS_MULTIPROC_DIR

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        from prometheus_client import REGISTRY as registry  # noqa: PLC0415 - loaded once metrics are on

    class Now:
        def collect(self):
            for name, text, value in backlog():
                yield GaugeMetricFamily(name, text, value=value)

    scrape = CollectorRegistry()
    scrape.register(Now())
    return generate_latest(registry) + generate_latest(scrape), CONTENT_TYPE_LATEST
