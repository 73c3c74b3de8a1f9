"""The REST API end to end on the test client: a whole game, and every kind of bad
input answered with problem+json, a stable code, and nothing appended."""

from __future__ import annotations

import json
import random

import pytest

import engines
from arbiter.games.games import load
from engines.base import EngineError
from tests.helpers import (
    agreed,
    auth,
    event_count,
    new_game,
    play_out,
    random_move,
    summary,
    until_decision,
)

SPACE_WORM = engines.get("space-worm")


def assert_problem(answer, status: int, code: str) -> None:
    """The answer is a problem+json with this status and code, and a sentence."""
    assert answer.status_code == status, answer.get_data(as_text=True)
    assert answer.mimetype == "application/problem+json"
    body = answer.json
    assert body["code"] == code
    assert body["status"] == status
    assert body["type"].endswith(code) and body["title"]
    assert len(body["detail"]) > 10


def test_engines_are_listed_with_counts_options_and_notation(client):
    """Given the registry, GET /v1/engines lists each engine with its player counts."""
    listed = {e["id"]: e for e in client.get("/v1/engines").json}
    assert listed["space-worm"]["min_players"] == 1
    assert listed["space-worm"]["max_players"] == 6
    assert "sheet" in listed["space-worm"]["options"]
    assert listed["space-worm"]["notation"]
    assert client.get("/v1/engines/space-worm").json["id"] == "space-worm"
    assert_problem(client.get("/v1/engines/chess"), 404, "unknown-engine")


def test_worms_shows_its_card_list(client):
    """Players read what each Worms card does before a game (issue 14, Deliver 2)."""
    worms = client.get("/v1/engines/worms").json
    cards = {c["id"]: c for c in worms["reference"]["cards"]}
    assert cards["bazooka"]["text"] == "Target a Direct hex. Accuracy 4. Blast."
    assert cards["bazooka"]["line"] == ["text", "move"] and cards["bazooka"]["sourced"]
    assert sum(c["copies"] for c in cards.values()) >= 80
    assert "reference" not in client.get("/v1/engines/space-worm").json


def test_worms_options_say_what_they_accept(client):
    """GET /v1/engines/worms gives every option's type, default and range; the nine
    optional rules are booleans (issue 14: "check every option's schema")."""
    options = client.get("/v1/engines/worms").json["options"]
    rules = [
        "parting_gifts",
        "true_elimination",
        "sudden_death_draft",
        "no_sudden_death",
        "late_superweapons",
        "longer_game",
        "reduced_blast",
        "larger_map",
        "timer",
    ]
    assert all(options[r]["type"] == "Boolean" and options[r]["default"] is False for r in rules)
    assert options["setup"]["enum"] == ["standard", "first-game"]
    assert (options["extra_tiles"]["minimum"], options["extra_tiles"]["maximum"]) == (1, 2)
    assert options["timer_seconds"]["nullable"] and options["youngest"]["maximum"] == 3


def test_worms_options_that_contradict_each_other_are_refused_saying_which(client):
    """A Worms option set that contradicts itself is a 422 problem+json with the stable
    code contradictory-options, the options named and why; "timer": "yes" is no boolean
    (issue 14, "Bad input"). Nothing is created."""
    before = client.get("/v1/games").json
    players = [{"name": "Ann"}, {"name": "Bob"}]
    answer = client.post(
        "/v1/games",
        json={
            "engine": "worms",
            "players": players,
            "options": {"no_sudden_death": True, "sudden_death_draft": True},
        },
    )
    assert_problem(answer, 422, "contradictory-options")
    assert answer.json["options"] == ["no_sudden_death", "sudden_death_draft"]
    assert "nothing to draft" in answer.json["detail"]
    answer = client.post(
        "/v1/games", json={"engine": "worms", "players": players, "options": {"timer": "yes"}}
    )
    assert_problem(answer, 422, "bad-options")
    assert "timer: Not a boolean" in answer.json["detail"]
    assert client.get("/v1/games").json == before
    listed = client.get("/v1/engines/worms").json["reference"]["contradicting_options"]
    assert {"options": ["no_sudden_death", "sudden_death_draft"], "why": listed[0]["why"]} in listed


