"""Rate limits (issue 10, "Rate limits"): per caller on creation, writes and reads, per
address on sign-in links; 429 problem+json with Retry-After, nothing written; in memory
on the embedded default, shared through Redis when configured."""

from __future__ import annotations

import uuid

import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.models import Game, OutboxMail
from arbiter.settings import Settings, environment
from tests.conftest import REDIS_URL, make_app, need
from tests.helpers import auth, event_count, new_game, until_decision


def _app(tmp_path, name="limits", **limits):
    return make_app(f"sqlite:///{tmp_path / (name + '.sqlite3')}", RATELIMIT_ENABLED=True, **limits)


def _move(client, app, game_id, token):
    until_decision(client, app, game_id)
    legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(token)).json
    return client.post(
        f"/v1/games/{game_id}/moves",
        headers=auth(token),
        json={"move": legal["moves"][0], "expected_version": legal["version"]},
    )


def _is_429(answer):
    assert answer.status_code == 429, answer.json
    assert answer.mimetype == "application/problem+json"
    assert answer.json["code"] == "rate-limited"
    assert int(answer.headers["Retry-After"]) >= 1


def test_moves_over_the_limit_get_429_and_write_nothing(tmp_path):
    app = _app(tmp_path, RATELIMIT_WRITE="2 per minute", RATELIMIT_READ="")
    client = app.test_client()
    game_id, tokens = new_game(client, players=1)
    assert _move(client, app, game_id, tokens[0]).status_code == 201
    assert _move(client, app, game_id, tokens[0]).status_code == 201
    before = event_count(app, game_id)
    over = _move(client, app, game_id, tokens[0])
    _is_429(over)
    assert event_count(app, game_id) == before


def test_creation_over_the_limit_is_429(tmp_path):
    app = _app(tmp_path, RATELIMIT_CREATE="2 per minute")
    client = app.test_client()
    body = {"engine": "space-worm", "players": [{"name": "A"}]}
    assert [client.post("/v1/games", json=body).status_code for _ in range(2)] == [201, 201]
    _is_429(client.post("/v1/games", json=body))
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Game)) == 2


def test_reads_with_a_token_are_limited_per_caller(tmp_path):
    app = _app(tmp_path, RATELIMIT_READ="3 per minute")
    client = app.test_client()
    game_id, tokens = new_game(client, players=2)
    for _ in range(3):
        assert client.get(f"/v1/games/{game_id}/view", headers=auth(tokens[0])).status_code == 200
    _is_429(client.get(f"/v1/games/{game_id}/view", headers=auth(tokens[0])))
    other = client.get(f"/v1/games/{game_id}/view", headers=auth(tokens[1]))
    assert other.status_code == 200  # another caller has its own count


def test_a_bad_token_is_401_before_any_limit_is_counted(tmp_path):
    app = _app(tmp_path, RATELIMIT_WRITE="1 per minute")
    client = app.test_client()
    game_id, tokens = new_game(client, players=1)
    for _ in range(3):
        assert (
            client.post(
                f"/v1/games/{game_id}/moves", headers=auth("wrong"), json={"move": 1}
            ).status_code
            == 401
        )
    assert _move(client, app, game_id, tokens[0]).status_code == 201


def test_sign_in_links_are_limited_per_address(tmp_path):
    app = _app(tmp_path, RATELIMIT_SIGN_IN="2 per hour")
    client = app.test_client()
    asks = [client.post("/v1/auth/links", json={"email": "ann@example.org"}) for _ in range(4)]
    assert [a.status_code for a in asks[:2]] == [202, 202]
    _is_429(asks[2])
    assert client.post("/v1/auth/links", json={"email": "bob@example.org"}).status_code == 202
    with app.app_context():
        sent = db.session.scalar(
            sa.select(sa.func.count())
            .select_from(OutboxMail)
            .where(OutboxMail.to_addr == "ann@example.org")
        )
    assert sent == 2


def test_limits_are_shared_through_redis_between_processes(tmp_path):
    redis_url = need(REDIS_URL, "Redis", "ARBITER_TEST_REDIS_URL")
    settings = {
        "RATELIMIT_STORAGE_URI": redis_url,
        "RATELIMIT_KEY_PREFIX": uuid.uuid4().hex,
        "RATELIMIT_CREATE": "3 per minute",
    }
    one, two = _app(tmp_path, "one", **settings), _app(tmp_path, "two", **settings)
    body = {"engine": "space-worm", "players": [{"name": "A"}]}
    answers = [
        app.test_client().post("/v1/games", json=body).status_code for app in (one, two, one, two)
    ]
    assert answers == [201, 201, 201, 429]


def load(path: str, env: dict) -> Settings:
    return Settings.from_env({"SECRET_KEY": "k", **environment(env)}, path)


def test_the_storage_follows_the_configuration(tmp_path):
    path = str(tmp_path)
    assert load(path, {}).by_name("RATELIMIT_STORAGE_URI") == "memory://"
    assert (
        load(path, {"CELERY_BROKER_URL": "redis://h:6379/3"}).by_name("RATELIMIT_STORAGE_URI")
        == "redis://h:6379/3"
    )
    assert (
        load(
            path, {"CELERY_BROKER_URL": "redis://h:6379/3", "RATELIMIT_STORAGE_URI": "memory://"}
        ).by_name("RATELIMIT_STORAGE_URI")
        == "memory://"
    )
    assert (
        load(path, {"RATELIMIT_WRITE": "5 per second"}).by_name("RATELIMIT_WRITE") == "5 per second"
    )
    assert load(path, {}).by_name("RATELIMIT_ENABLED") is True
    assert load(path, {}).by_name("OPEN_CREATION") is True
    assert load(path, {"DATABASE_URL": "postgresql://x/y"}).by_name("OPEN_CREATION") is False


def test_an_unreachable_storage_serves_the_request(tmp_path):
    from tests.conftest import free_port

    app = _app(
        tmp_path,
        RATELIMIT_STORAGE_URI=f"redis://127.0.0.1:{free_port()}/0",
        RATELIMIT_CREATE="1 per minute",
    )
    body = {"engine": "space-worm", "players": [{"name": "A"}]}
    assert app.test_client().post("/v1/games", json=body).status_code == 201


def test_the_sign_in_page_is_limited_like_the_api_and_says_why(tmp_path):
    """Given the web sign-in form asked for one address more often than
    RATELIMIT_SIGN_IN allows, the page answers 429 with Retry-After and a sentence,
    and no more links are mailed."""
    import re

    app = _app(tmp_path, RATELIMIT_SIGN_IN="2 per hour")
    client = app.test_client()

    def ask():
        form = client.get("/sign-in").get_data(as_text=True)
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', form).group(1)
        return client.post(
            "/sign-in", data={"csrf_token": token, "email": "ann@example.org", "name": "Ann"}
        )

    answers = [ask() for _ in range(3)]
    assert [a.status_code for a in answers[:2]] == [200, 200]
    assert answers[2].status_code == 429 and answers[2].mimetype == "text/html"
    assert int(answers[2].headers["Retry-After"]) >= 1
    assert "Too many sign-in links" in answers[2].get_data(as_text=True)
    with app.app_context():
        sent = db.session.scalar(
            sa.select(sa.func.count())
            .select_from(OutboxMail)
            .where(OutboxMail.to_addr == "ann@example.org")
        )
    assert sent == 2
