"""The web pages (issue 12): signed seat links and the session cookie, CSRF, stale
forms, double clicks, the Content-Security-Policy, what a seat and a spectator see, the
public list, and the verification after the end. Real app, real SQLite, Flask's test
client as the browser (the browser itself is in tests/e2e/test_browser.py)."""

from __future__ import annotations

import html
import json
import re
from datetime import timedelta

import pytest
import time_machine

import engines
from arbiter.accounts.links import seat_key
from arbiter.models.timestamps import utcnow
from tests.conftest import make_app
from tests.helpers import auth, event_count, new_game, play_out, summary, until_decision

CSRF = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
MOVE_BUTTON = re.compile(
    r'<button type="submit" name="move" value="([^"]+)"'
    r'|<option value="([^"]+)"'
)


def open_seat(client, app, game_id: str, seat: int):
    """Follow seat ``seat``'s signed link as a browser would; return the answer."""
    with app.app_context():
        key = seat_key(game_id, seat)
    return client.get(f"/games/{game_id}/open?key={key}")


def page(client, game_id: str) -> str:
    """Return the game page's HTML."""
    answer = client.get(f"/games/{game_id}")
    assert answer.status_code == 200
    return answer.get_data(as_text=True)


def form_fields(text: str) -> dict:
    """Return the hidden fields of the move form of a page."""
    form = text[text.index('class="move-form"') :]
    return {
        "csrf_token": CSRF.search(form).group(1),
        "expected_version": re.search(r'name="expected_version" value="(\d+)"', form).group(1),
        "key": re.search(r'name="key" value="([^"]+)"', form).group(1),
        "move": html.unescape([g for g in MOVE_BUTTON.search(form).groups() if g][0]),
    }


def seat_to_move(client, app, engine: str = "space-worm", players: int = 2):
    """Return ``(game id, tokens, seat)`` with the seat to move holding the browser."""
    game_id, tokens = new_game(client, engine, players)
    seat = until_decision(client, app, game_id)["to_act"][0]
    assert open_seat(client, app, game_id, seat).status_code == 303
    return game_id, tokens, seat


def test_a_signed_link_opens_the_seat_and_sets_a_safe_cookie(client, app) -> None:
    """The link of a turn mail sets an HttpOnly, SameSite=Lax session cookie and sends
    the browser to the page without the key in the address; the page is the seat's."""
    game_id, _ = new_game(client, "space-worm", 2)
    answer = open_seat(client, app, game_id, 1)
    assert answer.status_code == 303
    assert answer.headers["Location"] == f"/games/{game_id}"
    cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
    assert "You are playing as P1" in page(client, game_id)


def test_the_cookie_is_secure_in_production(tmp_path) -> None:
    """With an https BASE_URL (production), the session cookie is also Secure."""
    app = make_app(f"sqlite:///{tmp_path / 'p.sqlite3'}", BASE_URL="https://arbiter.example")
    client = app.test_client()
    game_id, _ = new_game(client, "space-worm", 2)
    assert "Secure" in open_seat(client, app, game_id, 0).headers["Set-Cookie"]


def test_config_makes_the_cookie_secure_for_an_https_base_url(tmp_path) -> None:
    """``config.flask_config`` turns SESSION_COOKIE_SECURE on exactly for an https BASE_URL."""
    from arbiter.config import flask_config
    from arbiter.settings import Settings

    def secure(base_url):
        env = {"BASE_URL": base_url, "SECRET_KEY": "k"}
        return flask_config(Settings.from_env(env, str(tmp_path)))["SESSION_COOKIE_SECURE"]

    assert secure("https://a.example")
    assert not secure("http://127.0.0.1:8000")


@pytest.mark.parametrize("mangle", [lambda k: k[:-3] + "abc", lambda k: "x" + k, lambda k: ""])
def test_a_forged_link_is_refused(client, app, mangle) -> None:
    """A link whose key was altered or cut is refused (403) and opens no seat."""
    game_id, _ = new_game(client, "space-worm", 2)
    with app.app_context():
        key = mangle(seat_key(game_id, 0))
    answer = client.get(f"/games/{game_id}/open?key={key}")
    assert answer.status_code == 403
    assert "not valid" in answer.get_data(as_text=True)
    assert "You are watching" in page(client, game_id)


def test_a_link_for_another_game_is_refused(client, app) -> None:
    """A valid key of game A does not open game B."""
    game_a, _ = new_game(client, "space-worm", 2)
    game_b, _ = new_game(client, "space-worm", 2)
    with app.app_context():
        key = seat_key(game_a, 0)
    assert client.get(f"/games/{game_b}/open?key={key}").status_code == 403
    assert "You are watching" in page(client, game_b)