def test_create_answers_summary_tokens_and_commitment(client):
    """Given a creation, the answer carries the wire shape DESIGN.md promises."""
    agreed(client.application, "ann@example.org")
    answer = client.post(
        "/v1/games",
        json={
            "engine": "space-worm",
            "players": [{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob"}],
        },
    )
    assert answer.status_code == 201
    body = answer.json
    assert body["engine"] == "space-worm" and body["status"] == "active"
    assert body["version"] == 3  # game-created + two seat-joined
    assert [s["name"] for s in body["seats"]] == ["Ann", "Bob"]
    assert all(len(s["token"]) > 30 for s in body["seats"])
    assert len(body["seed_commitment"]) == 64
    assert answer.headers["ETag"] == '"3"'
    public = summary(client, body["id"])
    assert "seats" not in public and "seed" not in public
    assert "ann@example.org" not in str(public)
    assert public["prompt"]["type"] == "chance"  # the start Planet roll


def test_a_whole_game_over_http_ends_with_a_verified_record(app, client):
    """Given random legal moves through the API, the game ends and its record verifies."""
    game_id, tokens = new_game(client, players=3)
    final = play_out(client, app, game_id, tokens, seed=7)
    assert final["status"] == "over" and len(final["result"]["scores"]) == 3
    record = client.get(f"/v1/games/{game_id}/record").json
    assert record["seed"] and record["events"][-1]["kind"] == "seed-revealed"
    from arbiter.verify import verify

    assert verify(record).ok


def test_games_list_filters_and_paginates(client):
    """Given games of several players, the list filters by player and status."""
    first, _ = new_game(client)
    second, _ = new_game(client, players=1)
    listed = client.get("/v1/games?engine=space-worm&page_size=1")
    assert listed.status_code == 200 and len(listed.json) == 1
    assert '"total": 2' in listed.headers["X-Pagination"]
    assert {g["id"] for g in client.get("/v1/games?player=P1").json} == {first}
    assert client.get("/v1/games?status=over").json == []
    assert_problem(client.get("/v1/games?status=bogus"), 422, "invalid-request")


def test_views_and_events_for_seats_and_spectators(app, client):
    """Given a game, each seat and a spectator read the view and the log."""
    game_id, tokens = new_game(client)
    until_decision(client, app, game_id)
    own = client.get(f"/v1/games/{game_id}/view", headers=auth(tokens[0])).json
    spectator = client.get(f"/v1/games/{game_id}/view").json
    assert own["seat"] == 0 and spectator["seat"] is None
    events = client.get(f"/v1/games/{game_id}/events?after=2").json
    assert [e["seq"] for e in events["events"]] == list(range(3, events["version"] + 1))
    assert events["events"][1]["kind"] == "chance"


def test_long_poll_returns_at_once_when_there_is_news_and_waits_otherwise(app, client):
    """Given ?wait=S, the call waits up to S seconds when nothing is new."""
    import time

    game_id, _ = new_game(client)
    started = time.monotonic()
    assert client.get(f"/v1/games/{game_id}/events?after=0&wait=5").json["events"]
    assert time.monotonic() - started < 1
    started = time.monotonic()
    answer = client.get(f"/v1/games/{game_id}/events?after=3&wait=0.5").json
    assert answer["events"] == [] and time.monotonic() - started >= 0.5
    assert answer["version"] == 3  # the next after: nothing skipped
    assert client.get(f"/v1/games/{game_id}/events?after=99").json["version"] == 3


# ----------------------------------------------------------------------------- bad input


@pytest.fixture
def live(app, client):
    """A 2-player game waiting for a seat's move: (game_id, tokens, summary)."""
    game_id, tokens = new_game(client)
    return game_id, tokens, until_decision(client, app, game_id)


def unchanged(app, client, game_id, before_version):
    """Nothing was appended: same version, same number of events."""
    assert summary(client, game_id)["version"] == before_version
    assert event_count(app, game_id) == before_version


def test_malformed_json_is_refused(app, client, live):
    game_id, tokens, s = live
    answer = client.post(
        f"/v1/games/{game_id}/moves",
        data="{not json",
        content_type="application/json",
        headers=auth(tokens[s["to_act"][0]]),
    )
    assert_problem(answer, 400, "malformed-json")
    unchanged(app, client, game_id, s["version"])


def test_unknown_engine_and_player_counts_are_refused(client):
    def create(engine, n):
        return client.post(
            "/v1/games", json={"engine": engine, "players": [{"name": f"p{i}"} for i in range(n)]}
        )

    assert_problem(create("chess", 2), 422, "unknown-engine")
    assert_problem(create("space-worm", 7), 422, "bad-player-count")
    assert_problem(
        client.post("/v1/games", json={"engine": "space-worm", "players": []}),
        422,
        "invalid-request",
    )
    assert_problem(
        client.post(
            "/v1/games",
            json={"engine": "space-worm", "players": [{"name": "a"}], "options": {"sheet": "nope"}},
        ),
        422,
        "bad-options",
    )


def test_missing_wrong_and_other_games_tokens_are_refused(app, client, live):
    game_id, tokens, s = live
    other_game, other_tokens = new_game(client)
    move = {"move": {"die": 0, "heart": True}}
    url = f"/v1/games/{game_id}/moves"
    assert_problem(client.post(url, json=move), 401, "missing-token")
    assert_problem(client.post(url, json=move, headers=auth("x" * 40)), 401, "bad-token")
    assert_problem(client.post(url, json=move, headers=auth(other_tokens[0])), 401, "bad-token")
    assert_problem(
        client.post(url, json=move, headers={"Authorization": "Basic abc"}), 401, "bad-token"
    )
    assert_problem(client.get(f"/v1/games/{game_id}/legal-moves"), 401, "missing-token")
    unchanged(app, client, game_id, s["version"])


def test_another_seats_token_is_not_your_turn(app, client, live):
    game_id, tokens, s = live
    idle = 1 - s["to_act"][0]
    answer = client.post(
        f"/v1/games/{game_id}/moves",
        headers=auth(tokens[idle]),
        json={"move": {"die": 0, "direction": "up"}},
    )
    assert_problem(answer, 409, "not-your-turn")
    unchanged(app, client, game_id, s["version"])


def test_a_die_already_taken_is_refused(app, client, live):
    game_id, tokens, s = live
    rng = random.Random(1)
    seat, move, answer = random_move(client, app, game_id, tokens, rng)
    assert answer.status_code == 201
    s = until_decision(client, app, game_id)
    mover = s["to_act"][0]
    again = {**move} if "heart" in move else {"die": move["die"], "direction": move["direction"]}
    answer = client.post(
        f"/v1/games/{game_id}/moves", headers=auth(tokens[mover]), json={"move": again}
    )
    assert_problem(answer, 422, "die-taken")
    unchanged(app, client, game_id, s["version"])


def _find_illegal(app, game_id, seat, code):
    """Return a move the engine refuses with ``code`` now, or None."""
    with app.app_context():
        _, engine, state = load(game_id)
    for die in range(8):
        for direction in ("up", "down", "left", "right"):
            move = {"die": die, "direction": direction}
            try:
                engine.play(state, seat, move)
            except EngineError as err:
                if err.code == code:
                    return move
    return None


@pytest.mark.parametrize("code", ["off-the-map", "blocked-path"])
def test_lines_off_the_map_or_through_the_body_are_refused(app, client, code):
    """rules/space-worm.md, "Turns": never beyond the edges, never through your tail."""
    game_id, tokens = new_game(client, players=1)
    rng = random.Random(5)
    for _ in range(200):
        s = until_decision(client, app, game_id)
        if s["status"] != "active":
            game_id, tokens = new_game(client, players=1)
            continue
        seat = s["to_act"][0]
        move = _find_illegal(app, game_id, seat, code)
        if move:
            answer = client.post(
                f"/v1/games/{game_id}/moves",
                headers=auth(tokens[seat]),
                json={"move": move, "expected_version": s["version"]},
            )
            assert_problem(answer, 422, code)
            unchanged(app, client, game_id, s["version"])
            return
        random_move(client, app, game_id, tokens, rng)
    pytest.fail(f"no position with a {code} move found")


def test_stale_version_and_if_match_are_refused(app, client, live):
    game_id, tokens, s = live
    seat = s["to_act"][0]
    legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[seat])).json
    url = f"/v1/games/{game_id}/moves"
    answer = client.post(
        url,
        headers=auth(tokens[seat]),
        json={"move": legal["moves"][0], "expected_version": s["version"] - 1},
    )
    assert_problem(answer, 409, "stale-version")
    answer = client.post(
        url, headers={**auth(tokens[seat]), "If-Match": '"2"'}, json={"move": legal["moves"][0]}
    )
    assert_problem(answer, 409, "stale-version")
    answer = client.post(
        url,
        headers={**auth(tokens[seat]), "If-Match": "yesterday"},
        json={"move": legal["moves"][0]},
    )
    assert_problem(answer, 400, "bad-if-match")
    unchanged(app, client, game_id, s["version"])
    answer = client.post(
        url,
        headers={**auth(tokens[seat]), "If-Match": f'"{s["version"]}"'},
        json={"move": legal["moves"][0]},
    )
    assert answer.status_code == 201


