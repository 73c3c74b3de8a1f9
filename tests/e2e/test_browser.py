"""The web pages in a real browser (issue 12, "Tested in a real browser"): Debian's
Chromium driven by Playwright against real processes (the Procfile's uvicorn web,
Celery workers and beat, embedded default).

- a whole game of every engine played by clicking on the seats' pages (the first move
  by keyboard only), checking the end, the scores and that the record verifies, with
  screenshots at the start, mid-game and the end;
- a Dark Horse game where, at every step, seat 0's page and a spectator's page are
  checked for the other seats' cards (replayed from the record afterwards);
- accessibility: axe-core (axe-playwright-python) finds no serious or critical
  violation on the pages; every control is reachable by keyboard; the board has a
  text alternative.
"""

from __future__ import annotations

import random
import re
import time

import pytest
import requests

import engines
from arbiter.verify import verify
from engines.base import Input, fold
from tests.e2e.conftest import create

pytestmark = pytest.mark.xdist_group("browser")
"""Its servers are module-wide: one xdist worker runs the module."""

PLAYERS = {"space-worm": 2, "dark-horse": 2, "star-maps": 2, "worms": 2}
MAX_MOVES = 300
MID_MOVE = 8
"""The move after which the mid-game screenshot is taken (Worms games can be short)."""
SERIOUS = {"serious", "critical"}


def summary(url: str, game_id: str) -> dict:
    """Return the game's public summary (REST)."""
    return requests.get(f"{url}/v1/games/{game_id}", timeout=30).json()


def settled(url: str, game_id: str, seconds: float = 120) -> dict:
    """Wait until the worker has rolled what it must: the game waits for a seat or is
    over; return the summary."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        s = summary(url, game_id)
        if s["status"] == "over" or s["to_act"]:
            return s
        time.sleep(0.1)
    raise AssertionError(f"game {game_id} did not settle: {s}")


def fresh_page(new_context, **options):
    """Return a page in a browser context of its own (its own cookies), patient with a
    loaded machine (60 s per step); ``options`` go to the context (time zone, no
    JavaScript...)."""
    context = new_context(**options)
    context.set_default_timeout(60_000)
    return context.new_page()


def open_seats(new_context, game: dict) -> list:
    """Open every seat's signed link in a browser context of its own; return a page
    per seat, each showing its seat's page."""
    pages = []
    for seat in game["seats"]:
        page = fresh_page(new_context)
        page.goto(seat["link"])
        assert f'data-seat="{seat["seat"]}"' in page.content()
        assert "key=" not in page.url
        pages.append(page)
    return pages


def click_a_move(page, rng: random.Random) -> str:
    """Press one of the page's move buttons (or pick one from the list and press
    Play); return the notation of the move and check the page recorded it."""
    buttons = page.locator("form.move-form button.move")
    if buttons.count():
        button = buttons.nth(rng.randrange(buttons.count()))
        text = button.inner_text()
        with page.expect_navigation():
            button.click()
    else:
        options = page.locator("#choice option")
        index = rng.randrange(options.count())
        text = options.nth(index).inner_text()
        page.select_option("#choice", index=index)
        with page.expect_navigation():
            page.click("form.move-form button.play")
    check_recorded(page)
    return text


def check_recorded(page) -> None:
    """The page after a move says it was recorded."""
    messages = page.locator(".messages")
    assert messages.count() and "Move recorded" in messages.inner_text(), (
        page.url,
        page.content()[:4000],
    )


def keyboard_move(page) -> None:
    """Make a move with the keyboard only: Tab to the first move control, Enter."""
    for _ in range(250):  # past the links, the board's picks, the details
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.className")
        if focused in ("move", "play"):
            break
    else:
        raise AssertionError("no move control is reachable with Tab")
    with page.expect_navigation():  # a button plays its move; Play plays the list's pick
        page.keyboard.press("Enter")
    check_recorded(page)


