"""Playing by clicking the board (issue 23, items 2, 4 and 5) in a real browser: Debian's
Chromium driven by Playwright against the real web, worker and beat processes.

- the helpers that play a move by clicking the places of the board picture (the
  highlighted ones), never by typing notation; where a click leaves several moves (a
  Worms tile's turn, a Star Maps box two dice can fill) the move is chosen from the few
  the page then offers; a decision with no place on the board (Worms' "skip", a die to
  pick) is made with the page's move buttons. The whole games played with them, by
  friends invited by address, one on a phone, then replayed step by step, are in
  ``tests/e2e/test_browser_check.py`` (issue 23's "Check");
- a click on a place no legal move starts with says why, in words;
- axe-core finds no serious violation on a game page with a place picked, for every
  engine, nor on a rulebook page.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import engines
from tests.e2e.conftest import create
from tests.e2e.test_browser import fresh_page, serious_violations, settled, summary

pytestmark = pytest.mark.xdist_group("browser")

PLAYERS = {"space-worm": 2, "dark-horse": 3, "star-maps": 2, "worms": 2}


def board_moves(page) -> list[dict]:
    """Return the moves the page offers on the board (its JSON data block), or []."""
    block = page.locator("#board-moves")
    return json.loads(block.text_content()) if block.count() else []


def click_place(page, place: str) -> None:
    """Click a place of the board picture, as a person does (the middle of it; a worm
    standing on a hex is clicked through to the hex by the page)."""
    page.locator(f'.picture.clickable svg [data-place="{place}"]').first.click(force=True)


def play_on_the_board(page, rng: random.Random) -> bool:
    """Make one move by clicking the board: pick a legal move that has places, click
    them (each one highlighted before it is clicked), and choose among the moves left
    when the clicks leave several. Return False when the decision has no place on the
    board (then nothing was done)."""
    moves = [m for m in board_moves(page) if m["places"]]
    if not moves:
        return False
    move = rng.choice(moves)
    places = move["places"]
    for i, place in enumerate(places):
        target = page.locator(f'.picture.clickable svg [data-place="{place}"].target')
        assert target.count(), (place, page.url)
        rest = [m for m in moves if m["places"][: i + 1] == places[: i + 1]]
        if i == len(places) - 1 and len(rest) == 1 and "preview" not in move:
            with page.expect_navigation():
                click_place(page, place)
        else:
            click_place(page, place)
    if "preview" in move:  # drawn on the board first: turned to ours, then confirmed
        turn_to(page, move["preview"]["shape"])
        with page.expect_navigation():
            page.locator("#board-choices button.confirm").click()
    elif len(rest) > 1:  # the clicks leave a few moves: choose ours by its words
        choice = page.locator("#board-choices button.choice", has_text=move["words"])
        with page.expect_navigation():
            choice.first.click()
    messages = page.locator(".messages")
    assert messages.count() and "Move recorded" in messages.inner_text(), page.url
    return True


def shown(page) -> str | None:
    """Return the shape the board's preview draws now (a Worms tile in a turn), or None."""
    preview = page.locator(".picture.clickable svg .board-preview")
    return preview.get_attribute("data-shape") if preview.count() else None


def turn_to(page, shape: str) -> None:
    """Turn the previewed move with the page's Turn button until ``shape`` is shown."""
    for _ in range(6):
        if shown(page) == shape:
            return
        page.locator("#board-choices button.turn.clockwise").click()
    assert shown(page) == shape, (shape, page.url)


def press_a_button(page, rng: random.Random) -> None:
    """Make a move with the page's move buttons (or its list)."""
    buttons = page.locator("form.move-form button.move")
    if buttons.count():
        with page.expect_navigation():
            buttons.nth(rng.randrange(buttons.count())).click()
    else:
        options = page.locator("#choice option")
        page.select_option("#choice", index=rng.randrange(options.count()))
        with page.expect_navigation():
            page.click("form.move-form button.play")
    assert "Move recorded" in page.locator(".messages").inner_text()


