"""The daily digest (issue 10, "A daily digest option"): one mail per account listing
every game where it is its turn, sent once when the first game becomes due and not
again until the account has moved or a day has passed."""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa
import time_machine

from arbiter.extensions import db
from arbiter.games import digest
from arbiter.models import OutboxMail
from arbiter.models.timestamps import utcnow
from tests.helpers import auth, sign_in, until_decision


def _mails(app, prefix):
    with app.app_context():
        return list(
            db.session.scalars(
                sa.select(OutboxMail)
                .where(OutboxMail.dedupe_key.startswith(prefix))
                .order_by(OutboxMail.id)
            )
        )


def _sweep(app, at=None):
    with app.app_context():
        return digest.sweep(at)


def _games(client, app, token, count):
    ids = []
    for _ in range(count):
        answer = client.post(
            "/v1/games",
            headers=auth(token),
            json={
                "engine": "space-worm",
                "players": [{"name": "Ann", "email": "ann@example.org"}],
                "clock": {"type": "per-move", "seconds": 3 * 86400},
            },
        )
        ids.append(answer.json["id"])
        until_decision(client, app, ids[-1])
    return ids


def test_a_digest_replaces_the_turn_mails_and_lists_every_due_game(client, app):
    ann = sign_in(client, app, "ann@example.org")
    client.patch("/v1/me", headers=auth(ann), json={"digest": True})
    ids = _games(client, app, ann, 3)
    assert _mails(app, "turn:") == []
    assert _sweep(app) == 1
    [mail] = _mails(app, "digest:")
    assert mail.to_addr == "ann@example.org" and "3 games" in mail.subject
    assert all(game_id in mail.body for game_id in ids) and "deadline" in mail.body
    assert _sweep(app) == 0  # not again the same day without a move


def test_the_next_digest_waits_for_a_move_or_a_day(client, app):
    ann = sign_in(client, app, "ann@example.org")
    client.patch("/v1/me", headers=auth(ann), json={"digest": True})
    [game_id] = _games(client, app, ann, 1)
    assert _sweep(app) == 1
    with time_machine.travel(utcnow() + timedelta(hours=25), tick=False):
        assert _sweep(app) == 1  # a day has passed
    later = utcnow() + timedelta(hours=26)
    with time_machine.travel(later, tick=False):
        assert _sweep(app) == 0
        legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(ann)).json
        client.post(
            f"/v1/games/{game_id}/moves", headers=auth(ann), json={"move": legal["moves"][0]}
        )
        until_decision(client, app, game_id)
    with time_machine.travel(later + timedelta(minutes=1), tick=False):
        assert _sweep(app) == 1  # moved since: the next digest may go
    assert len(_mails(app, "digest:")) == 3


def test_without_the_digest_each_game_mails_its_own_turn(client, app):
    ann = sign_in(client, app, "ann@example.org")
    _games(client, app, ann, 2)
    assert len(_mails(app, "turn:")) == 2
    assert _sweep(app) == 0