def serious_violations(page) -> list[str]:
    """Run axe-core on the page; return its serious and critical violations."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in SERIOUS
    ]


def check_board_alternative(page) -> None:
    """The board picture is an image with a title and a description, and the page
    gives the board in words as text."""
    svg = page.locator(".picture svg")
    assert svg.get_attribute("role") in ("img", "group")  # group: it holds pick links
    assert svg.get_attribute("aria-labelledby") == "board-title board-desc"
    assert page.locator(".picture svg title").count() == 1
    assert page.locator(".picture svg desc").count() == 1 or page.locator(".words li").count() > 0
    assert page.locator(".words li").count() > 0


def play_by_clicking(url: str, engine: str, new_context, screenshots, rng) -> tuple:
    """Play a whole game in the browser; return the game id, the spectator page and
    the number of moves."""
    game = create(url, engine, PLAYERS[engine])
    game_id = game["id"]
    pages = open_seats(new_context, game)
    spectator = fresh_page(new_context)
    moves = 0
    while moves < MAX_MOVES:
        s = settled(url, game_id)
        if s["status"] == "over":
            break
        seat = rng.choice(s["to_act"])
        page = pages[seat]
        page.goto(f"{url}/games/{game_id}")
        assert "Your turn" in page.locator("#turn-h").inner_text()
        if moves == 0:
            page.screenshot(path=screenshots / f"{engine}-start.png", full_page=True)
            check_board_alternative(page)
            assert serious_violations(page) == []
            keyboard_move(page)
        else:
            picks = page.locator(".picture a.pick")
            if picks.count() and rng.random() < 0.5:  # pick on the board first
                # (a click plays on the board with JavaScript: test_board_clicks.py;
                # the pick links are for pages without it: follow one's address)
                href = picks.nth(rng.randrange(picks.count())).get_attribute("href")
                page.goto(f"{url}/games/{game_id}{href}")
                assert "picked on the board" in page.content()
            click_a_move(page, rng)
        moves += 1
        if moves == MID_MOVE:
            page.goto(f"{url}/games/{game_id}")
            page.screenshot(path=screenshots / f"{engine}-mid.png", full_page=True)
    assert summary(url, game_id)["status"] == "over", f"no end after {moves} moves"
    spectator.goto(f"{url}/games/{game_id}")
    spectator.screenshot(path=screenshots / f"{engine}-end.png", full_page=True)
    return game_id, spectator, moves


# make test plays Worms (its setup too); make soak every engine
@pytest.mark.parametrize(
    "engine",
    [
        e if e == "worms" else pytest.param(e, marks=pytest.mark.soak)
        for e in engines.ENGINE_MODULES
    ],
)
def test_a_whole_game_by_clicking(service, new_context, screenshots, engine) -> None:
    """Given real web, worker and beat processes, two players play a whole game of
    ``engine`` by clicking on their pages (the first move by keyboard); the end page
    shows the ranking with the scores the record holds, the revealed seed and a
    verification that passes, and ``arbiter verify`` agrees."""
    url = service
    game_id, spectator, moves = play_by_clicking(
        url, engine, new_context, screenshots, random.Random(engine)
    )
    assert moves > 1
    record = requests.get(f"{url}/v1/games/{game_id}/record", timeout=30).json()
    verdict = verify(record)
    assert verdict.ok, verdict.mismatch
    assert verdict.moves >= moves
    text = spectator.locator("main").text_content()  # the fair dice are folded
    assert "The game is over" in text and record["seed"] in text
    assert "Verified: the seed matches the commitment" in text
    names = {p["seat"]: p["name"] for p in record["players"]}
    items = spectator.locator("ul.result li").all_inner_texts()
    scores = record["result"]["scores"]
    assert sorted(items) == sorted(
        f"{place}. {names[s]}: {scores[s]}" for place, s in _places(record["result"])
    )
    assert serious_violations(spectator) == []


def _places(result: dict) -> list[tuple[int, int]]:
    """Return ``(place, seat)`` for a result's ranking (tied seats share a place)."""
    out, place = [], 1
    for group in result["ranking"]:
        out += [(place, s) for s in group]
        place += len(group)
    return out


