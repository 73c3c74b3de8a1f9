"""Issue 23's "Check" as one story per engine, with only a browser (Debian's Chromium
driven by Playwright against the real web, Celery worker and beat processes on the
embedded default; mail through a real SMTP server on loopback, aiosmtpd):

- Host signs up through the pages (the sign-in form, the mailed link, its button);
- Host creates a game of the engine on the new-game page with two friends, Bob and Cy,
  by address (options that keep the game short where the rules allow: Worms' first-game
  setup, Space Worm's shared start roll);
- Bob and Cy open their invitation mails' pages and press Accept (Bob on a desktop
  window, Cy on a phone, 390 x 844);
- the three play the game to its end by clicking the board picture: each move is a
  random legal one among those the page offers on the board (its highlighted targets,
  the engine's ``board_targets``), its places clicked in turn; a decision with no
  place on the board (Worms' "skip", a die to pick) is made with the page's move
  buttons (never by typing notation). Every engine is played to the end by clicks in
  ``make test`` (the slowest, Worms with its first-game setup, takes about a minute);
- the finished game is replayed step by step (the Next link, the arrow keys, each
  seat's view);
- screenshots of each engine at the start, the middle and the end:
  ``browser-test-output/screenshots/check-<engine>-{start,mid,end}.png``;
- axe-core finds no serious or critical violation on any page visited: every page is
  checked the first time its kind is seen (its path with the ids taken out, the
  engine, the window, whose turn it is), and the game pages again at the start, the
  middle and the end.

The stranger who finds a lobby table and the organiser's 4-player Swiss of two rounds
from pages only are in ``tests/e2e/test_browser_start.py``, whose pages are checked the
same way (:class:`AxeEveryPage`).
"""

from __future__ import annotations

import random
import re
from urllib.parse import urlparse

import pytest
import requests

import engines
from tests.e2e.test_board_clicks import board_moves, play_on_the_board, press_a_button
from tests.e2e.test_browser import fresh_page, mailed, serious_violations, settled, summary

pytestmark = [pytest.mark.xdist_group("browser"), pytest.mark.slow]
"""Its servers are module-wide: one xdist worker runs the module."""

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
OPTIONS = {
    "worms": {"setup": "first-game"},
    "space-worm": {"start_roll": "shared"},
}
"""Options (select fields of the new-game page) that make a game short."""
MAX_MOVES = 600
MID_MOVE = 12


class AxeEveryPage:
    """Run axe-core on each kind of page once: the kind is the path with its ids
    (segments of 8 characters or more holding a digit) taken out, plus what the
    caller adds (the engine, whose turn it is); ``check(page, force=True)`` checks
    again whatever the kind."""

    def __init__(self) -> None:
        self.seen: set[str] = set()
        self.checked: list[str] = []

    def check(self, page, *extra: str, force: bool = False) -> None:
        path = re.sub(r"/(?=[^/]*\d)[^/]{8,}", "/<id>", urlparse(page.url).path)
        kind = " ".join([path, *extra])
        if kind in self.seen and not force:
            return
        self.seen.add(kind)
        self.checked.append(kind)
        found = serious_violations(page)
        assert found == [], (page.url, found)


def navigate(page, axe: AxeEveryPage, action, *extra: str) -> None:
    """Do ``action()`` (a click that leads to another page), wait for that page and
    check it with axe."""
    with page.expect_navigation():
        action()
    axe.check(page, *extra)


def sign_up(url: str, inbox, new_context, axe, address: str, name: str, viewport: dict):
    """Sign a fresh browser up as ``address`` named ``name`` through the pages (the
    sign-in form, the mailed link, its button), each page checked; return the page."""
    page = fresh_page(new_context)
    page.set_viewport_size(viewport)
    page.goto(f"{url}/sign-in")
    axe.check(page)
    page.fill("#email", address)
    page.fill("#name", name)
    navigate(page, axe, lambda: page.click("form button[type=submit]"), "mail sent")
    assert "Check your mail" in page.content()
    page.goto(mailed(inbox[1], address, r"http://\S+/sign-in/confirm\?\S+"))
    axe.check(page)
    navigate(page, axe, lambda: page.click("form button[type=submit]"))
    assert f"Signed in as {address}" in page.content()
    return page


