"""Account pages (issue 12 on issue 10's accounts): sign-in by a mailed link into the
browser's session, "my games" with my turn first, the game page of an account's seat,
my tokens (made once, listed, revoked), signing out."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.models import OutboxMail
from tests.helpers import auth, sign_in, until_decision

CSRF = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')


def csrf(text: str) -> str:
    """Return the first CSRF token of a page."""
    return CSRF.search(text).group(1)


def web_link(app, email: str) -> str:
    """Return the path of the latest web sign-in link mailed to ``email``."""
    with app.app_context():
        mail = db.session.scalars(
            sa.select(OutboxMail).where(OutboxMail.to_addr == email).order_by(OutboxMail.id.desc())
        ).first()
        url = re.search(r"https?://\S+/sign-in/confirm\?\S+", mail.body).group(0)
    parts = urlparse(url)
    return f"{parts.path}?{parts.query}"


def browser_sign_in(client, app, email: str, name: str = "Ann") -> str:
    """Sign a browser in through the web pages; return the "my games" page."""
    form = client.get("/sign-in").get_data(as_text=True)
    sent = client.post("/sign-in", data={"csrf_token": csrf(form), "email": email, "name": name})
    assert sent.status_code == 200 and "Check your mail" in sent.get_data(as_text=True)
    link = web_link(app, email)
    page = client.get(link).get_data(as_text=True)
    assert "Sign in as" in page
    query = parse_qs(urlparse(link).query)
    done = client.post(
        "/sign-in/confirm",
        data={"csrf_token": csrf(page), "email": query["email"][0], "token": query["token"][0]},
        follow_redirects=True,
    )
    assert done.status_code == 200
    return done.get_data(as_text=True)


def test_sign_in_by_mailed_link_opens_my_games(client, app) -> None:
    """The mailed link opens a page whose button signs the browser in (opening it alone
    spends nothing); then "my games" shows the account's games."""
    text = browser_sign_in(client, app, "ann@example.org")
    assert "Signed in as ann@example.org" in text and "My games" in text
    assert text.count("Signed in as") == 1  # issue 23: said once, not again by the message


def test_the_link_page_alone_spends_nothing(client, app) -> None:
    """Opening the mailed link (a mail scanner) does not use it: the API can still."""
    form = client.get("/sign-in").get_data(as_text=True)
    client.post("/sign-in", data={"csrf_token": csrf(form), "email": "bob@example.org"})
    link = web_link(app, "bob@example.org")
    client.get(link)
    query = parse_qs(urlparse(link).query)
    used = client.post(
        "/v1/auth/sessions", json={"email": query["email"][0], "token": query["token"][0]}
    )
    assert used.status_code == 201


def test_a_used_or_forged_sign_in_link_is_refused(client, app) -> None:
    """A sign-in link used once, or with a forged token, is refused with a sentence and
    signs nobody in."""
    browser_sign_in(client, app, "ann@example.org")
    link = web_link(app, "ann@example.org")
    other = app.test_client()
    page = other.get(link).get_data(as_text=True)
    query = parse_qs(urlparse(link).query)
    again = other.post(
        "/sign-in/confirm",
        data={"csrf_token": csrf(page), "email": query["email"][0], "token": query["token"][0]},
    )
    assert again.status_code == 409 and "already been used" in again.get_data(as_text=True)
    forged = other.post(
        "/sign-in/confirm",
        data={"csrf_token": csrf(page), "email": query["email"][0], "token": "x"},
    )
    assert forged.status_code == 400
    assert other.get("/me/games").status_code == 303  # to the sign-in page


def test_my_games_put_my_turn_first_and_open_my_seat(client, app) -> None:
    """Of two games, the one where a seat of mine owes a move is listed first, and its
    page is my seat's page without any link or token."""
    token = sign_in(client, app, "ann@example.org", "Ann")
    games = []
    for _ in range(2):
        answer = client.post(
            "/v1/games",
            headers=auth(token),
            json={
                "engine": "space-worm",
                "players": [{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob"}],
            },
        )
        assert answer.status_code == 201, answer.json
        games.append(answer.json["id"])
        until_decision(client, app, answer.json["id"])
    # in the second game, seat 0 (Ann) moves once, so that Bob is to move there
    legal = client.get(f"/v1/games/{games[1]}/legal-moves", headers=auth(token)).json
    if legal["moves"]:
        client.post(
            f"/v1/games/{games[1]}/moves", headers=auth(token), json={"move": legal["moves"][0]}
        )
    browser = app.test_client()
    text = browser_sign_in(browser, app, "ann@example.org")
    assert text.index(games[0]) < text.index(games[1])
    assert "my turn" in text
    page = browser.get(f"/games/{games[0]}").get_data(as_text=True)
    assert "You are playing as Ann" in page


def test_tokens_are_made_shown_once_and_revoked(client, app) -> None:
    """A token made on the page is shown once and works on the API; revoked on the
    page, it opens nothing."""
    browser_sign_in(client, app, "ann@example.org")
    page = client.get("/me/tokens").get_data(as_text=True)
    made = client.post(
        "/me/tokens", data={"csrf_token": csrf(page), "name": "bot", "scopes": ["games:read"]}
    ).get_data(as_text=True)
    plain = re.search(r'<code class="token">(arb_[^<]+)</code>', made).group(1)
    assert client.get("/v1/me/games", headers=auth(plain)).status_code == 200
    listing = client.get("/me/tokens").get_data(as_text=True)
    assert plain not in listing  # shown once
    ids = re.findall(r"/me/tokens/([0-9a-f]+)/revoke", listing)
    names = re.findall(r"<tr>\s*<td>([^<]+)</td>", listing)
    bot = ids[names.index("bot")]
    client.post(f"/me/tokens/{bot}/revoke", data={"csrf_token": csrf(listing), "confirm": "yes"})
    assert client.get("/v1/me", headers=auth(plain)).status_code == 401


def test_signing_out_revokes_the_browsers_token(client, app) -> None:
    """Signing out ends the session: "my games" asks to sign in again."""
    text = browser_sign_in(client, app, "ann@example.org")
    client.post("/sign-out", data={"csrf_token": csrf(text)})
    assert client.get("/me/games").status_code == 303


def test_account_pages_need_a_session(client) -> None:
    """Without signing in, the account pages send the browser to the sign-in page."""
    for url in ("/me/games", "/me/tokens"):
        answer = client.get(url)
        assert answer.status_code == 303 and answer.headers["Location"].endswith("/sign-in")
