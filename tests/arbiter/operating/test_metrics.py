"""``GET /metrics``: Prometheus text, only for the holder of METRICS_TOKEN, with
request latency by route, moves by outcome and code, and the backlogs read at scrape."""

from __future__ import annotations

import pytest
from prometheus_client.parser import text_string_to_metric_families

from arbiter.extensions import db
from arbiter.games.chance import advance_chance
from tests.conftest import make_app
from tests.helpers import agreed

TOKEN = "metrics-token-for-tests"


@pytest.fixture
def scraped(sqlite_url):
    """An app with METRICS_TOKEN set; yields ``(client, scrape)``, ``scrape()``
    returning ``{(name, labels...): value}`` of every sample."""
    app = make_app(sqlite_url, METRICS_TOKEN=TOKEN)
    client = app.test_client()

    def scrape() -> dict:
        answer = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
        assert answer.status_code == 200
        assert answer.content_type.startswith("text/plain")
        return {
            (s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(answer.get_data(as_text=True))
            for s in family.samples
        }

    yield app, client, scrape
    with app.app_context():
        db.engine.dispose()


def test_metrics_need_the_token(scraped, sqlite_url):
    """No token or a wrong one: 401; METRICS_TOKEN unset: 404 (not public)."""
    _app, client, _scrape = scraped
    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 401
    closed = make_app(sqlite_url).test_client()
    assert closed.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 404


def test_moves_requests_and_backlogs_are_counted(scraped):
    """An accepted and a refused move show under their outcome and code; the summary's
    latency is counted under its route pattern; the mail of the move is in the outbox
    backlog."""
    app, client, scrape = scraped
    agreed(app, "ann@example.org")  # an account: agreed to mail
    made = client.post(
        "/v1/games",
        json={
            "engine": "space-worm",
            "players": [{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob"}],
        },
    ).get_json()
    with app.app_context():
        advance_chance(made["id"], made["version"])
    before = scrape()
    summary = client.get(f"/v1/games/{made['id']}").get_json()
    seat = summary["to_act"][0]
    auth = {"Authorization": f"Bearer {made['seats'][seat]['token']}"}
    moves = client.get(f"/v1/games/{made['id']}/legal-moves", headers=auth).get_json()
    assert (
        client.post(
            f"/v1/games/{made['id']}/moves",
            headers=auth,
            json={"move": moves["moves"][0], "expected_version": 1},
        ).status_code
        == 409
    )
    assert (
        client.post(
            f"/v1/games/{made['id']}/moves", headers=auth, json={"move": moves["moves"][0]}
        ).status_code
        == 201
    )
    after = scrape()

    def grew(key) -> float:
        return after.get(key, 0) - before.get(key, 0)

    assert grew(("arbiter_moves_total", (("code", ""), ("outcome", "accepted")))) == 1
    assert grew(("arbiter_moves_total", (("code", "stale-version"), ("outcome", "refused")))) == 1
    route = (
        "arbiter_request_seconds_count",
        (("method", "GET"), ("route", "/v1/games/<game_id>"), ("status", "200")),
    )
    assert grew(route) == 1
    assert after[("arbiter_outbox_unsent", ())] >= 1
    assert ("arbiter_clock_sweep_age_seconds", ()) in after
    assert ("arbiter_celery_queue_depth", ()) in after


def test_first_requests_in_many_threads_all_succeed(sqlite_url):
    """The metric objects are made once even when a fresh process's first requests
    come in several threads at once (it answered 500 before)."""
    import threading

    from arbiter import metrics

    metrics._created.clear()
    from prometheus_client import REGISTRY

    for name in ("arbiter_request_seconds", "arbiter_moves_total", "arbiter_open_streams"):
        collector = REGISTRY._names_to_collectors.get(name)
        if collector is not None:
            REGISTRY.unregister(collector)
    app = make_app(sqlite_url)
    statuses: list[int] = []
    barrier = threading.Barrier(8)

    def hit() -> None:
        client = app.test_client()
        barrier.wait()
        statuses.append(client.get("/v1/engines").status_code)

    threads = [threading.Thread(target=hit) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [200] * 8
    with app.app_context():
        db.engine.dispose()