def test_an_illegal_click_says_why(service, new_context) -> None:
    """On a Space Worm page, a direction clicked before a die, and a die no legal move
    uses, are refused in words; nothing is sent; a die then a direction plays."""
    game = create(service, "space-worm", 2)
    s = settled(service, game["id"])
    seat = s["to_act"][0]
    page = fresh_page(new_context)
    page.goto(game["seats"][seat]["link"])
    before = summary(service, game["id"])["version"]
    click_place(page, "dir:up")
    hint = page.locator("#board-hint")
    assert hint.is_visible() and "bad" in (hint.get_attribute("class") or "")
    assert "highlighted" in hint.inner_text() and "up" in hint.inner_text()
    used = {m["places"][0] for m in board_moves(page)}
    dice = page.locator('.picture svg [data-place^="die:"]')
    free = [
        dice.nth(i).get_attribute("data-place")
        for i in range(dice.count())
        if dice.nth(i).get_attribute("data-place") not in used
    ]
    if free:  # a die nobody can use now (taken): refused too
        click_place(page, free[0])
        assert "No legal move uses die" in hint.inner_text()
    assert summary(service, game["id"])["version"] == before
    assert play_on_the_board(page, random.Random(1))
    assert summary(service, game["id"])["version"] > before


@pytest.mark.parametrize("engine", list(engines.ENGINE_MODULES))
def test_a_clickable_game_page_passes_axe(service, new_context, engine) -> None:
    """The game page of the seat to move, board highlighted and one place picked,
    has no serious axe-core violation; nor has the engine's rulebook page."""
    game = create(service, engine, PLAYERS[engine])
    s = settled(service, game["id"])
    page = fresh_page(new_context)
    page.goto(game["seats"][s["to_act"][0]]["link"])
    moves = [m for m in board_moves(page) if len(m["places"]) > 1]
    if moves:
        click_place(page, moves[0]["places"][0])
    assert serious_violations(page) == []
    page.goto(f"{service}/rules/{engine}")
    assert serious_violations(page) == []


SHOTS = Path("/tmp/wormtile-shots")


def centre(page, selector: str) -> tuple[float, float]:
    """Return the centre on the screen of the first element ``selector`` finds."""
    box = page.locator(selector).first.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def anchor_shown_at(page, hex_place: str) -> None:
    """The preview's anchor (the dot at its origin) is drawn on the centre of the hex
    picked, and the preview covers it."""
    dot = page.locator(".picture.clickable svg .board-preview").bounding_box()
    hx, hy = centre(page, f'.picture.clickable svg [data-place="{hex_place}"]')
    assert dot["x"] <= hx <= dot["x"] + dot["width"], (dot, hx)
    assert dot["y"] <= hy <= dot["y"] + dot["height"], (dot, hy)


