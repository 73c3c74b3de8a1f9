"""The autopilot on the game page: the player whose seat a bot holds is told so in
words and takes it back with "I'm back" (the same service call as ``POST
/v1/games/{id}/back``); the log tells the bot's moves from the player's own."""

from __future__ import annotations

import re

from arbiter.models.timestamps import utcnow
from tests.arbiter.clock_helpers import after, events, sweep
from tests.arbiter.games.bot_helpers import bot_game, drive
from tests.arbiter.web.test_web_pages import CSRF, open_seat, page
from tests.helpers import auth, summary

NOTICE = "A bot is playing for you since you missed your turn."
BACK_FORM = re.compile(r'action="/games/[^/"]+/back"')


def autopilot_clock(until: str = "return") -> dict:
    """A per-move clock of a minute whose timeouts hand the seat to a random bot."""
    return {
        "type": "per-move",
        "seconds": 60,
        "timeout_policy": "autopilot",
        "autopilot": {"kind": "random", "level": 1},
        "autopilot_until": until,
    }


def held_game(app, client, until: str = "return") -> dict:
    """Create a Space Worm game of two people under the autopilot policy; seat 0 moves
    at once, seat 1 misses its deadlines until the clock sweep hands it to the bot
    (autopilot-on, then the bot's move). Return the creation answer."""
    made = bot_game(client, "space-worm", [None, None], clock=autopilot_clock(until))
    game_id, first = made["id"], made["seats"][0]["token"]
    now = utcnow()
    step = 1
    while not events(app, game_id, "autopilot-on"):
        assert step < 200, "the autopilot never took seat 1"
        game = drive(app, game_id)
        if 0 in game.to_act:
            legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(first)).json
            client.post(
                f"/v1/games/{game_id}/moves", headers=auth(first), json={"move": legal["moves"][0]}
            )
            continue
        sweep(app, after(now, 120 * step))
        step += 1
    assert summary(client, game_id)["players"][1]["autopilot"]["active"] is True
    return made


def back_fields(text: str) -> dict:
    """Return the fields of the page's "I'm back" form."""
    form = text[BACK_FORM.search(text).start() :]
    form = form[: form.index("</form>")]
    return {
        "csrf_token": CSRF.search(form).group(1),
        "key": re.search(r'name="key" value="([^"]+)"', form).group(1),
    }


def test_only_the_held_seats_player_sees_the_notice_and_im_back(own_app):
    """Given seat 1 held by the autopilot, its player's page says so in words and has
    the "I'm back" button; seat 0's page and a spectator's have neither; the log
    tells the bot's move for P1 from a move of P1's own."""
    client = own_app.test_client()
    game_id = held_game(own_app, client)["id"]
    assert NOTICE not in page(client, game_id) and not BACK_FORM.search(page(client, game_id))
    other = own_app.test_client()
    open_seat(other, own_app, game_id, 0)
    text = page(other, game_id)
    assert 'data-seat="0"' in text and NOTICE not in text and not BACK_FORM.search(text)
    open_seat(client, own_app, game_id, 1)
    text = page(client, game_id)
    assert NOTICE in text and "Take your seat back to play yourself" in text
    assert BACK_FORM.search(text) and "I'm back</button>" in text
    assert "P1 missed the deadline: a bot plays for them until they are back." in text
    log = text[text.index('<ol class="log">') :]
    assert re.search(r"<li>P1&#39;s bot [^<]+ \(by the autopilot: the deadline passed\)\.", log)
    assert re.search(r"<li>P0 [^<]+\.</li>", log) and not re.search(r"<li>P0[^<]*bot", log)


def test_im_back_frees_the_seat_and_a_second_one_says_why(own_app):
    """Given seat 1 held by the autopilot, "I'm back" from its page takes it back
    (autopilot-off, reason back; the seat no longer held) and the page says so; a
    second "I'm back" (a new form key) is a page message, never a 500; a form without
    its CSRF token records nothing."""
    client = own_app.test_client()
    game_id = held_game(own_app, client)["id"]
    open_seat(client, own_app, game_id, 1)
    fields = back_fields(page(client, game_id))
    refused = client.post(f"/games/{game_id}/back", data={"key": fields["key"]})
    assert refused.status_code == 400 and not events(own_app, game_id, "autopilot-off")

    answer = client.post(f"/games/{game_id}/back", data=fields)
    assert answer.status_code == 303 and answer.location.endswith(f"/games/{game_id}")
    [off] = events(own_app, game_id, "autopilot-off")
    assert off.seat == 1 and off.payload["reason"] == "back"
    assert summary(client, game_id)["players"][1]["autopilot"]["active"] is False
    text = page(client, game_id)
    assert "Welcome back: the bot no longer plays for you" in text
    assert NOTICE not in text and not BACK_FORM.search(text)
    assert "P1 is back: the bot no longer plays for them." in text

    again = client.post(
        f"/games/{game_id}/back", data={**fields, "key": "b" + "0" * 31}, follow_redirects=True
    )
    assert again.status_code == 200
    assert "No bot is playing for you now: your seat is already yours." in again.text
    assert len(events(own_app, game_id, "autopilot-off")) == 1


def test_im_back_needs_the_seat_and_the_autopilot_to_the_end_has_no_button(own_app):
    """Given a seat the autopilot plays to the end, its page says so without a button,
    and an "I'm back" posted anyway is a page message (the service refuses:
    autopilot-holds-seat); a browser holding no seat is told to open it."""
    client = own_app.test_client()
    game_id = held_game(own_app, client, until="end")["id"]
    open_seat(client, own_app, game_id, 1)
    text = page(client, game_id)
    assert "plays your seat to the end of this game" in text and not BACK_FORM.search(text)
    csrf = CSRF.search(text).group(1)
    answer = client.post(f"/games/{game_id}/back", data={"csrf_token": csrf, "key": "b" + "1" * 31})
    assert answer.status_code == 303
    shown = page(client, game_id)
    assert "Your seat was not taken back: The autopilot plays this seat to the end" in shown
    assert not events(own_app, game_id, "autopilot-off")
    stranger = own_app.test_client()
    csrf = CSRF.search(page(stranger, game_id)).group(1)
    answer = stranger.post(
        f"/games/{game_id}/back",
        data={"csrf_token": csrf, "key": "b" + "2" * 31},
        follow_redirects=True,
    )
    assert answer.status_code == 200 and "Open your seat first" in answer.text