@pytest.mark.soak  # make test: the talk test checks each reader's Dark Horse page
def test_dark_horse_pages_never_hold_the_other_seats_cards(service, new_context) -> None:
    """At every step of a 3-player Dark Horse game played by clicking, seat 0's page
    holds none of seats 1 and 2's Move or Goal cards, nor the Goal deck, and a
    spectator's page none of anyone's (rules/dark-horse.md, "Setup" 1 and 4). The
    secrets of each version are found afterwards by replaying the record."""
    url = service
    game = create(url, "dark-horse", 3)
    game_id = game["id"]
    pages = open_seats(new_context, game)
    spectator = fresh_page(new_context)
    seen: list[tuple[int, str, str]] = []  # (version, seat 0's html, spectator's html)
    rng = random.Random(11)
    for _ in range(MAX_MOVES):
        s = settled(url, game_id)
        for page in (pages[0], spectator):
            page.goto(f"{url}/games/{game_id}")
        versions = {
            int(p.locator("main").get_attribute("data-version")) for p in (pages[0], spectator)
        }
        if len(versions) == 1:
            seen.append((versions.pop(), pages[0].content(), spectator.content()))
        if s["status"] == "over":
            break
        page = pages[rng.choice(s["to_act"])]
        page.goto(f"{url}/games/{game_id}")
        click_a_move(page, rng)
    record = requests.get(f"{url}/v1/games/{game_id}/record", timeout=30).json()
    engine = engines.get("dark-horse")
    checked = 0
    for version, seat_html, public_html in seen:
        state = state_at(engine, record, version)
        if engine.prompt(state).to_json()["type"] == "over":
            continue
        hidden_from_seat = (
            engine.secrets(state, 1) + engine.secrets(state, 2) + engine.secrets(state, None)
        )
        for secret in hidden_from_seat:
            assert secret not in seat_html, (version, secret)
        for secret in hidden_from_seat + engine.secrets(state, 0):
            assert secret not in public_html, (version, secret)
        checked += bool(engine.secrets(state, 1))
    assert checked >= 10


def state_at(engine, record: dict, version: int) -> dict:
    """Return the state of a recorded game at ``version`` (its events up to that seq
    folded)."""
    inputs = [
        Input("move", e["seat"], e["payload"]["move"])
        if e["kind"] == "move"
        else Input("chance", None, e["payload"]["outcome"])
        for e in record["events"]
        if e["seq"] <= version and e["kind"] in ("move", "chance")
    ]
    return fold(engine, len(record["players"]), record["options"], inputs)


def test_the_list_and_a_refused_link_in_the_browser(service, page) -> None:
    """The public list passes axe with no serious violation and links each game; an
    altered seat link is refused with a sentence, and opens nothing."""
    url = service
    game = create(url, "star-maps", 2)
    page.goto(f"{url}/games")
    assert page.locator(f'a[href="/games/{game["id"]}"]').count() == 1
    assert serious_violations(page) == []
    answer = page.goto(
        re.sub(
            r"key=(.)",
            lambda m: "key=" + ("A" if m.group(1) != "A" else "B"),
            game["seats"][0]["link"],
        )
    )
    assert answer.status == 403
    assert "not valid" in page.content()
    page.goto(f"{url}/games/{game['id']}")
    assert "You are watching" in page.content()


def test_the_page_updates_itself_when_the_game_moves(service, page, new_context) -> None:
    """A spectator's open page and the other seat's open page follow the game: after a
    move made elsewhere (REST), they show the new version and the move in their log
    without being reloaded (they follow the game's event stream, /stream), and a reload
    then shows the same."""
    url = service
    game = create(url, "dark-horse", 2)
    s = settled(url, game["id"])
    seat = s["to_act"][0]
    other = fresh_page(new_context)
    other.goto(game["seats"][1 - seat]["link"])
    streams: list[str] = []
    for watcher in (page, other):
        watcher.on("request", lambda r: streams.append(r.url) if "/stream" in r.url else None)
        watcher.goto(f"{url}/games/{game['id']}")
        watcher.evaluate("window.notReloaded = true")
    auth = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
    legal = requests.get(
        f"{url}/v1/games/{game['id']}/legal-moves", headers=auth, timeout=30
    ).json()
    answer = requests.post(
        f"{url}/v1/games/{game['id']}/moves",
        headers=auth,
        timeout=30,
        json={"move": legal["moves"][0], "expected_version": legal["version"]},
    )
    assert answer.status_code == 201
    version = settled(url, game["id"])["version"]
    for watcher in (page, other):
        deadline = time.monotonic() + 30
        while (
            time.monotonic() < deadline
            and int(watcher.locator("main").get_attribute("data-version")) < version
        ):
            time.sleep(0.1)
        assert int(watcher.locator("main").get_attribute("data-version")) == version
        assert watcher.evaluate("window.notReloaded") is True
        said = engines.get("dark-horse").move_words(legal["moves"][0])
        assert said in watcher.locator("ol.log").inner_text()
        live = watcher.locator("main").inner_text()
        watcher.reload()
        assert watcher.locator("main").inner_text() == live
    assert len([u for u in streams if f"/v1/games/{game['id']}/stream?after=" in u]) >= 2