def new_game_with_friends(page, url: str, axe, engine, friends: list) -> str:
    """Create a game of ``engine`` on the new-game page (reached from the menu) with
    ``friends`` (name, address) by address and the short options; return its id."""
    page.goto(f"{url}/games")
    axe.check(page)
    navigate(page, axe, lambda: page.click("nav >> text=New game"))
    navigate(page, axe, lambda: page.click(f"text={engine.title}"), engine.id)
    for row in range(1, engine.max_players):
        page.select_option(f"#kind-{row}", "none")
    for row, (name, address) in enumerate(friends, start=1):
        page.select_option(f"#kind-{row}", "friend")
        page.fill(f"#name-{row}", name)
        page.fill(f"#email-{row}", address)
    for option, value in OPTIONS.get(engine.id, {}).items():
        page.select_option(f"#o-{option}", value)
    page.select_option("#clock", "1d")
    navigate(page, axe, lambda: page.click("text=Create the game"), engine.id, "waiting")
    assert "it waits for its invited players" in page.content()
    return page.url.rsplit("/", 1)[1]


def accept(url: str, inbox, new_context, axe, engine_id, game_id, name, address, viewport):
    """Open the invitation mail's page in a fresh browser and press Accept; return the
    page (the game, as the friend's seat)."""
    page = fresh_page(new_context)
    page.set_viewport_size(viewport)
    page.goto(mailed(inbox[1], address, r"http://\S+/v1/invitations/\S+"))
    assert "An invitation to play" in page.content()
    axe.check(page, engine_id)
    navigate(page, axe, lambda: page.click("button:has-text('Accept')"), engine_id, "accepted")
    assert f"/games/{game_id}" in page.url
    assert f"as {name}." in page.locator(".who").inner_text()
    return page


def seat_of(page) -> int:
    """The seat the page plays (its ``data-seat``)."""
    return int(page.locator("[data-seat]").first.get_attribute("data-seat"))


def play_to_the_end(url, game_id, engine_id, people: dict, axe, screenshots) -> tuple[int, int]:
    """Play the game to its end, each move by the seat to act, clicked on its board
    (buttons where the decision has no place); return (moves on the board, moves with
    buttons)."""
    rng = random.Random(f"check-{engine_id}")
    on_board = buttons = 0
    while on_board + buttons < MAX_MOVES:
        s = settled(url, game_id)
        if s["status"] == "over":
            break
        seat = rng.choice(s["to_act"])
        page, window = people[seat]
        page.goto(f"{url}/games/{game_id}")
        assert "Your turn" in page.locator("#turn-h").inner_text()
        made = on_board + buttons
        moment = {0: "start", MID_MOVE: "mid"}.get(made)
        if moment:
            page.screenshot(path=screenshots / f"check-{engine_id}-{moment}.png", full_page=True)
        axe.check(page, engine_id, window, "to move", force=bool(moment))
        if made == 0:  # a place picked: the board's highlight and hint pass too
            picked = [m for m in board_moves(page) if len(m["places"]) > 1]
            if picked:
                page.locator(
                    f'.picture.clickable svg [data-place="{picked[0]["places"][0]}"]'
                ).first.click(force=True)
                axe.check(page, engine_id, window, "place picked")
                page.goto(f"{url}/games/{game_id}")
        if play_on_the_board(page, rng):
            on_board += 1
        else:
            press_a_button(page, rng)
            buttons += 1
        axe.check(page, engine_id, window, "moved")
    assert summary(url, game_id)["status"] == "over", f"no end after {on_board + buttons}"
    return on_board, buttons