def test_a_map_tile_is_drawn_at_its_place_before_it_is_placed(
    service, new_context, screenshots
) -> None:
    """Worms, standard setup (rulebook, Setup 1: Create the map). The first player clicks
    a Map Tile then a hex: the tile is drawn there in its first legal turn and nothing is
    sent; "Turn clockwise" draws its next legal turn at the same hex; a click on another
    highlighted hex moves it there; Confirm places it in the turn shown, as the log then
    says. The second player does the same with the keyboard only: Enter on the tile and
    on the hex reached with Tab, the R key turns it, Enter on Confirm places it. Without
    JavaScript the move buttons still place a tile."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    engine = engines.get("worms")
    game = create(service, "worms", 2)
    s = settled(service, game["id"])
    seat = s["to_act"][0]
    page = fresh_page(new_context)  # a phone-sized window (conftest)
    page.goto(game["seats"][seat]["link"])
    rows = [m for m in board_moves(page) if "preview" in m and len(m["places"]) == 2]
    by_place: dict[tuple, list] = {}
    for m in rows:
        by_place.setdefault(tuple(m["places"]), []).append(m)
    (tile, hex_place), turns = max(by_place.items(), key=lambda kv: len(kv[1]))
    assert len(turns) >= 2  # a place where the tile can go in several turns
    before = summary(service, game["id"])["version"]

    click_place(page, tile)
    assert shown(page) is None
    click_place(page, hex_place)
    assert shown(page) == turns[0]["preview"]["shape"]
    anchor_shown_at(page, hex_place)
    hint = page.locator("#board-hint").inner_text()
    assert turns[0]["words"] in hint and "confirm" in hint
    page.locator(".board").screenshot(path=SHOTS / "tile-preview-first-turn.png")

    page.locator("#board-choices button.turn.clockwise").click()
    assert shown(page) == turns[1]["preview"]["shape"]
    anchor_shown_at(page, hex_place)
    assert turns[1]["words"] in page.locator("#board-hint").inner_text()
    page.locator(".board").screenshot(path=SHOTS / "tile-preview-turned.png")
    page.locator("#board-choices button.turn.anticlockwise").click()
    assert shown(page) == turns[0]["preview"]["shape"]
    page.locator("#board-choices button.turn.clockwise").click()

    other = next(p for t, p in by_place if t == tile and p != hex_place)
    click_place(page, other)  # another highlighted hex: the tile goes there
    assert shown(page) == by_place[(tile, other)][0]["preview"]["shape"]
    anchor_shown_at(page, other)
    click_place(page, hex_place)  # and back
    assert summary(service, game["id"])["version"] == before  # nothing sent yet

    page.locator("#board-choices button.turn.clockwise").click()
    chosen = turns[1]
    assert shown(page) == chosen["preview"]["shape"]
    assert chosen["words"] in page.locator("#board-choices button.confirm").inner_text()
    with page.expect_navigation():
        page.locator("#board-choices button.confirm").click()
    assert "Move recorded" in page.locator(".messages").inner_text()
    placed = engine.move_words(json.loads(chosen["move"]))
    assert any(placed in line for line in page.locator("ol.log li").all_inner_texts()), placed
    screenshots.mkdir(parents=True, exist_ok=True)

    # The second player, by keyboard only.
    s = settled(service, game["id"])
    page = fresh_page(new_context)
    page.goto(game["seats"][s["to_act"][0]]["link"])
    rows = [m for m in board_moves(page) if "preview" in m and len(m["places"]) == 2]
    by_place = {}
    for m in rows:
        by_place.setdefault(tuple(m["places"]), []).append(m)
    (tile, hex_place), turns = max(by_place.items(), key=lambda kv: len(kv[1]))
    assert len(turns) >= 2
    tab_to(page, f'[data-place="{tile}"]')
    page.keyboard.press("Enter")
    tab_to(page, f'a.pick:has([data-place="{hex_place}"])')
    page.keyboard.press("Enter")
    assert shown(page) == turns[0]["preview"]["shape"]
    assert page.evaluate("document.activeElement.closest('#board-choices') !== null")
    page.keyboard.press("r")
    assert shown(page) == turns[1]["preview"]["shape"]
    page.keyboard.press("Enter")  # on "Turn clockwise": the next turn
    assert shown(page) == turns[2 % len(turns)]["preview"]["shape"]
    page.keyboard.press("Shift+R")
    assert shown(page) == turns[1]["preview"]["shape"]
    page.locator(".board").screenshot(path=SHOTS / "tile-preview-by-keyboard.png")
    tab_to(page, "#board-choices button.confirm")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    placed = engine.move_words(json.loads(turns[1]["move"]))
    assert any(placed in line for line in page.locator("ol.log li").all_inner_texts()), placed

    # Without JavaScript: no preview, the move buttons place the next piece of the setup.
    s = settled(service, game["id"])
    bare = fresh_page(new_context, java_script_enabled=False)
    bare.goto(game["seats"][s["to_act"][0]]["link"])
    assert bare.locator(".board-preview").count() == 0
    press_a_button(bare, random.Random(2))


FOCUSED = "s => { const e = document.querySelector(s); return !!e && e === document.activeElement }"


def tab_to(page, selector: str) -> None:
    """Press Tab until the element ``selector`` finds has the focus (a person reaching a
    place of the board, or a button, with the keyboard)."""
    for _ in range(400):
        if page.evaluate(FOCUSED, selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"{selector} is not reachable with Tab")