def test_an_expired_link_is_refused(client, app) -> None:
    """Past WEB_LINK_SECONDS (30 days by default) a link is refused and says so."""
    game_id, _ = new_game(client, "space-worm", 2)
    with app.app_context():
        key = seat_key(game_id, 0)
    with time_machine.travel(utcnow() + timedelta(days=31)):
        answer = client.get(f"/games/{game_id}/open?key={key}")
    assert answer.status_code == 403
    assert "expired" in answer.get_data(as_text=True)


def test_a_move_by_button_is_recorded_once_even_when_sent_twice(client, app) -> None:
    """Pressing a move button records it; the same form sent again (a double click)
    records nothing more and says the move was recorded."""
    game_id, _, seat = seat_to_move(client, app)
    before = event_count(app, game_id)
    fields = form_fields(page(client, game_id))
    first = client.post(f"/games/{game_id}/move", data=fields)
    second = client.post(f"/games/{game_id}/move", data=fields)
    assert first.status_code == second.status_code == 303
    assert event_count(app, game_id) == before + 1
    moves = [
        e for e in client.get(f"/v1/games/{game_id}/events").json["events"] if e["kind"] == "move"
    ]
    assert len(moves) == 1 and moves[0]["seat"] == seat
    assert moves[0]["payload"]["move"] == json.loads(fields["move"])
    assert "Move recorded" in page(client, game_id)


def test_a_form_without_its_csrf_token_records_nothing(client, app) -> None:
    """A move posted without the CSRF token (or with a wrong one) is refused with 400
    and a sentence; nothing is written."""
    game_id, _, _ = seat_to_move(client, app)
    fields = form_fields(page(client, game_id))
    before = event_count(app, game_id)
    for token in (None, "forged"):
        data = {k: v for k, v in fields.items() if k != "csrf_token"}
        if token:
            data["csrf_token"] = token
        answer = client.post(f"/games/{game_id}/move", data=data)
        assert answer.status_code == 400
        assert "nothing was recorded" in answer.get_data(as_text=True)
    assert event_count(app, game_id) == before


def test_a_stale_form_says_the_game_moved_on(client, app) -> None:
    """A form drawn at an old version (the game moved since) records nothing and the
    page says the game moved on, showing the new state."""
    game_id, tokens, seat = seat_to_move(client, app)
    fields = form_fields(page(client, game_id))
    legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[seat])).json
    assert (
        client.post(
            f"/v1/games/{game_id}/moves",
            headers=auth(tokens[seat]),
            json={"move": legal["moves"][-1]},
        ).status_code
        == 201
    )
    until_decision(client, app, game_id)
    before = event_count(app, game_id)
    answer = client.post(f"/games/{game_id}/move", data=fields, follow_redirects=True)
    text = answer.get_data(as_text=True)
    assert "The game moved on" in text and "not recorded" in text
    assert f'data-version="{summary(client, game_id)["version"]}"' in text
    assert event_count(app, game_id) == before


def test_an_old_form_sent_again_with_another_move_says_the_game_moved_on(client, app) -> None:
    """A page's form used for a move, then sent again (its old key and version) with
    another move, records nothing and the page says the game moved on, without
    Idempotency-Key jargon."""
    game_id, tokens, seat = seat_to_move(client, app)
    fields = form_fields(page(client, game_id))
    legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[seat])).json
    other = next(m for m in legal["moves"] if m != json.loads(fields["move"]))
    assert client.post(f"/games/{game_id}/move", data=fields).status_code == 303
    until_decision(client, app, game_id)
    before = event_count(app, game_id)
    answer = client.post(
        f"/games/{game_id}/move", data=dict(fields, move=json.dumps(other)), follow_redirects=True
    )
    text = answer.get_data(as_text=True)
    assert "The game moved on" in text and "not recorded" in text
    assert "Idempotency-Key" not in text
    assert event_count(app, game_id) == before