def moves_since(url: str, game_id: str, version: int) -> list[dict]:
    """Return the move events of a game after ``version``."""
    events = requests.get(f"{url}/v1/games/{game_id}/events?after={version}", timeout=30).json()[
        "events"
    ]
    return [e for e in events if e["kind"] == "move"]


@pytest.mark.parametrize("script", [True, False], ids=["javascript", "no-javascript"])
def test_a_double_click_records_one_move(service, new_context, script) -> None:
    """A double click on a move button records one move: with JavaScript the second
    submission is not sent; without it the browser may send both, and the server
    records the form's Idempotency-Key once and answers again with the first outcome."""
    url = service
    game = create(url, "space-worm", 2)
    s = settled(url, game["id"])
    seat = s["to_act"][0]
    page = fresh_page(new_context, java_script_enabled=script)
    page.goto(game["seats"][seat]["link"])
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    version = int(page.locator("main").get_attribute("data-version"))
    page.locator("form.move-form button.move, form.move-form button.play").first.dblclick()
    page.wait_for_load_state("load")
    page.wait_for_selector(".messages")
    assert "Move recorded" in page.locator(".messages").inner_text()
    settled(url, game["id"])
    moves = moves_since(url, game["id"], version)
    assert len(moves) == 1 and moves[0]["seat"] == seat, moves
    assert len(posts) == 1 if script else 1 <= len(posts) <= 2, posts


UNREACHED = """() => {
  const controls = [...document.querySelectorAll(
      'a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]')]
    .filter(e => !e.disabled && e.tabIndex >= 0 && e.getClientRects().length
                 && getComputedStyle(e).visibility !== 'hidden');
  controls.forEach((e, i) => e.setAttribute('data-reach', i));
  return controls.length;
}"""


def unreachable(page) -> list[str]:
    """Press Tab through the page; return the controls (links, buttons, fields, the
    board's pick links) that never got the focus, as HTML snippets."""
    count = page.evaluate(UNREACHED)
    page.evaluate("document.activeElement && document.activeElement.blur()")
    seen: set[str] = set()
    for _ in range(2 * count + 5):
        page.keyboard.press("Tab")
        mark = page.evaluate("document.activeElement.getAttribute('data-reach')")
        if mark is not None:
            seen.add(mark)
        if len(seen) == count:
            break
    return page.evaluate(
        """(seen) => [...document.querySelectorAll('[data-reach]')]
        .filter(e => !seen.includes(e.getAttribute('data-reach')))
        .map(e => e.outerHTML.slice(0, 120))""",
        sorted(seen),
    )


@pytest.mark.parametrize("engine", list(engines.ENGINE_MODULES))
def test_every_control_is_reachable_by_keyboard(service, new_context, engine) -> None:
    """On a seat's page at its turn (move buttons or list, the board's pick links, the
    notation field, resign, forget), on the spectator's page and on the public list,
    every link, button and field takes the focus with Tab alone."""
    url = service
    game = create(url, engine, 2)
    s = settled(url, game["id"])
    page = fresh_page(new_context)
    page.goto(game["seats"][s["to_act"][0]]["link"])
    assert "Your turn" in page.locator("#turn-h").inner_text()
    assert page.locator("form.move-form button").count() > 0
    assert unreachable(page) == []
    spectator = fresh_page(new_context)
    for address in (f"{url}/games/{game['id']}", f"{url}/games"):
        spectator.goto(address)
        assert unreachable(spectator) == []


