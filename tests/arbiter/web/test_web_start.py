"""Starting and joining games from the pages (issue 23, items 1 and 6), through
Flask's test client: the new-game form, the lobby, taking a seat, the invitation page
(plain forms; after Accept the game), rematch, and the confirmation step before
resigning, revoking a token, leaving a tournament or deleting the account."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest
import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.models import Account, ApiToken, Game, Invitation, OutboxMail
from tests.arbiter.web.test_web_accounts import browser_sign_in, csrf
from tests.helpers import roll


def _create(client, engine="space-worm", **fields):
    """Post the new-game form of ``engine`` with ``fields``; return the answer."""
    page = client.get(f"/games/new?engine={engine}").get_data(as_text=True)
    key = re.search(r'name="key" value="([^"]+)"', page).group(1)
    data = {"csrf_token": csrf(page), "engine": engine, "key": key, **fields}
    return client.post("/games/new", data=data)


def _game_id(answer) -> str:
    assert answer.status_code == 303, answer.get_data(as_text=True)
    return answer.headers["Location"].rsplit("/", 1)[1]


def _invitation_path(app, address: str) -> str:
    """Return the path of the invitation page mailed to ``address``."""
    with app.app_context():
        mail = db.session.scalars(
            sa.select(OutboxMail).where(
                OutboxMail.to_addr == address, OutboxMail.dedupe_key.like("invite:%")
            )
        ).first()
    url = next(w for w in mail.body.split() if "/v1/invitations/" in w)
    parts = urlparse(url)
    return f"{parts.path}?{parts.query}"


def test_the_new_game_page_needs_a_signed_in_player(client):
    answer = client.get("/games/new")
    assert answer.status_code == 303 and answer.headers["Location"].endswith("/sign-in")


def test_the_form_lists_each_option_with_its_explanation(client, app):
    browser_sign_in(client, app, "host@example.org", "Host")
    pick = client.get("/games/new").get_data(as_text=True)
    assert "Dark Horse" in pick and "Worms" in pick
    page = client.get("/games/new?engine=dark-horse").get_data(as_text=True)
    assert "Dilly dally" in page and "Ant tokens and the black base" in page
    assert "Anyone: an open seat in the lobby" in page and "1 day per move" in page


def test_a_game_with_two_friends_waits_for_them_and_starts_when_they_accept(client, app):
    browser_sign_in(client, app, "host@example.org", "Host")
    made = _create(
        client,
        **{
            "kind-1": "friend",
            "name-1": "Bob",
            "email-1": "bob@example.org",
            "kind-2": "friend",
            "name-2": "Cy",
            "email-2": "cy@example.org",
            "clock": "1d",
            "opt-sheet": "small",
        },
    )
    game_id = _game_id(made)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "it waits for its invited players" in page and "being rolled" not in page
    assert "waits for its invited players" in client.get("/games").get_data(as_text=True)
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game.options["sheet"] == "small" and game.clock["seconds"] == 86400
    for address in ("bob@example.org", "cy@example.org"):
        friend = app.test_client()
        invitation = friend.get(_invitation_path(app, address))
        text = invitation.get_data(as_text=True)
        assert invitation.status_code == 200 and 'class="top"' in text  # a real page
        assert "Host &lt;host@example.org&gt;, who has an account" in text
        token = parse_qs(urlparse(_invitation_path(app, address)).query)["token"][0]
        invitation_id = urlparse(_invitation_path(app, address)).path.rsplit("/", 1)[1]
        accepted = friend.post(
            f"/invitations/{invitation_id}/answer",
            data={"csrf_token": csrf(text), "token": token, "answer": "accept"},
        )
        assert accepted.status_code == 303
        assert accepted.headers["Location"].endswith(f"/games/{game_id}")
        game_page = friend.get(f"/games/{game_id}").get_data(as_text=True)
        assert "You accepted" in game_page and "arb_" not in game_page
        assert "You are playing as" in game_page  # signed in: the seat is theirs
        again = friend.get(_invitation_path(app, address)).get_data(as_text=True)
        assert "you accepted this invitation" in again and "<button" not in again
    with app.app_context():
        assert db.session.get(Game, game_id).status == "active"


def test_a_stranger_takes_the_last_seat_of_a_lobby_table(client, app):
    browser_sign_in(client, app, "host@example.org", "Host")
    game_id = _game_id(_create(client, **{"kind-1": "open", "clock": "3d"}))
    assert "one more player" in client.get(f"/games/{game_id}").get_data(as_text=True)
    stranger = app.test_client()
    lobby = stranger.get("/lobby").get_data(as_text=True)
    assert "Space Worm" in lobby and "3 days per move" in lobby and "Host" in lobby
    assert "<button" not in lobby  # not signed in: a link to sign in instead
    browser_sign_in(stranger, app, "zed@example.org", "Zed")
    lobby = stranger.get("/lobby").get_data(as_text=True)
    taken = stranger.post(f"/lobby/{game_id}/seat", data={"csrf_token": csrf(lobby)})
    assert taken.status_code == 303 and taken.headers["Location"].endswith(game_id)
    page = stranger.get(f"/games/{game_id}").get_data(as_text=True)
    assert "You took a seat as Zed: the table is full and the game starts." in page
    with app.app_context():
        assert db.session.get(Game, game_id).status == "active"
    assert "No table is waiting" in stranger.get("/lobby").get_data(as_text=True)
    late = app.test_client()
    browser_sign_in(late, app, "late@example.org", "Late")
    answer = late.post(
        f"/lobby/{game_id}/seat", data={"csrf_token": csrf(late.get("/me/games").text)}
    )
    assert "no free seat left" in late.get(answer.headers["Location"]).get_data(as_text=True)


def test_resigning_asks_first_and_then_a_rematch_starts(client, app):
    browser_sign_in(client, app, "host@example.org", "Host")
    game_id = _game_id(_create(client, **{"kind-1": "open"}))
    other = app.test_client()
    browser_sign_in(other, app, "zed@example.org", "Zed")
    other.post(f"/lobby/{game_id}/seat", data={"csrf_token": csrf(other.get("/me/games").text)})
    roll(app, game_id)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    key = re.search(r'name="key" value="(r[^"]+)"', page).group(1)
    asked = client.post(f"/games/{game_id}/resign", data={"csrf_token": csrf(page), "key": key})
    text = asked.get_data(as_text=True)
    assert asked.status_code == 200 and "Resign?" in text and "cannot be undone" in text
    with app.app_context():
        assert db.session.get(Game, game_id).status == "active"  # nothing yet
    done = client.post(
        f"/games/{game_id}/resign",
        data={"csrf_token": csrf(text), "key": key, "confirm": "yes"},
    )
    assert done.status_code == 303
    over = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Rematch" in over
    again = client.post(f"/games/{game_id}/rematch", data={"csrf_token": csrf(over)})
    assert again.status_code == 303
    new_id = again.headers["Location"].rsplit("/", 1)[1]
    with app.app_context():
        new = db.session.get(Game, new_id)
        assert new_id != game_id and [s.name for s in new.seats] == ["Host", "Zed"]
        assert new.status == "active"


def test_revoking_a_token_and_deleting_the_account_ask_first(client, app):
    browser_sign_in(client, app, "ann@example.org", "Ann")
    page = client.get("/me/tokens").get_data(as_text=True)
    client.post(
        "/me/tokens", data={"csrf_token": csrf(page), "name": "bot", "scopes": ["games:read"]}
    )
    with app.app_context():
        token = db.session.scalar(sa.select(ApiToken).where(ApiToken.name == "bot"))
    asked = client.post(f"/me/tokens/{token.id}/revoke", data={"csrf_token": csrf(page)})
    assert "Revoke this token?" in asked.get_data(as_text=True)
    with app.app_context():
        assert db.session.get(ApiToken, token.id).revoked_at is None
    client.post(f"/me/tokens/{token.id}/revoke", data={"csrf_token": csrf(page), "confirm": "yes"})
    with app.app_context():
        assert db.session.get(ApiToken, token.id).revoked_at is not None
    mine = client.get("/me/games").get_data(as_text=True)
    asked = client.post("/me/delete", data={"csrf_token": csrf(mine)})
    assert "Delete your account?" in asked.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(sa.select(Account).where(Account.email == "ann@example.org"))
    client.post("/me/delete", data={"csrf_token": csrf(mine), "confirm": "yes"})
    with app.app_context():
        gone = db.session.scalar(sa.select(Account).where(Account.email == "ann@example.org"))
        assert gone is None


def test_blocking_from_the_invitation_page_asks_first(client, app):
    browser_sign_in(client, app, "host@example.org", "Host")
    _game_id(_create(client, **{"kind-1": "friend", "name-1": "Bob", "email-1": "b@example.org"}))
    path = _invitation_path(app, "b@example.org")
    friend = app.test_client()
    text = friend.get(path).get_data(as_text=True)
    token = parse_qs(urlparse(path).query)["token"][0]
    invitation_id = urlparse(path).path.rsplit("/", 1)[1]
    fields = {"csrf_token": csrf(text), "token": token, "answer": "block"}
    asked = friend.post(f"/invitations/{invitation_id}/answer", data=fields)
    assert "Block every invitation?" in asked.get_data(as_text=True)
    with app.app_context():
        assert db.session.get(Invitation, invitation_id).status == "pending"
    friend.post(f"/invitations/{invitation_id}/answer", data={**fields, "confirm": "yes"})
    with app.app_context():
        assert db.session.get(Invitation, invitation_id).status == "declined"


def test_a_bad_form_creates_nothing_and_says_why(client, app):
    browser_sign_in(client, app, "host@example.org", "Host")
    answer = _create(client, **{"kind-1": "friend", "name-1": "Bob"})
    text = answer.get_data(as_text=True)
    assert answer.status_code == 422 and "A friend needs an email address" in text
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Game)) == 0


def _no_game(app) -> bool:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(Game)) == 0


def test_the_form_refuses_what_rest_refuses_field_by_field(client, app):
    """Issue 24 ("bad input gets a clear answer and changes nothing"): the form checks
    players by POST /v1/games's own rules: a bad address, a control character, an
    over-long name, an unknown bot level, an unknown seat kind; each is marked."""
    browser_sign_in(client, app, "host@example.org", "Host")
    answer = _create(
        client,
        engine="dark-horse",
        **{
            "kind-1": "friend",
            "name-1": "Bo\x07b",
            "email-1": "not-an-address",
            "kind-2": "bot",
            "bot-2": "mcts-9",
            "kind-3": "robot",
        },
    )
    text = answer.get_data(as_text=True)
    assert answer.status_code == 422 and "Nothing was created." in text
    assert 'id="name-1-e"' in text and "control or invisible characters" in text
    assert 'id="email-1-e"' in text and "Not a valid email address." in text
    assert 'id="bot-2-e"' in text and "level from 1 to 5" in text
    assert 'id="kind-3-e"' in text and "Choose who plays this seat" in text
    assert _no_game(app)
    long = _create(client, **{"kind-1": "friend", "name-1": "B" * 81, "email-1": "b@example.org"})
    assert long.status_code == 422 and 'id="name-1-e"' in long.text and _no_game(app)


@pytest.mark.parametrize(
    "choice, says",
    [
        (
            "mcts-9",
            "Row 2: a Thinking bot has no level 9: choose how the bot plays: Random, "
            "or Thinking at a level from 1 to 5.",
        ),
        (
            "alphazero",
            "Row 2: there is no bot &#39;alphazero&#39;: choose how the bot plays: "
            "Random, or Thinking at a level from 1 to 5.",
        ),
        ("", "Row 2: choose how the bot plays: Random, or Thinking at a level from 1 to 5."),
        ("mcts", "Row 2: a Thinking bot needs a level: choose how the bot plays"),
    ],
)
def test_a_bad_bot_row_speaks_the_forms_words_and_creates_nothing(client, app, choice, says):
    """Issue 25: a bot row whose strength the form does not offer (or none) is marked
    in the form's own words ("Random", "Thinking"), naming the cause, not the API's
    kinds and levels; no game is made."""
    browser_sign_in(client, app, "host@example.org", "Host")
    answer = _create(client, **{"kind-1": "bot", "bot-1": choice})
    text = answer.get_data(as_text=True)
    assert answer.status_code == 422 and 'id="bot-1-e"' in text and says in text
    assert "one of the kinds" not in text and "mcts" not in text.split('id="bot-1-e"')[1][:300]
    assert _no_game(app)


def test_a_bot_row_with_an_email_is_refused_not_dropped(client, app):
    """Issue 25: an address typed in a bot row is refused (POST /v1/games refuses a bot
    with an email too), never silently dropped; no game is made. Without it the same
    row makes a bot seat."""
    browser_sign_in(client, app, "host@example.org", "Host")
    row = {"kind-1": "bot", "bot-1": "mcts-2", "name-1": "Robo"}
    answer = _create(client, **row, **{"email-1": "robo@example.org"})
    text = answer.get_data(as_text=True)
    assert answer.status_code == 422 and 'id="email-1-e"' in text
    assert "Row 2: a bot has no email address" in text
    assert _no_game(app)
    game_id = _game_id(_create(client, **row))
    players = client.get(f"/v1/games/{game_id}").json["players"]
    assert players[1]["bot"] == {"kind": "mcts", "level": 2}


def test_the_log_says_seats_were_set_and_who_declined(client, app):
    """Issue 23 ("people's language"): a seat named or opened at creation was not
    joined; a declined invitation names who declined. The game page, its list and the
    log say so."""
    browser_sign_in(client, app, "host@example.org", "Host")
    made = _create(
        client,
        engine="dark-horse",
        **{"kind-1": "friend", "name-1": "Bob", "email-1": "b@example.org", "kind-2": "open"},
    )
    game_id = _game_id(made)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "A seat was set for Bob." in page and "A seat was set for Host." in page
    assert "A seat was opened in the lobby for anyone to take." in page
    assert "joined the game" not in page
    game_id = _game_id(
        _create(client, **{"kind-1": "friend", "name-1": "Cy", "email-1": "c@ex.org"})
    )
    path = _invitation_path(app, "c@ex.org")
    friend = app.test_client()
    text = friend.get(path).get_data(as_text=True)
    token = parse_qs(urlparse(path).query)["token"][0]
    friend.post(
        urlparse(path).path.replace("/v1/invitations/", "/invitations/") + "/answer",
        data={"csrf_token": csrf(text), "token": token, "answer": "decline"},
    )
    with app.app_context():
        assert db.session.get(Game, game_id).status == "cancelled"
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Cy declined the invitation" in page and "stayed unfilled" not in page
    assert "Cy declined the invitation" in client.get("/games").get_data(as_text=True)