def test_a_move_in_notation_and_an_unreadable_one(client, app) -> None:
    """Text in the game's notation is read by the engine; unreadable text is refused
    with the engine's sentence and nothing recorded."""
    game_id, tokens, seat = seat_to_move(client, app)
    fields = form_fields(page(client, game_id))
    text = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[seat])).json[
        "notation"
    ][0]
    bad = dict(fields, move="", text="fly to the moon", key=fields["key"] + "x")
    before = event_count(app, game_id)
    answer = client.post(f"/games/{game_id}/move", data=bad, follow_redirects=True)
    assert "Move not recorded" in answer.get_data(as_text=True)
    assert event_count(app, game_id) == before
    good = dict(fields, move="", text=text)
    answer = client.post(f"/games/{game_id}/move", data=good, follow_redirects=True)
    assert f"Move recorded: {text}." in answer.get_data(as_text=True)


def test_a_spectator_cannot_move(client, app) -> None:
    """Without a seat, the page has no move form, and a posted move is refused."""
    game_id, _ = new_game(client, "space-worm", 2)
    until_decision(client, app, game_id)
    text = page(client, game_id)
    assert 'class="move-form"' not in text and "You are watching" in text
    csrf = CSRF.search(text).group(1)  # the seat-token form's
    before = event_count(app, game_id)
    answer = client.post(
        f"/games/{game_id}/move",
        follow_redirects=True,
        data={"csrf_token": csrf, "expected_version": 3, "key": "k" * 20, "move": "{}"},
    )
    assert "Open your seat first" in answer.get_data(as_text=True)
    assert event_count(app, game_id) == before


def test_a_seat_token_opens_the_seat(client, app) -> None:
    """A game made over REST without mail: pasting the seat token opens the seat; a
    wrong token says so."""
    game_id, tokens = new_game(client, "space-worm", 2)
    csrf = CSRF.search(page(client, game_id)).group(1)
    wrong = client.post(
        f"/games/{game_id}/token", data={"csrf_token": csrf, "token": "nope"}, follow_redirects=True
    )
    assert "not a seat token of this game" in wrong.get_data(as_text=True)
    right = client.post(
        f"/games/{game_id}/token",
        data={"csrf_token": csrf, "token": tokens[1]},
        follow_redirects=True,
    )
    assert 'data-seat="1"' in right.get_data(as_text=True)


def test_dark_horse_pages_never_show_another_seats_cards(client, app) -> None:
    """At every step of a Dark Horse game the page of seat 0 has none of the other
    seats' secrets (hand and Goal card ids), and the spectator's page none of anyone's
    (rules/dark-horse.md, "Setup" 1 and 4)."""
    import random

    from arbiter.extensions import db
    from arbiter.models import Game

    game_id, tokens = new_game(client, "dark-horse", 3)
    engine = engines.get("dark-horse")
    seat_browser, spectator = app.test_client(), app.test_client()
    assert open_seat(seat_browser, app, game_id, 0).status_code == 303
    rng = random.Random(4)
    steps = 0
    while until_decision(client, app, game_id)["status"] == "active" and steps < 40:
        with app.app_context():
            state = db.session.get(Game, game_id).state
            others = {s: engine.secrets(state, s) for s in (1, 2)}
            mine = engine.secrets(state, 0)
        seat_page, public = page(seat_browser, game_id), page(spectator, game_id)
        for secret in others[1] + others[2]:
            assert secret not in seat_page and secret not in public
        for secret in mine:
            assert secret not in public
        s = summary(client, game_id)["to_act"][0]
        legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[s])).json
        client.post(
            f"/v1/games/{game_id}/moves",
            headers=auth(tokens[s]),
            json={"move": rng.choice(legal["moves"]), "expected_version": legal["version"]},
        )
        steps += 1
    assert steps >= 10


def test_pages_carry_a_strict_csp_and_no_inline_script(client, app) -> None:
    """Every page is served with a Content-Security-Policy that allows scripts only from
    the site itself, and has no inline script or style; the board is inline SVG with a
    title and a text alternative."""
    game_id, _, _ = seat_to_move(client, app, "star-maps", 2)
    for url in (f"/games/{game_id}", "/games"):
        answer = client.get(url)
        csp = answer.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "default-src 'none'" in csp
        assert "unsafe-inline" not in csp
        text = answer.get_data(as_text=True)
        assert "<" not in re.search(r"<title>(.*?)</title>", text, re.S).group(1)
        if url != "/games":  # the game page's <main> holds no tag in its attributes
            assert re.search(r'<main [^>]*data-status="[a-z]+"[^>]*>', text)
        scripts = re.findall(r"<script[^>]*>", text)  # a JSON data block runs nothing
        assert all('src="' in t or 'type="application/json"' in t for t in scripts)
        assert "style=" not in text and "<style" not in text
        assert not re.search(r"<[^>]*\son[a-z]+=", text)  # no inline event handlers
    text = page(client, game_id)
    assert re.search(
        r'<svg [^>]*role="(img|group)" aria-labelledby="board-title board-desc"', text
    )  # group: the picture holds pick links on the seat's turn
    assert "<desc" in text and "The board in words" in text


