"""People's language where a person reads (issue 23: "names, not seat numbers; moves in
words"): an engine writes ``seat N`` (it knows no names), and the page's log, the turn
mail's story and the mailed board picture name the players."""

from __future__ import annotations

import re

import engines
from arbiter.games import history
from arbiter.games.mail_parts import board_picture
from arbiter.web import game_page
from tests.engines.test_board_svg import moments

NAMES = {0: "Ann", 1: "Bob", 2: "Cy"}
ROLL = {"kind": "chance", "seat": None, "payload": {"text": "seat 0's start roll 4 + 3 = 7"}}


def test_a_chance_text_names_the_player_on_the_page_and_in_mails() -> None:
    """Space Worm's "seat 0's start roll 4 + 3 = 7" reads with the player's name on the
    page, and as "Your start roll" in that player's own mail."""
    worm = engines.get("space-worm")
    assert game_page.event_words(ROLL, NAMES, worm) == "Ann's start roll 4 + 3 = 7."
    assert history.event_words(worm, ROLL, NAMES, 1) == "Ann's start roll 4 + 3 = 7."
    assert history.event_words(worm, ROLL, NAMES, 0) == "Your start roll 4 + 3 = 7."


def test_a_move_naming_a_seat_names_the_player_on_the_page() -> None:
    """Dark Horse's Bad encounter! "chose seat 2" reads "chose Cy" in the page's log."""
    horse = engines.get("dark-horse")
    chose = {"play": "mv-bad-encounter", "choose": 2}
    move = {"kind": "move", "seat": 0, "payload": {"move": chose}}
    line = game_page.event_words(move, NAMES, horse)
    assert line == "Ann played Bad encounter! and chose Cy to swap a Goal card."


def test_the_mailed_picture_names_the_players() -> None:
    """The board picture attached to mails names the players (its title too)."""
    worm = engines.get("space-worm")
    svg = board_picture(worm, moments(worm)[1], 1, NAMES)
    assert '<title id="board-title">Space Worm board, your sheet' in svg
    assert not re.search(r"\bseat \d", svg)
