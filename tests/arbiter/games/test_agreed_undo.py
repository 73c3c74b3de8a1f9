"""Agreed undo (issue 24, item 3), over REST on SQLite and PostgreSQL: the policy the
same for every engine (only the asker's last move; never across a roll, a hidden draw
or another seat's action), the state after an accepted undo exactly the fold of the
log without the undone move, the version and the snapshot, lapsing, idempotency, and
refusals that write nothing."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
import sqlalchemy as sa
import time_machine

import engines
from arbiter import fairness
from arbiter.extensions import db
from arbiter.games import loading
from arbiter.games.undo_policy import reveals
from arbiter.models import Event, Game
from arbiter.models.timestamps import utcnow
from engines import move_parts
from engines.base import Chance, fold
from engines.dark_horse import rules as dark_horse_rules
from tests.helpers import auth, event_count, new_game, until_decision


@pytest.fixture
def web(any_app):
    """A test client of the app on each database."""
    return any_app.test_client()


def game_row(app, game_id: str) -> dict:
    """Return the game's snapshot columns and the fold of its log (without undone moves)."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        engine = engines.at_version(game.engine, game.engine_version)
        rows = list(
            db.session.scalars(sa.select(Event).where(Event.game_id == game_id).order_by(Event.seq))
        )
        folded = fold(engine, len(game.seats), game.options, loading.inputs_of(rows))
        return {
            "state": game.state,
            "folded": folded,
            "replayed": loading.replay(game, engine),
            "version": game.version,
            "prompt_since": game.prompt_since,
            "to_act": game.to_act,
            "prompt": game.prompt,
        }


def play(client, game_id: str, token: str, rng: random.Random | None = None, **extra):
    """Play a legal move for ``token``'s seat (the first, or a random one)."""
    legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(token)).json
    move = move_parts.pick(legal, rng) if rng else legal["moves"][0]
    return client.post(
        f"/v1/games/{game_id}/moves", headers=auth(token), json={"move": move, **extra}
    )


def ask(client, game_id: str, token: str, kind: str = "undo", **headers):
    return client.post(f"/v1/games/{game_id}/{kind}-requests", headers={**auth(token), **headers})


def answer(client, game_id: str, token: str, number: int, verb: str, kind: str = "undo"):
    return client.post(f"/v1/games/{game_id}/{kind}-requests/{number}/{verb}", headers=auth(token))


def test_an_accepted_undo_restores_the_state_before_the_move(any_app, web):
    """Given Ann's move that nobody answered, when she asks and Bob accepts, the log
    keeps the move, the request, the answer and the marker; the game's state, view and
    legal moves are those of before the move, which is the fold without it."""
    game_id, tokens = new_game(web, players=2)
    ann = until_decision(web, any_app, game_id)["to_act"][0]
    bob = 1 - ann
    before = game_row(any_app, game_id)
    view = web.get(f"/v1/games/{game_id}/view", headers=auth(tokens[ann])).json["view"]
    legal = web.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[ann])).json["moves"]
    moved = play(web, game_id, tokens[ann])
    assert moved.status_code == 201 and moved.json["to_act"] == [bob]

    asked = ask(web, game_id, tokens[ann])
    assert asked.status_code == 201, asked.json
    assert asked.json["status"] == "pending" and asked.json["waiting_for"] == [bob]
    assert asked.json["move_seq"] == moved.json["seq"]
    standing = web.get(f"/v1/games/{game_id}/undo-requests/{asked.json['request']}").json
    assert standing["status"] == "pending"

    agreed = answer(web, game_id, tokens[bob], asked.json["request"], "accept")
    assert agreed.status_code == 201, agreed.json
    assert agreed.json["status"] == "agreed" and agreed.json["undone"] == [moved.json["seq"]]

    after = game_row(any_app, game_id)
    assert after["state"] == before["state"] == after["folded"] == after["replayed"]
    assert after["to_act"] == [ann]
    assert after["version"] == after["prompt_since"] == agreed.json["version"]
    assert web.get(f"/v1/games/{game_id}/view", headers=auth(tokens[ann])).json["view"] == view
    again = web.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[ann])).json
    assert again["moves"] == legal
    kinds = [e["kind"] for e in web.get(f"/v1/games/{game_id}/events").json["events"]]
    assert kinds[-4:] == ["move", "undo-requested", "undo-accepted", "moves-undone"]


def test_after_an_undo_older_versions_are_stale_and_play_goes_on(any_app, web):
    """Given an accepted undo, a move made against a version before it is refused
    (409 stale-version) and writes nothing; one against the new version is taken."""
    game_id, tokens = new_game(web, players=2)
    ann = until_decision(web, any_app, game_id)["to_act"][0]
    moved = play(web, game_id, tokens[ann])
    number = ask(web, game_id, tokens[ann]).json["request"]
    agreed = answer(web, game_id, tokens[1 - ann], number, "accept").json
    count = event_count(any_app, game_id)
    stale = play(web, game_id, tokens[ann], expected_version=moved.json["version"])
    assert stale.status_code == 409 and stale.json["code"] == "stale-version"
    assert event_count(any_app, game_id) == count
    fresh = play(web, game_id, tokens[ann], expected_version=agreed["version"])
    assert fresh.status_code == 201


