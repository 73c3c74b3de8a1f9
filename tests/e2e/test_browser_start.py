"""Starting and joining games with only a browser (issue 23, items 1 and 6): Debian's
Chromium driven by Playwright against real processes (web, Celery worker and beat on
the embedded default), mail through a real SMTP server (aiosmtpd).

- a person signs up, creates a game with two friends by address on the new-game page,
  the friends accept from their invitation mails' pages and the game starts;
- a stranger finds a table in the lobby, takes its seat and the game starts;
- resigning asks for a confirmation first; the finished game's Rematch starts a new game;
- an organiser runs a 4-player Swiss of two rounds from pages only;
- axe-core finds no serious or critical violation on the new pages.

Screenshots go to ``browser-test-output/screenshots/start-*.png``. Every page these
tests reach by a click, and the sign-in pages, is checked with axe-core the first time
its kind is seen (:class:`tests.e2e.test_browser_check.AxeEveryPage`).
"""

from __future__ import annotations

import time

import pytest

from tests.e2e.test_browser import (
    fresh_page,
    mailed,
    serious_violations,
    settled,
    summary,
    unreachable,
)
from tests.e2e.test_browser_check import AxeEveryPage

pytestmark = pytest.mark.xdist_group("browser")
"""Its servers are module-wide: one xdist worker runs the module."""

AXE = AxeEveryPage()
"""Every kind of page the module's tests visit, checked once."""


def sign_up(url: str, inbox, new_context, address: str, name: str):
    """Sign a fresh browser up as ``address`` named ``name`` through the pages (the
    sign-in form, the mailed link, its button); return the page."""
    page = fresh_page(new_context)
    page.goto(f"{url}/sign-in")
    AXE.check(page)
    page.fill("#email", address)
    page.fill("#name", name)
    with page.expect_navigation():
        page.click("form button[type=submit]")
    AXE.check(page, "mail sent")
    page.goto(mailed(inbox[1], address, r"http://\S+/sign-in/confirm\?\S+"))
    AXE.check(page)
    with page.expect_navigation():
        page.click("form button[type=submit]")
    AXE.check(page)
    assert f"Signed in as {address}" in page.content()
    return page


def click(page, selector: str) -> None:
    """Click what ``selector`` finds, wait for the page it leads to, check it with axe
    (once per kind of page)."""
    with page.expect_navigation():
        page.click(selector)
    AXE.check(page)


def new_game(page, url: str, engine_title: str, rows: dict) -> str:
    """Create a game from the menu's New game page: ``rows`` maps a player row (1, 2
    ...) to ``("friend", name, address)`` or ``("open",)``; return the game's id."""
    page.goto(f"{url}/games")
    click(page, "nav >> text=New game")
    assert serious_violations(page) == []
    click(page, f"text={engine_title}")
    assert serious_violations(page) == [] and unreachable(page) == []
    for row in range(1, 6):
        if page.locator(f"#kind-{row}").count():
            page.select_option(f"#kind-{row}", "none")
    for row, what in rows.items():
        page.select_option(f"#kind-{row}", what[0])
        if what[0] == "friend":
            page.fill(f"#name-{row}", what[1])
            page.fill(f"#email-{row}", what[2])
    page.select_option("#clock", "1d")
    click(page, "text=Create the game")
    return page.url.rsplit("/", 1)[1]


def test_a_game_with_two_friends_by_address(service, inbox, new_context, screenshots):
    """Host signs up and creates a Dark Horse game with Bob and Cy by address; the
    game's page says it waits for its invited players (not "rolling"); each friend
    opens the invitation mail's page (a real page, axe-clean), presses Accept, lands on
    the game as their own seat, and the game starts once both have."""
    url = service
    host = sign_up(url, inbox, new_context, "host@example.org", "Host")
    game_id = new_game(
        host,
        url,
        "Dark Horse",
        {1: ("friend", "Bob", "bob@example.org"), 2: ("friend", "Cy", "cy@example.org")},
    )
    assert "it waits for its invited players" in host.content()
    assert "being rolled" not in host.content()
    assert serious_violations(host) == []
    host.screenshot(path=screenshots / "start-waiting-for-friends.png", full_page=True)
    host.goto(f"{url}/games")
    assert "waits for its invited players" in host.locator("table").inner_text()
    for name, address in (("Bob", "bob@example.org"), ("Cy", "cy@example.org")):
        friend = fresh_page(new_context)
        friend.goto(mailed(inbox[1], address, r"http://\S+/v1/invitations/\S+"))
        assert "Host <host@example.org>, who has an account" in friend.content().replace(
            "&lt;", "<"
        ).replace("&gt;", ">")
        assert serious_violations(friend) == [] and unreachable(friend) == []
        if name == "Bob":
            friend.screenshot(path=screenshots / "start-invitation.png", full_page=True)
        click(friend, "button:has-text('Accept')")
        assert f"/games/{game_id}" in friend.url
        assert "You accepted" in friend.content() and "arb_" not in friend.content()
        assert f"as {name}." in friend.locator(".who").inner_text()
    state = settled(url, game_id)
    assert state["status"] == "active"
    host.goto(f"{url}/games/{game_id}")
    host.screenshot(path=screenshots / "start-friends-game-started.png", full_page=True)


