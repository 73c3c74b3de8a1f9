"""Bad requests found by trying to break the service as a new user would: each gets a
problem+json with a stable code, never a 500, and changes nothing."""

from __future__ import annotations

import pytest

from tests.arbiter.games.test_games_api import assert_problem
from tests.helpers import agreed, auth, event_count, new_game, sampled, summary, until_decision


@pytest.mark.parametrize("name", ["\ud800", "a\u0000b", "   ", "A\r\nBcc: x", "\u202e"])
def test_names_with_invalid_unicode_control_characters_or_blank_are_refused(client, name):
    answer = client.post("/v1/games", json={"engine": "space-worm", "players": [{"name": name}]})
    assert_problem(answer, 422, "invalid-request")
    answer = client.post(
        "/v1/campaigns", json={"engine": "star-maps", "name": name, "players": [{"name": "A"}]}
    )
    assert_problem(answer, 422, "invalid-request")
    assert client.get("/v1/games").json == []


@pytest.mark.parametrize(
    "url",
    [
        "/v1/games/{id}/events?after=99999999999999999999999",
        "/v1/games/{id}/events?after=9223372036854775808",
        "/v1/games/{id}/events?wait=31",
    ],
)
def test_out_of_range_numbers_are_refused(client, url):
    game_id, _ = new_game(client)
    assert_problem(client.get(url.format(id=game_id)), 422, "invalid-request")


def test_pages_far_beyond_the_end_are_empty(client):
    new_game(client)
    for page in ("99999999999999999999", "9223372036854775807"):
        answer = client.get(f"/v1/games?page={page}")
        assert answer.status_code == 200 and answer.json == []


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/xml", "application/x-www-form-urlencoded"]
)
def test_bodies_that_are_not_json_get_415(client, content_type):
    answer = client.post("/v1/games", data='{"engine": "space-worm"}', content_type=content_type)
    assert_problem(answer, 415, "unsupported-media-type")


def test_version_preconditions_are_strict(app, client):
    game_id, tokens = new_game(client, players=1)
    s = until_decision(client, app, game_id)
    legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[0])).json
    url = f"/v1/games/{game_id}/moves"
    move = legal["moves"][0]
    assert_problem(
        client.post(url, headers=auth(tokens[0]), json={"move": move, "expected_version": 1.5}),
        422,
        "invalid-request",
    )
    assert_problem(
        client.post(
            url,
            headers={**auth(tokens[0]), "If-Match": f'"{s["version"]}"'},
            json={"move": move, "expected_version": s["version"] - 1},
        ),
        422,
        "conflicting-versions",
    )
    assert_problem(
        client.post(url, headers=auth(tokens[0]), json={"move": move, "text": "die 0 up"}),
        422,
        "move-and-text",
    )
    assert event_count(app, game_id) == s["version"]
    answer = client.post(url, headers={**auth(tokens[0]), "If-Match": "*"}, json={"move": move})
    assert answer.status_code == 201


def test_engine_errors_have_human_titles(app, client):
    game_id, tokens = new_game(client, players=1)
    until_decision(client, app, game_id)
    answer = client.post(
        f"/v1/games/{game_id}/moves", headers=auth(tokens[0]), json={"move": "fly"}
    )
    assert answer.json["title"] == "Move not understood"


def test_a_campaign_game_starts_without_a_body_and_refuses_carried_options(app, client):
    created = client.post(
        "/v1/campaigns", json={"engine": "star-maps", "players": [{"name": "A"}, {"name": "B"}]}
    )
    campaign, token = created.json["id"], created.json["token"]
    refused = client.post(
        "/v1/campaigns",
        json={
            "engine": "star-maps",
            "players": [{"name": "A"}],
            "options": {"unlocked_bonuses": ["echo"]},
        },
    )
    assert_problem(refused, 422, "carried-option")
    assert_problem(
        client.post(
            f"/v1/campaigns/{campaign}/games",
            headers=auth(token),
            json={"options": {"unlocked_bonuses": ["comet"]}},
        ),
        422,
        "carried-option",
    )
    started = client.post(f"/v1/campaigns/{campaign}/games", headers=auth(token))
    assert started.status_code == 201 and summary(client, started.json["id"])["status"] == "active"


