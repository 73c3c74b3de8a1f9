"""Organising a tournament from the pages (issue 23, item 1): a signed-in organiser
creates a 4-player Swiss of two rounds with the form, players enter from its page, the
organiser starts it, withdraws a player (after a confirmation) and hands their games
to the arbiter, extends a round; games end by resignations made on the game pages."""

from __future__ import annotations

import re

import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.models import Game, Tournament
from tests.arbiter.tournaments.test_tournaments import advance
from tests.arbiter.web.test_web_accounts import browser_sign_in, csrf
from tests.helpers import roll


def _new_tournament(client, **fields) -> str:
    page = client.get("/tournaments/new").get_data(as_text=True)
    data = {
        "csrf_token": csrf(page),
        "name": "Winter Swiss",
        "engine": "dark-horse",
        "table_size": "2",
        "format": "swiss",
        "rounds": "2",
        "round_seconds": "86400",
        **fields,
    }
    made = client.post("/tournaments/new", data=data)
    assert made.status_code == 303, made.get_data(as_text=True)
    return made.headers["Location"].rsplit("/", 1)[1]


def _resign_tables(app, players, tournament_id: str, number: int) -> None:
    """End each game of round ``number``: its first player resigns on the game page."""
    with app.app_context():
        games = list(
            db.session.scalars(
                sa.select(Game).where(Game.status == "active").order_by(Game.created_at)
            )
        )
        holders = {g.id: g.seats[0].account_id for g in games}
    for game_id, account_id in holders.items():
        roll(app, game_id)
        browser = players[account_id]
        page = browser.get(f"/games/{game_id}").get_data(as_text=True)
        key = re.search(r'name="key" value="(r[^"]+)"', page).group(1)
        fields = {"csrf_token": csrf(page), "key": key, "confirm": "yes"}
        assert browser.post(f"/games/{game_id}/resign", data=fields).status_code == 303
    assert advance(app, tournament_id) in ("advanced", "finished"), number


def test_an_organiser_runs_a_swiss_from_the_pages(client, app):
    browser_sign_in(client, app, "org@example.org", "Olga")
    tournament_id = _new_tournament(client)
    players = {}
    for name in ("Ann", "Bob", "Cy", "Di"):
        browser = app.test_client()
        browser_sign_in(browser, app, f"{name.lower()}@example.org", name)
        page = browser.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
        browser.post(f"/tournaments/{tournament_id}/enter", data={"csrf_token": csrf(page)})
        with app.app_context():
            from arbiter.models import Account

            account_id = db.session.scalar(
                sa.select(Account.id).where(Account.email == f"{name.lower()}@example.org")
            )
        players[account_id] = browser
    page = client.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    assert "4 entries so far" in page and "Start the tournament" in page
    client.post(f"/tournaments/{tournament_id}/start", data={"csrf_token": csrf(page)})
    page = client.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    assert "round 1 is paired" in page and "Extend the round" in page
    extended = client.post(
        f"/tournaments/{tournament_id}/extend", data={"csrf_token": csrf(page), "seconds": "3600"}
    )
    assert "The round ends 1 hour later." in client.get(extended.headers["Location"]).text
    _resign_tables(app, players, tournament_id, 1)
    _resign_tables(app, players, tournament_id, 2)
    with app.app_context():
        assert db.session.get(Tournament, tournament_id).status == "over"
    page = client.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    assert "The tournament is over." in page and "Standings after round 2" in page


def test_the_organiser_withdraws_and_replaces_a_player_after_confirming(client, app):
    browser_sign_in(client, app, "org@example.org", "Olga")
    tournament_id = _new_tournament(client)
    for name in ("Ann", "Bob"):
        browser = app.test_client()
        browser_sign_in(browser, app, f"{name.lower()}@example.org", name)
        page = browser.get(f"/tournaments/{tournament_id}").text
        browser.post(f"/tournaments/{tournament_id}/enter", data={"csrf_token": csrf(page)})
    page = client.get(f"/tournaments/{tournament_id}").text
    client.post(f"/tournaments/{tournament_id}/start", data={"csrf_token": csrf(page)})
    page = client.get(f"/tournaments/{tournament_id}").text
    entry = re.search(r"/entries/([0-9a-f]+)/withdraw", page).group(1)
    url = f"/tournaments/{tournament_id}/entries/{entry}/withdraw"
    asked = client.post(url, data={"csrf_token": csrf(page)}).text
    assert "Leave the tournament?" in asked
    client.post(url, data={"csrf_token": csrf(asked), "confirm": "yes"})
    page = client.get(f"/tournaments/{tournament_id}").text
    assert "Replace in their games" in page
    replace = f"/tournaments/{tournament_id}/entries/{entry}/replace"
    asked = client.post(replace, data={"csrf_token": csrf(page)}).text
    assert "Replace this player" in asked
    done = client.post(replace, data={"csrf_token": csrf(asked), "confirm": "yes"})
    assert "played by the arbiter" in client.get(done.headers["Location"]).text


def test_a_bad_tournament_form_says_why(client, app):
    browser_sign_in(client, app, "org@example.org", "Olga")
    page = client.get("/tournaments/new").text
    answer = client.post(
        "/tournaments/new",
        data={
            "csrf_token": csrf(page),
            "engine": "dark-horse",
            "table_size": "2",
            "format": "swiss",
        },
    )
    assert answer.status_code == 422 and "needs its number of rounds" in answer.text