def test_the_deadline_is_shown_in_the_viewers_zone(service, new_context) -> None:
    """With a turn clock, the page's deadline is written in the browser's own time zone
    (New York here), whatever zone the seat gave (Tokyo), and the page's script runs
    without an error."""
    url = service
    game = requests.post(
        f"{url}/v1/games",
        timeout=30,
        json={
            "engine": "star-maps",
            "clock": {"type": "per-move", "seconds": 86400},
            "players": [{"name": "Ann", "tz": "Asia/Tokyo"}, {"name": "Bob"}],
        },
    ).json()
    settled(url, game["id"])
    page = fresh_page(new_context, timezone_id="America/New_York", locale="en-US")
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(game["seats"][0]["link"])
    shown = page.locator("time.local").first
    assert shown.get_attribute("datetime").endswith("Z")
    assert re.search(r"\bE[SD]T\b", shown.inner_text()), shown.inner_text()
    assert "JST" not in shown.inner_text()
    assert errors == []  # the script ran to its end (the live updates, one submission)


def mailed(inbox, address: str, pattern: str, seconds: float = 60) -> str:
    """Wait for a mail to ``address`` whose plain text matches ``pattern`` (a turn mail
    is multipart: its text and the board's PNG); return the match."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for message in inbox.to(address):
            found = re.search(pattern, message.get_body(("plain",)).get_content())
            if found:
                return found.group(0)
        time.sleep(0.2)
    raise AssertionError(f"no mail to {address} matching {pattern}")


def signed_in_page(url: str, inbox, new_context, address: str):
    """Sign a fresh browser in as ``address`` through the pages: the sign-in form, the
    mailed link (through the real SMTP server), its page's button; return the page
    ("my games"). The sign-in page passes axe."""
    page = fresh_page(new_context)
    page.goto(f"{url}/sign-in")
    assert serious_violations(page) == []
    page.fill("#email", address)
    with page.expect_navigation():
        page.click("form button[type=submit]")
    assert "Check your mail" in page.content()
    page.goto(mailed(inbox[1], address, r"http://\S+/sign-in/confirm\?\S+"))
    with page.expect_navigation():
        page.click("form button[type=submit]")
    assert f"Signed in as {address}" in page.content()
    return page


def test_sign_in_by_mail_and_my_games_in_the_browser(service, inbox, new_context) -> None:
    """A player signs in with the mailed link (the link's page has a button; the mail
    went through a real SMTP server); a game then names her address; "my games" lists
    the game with her turn, its page is her seat's, and the turn mail's own link opens the
    same seat in another browser. The pages pass axe with no serious violation."""
    url, address = service, "ann@example.org"
    page = signed_in_page(url, inbox, new_context, address)
    # her address is an account now (it agreed to mail): a game naming it starts at
    # once with her seat linked (an address that is not an account gets an invitation)
    game = requests.post(
        f"{url}/v1/games",
        timeout=30,
        json={
            "engine": "dark-horse",
            "players": [{"name": "Ann", "email": address}, {"name": "Bob"}],
        },
    ).json()
    assert game["status"] == "active"
    page.goto(f"{url}/me/games")
    assert page.locator(f'a[href="/games/{game["id"]}"]').count() == 1
    assert serious_violations(page) == []
    assert unreachable(page) == []
    page.goto(f"{url}/me/tokens")
    assert serious_violations(page) == [] and unreachable(page) == []
    page.goto(f"{url}/me/games")
    page.click(f'a[href="/games/{game["id"]}"]')
    page.wait_for_load_state()
    assert "You are playing as Ann" in page.content()
    settled(url, game["id"])
    if 0 in summary(url, game["id"])["to_act"]:
        other = fresh_page(new_context)
        other.goto(mailed(inbox[1], address, r"http://\S+/games/\S+/open\?key=\S+"))
        assert "You are playing as Ann" in other.content()


def test_my_web_hooks_in_the_browser(service, inbox, new_context) -> None:
    """A signed-in player registers a web hook with the page's form (keyboard and axe
    clean), copies its secret from the page; her next turn reaches a real receiver
    signed with that secret (the hooks process delivers it), and the hook's page
    then lists the delivery as delivered; she deletes the hook with its button."""
    from standardwebhooks import Webhook as Verifier

    from tests.webhook_receiver import ReceiverServer

    url, address = service, "hook@example.org"
    page = signed_in_page(url, inbox, new_context, address)
    page.goto(f"{url}/me/webhooks")
    assert serious_violations(page) == [] and unreachable(page) == []
    with ReceiverServer() as receiver:
        page.fill("#w-url", receiver.url + "turns")
        page.check("input[name=events][value=turn]")
        with page.expect_navigation():
            page.click("text=Register the web hook")
        secret = page.locator("code.token").inner_text()
        assert secret.startswith("whsec_")
        assert serious_violations(page) == []
        game = requests.post(
            f"{url}/v1/games",
            timeout=30,
            json={
                "engine": "star-maps",
                "players": [{"name": "Hook", "email": address}, {"name": "Other"}],
            },
        ).json()
        got = receiver.wait_for(1, seconds=90)
        assert got, "no web hook delivery arrived"
        Verifier(secret).verify(got[0].body, got[0].headers)  # raises when not signed
    page.goto(f"{url}/me/webhooks")
    with page.expect_navigation():
        page.click(f"text={receiver.url}turns")
    deadline = time.monotonic() + 60
    while "delivered" not in page.locator("table").inner_text() and time.monotonic() < deadline:
        time.sleep(0.5)
        page.reload()
    assert "delivered" in page.locator("table").inner_text()
    assert page.locator(f'a[href="/games/{game["id"]}"]').count() >= 1
    assert serious_violations(page) == [] and unreachable(page) == []
    with page.expect_navigation():
        page.click("text=Delete this web hook")
    assert "Web hook deleted" in page.content() and "No web hooks yet." in page.content()


def test_a_tournament_page_in_the_browser(service, inbox, new_context) -> None:
    """A player signed in through the pages enters a Swiss with the tournament page's
    button and makes herself a token on "my tokens"; two players signed up over the
    API join, the organiser starts it; once its one round is played out (REST, by
    each entrant's token) the worker ends it, and the page shows the API's standings
    row for row, the round's table with its game linked and the places, and the bye;
    it passes axe and every control takes the focus with Tab."""
    from tests.e2e.test_tournaments import play_game, sign_up

    url = service
    organiser, *others = sign_up(url, inbox[1], 3)
    t = requests.post(
        f"{url}/v1/tournaments",
        timeout=30,
        headers={"Authorization": f"Bearer {organiser}"},
        json={
            "name": "Browser Swiss",
            "engine": "space-worm",
            "table_size": 2,
            "format": "swiss",
            "rounds": 1,
        },
    ).json()
    address = f"swiss-{t['id']}@example.org"
    page = signed_in_page(url, inbox, new_context, address)
    page.goto(f"{url}/tournaments")
    page.click(f'a[href="/tournaments/{t["id"]}"]')
    page.wait_for_load_state()
    assert serious_violations(page) == [] and unreachable(page) == []
    with page.expect_navigation():
        page.click("text=Enter this tournament")
    assert "you play from round 1" in page.content()
    page.goto(f"{url}/me/tokens")
    page.fill("#t-name", "tournament bot")
    page.check("input[name=scopes][value='games:play']")
    with page.expect_navigation():
        page.click("text=Make the token")
    mine = page.locator("code.token").inner_text()
    for token in others:
        answer = requests.post(
            f"{url}/v1/tournaments/{t['id']}/entries",
            timeout=30,
            headers={"Authorization": f"Bearer {token}"},
        )
        assert answer.status_code == 201, answer.text
    again = requests.post(
        f"{url}/v1/tournaments/{t['id']}/entries",
        timeout=30,
        headers={"Authorization": f"Bearer {mine}"},
    )
    assert again.status_code == 409  # entered on the page already: the same account
    started = requests.post(
        f"{url}/v1/tournaments/{t['id']}/start",
        timeout=30,
        headers={"Authorization": f"Bearer {organiser}"},
    )
    assert started.status_code == 200, started.text
    token_of = {}  # account id: personal token
    for token in others + [mine]:
        who = requests.get(
            f"{url}/v1/me", timeout=30, headers={"Authorization": f"Bearer {token}"}
        ).json()
        token_of[who["id"]] = token
    account_of = {
        e["id"]: e["account"]
        for e in requests.get(f"{url}/v1/tournaments/{t['id']}", timeout=30).json()["entries"]
    }
    first = requests.get(f"{url}/v1/tournaments/{t['id']}/rounds/1", timeout=30).json()
    for table in first["tables"]:
        play_game(
            url, table["game"], [token_of[account_of[p["entry"]]] for p in table["players"]], seed=7
        )
    deadline = time.monotonic() + 120
    while requests.get(f"{url}/v1/tournaments/{t['id']}", timeout=30).json()["status"] != "over":
        assert time.monotonic() < deadline, "the worker did not end the tournament"
        time.sleep(0.5)
    page.goto(f"{url}/tournaments/{t['id']}")
    assert "The tournament is over." in page.content()
    standings = requests.get(f"{url}/v1/tournaments/{t['id']}/standings", timeout=30).json()[
        "standings"
    ]
    shown = page.locator("table.standings tbody tr").all_inner_texts()
    assert [row.split("\t")[1:4] for row in shown] == [  # after the line number
        [str(s["rank"]), s["name"] + (" (withdrawn)" if s["withdrawn"] else ""), f"{s['points']:g}"]
        for s in standings
    ]
    table = first["tables"][0]
    assert page.locator(f'a[href="/games/{table["game"]}"]').count() == 1
    assert f"Bye: {first['byes'][0]['name']}" in page.locator("ul.tables").inner_text()
    assert len(shown) == 3
    assert serious_violations(page) == [] and unreachable(page) == []


def test_a_mailed_links_button_works_under_the_content_security_policy(service, new_context):
    """Given the one-click unsubscribe page a mail links to (issue 10), its button
    works in a real browser under the pages' Content-Security-Policy (no inline
    script runs): the POST is made and the page says it was done."""
    from itsdangerous import URLSafeSerializer

    from tests.e2e.conftest import SECRET_KEY

    token = URLSafeSerializer(SECRET_KEY, salt="arbiter.unsubscribe").dumps(
        {"e": "nobody@example.org", "g": None}
    )
    page = fresh_page(new_context)
    refused = []
    page.on("console", lambda m: refused.append(m.text) if m.type == "error" else None)
    opened = page.goto(f"{service}/v1/unsubscribe?t={token}")
    assert "script-src 'self'" in opened.headers["content-security-policy"]
    assert "Stop every mail from Arbiter to nobody@example.org?" in page.content()
    with page.expect_response(lambda r: r.request.method == "POST") as posted:
        page.click("button")
    assert posted.value.status == 200
    page.wait_for_function("document.getElementById('out').textContent !== ''")
    assert page.locator("#out").inner_text() == "Done."
    assert refused == []


def test_the_api_explorer_and_a_rulebook_in_the_browser(service, new_context, screenshots):
    """/docs/api shows every operation of the contract with Swagger UI, asking nothing of
    any other origin (the machines here are offline) and breaking no rule of the pages'
    Content-Security-Policy; a game's rulebook page reads (issue 27, items 2 and 3)."""
    url = service
    page = fresh_page(new_context)
    page.set_viewport_size({"width": 1280, "height": 900})
    elsewhere: list[str] = []
    problems: list[str] = []
    page.route(
        "**/*",
        lambda route: (
            route.continue_()
            if route.request.url.startswith(url)
            else (elsewhere.append(route.request.url), route.abort())
        ),
    )
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.goto(f"{url}/docs/api")
    operations = page.locator(".opblock")
    operations.first.wait_for()
    count = len(requests.get(f"{url}/openapi.json", timeout=30).json()["paths"])
    assert operations.count() >= count
    page.locator(".opblock-summary", has_text="/v1/games/{game_id}/moves").first.click()
    page.locator(".opblock-body .example, .opblock-body .highlight-code").first.wait_for()
    page.screenshot(path=str(screenshots / "api-explorer.png"))
    assert elsewhere == []
    assert not [p for p in problems if "Content Security Policy" in p], problems

    rules = fresh_page(new_context)
    rules.goto(f"{url}/rules/dark-horse#special-cards")
    assert rules.locator("h2#special-cards").is_visible()
    rules.screenshot(path=str(screenshots / "rulebook-dark-horse.png"))