def test_pausing_a_game_without_a_clock_is_refused(app, client):
    answer = client.post("/v1/games", json={"engine": "space-worm", "players": [{"name": "A"}]})
    game_id, creator = answer.json["id"], answer.json["creator_token"]
    version = summary(client, game_id)["version"]
    assert_problem(
        client.post(f"/v1/games/{game_id}/pause", headers=auth(creator)), 409, "no-clock"
    )
    assert summary(client, game_id)["version"] == version


def test_deeply_nested_json_is_malformed_not_a_crash(client):
    deep = "[" * 5000 + "]" * 5000
    answer = client.post(
        "/v1/games",
        data='{"engine": "space-worm", "options": ' + deep + "}",
        content_type="application/json",
    )
    assert answer.status_code == 400 and answer.json["code"] == "malformed-json"


def test_titles_follow_the_status_and_details_read_as_text(client):
    """One title per code (RFC 9457: a problem type has one title), whichever path
    answers it; an error raised with a bare status takes its status class's title."""
    answer = client.post("/v1/games", data="x", content_type="text/plain")
    assert answer.json["title"] == "Unsupported media type"
    nul = client.get("/v1/games?player=a%00b")
    schema = client.get("/v1/games?status=lost")
    assert nul.json["code"] == schema.json["code"] == "invalid-request"
    assert nul.json["title"] == schema.json["title"] == "Invalid request"
    late = client.post(
        "/v1/games",
        json={
            "engine": "space-worm",
            "players": [{"name": "A"}],
            "start_at": "2000-01-01T00:00:00Z",
        },
    )
    assert (late.json["code"], late.json["title"]) == ("bad-start", "Unprocessable request")
    answer = client.post(
        "/v1/games",
        json={
            "engine": "space-worm",
            "players": [{"name": "A"}],
            "clock": {"type": "per-move", "seconds": -1},
        },
    )
    assert answer.json["code"] == "bad-clock" and "{" not in answer.json["detail"]
    answer = client.post("/v1/games", json={"engine": "space-worm", "players": [{}]})
    assert "players.0.name: Missing data for required field." in answer.json["detail"]


def test_games_cannot_be_found_by_email(client):
    new_game(client, emails=True)
    assert client.get("/v1/games?player=p0@example.org").json == []
    assert len(client.get("/v1/games?player=P0").json) == 1


@pytest.mark.parametrize(
    "engine, players, options, says",
    sampled(
        [
            ("space-worm", 2, {"start_roll": "everyone"}, "start_roll"),
            ("space-worm", 2, {"start_roll": None}, "start_roll"),
            ("space-worm", 2, {"start_roll": 1}, "start_roll"),
            ("space-worm", 2, {"start_roll": ["each"]}, "start_roll"),
            ("space-worm", 2, {"start_roll": "EACH"}, "start_roll"),
            ("space-worm", 2, {"hungriest_seat": 2}, "no seat 2 in a game of 2 players"),
            ("space-worm", 1, {"hungriest_seat": 1}, "no seat 1 in a game of 1 player"),
            ("space-worm", 6, {"hungriest_seat": 99999999999999999999}, "no seat"),
            ("space-worm", 2, {"hungriest_seat": -1}, "hungriest_seat"),
            ("space-worm", 2, {"hungriest_seat": "0"}, "hungriest_seat"),
            ("space-worm", 2, {"hungriest_seat": 0.5}, "hungriest_seat"),
            ("space-worm", 2, {"hungriest_seat": None}, "hungriest_seat"),
            ("space-worm", 2, {"hungriest_seat": True}, "hungriest_seat"),
            ("space-worm", 2, {"hungriest_seat": {"seat": 0}}, "hungriest_seat"),
            ("star-maps", 2, {"unlocked_bonuses": ["none"]}, "unlocked_bonuses"),
            ("dark-horse", 2, {"dilly_dally": "yes"}, "dilly_dally"),
        ],
        kind=lambda row: row[3],
    ),
)
def test_bad_start_and_variant_options_are_422_and_create_nothing(
    client, engine, players, options, says
):
    """Given a start roll rule other than each or shared, a hungriest seat that is not a
    seat of the game, or another ill-typed option, then 422 ``bad-options``
    (problem+json) naming the option, and no game is created (issue 15, 4)."""
    answer = client.post(
        "/v1/games",
        json={
            "engine": engine,
            "options": options,
            "players": [{"name": f"P{i}"} for i in range(players)],
        },
    )
    assert_problem(answer, 422, "bad-options")
    assert says in answer.json["detail"]
    assert client.get("/v1/games").json == []


