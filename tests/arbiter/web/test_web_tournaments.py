"""The tournament pages (issue 12, "a tournament page with standings and rounds", on
issue 11's tournaments): the public list, a tournament's standings and rounds as the
API gives them, entering and withdrawing by a signed-in browser with plain forms; a
form without its CSRF token, a second entry and a bad filter are refused and say why."""

from __future__ import annotations

import html
import random
import re

from tests.arbiter.tournaments.test_tournaments import (
    accounts,
    advance,
    create,
    enter_all,
    play_round,
    start,
)
from tests.arbiter.web.test_web_accounts import browser_sign_in, csrf
from tests.helpers import sign_in


def rows(text: str, table_class: str) -> list[list[str]]:
    """Return the cells of the body rows of the page's table of ``table_class``."""
    block = re.search(
        rf'<table class="[^"]*\b{table_class}\b.*?<tbody>(.*?)</tbody>', text, re.S
    ).group(1)
    return [
        [
            html.unescape(re.sub(r"<[^>]+>", "", c)).strip()
            for c in re.findall(r"<td>(.*?)</td>", row, re.S)
        ]
        for row in re.findall(r"<tr>(.*?)</tr>", block, re.S)
    ]


def test_the_page_shows_the_standings_and_rounds_the_api_gives(client, app) -> None:
    """After round 1 of a 5-player Swiss, the page's standings are the API's, row for
    row, and round 1 lists each table's game (linked) with its players' places and
    the bye; the list of tournaments links the page."""
    organiser, *players = accounts(client, app, 6)
    t = create(client, organiser, name="Autumn Swiss", rounds=2)
    token_of = dict(zip(enter_all(client, t["id"], players), players))
    start(client, t["id"], organiser)
    play_round(client, app, t["id"], 1, token_of, random.Random(5))
    assert advance(app, t["id"]) == "advanced"
    text = client.get(f"/tournaments/{t['id']}").get_data(as_text=True)
    api = client.get(f"/v1/tournaments/{t['id']}/standings").json["standings"]
    assert rows(text, "standings") == [
        [
            str(s["no"]),
            str(s["rank"]),
            s["name"],
            f"{s['points']:g}",
            str(s["games"]),
            str(s["byes"]),
            f"{s['buchholz']:g}",
            f"{s['sonneborn_berger']:g}",
            f"{s['head_to_head']:g}",
            *s["crosstable"],
        ]
        for s in api
    ]
    assert "Standings after round 1" in text and all(len(s["crosstable"]) == 1 for s in api)
    first = client.get(f"/v1/tournaments/{t['id']}/rounds/1").json
    for table in first["tables"]:
        assert f'href="/games/{table["game"]}"' in text
        names = ", ".join(
            f"{p['name']} ({place}.)" for p, place in zip(table["players"], table["places"])
        )
        assert names in html.unescape(re.sub(r"\s+", " ", text))
    assert f"Bye: {first['byes'][0]['name']}" in text
    assert "Round 2 is being played" in text and "<h3>Round 2" in text
    listing = client.get("/tournaments").get_data(as_text=True)
    assert f'href="/tournaments/{t["id"]}"' in listing and "Autumn Swiss" in listing
    bad = client.get("/tournaments?status=nonsense")  # an HTML page that says why
    assert bad.status_code == 400 and bad.mimetype == "text/html"
    assert "no tournament status 'nonsense'" in html.unescape(bad.get_data(as_text=True))
    assert client.get("/tournaments/nope").status_code == 404


def test_a_signed_in_browser_enters_and_withdraws(client, app) -> None:
    """The page's button enters the signed-in account (as the API would), a second
    entry is refused with the service's sentence, a form without its CSRF token
    records nothing, and Withdraw withdraws the entry from the next round."""
    organiser = sign_in(client, app, "org@example.org", "Org")
    t = create(client, organiser, name="Open Swiss")
    browser = app.test_client()
    browser_sign_in(browser, app, "ann@example.org", "Ann")
    page = browser.get(f"/tournaments/{t['id']}").get_data(as_text=True)
    assert "Enter this tournament" in page
    assert browser.post(f"/tournaments/{t['id']}/enter").status_code == 400
    assert "No entries yet." in browser.get(f"/tournaments/{t['id']}").get_data(as_text=True)
    done = browser.post(
        f"/tournaments/{t['id']}/enter", data={"csrf_token": csrf(page)}, follow_redirects=True
    ).get_data(as_text=True)
    assert "Entered as Ann: you play from round 1." in done and "Withdraw" in done
    again = browser.post(f"/tournaments/{t['id']}/enter", data={"csrf_token": csrf(done)})
    assert again.status_code == 409 and "already entered" in again.get_data(as_text=True)
    entry = re.search(r"/entries/([0-9a-f]+)/withdraw", done).group(1)
    url = f"/tournaments/{t['id']}/entries/{entry}/withdraw"
    asked = browser.post(url, data={"csrf_token": csrf(done)}).get_data(as_text=True)
    assert "Leave the tournament?" in asked  # a confirmation step first (issue 23)
    gone = browser.post(
        url, data={"csrf_token": csrf(asked), "confirm": "yes"}, follow_redirects=True
    )
    assert "Withdrawn: you are not paired from round 1 on." in gone.get_data(as_text=True)
    # withdrawn before the start: not listed in the standings (issue 28)
    assert "No entries yet." in gone.get_data(as_text=True)
    back = browser.post(
        f"/tournaments/{t['id']}/enter",  # before the start: Enter again
        data={"csrf_token": csrf(gone.get_data(as_text=True))},
        follow_redirects=True,
    ).get_data(as_text=True)
    assert "Entered as Ann: you play from round 1." in back and "(withdrawn)" not in back
    anonymous = app.test_client().get(f"/tournaments/{t['id']}").get_data(as_text=True)
    assert "Sign in</a> to enter." in anonymous