def test_moves_after_the_game_is_over_are_refused(app, client):
    game_id, tokens = new_game(client, players=1)
    final = play_out(client, app, game_id, tokens)
    answer = client.post(
        f"/v1/games/{game_id}/moves",
        headers=auth(tokens[0]),
        json={"move": {"die": 0, "heart": True}},
    )
    assert_problem(answer, 409, "game-over")
    unchanged(app, client, game_id, final["version"])


def test_oversized_bodies_and_malformed_moves_are_refused(app, client, live):
    game_id, tokens, s = live
    seat = s["to_act"][0]
    url = f"/v1/games/{game_id}/moves"
    answer = client.post(
        url,
        headers=auth(tokens[seat]),
        json={"move": {"die": 0, "direction": "up", "pad": "x" * 70000}},
    )
    assert_problem(answer, 413, "body-too-large")
    assert_problem(
        client.post(url, headers=auth(tokens[seat]), json={"move": "fly"}), 422, "bad-move"
    )
    assert_problem(client.post(url, headers=auth(tokens[seat]), json={}), 422, "missing-move")
    assert_problem(
        client.post(url, headers=auth(tokens[seat]), json={"move": {"die": 99, "direction": "up"}}),
        422,
        "no-such-die",
    )
    assert_problem(
        client.post(url, headers=auth(tokens[seat]), json={"text": "eat the moon"}), 422, "bad-move"
    )
    unchanged(app, client, game_id, s["version"])
    assert_problem(client.get("/v1/games/nope"), 404, "game-not-found")
    assert_problem(client.get("/v1/nothing-here"), 404, "not-found")
    assert_problem(client.delete("/v1/games"), 405, "method-not-allowed")
    assert_problem(client.get(f"/v1/games/{game_id}/record"), 409, "game-not-over")