@pytest.mark.parametrize(
    "bonuses, repeated",
    [
        (["comet", "bridge", "comet"], "comet"),
        (["bridge", "bridge", "echo", "echo"], "bridge, echo"),
    ],
)
def test_star_maps_unlocked_bonuses_named_twice_are_422_and_create_nothing(
    client, bonuses, repeated
):
    """Star Maps, "Bonuses": a bonus is unlocked once, for everybody. Given
    ``unlocked_bonuses`` naming a bonus twice, then 422 ``bad-options`` naming the
    repeated bonuses, for a game and for a campaign, and nothing is created."""
    for url in ("/v1/games", "/v1/campaigns"):
        answer = client.post(
            url,
            json={
                "engine": "star-maps",
                "options": {"unlocked_bonuses": bonuses},
                "players": [{"name": "A"}, {"name": "B"}],
            },
        )
        assert_problem(answer, 422, "bad-options")
        assert (
            f"unlocked_bonuses: each bonus may be listed once; repeated: {repeated}"
            in answer.json["detail"]
        )
    assert client.get("/v1/games").json == []


def test_star_maps_a_thousand_times_one_bonus_is_refused(client):
    """Star Maps, "Bonuses": ``unlocked_bonuses`` of 1000 x ``echo`` is 422
    ``bad-options`` (each bonus once), and nothing is created."""
    answer = client.post(
        "/v1/games",
        json={
            "engine": "star-maps",
            "players": [{"name": "A"}, {"name": "B"}],
            "options": {"unlocked_bonuses": ["echo"] * 1000},
        },
    )
    assert_problem(answer, 422, "bad-options")
    assert client.get("/v1/games").json == []


def test_two_seats_with_one_address_are_422_and_create_nothing(client, app):
    """Given two players whose addresses differ only by case, then 422
    ``duplicate-player-email`` for a game and a campaign, and nothing is created (the
    address is an account's: a caller without a token may name it)."""
    agreed(app, "same@example.org")
    players = [
        {"name": "Ann", "email": "same@example.org"},
        {"name": "Bob", "email": "SAME@example.org"},
    ]
    for url, engine in (("/v1/games", "space-worm"), ("/v1/campaigns", "star-maps")):
        answer = client.post(url, json={"engine": engine, "players": players})
        assert_problem(answer, 422, "duplicate-player-email")
        assert "more than one has the address 'same@example.org'." in answer.json["detail"]
    assert client.get("/v1/games").json == []


def test_an_address_with_a_local_part_over_64_characters_is_refused(client):
    """RFC 5321, 4.5.3.1.1: a local part is at most 64 octets. Given 300 characters
    before the @ (a seat, a sign-in link), then 422 ``invalid-request``."""
    address = "a" * 300 + "@example.org"
    answer = client.post(
        "/v1/games",
        json={
            "engine": "space-worm",
            "players": [{"name": "Ann", "email": address}, {"name": "Bob"}],
        },
    )
    assert_problem(answer, 422, "invalid-request")
    assert_problem(client.post("/v1/auth/links", json={"email": address}), 422, "invalid-request")
    assert client.get("/v1/games").json == []


