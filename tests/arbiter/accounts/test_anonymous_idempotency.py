"""Callers without a token do not share one Idempotency-Key scope (issue 22, item 7: a
second anonymous client sending the first one's key and body got its answer, seat
tokens included). Anonymous keys are scoped by the client address."""

from __future__ import annotations

import uuid

import pytest


@pytest.fixture
def two_clients(any_app):
    """Two anonymous clients of the app (each database) from different addresses."""
    first = any_app.test_client()
    first.environ_base["REMOTE_ADDR"] = "192.0.2.10"
    second = any_app.test_client()
    second.environ_base["REMOTE_ADDR"] = "198.51.100.20"
    return first, second


def tokens_of(answer) -> set[str]:
    return {s["token"] for s in answer.json["seats"]}


def test_an_anonymous_creation_is_never_replayed_to_another_client(two_clients):
    ann, eve = two_clients
    body = {"engine": "space-worm", "players": [{"name": "A"}, {"name": "B"}]}
    key = {"Idempotency-Key": f"shared-key-{uuid.uuid4()}"}
    first = ann.post("/v1/games", json=body, headers=key)
    retry = ann.post("/v1/games", json=body, headers=key)
    assert first.status_code == retry.status_code == 201
    assert retry.json["id"] == first.json["id"] and tokens_of(retry) == tokens_of(first)
    other = eve.post("/v1/games", json=body, headers=key)
    assert other.status_code == 201
    assert other.json["id"] != first.json["id"]
    assert not tokens_of(first) & tokens_of(other)
    assert first.json["creator_token"] != other.json["creator_token"]


def test_an_anonymous_bulk_creation_is_never_replayed_to_another_client(two_clients):
    ann, eve = two_clients
    body = {"games": [{"engine": "space-worm", "players": [{"name": "A"}, {"name": "B"}]}]}
    key = {"Idempotency-Key": f"shared-key-{uuid.uuid4()}"}
    first = ann.post("/v1/bulk-games", json=body, headers=key)
    retry = ann.post("/v1/bulk-games", json=body, headers=key)
    assert first.status_code == retry.status_code == 201
    assert retry.json == first.json
    other = eve.post("/v1/bulk-games", json=body, headers=key)
    assert other.status_code == 201
    [mine], [theirs] = first.json["games"], other.json["games"]
    assert mine["id"] != theirs["id"]
    assert not {s["token"] for s in mine["seats"]} & {s["token"] for s in theirs["seats"]}