def test_a_refused_undo_changes_nothing_but_the_log(any_app, web):
    game_id, tokens = new_game(web, players=2)
    ann = until_decision(web, any_app, game_id)["to_act"][0]
    play(web, game_id, tokens[ann])
    before = game_row(any_app, game_id)
    number = ask(web, game_id, tokens[ann]).json["request"]
    refused = answer(web, game_id, tokens[1 - ann], number, "refuse")
    assert refused.status_code == 201 and refused.json["status"] == "refused"
    after = game_row(any_app, game_id)
    assert after["state"] == before["state"] and after["to_act"] == before["to_act"]
    late = answer(web, game_id, tokens[1 - ann], number, "accept")
    assert late.status_code == 409 and late.json["code"] == "request-closed"
    assert "refused" in late.json["detail"]


def test_undo_is_refused_after_another_seats_move(any_app, web):
    """Given Ann's move answered by Bob's, Ann may not take hers back (and Bob may
    take back his own)."""
    game_id, tokens = new_game(web, players=2)
    ann = until_decision(web, any_app, game_id)["to_act"][0]
    bob = 1 - ann
    play(web, game_id, tokens[ann])
    assert play(web, game_id, tokens[bob]).status_code == 201
    count = event_count(any_app, game_id)
    refused = ask(web, game_id, tokens[ann])
    assert refused.status_code == 409 and refused.json["code"] == "undo-not-allowed"
    assert refused.json["detail"].startswith(f"P{bob} has moved since your last move")
    assert event_count(any_app, game_id) == count


def test_undo_is_refused_across_a_roll(any_app, web):
    """Given a move after which the dice were rolled (or are due), its player may not
    take it back."""
    game_id, tokens = new_game(web, players=2)
    rng = random.Random(3)
    for _ in range(200):
        s = until_decision(web, any_app, game_id)
        seat = s["to_act"][0]
        moved = play(web, game_id, tokens[seat], rng)
        assert moved.status_code == 201
        if moved.json["status"] == "active" and not moved.json["to_act"]:
            break  # the move called for a roll
    else:
        pytest.fail("no move led to a roll")
    count = event_count(any_app, game_id)
    due = ask(web, game_id, tokens[seat])
    assert due.status_code == 409 and due.json["code"] == "undo-not-allowed"
    assert "roll or a draw is due" in due.json["detail"]
    until_decision(web, any_app, game_id)
    rolled = ask(web, game_id, tokens[seat])
    assert rolled.status_code == 409 and rolled.json["code"] == "undo-not-allowed"
    assert "roll or a draw came after" in rolled.json["detail"]
    assert event_count(any_app, game_id) > count  # only the roll


def test_a_move_that_shows_a_hidden_card_cannot_be_taken_back():
    """Dark Horse's Bad encounter! swap takes the top of the Goal deck, which nobody
    saw: the policy sees a value hidden from its new holder, whatever the engine."""
    engine = engines.get("dark-horse")
    state = engine.setup(3, engine.load_options(3, {}))
    seq = 1
    while isinstance(engine.prompt(state), Chance):
        spec = engine.prompt(state).spec
        state = engine.resolve(state, fairness.derive(dict(spec), "ab" * 32, seq))
        seq += 1
    swapped = dark_horse_rules.swap_goal(state, 0, 1)
    assert reveals(engine, state, swapped, 3)
    seat = engine.to_act(state)[0]
    move = engine.legal_moves(state, seat)[0]
    assert not reveals(engine, state, engine.play(state, seat, move), 3)


def test_a_move_meanwhile_or_the_time_makes_a_request_lapse(any_app, web):
    """Given a waiting request, Bob's move made against the version he saw before it
    is taken (a request moves the version on like a clock event) and the request
    lapses; so does one that waits longer than AGREEMENT_HOURS."""
    game_id, tokens = new_game(web, players=2)
    ann = until_decision(web, any_app, game_id)["to_act"][0]
    bob = 1 - ann
    seen = play(web, game_id, tokens[ann]).json["version"]
    number = ask(web, game_id, tokens[ann]).json["request"]
    assert number == seen + 1
    assert play(web, game_id, tokens[bob], expected_version=seen).status_code == 201
    late = answer(web, game_id, tokens[bob], number, "accept")
    assert late.status_code == 409 and late.json["code"] == "request-closed"
    assert "moved on" in late.json["detail"]

    game_id, tokens = new_game(web, players=2)
    ann = until_decision(web, any_app, game_id)["to_act"][0]
    play(web, game_id, tokens[ann])
    number = ask(web, game_id, tokens[ann]).json["request"]
    with time_machine.travel(utcnow() + timedelta(hours=49)):
        late = answer(web, game_id, tokens[1 - ann], number, "accept")
        assert late.status_code == 409 and "too long" in late.json["detail"]
        again = ask(web, game_id, tokens[ann])  # the lapsed one no longer blocks
        assert again.status_code == 201