def replay_step_by_step(url, game_id, engine_id, page, axe, new_context, screenshots) -> None:
    """From the finished game's page, open its replay; step with the Next link and the
    arrow keys; look through a seat's eyes (Dark Horse: its own cards); without
    JavaScript the Next link steps too."""
    steps = len(requests.get(f"{url}/v1/games/{game_id}/record", timeout=30).json()["events"])
    plain = fresh_page(new_context, java_script_enabled=False)
    plain.goto(f"{url}/games/{game_id}/replay")
    assert f"Step 1 of {steps}" in plain.content()
    plain.click("#replay-next")
    assert f"Step 2 of {steps}" in plain.content()
    plain.context.close()
    navigate(page, axe, lambda: page.click("text=Replay the game step by step"), engine_id)
    assert f"Step 1 of {steps}" in page.content()
    navigate(page, axe, lambda: page.click("#replay-next"), engine_id)
    assert f"Step 2 of {steps}" in page.content()
    with page.expect_navigation():
        page.keyboard.press("ArrowRight")
    assert f"Step 3 of {steps}" in page.content()
    with page.expect_navigation():
        page.keyboard.press("ArrowLeft")
    assert f"Step 2 of {steps}" in page.content()
    navigate(page, axe, lambda: page.click(".replay-nav >> text=Last"), engine_id, "last")
    assert f"Step {steps} of {steps}" in page.content()
    page.goto(f"{url}/games/{game_id}/replay?step={steps // 2}")  # mid-game, as a seat
    navigate(page, axe, lambda: page.click(".replay-seat a >> nth=1"), engine_id, "a seat")
    assert f"Step {steps // 2} of {steps}" in page.content()
    assert page.locator(".picture svg").count() == 1
    if engine_id == "dark-horse":  # a seat's view shows its own cards
        assert "Your Move cards" in page.locator(".picture svg").inner_html()
    page.screenshot(path=screenshots / f"check-{engine_id}-replay.png", full_page=True)


# make test plays Dark Horse (three seats, hidden cards); make soak plays every engine
IN_MAKE_TEST = "dark-horse"


@pytest.mark.parametrize(
    "engine_id",
    [
        e if e == IN_MAKE_TEST else pytest.param(e, marks=pytest.mark.soak)
        for e in engines.ENGINE_MODULES
    ],
)
def test_three_friends_play_a_whole_game_in_the_browser(
    service, inbox, new_context, screenshots, engine_id
) -> None:
    """Host signs up, creates a game of ``engine_id`` with Bob and Cy by address; they
    accept from their mails (Cy on a 390 x 844 phone); the three play it to the end by
    clicking the board; the finished game is replayed step by step; every page passes
    axe-core (issue 23, "Check")."""
    url, axe = service, AxeEveryPage()
    engine = engines.get(engine_id)
    tag = engine_id.replace("-", "")
    host = sign_up(url, inbox, new_context, axe, f"host.{tag}@example.org", "Host", DESKTOP)
    friends = [("Bob", f"bob.{tag}@example.org", DESKTOP), ("Cy", f"cy.{tag}@example.org", PHONE)]
    game_id = new_game_with_friends(host, url, axe, engine, [f[:2] for f in friends])
    people = {seat_of(host): (host, "desktop")}
    for name, address, window in friends:
        page = accept(url, inbox, new_context, axe, engine_id, game_id, name, address, window)
        people[seat_of(page)] = (page, "phone" if window is PHONE else "desktop")
    assert sorted(people) == [0, 1, 2]
    assert settled(url, game_id)["status"] == "active"
    on_board, buttons = play_to_the_end(url, game_id, engine_id, people, axe, screenshots)
    assert on_board > 0 and on_board >= buttons, (on_board, buttons)
    for page, window in people.values():
        page.goto(f"{url}/games/{game_id}")
        axe.check(page, engine_id, window, "over", force=True)
        if window == "phone":
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], width  # nothing wider than the phone
    host.screenshot(path=screenshots / f"check-{engine_id}-end.png", full_page=True)
    record = requests.get(f"{url}/v1/games/{game_id}/record", timeout=30).json()
    assert sum(1 for e in record["events"] if e["kind"] == "move") >= on_board + buttons
    replay_step_by_step(url, game_id, engine_id, people[1][0], axe, new_context, screenshots)
    print(engine_id, on_board, "moves on the board,", buttons, "with buttons; axe:", axe.checked)