def test_the_public_list_shows_games_and_filters(client, app) -> None:
    """/games lists games with their players and a link to each page; ?status= filters."""
    game_id, _ = new_game(client, "dark-horse", 3)
    text = client.get("/games").get_data(as_text=True)
    assert f'href="/games/{game_id}"' in text and "P0, P1, P2" in text
    over = client.get("/games?status=over").get_data(as_text=True)
    assert f'href="/games/{game_id}"' not in over
    assert client.get("/games?status=nonsense").status_code == 400
    assert client.get("/games/nope").status_code == 404


def test_after_the_end_the_page_shows_scores_seed_and_verification(client, app) -> None:
    """A finished game's page gives the ranking with scores, the revealed seed and the
    verification of the record (every roll re-derived, every move replayed)."""
    game_id, tokens = new_game(client, "space-worm", 2)
    final = play_out(client, app, game_id, tokens, seed=3)
    text = page(client, game_id)
    assert "The game is over" in text and "Revealed seed" in text
    assert "Verified: the seed matches the commitment" in text
    for s, score in enumerate(final["result"]["scores"]):
        assert f"P{s}: {score}</li>" in text


def test_turn_mails_carry_the_signed_link_of_the_seat(client, app) -> None:
    """Every "your turn" mail links the seat's page with a signed key that opens
    exactly that seat."""
    import sqlalchemy as sa

    from arbiter.extensions import db
    from arbiter.models import OutboxMail

    game_id, _ = new_game(client, "space-worm", 2, emails=True)
    until_decision(client, app, game_id)
    with app.app_context():
        mails = db.session.scalars(
            sa.select(OutboxMail).where(
                OutboxMail.game_id == game_id, OutboxMail.dedupe_key.like("turn:%")
            )
        ).all()
        links = [
            (m.seat, re.search(r"http://arbiter.test(/games/\S+)", m.body).group(1)) for m in mails
        ]
    assert links
    for seat, link in links:
        browser = app.test_client()
        assert browser.get(link).status_code == 303
        assert f'data-seat="{seat}"' in page(browser, game_id)


def test_creation_answers_carry_each_seats_link(client, app) -> None:
    """The creation answer gives each seat its signed page link (shown once, like the
    token)."""
    answer = client.post(
        "/v1/games", json={"engine": "worms", "players": [{"name": "Ann"}, {"name": "Bob"}]}
    ).json
    for seat in answer["seats"]:
        browser = app.test_client()
        assert browser.get(seat["link"].replace("http://arbiter.test", "")).status_code == 303
        assert f'data-seat="{seat["seat"]}"' in page(browser, answer["id"])


def test_a_live_update_leaves_the_pages_messages_alone(client, app) -> None:
    """The page's own refetch (a live update, app.js) does not take the message meant
    for the page the browser navigates to after a move."""
    game_id, _, _ = seat_to_move(client, app)
    fields = form_fields(page(client, game_id))
    client.post(f"/games/{game_id}/move", data=fields)
    live = client.get(f"/games/{game_id}", headers={"X-Arbiter-Live-Update": "1"})
    assert "Move recorded" not in live.get_data(as_text=True)
    assert "Move recorded" in page(client, game_id)


def test_the_policy_covers_pages_and_pictures_only(client, app) -> None:
    """The board picture carries the pages' CSP (an SVG opened alone runs no script);
    API answers carry nosniff and no Referer but keep their own pages' scripts working
    (the sign-in confirmation page of /v1/auth has one)."""
    game_id, _ = new_game(client, "star-maps", 2)
    until_decision(client, app, game_id)
    picture = client.get(f"/v1/games/{game_id}/board.svg")
    assert "default-src 'none'" in picture.headers["Content-Security-Policy"]
    api = client.get(f"/v1/games/{game_id}")
    assert "Content-Security-Policy" not in api.headers
    assert api.headers["X-Content-Type-Options"] == "nosniff"
    assert api.headers["Referrer-Policy"] == "no-referrer"