def test_a_stranger_joins_a_lobby_table_then_resign_and_rematch(
    service, inbox, new_context, screenshots
):
    """Host opens a table with one open seat; Zed, a stranger, finds it in the lobby
    (from the menu), takes the seat and the game starts. Zed's Resign asks first (a
    page saying it cannot be undone; going back changes nothing), then resigns; on the
    finished game Host presses Rematch and the new game has the same players."""
    url = service
    host = sign_up(url, inbox, new_context, "hosta@example.org", "Hosta")
    game_id = new_game(host, url, "Space Worm", {1: ("open",)})
    assert "one more player to take a seat in the lobby" in host.content()
    zed = sign_up(url, inbox, new_context, "zed@example.org", "Zed")
    click(zed, "nav >> text=Lobby")
    assert "Hosta" in zed.locator("table.lobby").inner_text()
    assert "1 day per move" in zed.locator("table.lobby").inner_text()
    assert serious_violations(zed) == [] and unreachable(zed) == []
    zed.screenshot(path=screenshots / "start-lobby.png", full_page=True)
    click(zed, f"form[action='/lobby/{game_id}/seat'] button")
    assert "the table is full and the game starts" in zed.content()
    assert settled(url, game_id)["status"] == "active"
    click(zed, "button:has-text('Resign')")
    assert "Resign?" in zed.content() and "cannot be undone" in zed.content()
    assert serious_violations(zed) == []
    zed.screenshot(path=screenshots / "start-resign-confirm.png", full_page=True)
    click(zed, "text=No, go back")
    assert summary(url, game_id)["status"] == "active"
    click(zed, "button:has-text('Resign')")
    click(zed, "button:has-text('Yes, resign')")
    assert summary(url, game_id)["status"] == "over"
    host.goto(f"{url}/games/{game_id}")
    assert serious_violations(host) == []
    click(host, "button:has-text('Rematch')")
    new_id = host.url.rsplit("/", 1)[1]
    assert new_id != game_id
    again = summary(url, new_id)
    assert [p["name"] for p in again["players"]] == ["Hosta", "Zed"]
    assert again["seed_commitment"] != summary(url, game_id)["seed_commitment"]
    host.screenshot(path=screenshots / "start-rematch.png", full_page=True)


def resign_my_games(page, url: str) -> int:
    """Resign every game of "my games" that still offers Resign (confirming); return
    how many."""
    page.goto(f"{url}/me/games")
    links = [a.get_attribute("href") for a in page.locator("table a").all()]
    done = 0
    for href in links:
        page.goto(f"{url}{href}")
        if page.locator("button:has-text('Resign')").count():
            click(page, "button:has-text('Resign')")
            click(page, "button:has-text('Yes, resign')")
            said = page.locator(".messages").inner_text()
            assert "You resigned" in said, (href, said)
            done += 1
    return done


def test_an_organiser_runs_a_four_player_swiss_from_pages(service, inbox, new_context, screenshots):
    """Olga creates a Swiss of two rounds on the new-tournament page; four players
    enter from the tournament page; Olga starts it; in each round one player of each
    table resigns from the game page (confirming); the worker pairs round 2 and ends
    the tournament; the page shows the final standings. Axe-clean throughout."""
    url = service
    olga = sign_up(url, inbox, new_context, "olga@example.org", "Olga")
    click(olga, "nav >> text=Tournaments")
    click(olga, "text=Organise a tournament")
    assert serious_violations(olga) == [] and unreachable(olga) == []
    olga.fill("#t-name", "Winter Swiss")
    olga.select_option("#t-engine", "dark-horse")
    olga.fill("#t-size", "2")
    olga.select_option("#t-format", "swiss")
    olga.fill("#t-rounds", "2")
    click(olga, "text=Create the tournament")
    assert "open for entries" in olga.content()
    tournament_url = olga.url
    players = []
    for name in ("Ann", "Bob", "Cy", "Di"):
        player = sign_up(url, inbox, new_context, f"{name.lower()}.t@example.org", name)
        player.goto(tournament_url)
        click(player, "text=Enter this tournament")
        assert f"Entered as {name}" in player.content()
        players.append(player)
    olga.goto(tournament_url)
    assert "4 entries so far" in olga.content()
    assert serious_violations(olga) == []
    click(olga, "text=Start the tournament")
    assert "round 1 is paired" in olga.content()
    olga.screenshot(path=screenshots / "start-tournament-round-1.png", full_page=True)
    resigned, deadline = 0, time.monotonic() + 240
    while "The tournament is over." not in olga.content():
        assert time.monotonic() < deadline, olga.content()[:3000]
        resigned += sum(resign_my_games(p, url) for p in players)
        time.sleep(0.5)  # the worker pairs round 2 when round 1's games are over
        olga.goto(tournament_url)
    assert resigned == 4  # two rounds of two tables, each ended by one resignation
    assert "Standings after round 2" in olga.content()
    assert serious_violations(olga) == []
    olga.screenshot(path=screenshots / "start-tournament-over.png", full_page=True)
