"""People's language where a person reads (issue 23: "names, not seat numbers; moves in
words"): an engine writes ``seat N`` (it knows no names), and the page's log, the turn
mail's story and the mailed board picture name the players."""

from __future__ import annotations

import re

import engines
from arbiter.games import history, naming
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


def test_a_result_naming_several_seats_names_the_players() -> None:
    """Star Maps' end ("seats 0, 2 could neither use the dice ...", rules/star-maps.md,
    "Game End") reads with the players' names, the reader's own as "you"; a single
    seat as before; a number naming no seat is left as it is."""
    reason = "Round 4: seats 0, 2 could neither use the dice 3 and 5 nor make a connection."
    assert naming.named(reason, NAMES) == (
        "Round 4: Ann and Cy could neither use the dice 3 and 5 nor make a connection."
    )
    assert naming.named(reason, NAMES, me=2).startswith("Round 4: Ann and you could")
    assert naming.named("Seats 1 and 2 tied.", NAMES) == "Bob and Cy tied."
    assert naming.named("seats 0, 1, 2 passed", NAMES) == "Ann, Bob and Cy passed"
    assert naming.named("seat 1 could not", NAMES) == "Bob could not"
    assert naming.named("seats 0, 7 passed", NAMES) == "seats 0, 7 passed"
    stars = engines.get("star-maps")
    lines = stars.result_words({"reason": reason, "details": []})
    assert [naming.named(line, NAMES) for line in lines][0].startswith("Round 4: Ann and Cy")
