"""The lobby's mail commands (issue 23, item 1): ``join <game>`` in a reply takes a
seat at a public table as the replying seat's account; ``rematch`` in a reply to a
finished game starts its rematch; both answered in the thread."""

from __future__ import annotations

import re

from arbiter.extensions import db
from arbiter.models import Game
from tests.arbiter.mailin.support import answer_to, answers, started
from tests.helpers import auth, inviter, new_game, until_decision


def _table(client, app) -> str:
    made = client.post(
        "/v1/games",
        json={
            "engine": "dark-horse",
            "players": [{"name": "Host", "email": "host@example.org"}, {"open": True}],
        },
        headers=auth(inviter(client, app)),
    )
    assert made.status_code == 201, made.json
    return made.json["id"]


def test_join_by_reply_takes_the_seat_and_starts_the_table(app, client):
    game_id = started(client, app)
    table = _table(client, app)
    outcome, code = answer_to(app, game_id, 0, f"join {table}")
    assert code == "answered"
    body = answers(app)[-1].body
    assert "You took a seat at the table of Dark Horse with Host, as p0." in body
    assert "The table is full" in body
    assert "join " + table in body  # the player's own line, quoted; never in the answer's words
    assert table not in body.replace(f"> join {table}", "")
    with app.app_context():
        game = db.session.get(Game, table)
        assert game.status == "active" and game.seats[1].email == "p0@example.org"
    answer_to(app, game_id, 0, f"join {table}")
    assert "You already have a seat at this table." in answers(app)[-1].body


def test_rematch_by_reply_after_the_end(app, client):
    game_id, tokens = new_game(client, emails=True)
    until_decision(client, app, game_id)
    answer_to(app, game_id, 0, "rematch")
    assert "A rematch follows a finished game" in answers(app)[-1].body
    assert client.post(f"/v1/games/{game_id}/resign", headers=auth(tokens[1])).status_code == 201
    with app.app_context():
        assert db.session.get(Game, game_id).status == "over"
    answer_to(app, game_id, 0, "rematch")
    body = answers(app)[-1].body
    assert "The rematch: Space Worm with P1." in body
    new_id = re.search(r"Its page: \S+/games/([0-9a-f]+)$", body, re.M).group(1)
    assert new_id not in body.replace(f"/games/{new_id}", "")
    with app.app_context():
        new = db.session.get(Game, new_id)
        assert [s.email for s in new.seats] == ["p0@example.org", "p1@example.org"]