def test_bad_requests_write_nothing(any_app, web):
    """No token, an unknown request, answering one's own request, a second request
    while one waits, an undo before any move of one's own: each a clear 4xx with a
    stable code, and the log unchanged."""
    game_id, tokens = new_game(web, players=2)
    ann = until_decision(web, any_app, game_id)["to_act"][0]
    bob = 1 - ann
    count = event_count(any_app, game_id)
    nothing = ask(web, game_id, tokens[bob])
    assert (nothing.status_code, nothing.json["code"]) == (409, "undo-not-allowed")
    assert web.post(f"/v1/games/{game_id}/undo-requests").status_code == 401
    unknown = answer(web, game_id, tokens[bob], 2, "accept")
    assert (unknown.status_code, unknown.json["code"]) == (404, "no-undo-request")
    assert event_count(any_app, game_id) == count

    play(web, game_id, tokens[ann])
    number = ask(web, game_id, tokens[ann]).json["request"]
    count = event_count(any_app, game_id)
    own = answer(web, game_id, tokens[ann], number, "accept")
    assert (own.status_code, own.json["code"]) == (409, "own-request")
    twice = ask(web, game_id, tokens[ann])
    assert (twice.status_code, twice.json["code"]) == (409, "undo-pending")
    assert web.post(f"/v1/games/{game_id}/undo-requests/x/accept").status_code == 404
    huge = answer(web, game_id, tokens[bob], 10**30, "accept")
    assert (huge.status_code, huge.json["code"]) == (404, "no-undo-request")
    assert web.get(f"/v1/games/{game_id}/abort-requests/{10**30}").status_code == 404
    assert event_count(any_app, game_id) == count


def test_a_retried_request_with_its_idempotency_key_is_recorded_once(any_app, web):
    game_id, tokens = new_game(web, players=2)
    ann = until_decision(web, any_app, game_id)["to_act"][0]
    play(web, game_id, tokens[ann])
    first = ask(web, game_id, tokens[ann], **{"Idempotency-Key": "undo-key-0001-0002-0003"})
    assert first.status_code == 201, first.json
    count = event_count(any_app, game_id)
    second = ask(web, game_id, tokens[ann], **{"Idempotency-Key": "undo-key-0001-0002-0003"})
    assert second.status_code == 201 and second.json == first.json, second.json
    assert event_count(any_app, game_id) == count


@pytest.mark.parametrize("engine_id", list(engines.ENGINE_MODULES))
def test_every_engine_undoes_to_the_fold_without_the_move(app, client, engine_id):
    """For every engine: play random moves until one may be taken back; once every
    other player accepts, the snapshot is the state before the move, the fold of the
    log without it, and what a fold from scratch gives."""
    engine = engines.get(engine_id)
    players = max(engine.min_players, 2)
    game_id, tokens = new_game(client, engine_id, players=players)
    rng = random.Random(7)
    for _ in range(60):
        s = until_decision(client, app, game_id)
        assert s["status"] == "active"
        seat = rng.choice(s["to_act"])
        before = game_row(app, game_id)["state"]
        assert play(client, game_id, tokens[seat], rng).status_code == 201
        asked = ask(client, game_id, tokens[seat])
        if asked.status_code == 201:
            break
        assert asked.json["code"] == "undo-not-allowed", asked.json
    else:
        pytest.fail(f"no move of {engine_id} could be taken back")
    for other in asked.json["waiting_for"]:
        last = answer(client, game_id, tokens[other], asked.json["request"], "accept")
        assert last.status_code == 201, last.json
    assert last.json["status"] == "agreed"
    after = game_row(app, game_id)
    assert after["state"] == before == after["folded"] == after["replayed"]


def test_a_player_alone_takes_a_move_back_or_aborts_at_once(app, client):
    """Given a Space Worm game played alone, an undo needs nobody's agreement: it is
    agreed as it is asked; an abort likewise ends the game."""
    game_id, tokens = new_game(client, "space-worm", players=1)
    for _ in range(20):
        until_decision(client, app, game_id)
        before = game_row(app, game_id)["state"]
        assert play(client, game_id, tokens[0]).status_code == 201
        undone = ask(client, game_id, tokens[0])
        if undone.status_code == 201:
            break
    assert undone.status_code == 201 and undone.json["status"] == "agreed"
    assert game_row(app, game_id)["state"] == before
    aborted = ask(client, game_id, tokens[0], "abort")
    assert aborted.json["status"] == "agreed" and aborted.json["game_status"] == "over"
    assert client.get(f"/v1/games/{game_id}").json["result"]["reason"] == "aborted"