def test_a_place_picked_on_the_board_narrows_the_moves(client, app) -> None:
    """On a Star Maps page, the boxes a legal move writes in are links; following one
    lists only the moves that name that box, and the page says so."""
    from arbiter.web.board_picks import names

    game_id, _, _ = seat_to_move(client, app, "star-maps", 2)
    text = page(client, game_id)
    picks = re.findall(r'<a class="pick" href="\?pick=([^"#]+)#moves-h"', text)
    assert picks
    from urllib.parse import unquote

    pick = unquote(picks[0])
    narrowed = client.get(f"/games/{game_id}?pick={picks[0]}").get_data(as_text=True)
    assert "picked on the board" in narrowed
    notations = r'(?:class="move"|<option value="[^"]+") title="([^"]+)">'  # words show
    shown = [html.unescape(t) for t in re.findall(notations, narrowed)]
    assert shown and all(names(pick, t) for t in shown)


def named(view: dict, players: int) -> dict:
    """Return a view with the players' names as the page gives them (P0, P1...)."""
    return {**view, "names": [f"P{s}" for s in range(players)]}


def words(text: str) -> list[str]:
    """Return the lines of a page's "board in words" list."""
    block = re.search(r'<ul class="words">(.*?)</ul>', text, re.S).group(1)
    return [html.unescape(t) for t in re.findall(r"<li>(.*?)</li>", block, re.S)]


def test_another_seats_link_shows_only_that_seats_view(client, app) -> None:
    """A browser holding seat 0 that follows seat 1's link (a forwarded turn mail) is
    seat 1 from then on: the page is seat 1's view, with none of seat 0's or seat 2's
    cards (rules/dark-horse.md, "Setup" 1 and 4)."""
    from arbiter.extensions import db
    from arbiter.models import Game

    game_id, tokens = new_game(client, "dark-horse", 3)
    until_decision(client, app, game_id)
    engine = engines.get("dark-horse")
    with app.app_context():
        state = db.session.get(Game, game_id).state
    assert open_seat(client, app, game_id, 0).status_code == 303
    assert "You are playing as P0" in page(client, game_id)
    assert open_seat(client, app, game_id, 1).status_code == 303
    text = page(client, game_id)
    assert "You are playing as P1" in text and "as P0." not in text
    hidden = engine.secrets(state, 0) + engine.secrets(state, 2) + engine.secrets(state, None)
    assert hidden and not [s for s in hidden if s in text]
    view = client.get(f"/v1/games/{game_id}/view", headers=auth(tokens[1])).json["view"]
    assert words(text) == engine.board_text(named(view, 3))


@pytest.mark.parametrize("engine_id", list(engines.ENGINE_MODULES))
def test_the_board_in_words_is_the_readers_view(client, app, engine_id) -> None:
    """The text alternative of the board is the engine's board in words of exactly the
    reader's view: the seat's own for a seat, the public one for a spectator."""
    engine = engines.get(engine_id)
    game_id, tokens, seat = seat_to_move(client, app, engine_id, 2)
    mine = client.get(f"/v1/games/{game_id}/view", headers=auth(tokens[seat])).json["view"]
    public = client.get(f"/v1/games/{game_id}/view").json["view"]
    text = page(client, game_id)
    assert words(text) == engine.board_text(named(mine, 2)) and words(text)
    assert re.search(r'<svg [^>]*aria-labelledby="board-title board-desc"', text)
    assert words(page(app.test_client(), game_id)) == engine.board_text(named(public, 2))


def test_the_deadline_is_shown_in_the_seats_zone(client, app) -> None:
    """With a turn clock, the page gives the deadline in the seat's own time zone (and
    UTC), marked up for the browser to show in the viewer's zone; a spectator reads it
    in UTC."""
    answer = client.post(
        "/v1/games",
        json={
            "engine": "space-worm",
            "clock": {"type": "per-move", "seconds": 86400},
            "players": [{"name": "Ann", "tz": "Asia/Tokyo"}, {"name": "Bob", "tz": "Asia/Tokyo"}],
        },
    )
    assert answer.status_code == 201, answer.json
    game_id = answer.json["id"]
    until_decision(client, app, game_id)
    assert open_seat(client, app, game_id, 0).status_code == 303
    mine = re.search(
        r'<time class="local" datetime="([^"]+)">([^<]+)</time>', page(client, game_id)
    )
    assert mine, "no deadline on the page"
    assert mine.group(1).endswith("Z") and "JST" in mine.group(2) and "UTC)" in mine.group(2)
    public = re.search(
        r'<time class="local" datetime="[^"]+">([^<]+)</time>', page(app.test_client(), game_id)
    )
    assert public.group(1).endswith("UTC") and "JST" not in public.group(1)