def test_a_move_in_notation_is_accepted(app, client, live):
    game_id, tokens, s = live
    seat = s["to_act"][0]
    legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[seat])).json
    answer = client.post(
        f"/v1/games/{game_id}/moves",
        headers=auth(tokens[seat]),
        json={"text": legal["notation"][0]},
    )
    assert answer.status_code == 201 and answer.json["text"] == legal["notation"][0]


def test_resigning_ends_a_two_player_game_and_ranks_the_resigner_last(app, client, live):
    game_id, tokens, s = live
    answer = client.post(f"/v1/games/{game_id}/resign", headers=auth(tokens[1]))
    assert answer.status_code == 201 and answer.json["status"] == "over"
    final = summary(client, game_id)
    assert final["result"]["ranking"] == [[0], [1]]
    assert final["result"]["reason"] == "resignation"
    assert_problem(
        client.post(f"/v1/games/{game_id}/resign", headers=auth(tokens[0])), 409, "game-over"
    )
    from arbiter.verify import verify

    assert verify(client.get(f"/v1/games/{game_id}/record").json).ok


def test_a_resigned_seat_in_a_three_player_game_is_played_by_timeout_moves(app, client):
    game_id, tokens = new_game(client, players=3)
    until_decision(client, app, game_id)
    assert client.post(f"/v1/games/{game_id}/resign", headers=auth(tokens[2])).status_code == 201
    assert_problem(
        client.post(f"/v1/games/{game_id}/resign", headers=auth(tokens[2])), 409, "already-resigned"
    )
    final = play_out(client, app, game_id, tokens[:2] + [None], seed=3)
    assert final["result"]["ranking"][-1] == [2]
    record = client.get(f"/v1/games/{game_id}/record").json
    auto = [
        e
        for e in record["events"]
        if e["kind"] == "move" and e["seat"] == 2 and e["payload"].get("auto") == "resigned"
    ]
    assert auto
    from arbiter.verify import verify

    assert verify(record).ok


@pytest.mark.parametrize("path", ["/v1/games", "/v1/tournaments"])
def test_an_unknown_engine_filter_is_refused_naming_the_known_engines(client, path):
    """Issue 22, item 15: ``?engine=nope`` answered an empty list, as if there were no
    such games yet; it is a 422 problem with the stable code ``unknown-engine`` and a
    detail naming the engines there are."""
    answer = client.get(f"{path}?engine=nope")
    assert_problem(answer, 422, "unknown-engine")
    for engine in ("space-worm", "dark-horse", "star-maps", "worms"):
        assert engine in answer.json["detail"]
    assert client.get(f"{path}?engine=worms").status_code == 200


def test_x_pagination_keeps_its_page_fields_on_an_empty_page(client):
    """Issue 22, item 15: ``X-Pagination`` dropped every page field on an empty page
    (``{"total": 0, "total_pages": 0}``), and ``page`` past the last page; a client
    paging through had nothing to read its place from. Now they are always there."""
    empty = client.get("/v1/games?status=cancelled&page=1&page_size=5")
    assert empty.status_code == 200 and empty.json == []
    assert json.loads(empty.headers["X-Pagination"]) == {
        "total": 0,
        "total_pages": 0,
        "first_page": 1,
        "last_page": 1,
        "page": 1,
    }
    new_game(client)
    past = client.get("/v1/games?page=3&page_size=5")
    assert past.json == []
    assert json.loads(past.headers["X-Pagination"]) == {
        "total": 1,
        "total_pages": 1,
        "first_page": 1,
        "last_page": 1,
        "page": 3,
        "previous_page": 1,
    }
    first = json.loads(client.get("/v1/games?page=1&page_size=5").headers["X-Pagination"])
    assert first == {"total": 1, "total_pages": 1, "first_page": 1, "last_page": 1, "page": 1}
