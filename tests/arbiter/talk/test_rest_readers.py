"""Every reader of every channel over REST sees exactly what it may (issue 24): each
seat, a spectator account, an anonymous reader, the creator, before and after the end;
a message never moves the game's version."""

from __future__ import annotations

import pytest

from tests.arbiter.talk.support import may_see, post, readers, table, talk_everywhere
from tests.helpers import auth, play_out, summary


def texts_seen(client, t, token) -> set[str]:
    """Return the keys of ``t.said`` whose text ``token``'s reader finds over REST
    (messages and notes, and anywhere in the raw bodies)."""
    headers = auth(token) if token else {}
    raw = client.get(f"/v1/games/{t.game_id}/messages", headers=headers).get_data(as_text=True)
    notes = client.get(f"/v1/games/{t.game_id}/notes", headers=headers).get_data(as_text=True)
    assert t.said.get("note", "-") not in raw  # a note is never a message
    return {key for key, text in t.said.items() if text in raw or text in notes}


@pytest.mark.parametrize("spectators_read_table", [False, True])
def test_every_reader_sees_exactly_its_channels(any_app, spectators_read_table):
    client = any_app.test_client()
    t = table(client, any_app, spectators_read_table=spectators_read_table)
    version = summary(client, t.game_id)["version"]
    talk_everywhere(client, t)
    assert summary(client, t.game_id)["version"] == version  # talk never moves the game
    for name, token in readers(t).items():
        assert texts_seen(client, t, token) == may_see(
            t, name, spectators_read_table=spectators_read_table
        ), name
        # the game's own log (and so its streams) carries no talk at all
        events = client.get(
            f"/v1/games/{t.game_id}/events", headers=auth(token) if token else {}
        ).get_data(as_text=True)
        assert not any(text in events for text in t.said.values()), name


def test_after_the_end_everyone_reads_the_spectators_and_nobody_else_s_secrets(any_app):
    client = any_app.test_client()
    t = table(client, any_app)
    talk_everywhere(client, t)
    play_out(client, any_app, t.game_id, t.seats)
    assert summary(client, t.game_id)["status"] == "over"
    for name, token in readers(t).items():
        assert texts_seen(client, t, token) == may_see(t, name, over=True), name
    record = client.get(f"/v1/games/{t.game_id}/record").get_data(as_text=True)
    assert not any(text in record for text in t.said.values())
    # once over, the players may write to the spectators too
    assert post(client, t, t.seats[2], "gg all", "spectators").status_code == 201


def test_a_move_made_against_the_version_before_a_message_is_still_taken(any_app):
    client = any_app.test_client()
    t = table(client, any_app)
    from tests.helpers import until_decision

    until_decision(client, any_app, t.game_id)
    s = summary(client, t.game_id)
    seat = s["to_act"][0]
    legal = client.get(f"/v1/games/{t.game_id}/legal-moves", headers=auth(t.seats[seat])).json
    assert post(client, t, t.seats[(seat + 1) % 3], "hurry up").status_code == 201
    moved = client.post(
        f"/v1/games/{t.game_id}/moves",
        json={"move": legal["moves"][0], "expected_version": s["version"]},
        headers=auth(t.seats[seat]),
    )
    assert moved.status_code == 201, moved.json