def test_names_are_kept_without_surrounding_spaces(client):
    """Given ``"   a   "``, then the seat is called ``a``."""
    answer = client.post(
        "/v1/games", json={"engine": "space-worm", "players": [{"name": "   a   "}, {"name": "b"}]}
    )
    assert answer.status_code == 201
    assert [s["name"] for s in answer.json["seats"]] == ["a", "b"]


@pytest.mark.parametrize(
    "names, said",
    [
        (["Ann", "Bob", "Ann"], "'Ann'"),
        (["Ann", "ann "], "'Ann'"),
        (["Ann", "Bob", "ANN", "bob"], "'Ann', 'Bob'"),
    ],
)
def test_two_players_with_one_name_are_422_and_create_nothing(client, names, said):
    """Given two players whose names differ only by case or surrounding spaces (seats
    are told apart by name in mails, pages and records), then 422
    ``duplicate-player-name`` naming them, for a game and for a campaign, and nothing is
    created."""
    players = [{"name": n} for n in names]
    for url, engine in (("/v1/games", "space-worm"), ("/v1/campaigns", "star-maps")):
        answer = client.post(url, json={"engine": engine, "players": players[:4]})
        assert_problem(answer, 422, "duplicate-player-name")
        assert f"more than one is called {said}." in answer.json["detail"]
    assert client.get("/v1/games").json == []
    answer = client.post(
        "/v1/games", json={"engine": "space-worm", "players": [{"name": "Ann"}, {"name": "Anne"}]}
    )
    assert answer.status_code == 201


def test_a_named_hungriest_seat_and_each_start_roll_show_in_the_game(app, client):
    """Given ``hungriest_seat`` 2 of 3 and the default start roll, then the game's view
    shows them, three public start rolls come first (seat 2's, then 0's and 1's), and
    seat 2 is the first to choose a die."""
    game_id, tokens = new_game(client, "space-worm", 3, options={"hungriest_seat": 2})
    s = until_decision(client, app, game_id)
    assert s["to_act"] == [2]
    view = client.get(f"/v1/games/{game_id}/view", headers=auth(tokens[0])).json["view"]
    assert view["hungriest_seat"] == 2 and view["start_roll_rule"] == "each"
    assert all(len(r) == 2 for r in view["start_rolls"])
    events = client.get(f"/v1/games/{game_id}/events").json["events"]
    rolls = [e for e in events if e["kind"] == "chance"]
    assert len(rolls) == 4  # three start rolls, then the 8 dice of round 1
    assert all(len(e["payload"]["outcome"]) == 2 for e in rolls[:3])


def test_members_in_a_body_an_operation_does_not_take_are_refused(client, app):
    """Given routes that take no body (resign, pause, resume, delete a token), a JSON
    body with a member is 422 invalid-request naming it, as unknown fields are on
    routes with a body, and nothing is done; a body that is no object too; ``{}`` and
    no body are taken; a wrong token is still 401 first."""
    from tests.arbiter.clock_helpers import clocked_game

    game_id, tokens, creator, s = clocked_game(client, app, {"type": "per-move", "seconds": 3600})
    before = event_count(app, game_id)
    for route, token in (("resign", tokens[0]), ("pause", creator), ("resume", creator)):
        answer = client.post(f"/v1/games/{game_id}/{route}", headers=auth(token), json={"bogus": 1})
        assert_problem(answer, 422, "invalid-request")
        assert answer.json["errors"] == {"json": {"bogus": ["Unknown field."]}}, route
        assert_problem(
            client.post(f"/v1/games/{game_id}/{route}", headers=auth(token), json=[1]),
            422,
            "invalid-request",
        )
    assert_problem(
        client.post(f"/v1/games/{game_id}/resign", headers=auth("arb_wrong"), json={"bogus": 1}),
        401,
        "bad-token",
    )
    assert event_count(app, game_id) == before
    assert summary(client, game_id)["status"] == "active"
    assert (
        client.post(f"/v1/games/{game_id}/pause", headers=auth(creator), json={}).status_code == 201
    )
    assert client.post(f"/v1/games/{game_id}/resume", headers=auth(creator)).status_code == 201
