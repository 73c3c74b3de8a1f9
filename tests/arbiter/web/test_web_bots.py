"""The "my bots" pages (issue 25, item 3): a signed-in person makes a bot account (its
token shown once, working on the API), gives it a new token and deletes it, each after a
confirmation page; the bot's seat reads as a bot's on the game page."""

from __future__ import annotations

import re

from tests.arbiter.web.test_web_accounts import browser_sign_in, csrf
from tests.helpers import auth

TOKEN = re.compile(r'<code class="token">(arb_[^<]+)</code>')


def test_a_bot_is_made_given_a_new_token_and_deleted_after_confirmations(client, app) -> None:
    assert client.get("/me/bots").status_code == 303  # signed out: to the sign-in page
    text = browser_sign_in(client, app, "ann@example.org")
    assert "/me/bots" in text  # "my games" links to it
    page = client.get("/me/bots").get_data(as_text=True)
    made = client.post("/me/bots", data={"csrf_token": csrf(page), "name": "Robo"})
    made_text = made.get_data(as_text=True)
    first = TOKEN.search(made_text).group(1)
    me = client.get("/v1/me", headers=auth(first)).json
    assert me["display_name"] == "Robo" and me["bot"]["public"] is False
    listing = client.get("/me/bots").get_data(as_text=True)
    assert first not in listing and "Robo (bot)" in listing and me["id"] in listing

    ask = client.get(f"/me/bots/{me['id']}/token")
    assert ask.status_code == 200 and "stops working" in ask.get_data(as_text=True)
    assert client.get("/v1/me", headers=auth(first)).status_code == 200  # asking changed nothing
    renewed = client.post(
        f"/me/bots/{me['id']}/token", data={"csrf_token": csrf(ask.get_data(as_text=True))}
    )
    second = TOKEN.search(renewed.get_data(as_text=True)).group(1)
    assert client.get("/v1/me", headers=auth(first)).status_code == 401
    assert client.get("/v1/me", headers=auth(second)).status_code == 200

    game = client.post(
        "/v1/games",
        json={
            "engine": "space-worm",
            "players": [{"name": "Ann"}, {"name": "Robo", "account": me["id"]}],
        },
        headers=auth(second),
    )
    assert game.status_code == 403  # the bot's token creates nothing

    ask = client.get(f"/me/bots/{me['id']}/delete").get_data(as_text=True)
    assert "Delete Robo?" in ask
    gone = client.post(
        f"/me/bots/{me['id']}/delete", data={"csrf_token": csrf(ask)}, follow_redirects=True
    )
    assert "Robo deleted." in gone.get_data(as_text=True)
    assert client.get("/v1/me", headers=auth(second)).status_code == 401
    assert client.get(f"/me/bots/{me['id']}/delete").status_code == 404


def test_a_bot_accounts_seat_reads_as_a_bot_on_the_game_page(client, app) -> None:
    browser_sign_in(client, app, "ann@example.org")
    page = client.get("/me/bots").get_data(as_text=True)
    made = client.post("/me/bots", data={"csrf_token": csrf(page), "name": "Robo", "public": "y"})
    bot_id = re.search(
        r"name it by its id: <code>([0-9a-f]+)</code>", made.get_data(as_text=True)
    ).group(1)
    game = client.post(
        "/v1/games",
        json={
            "engine": "space-worm",
            "players": [{"name": "Ann"}, {"name": "Robo", "account": bot_id}],
        },
    )
    assert game.status_code == 201, game.json
    assert game.json["players"][1]["name"] == "Robo (bot)"
    page = client.get(f"/games/{game.json['id']}").get_data(as_text=True)
    assert "<li>Robo (bot)" in page  # in the players' list, by name
