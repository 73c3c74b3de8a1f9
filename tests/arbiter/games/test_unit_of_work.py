"""The unit of work and the handlers that follow a commit (issue 21, item 1; DESIGN.md,
"The write path"): staged handlers run inside the transaction, committed ones after
it with what the transaction committed (every transition, and the notices a context
announced: items 1 and 2), a failure writes nothing and runs no committed handler, and
each registered handler works alone."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from arbiter import follow_ups, queue, uow
from arbiter.accounts.accounts import AccountDeleted, TokenRevoked
from arbiter.extensions import db
from arbiter.games import chance, games, moves, notify
from arbiter.models import Event, Game, IdempotentResponse, OutboxMail
from arbiter.streams import publish
from arbiter.uow import AnswerRace, Appended, Committed, UnitOfWork
from tests.conftest import make_app
from tests.helpers import new_game, until_decision


@pytest.fixture
def handlers():
    """Let a test register its own handlers; the app's are put back afterwards."""
    staged, committed = list(uow.HANDLERS.staged), list(uow.HANDLERS.committed)
    yield
    uow.register(staged, committed)


@pytest.fixture
def enqueued(monkeypatch):
    """The tasks enqueued (the broker's side is the workers' tests')."""
    sent: list[tuple] = []
    monkeypatch.setattr(queue, "enqueue", lambda task, *args: sent.append((task, *args)))
    return sent


def _submit(app, client, game_id: str, tokens: list[str]) -> moves.MoveAccepted:
    until_decision(client, app, game_id)
    seat = client.get(f"/v1/games/{game_id}").json["to_act"][0]
    legal = client.get(
        f"/v1/games/{game_id}/legal-moves", headers={"Authorization": f"Bearer {tokens[seat]}"}
    ).json
    command = moves.SubmitMove(game_id, tokens[seat], legal["moves"][0], legal["version"])
    with app.app_context():
        return moves.submit_move(UnitOfWork(), command)


def test_the_registered_handlers_are_the_ones_follow_ups_names(app):
    """Given the app, the unit of work runs exactly the handlers of
    arbiter/follow_ups.py: one place to read what follows a commit."""
    assert tuple(uow.HANDLERS.staged) == follow_ups.STAGED
    assert tuple(uow.HANDLERS.committed) == follow_ups.COMMITTED


def test_staged_handlers_run_in_the_transaction_and_committed_ones_after_it(app, client, handlers):
    """Given a move, a staged handler sees its transition inside the open transaction,
    and a committed one after the commit (its new version read by another
    connection), in that order."""
    game_id, tokens = new_game(client)
    seen = []

    def version_elsewhere() -> int:
        with db.engine.connect() as other:
            return other.scalar(sa.select(Game.version).where(Game.id == game_id))

    uow.register(
        [lambda work, a: seen.append(("staged", a.version, work.session().in_transaction()))],
        [lambda done: seen.append(("committed", [a.version for a in done.appended]))],
    )
    uow.HANDLERS.committed.append(lambda done: seen.append(("read", version_elsewhere())))
    accepted = _submit(app, client, game_id, tokens)
    assert seen[-3:] == [  # the rolls before the move went the same way
        ("staged", accepted.version, True),
        ("committed", [accepted.version]),
        ("read", accepted.version),
    ]


def test_a_failing_staged_handler_writes_nothing_and_runs_nothing_after(
    app, client, handlers, enqueued
):
    """Given a staged handler that raises, the move is not recorded (no event, the
    version unchanged), no committed handler runs and nothing is enqueued."""
    game_id, tokens = new_game(client)
    until_decision(client, app, game_id)
    before = client.get(f"/v1/games/{game_id}").json["version"]
    after_commit = []

    def broken(work, appended):
        raise RuntimeError("a handler failed")

    uow.register([broken], [lambda done: after_commit.append(done)])
    enqueued.clear()
    with pytest.raises(RuntimeError):
        _submit(app, client, game_id, tokens)
    with app.app_context():
        count = db.session.scalar(sa.select(sa.func.count()).where(Event.game_id == game_id))
    assert count == before
    assert client.get(f"/v1/games/{game_id}").json["version"] == before
    assert after_commit == [] and enqueued == []


def test_turn_mails_alone(app, client, enqueued):
    """Given a game waiting for a decision, ``notify.mail_players`` alone writes one
    turn mail per seat to act, sent once committed; an idle game gets none."""
    game_id, _ = new_game(client, emails=True)
    until_decision(client, app, game_id)
    with app.app_context():
        game, engine, state = games.load(game_id)
        db.session.execute(sa.delete(OutboxMail).where(OutboxMail.game_id == game_id))
        base = dict(
            game=game,
            engine=engine,
            state=state,
            events=[],
            version=game.version,
            new_prompt=True,
            started=False,
            result=None,
            since=game.version,
            game_id=game_id,
        )
        work = UnitOfWork()
        notify.mail_players(work, Appended(prompt={"type": "idle"}, **base))
        assert work._rows == []
        notify.mail_players(work, Appended(prompt=game.prompt, **base))
        mails = [row for task, row in work._rows if task == queue.SEND_MAIL]
        to_act = set(game.prompt["seats"])
        assert {m.seat for m in mails} == to_act
        assert {m.to_addr for m in mails} == {f"p{s}@example.org" for s in to_act}
        work.session.flush()
        ids = sorted(m.id for m in mails)
        enqueued.clear()
        work.commit()
    assert sorted(enqueued) == [(queue.SEND_MAIL, i) for i in ids]


def test_rolls_alone(app, enqueued):
    """Given committed transitions, ``chance.roll_next`` alone enqueues a roll for each
    game waiting for chance, at the version it waits at, and nothing for the others."""

    def appended(game_id: str, kind: str, version: int) -> Appended:
        return Appended(
            game=None,
            engine=None,
            state={},
            events=[],
            prompt={"type": kind},
            version=version,
            new_prompt=True,
            started=False,
            result=None,
            game_id=game_id,
        )

    chance.roll_next(Committed((appended("a", "chance", 4), appended("b", "decision", 7))))
    assert enqueued == [(queue.RESOLVE_CHANCE, "a", 4)]


class _Keeper:
    """An answer keeper storing a fixed row (the edge's is arbiter.idempotency.Keeper)."""

    def __init__(self, key: str) -> None:
        self.key = key

    def row(self, result):
        return IdempotentResponse(
            scope="test", key=self.key, request_hash="x" * 64, status=201, body=result
        )

    def replayed(self) -> None:
        return None


def test_a_twin_answer_committed_first_is_an_answer_race(app):
    """Given two units of work keeping an answer under the same key, the second to
    commit raises AnswerRace and writes nothing (the edge then answers with the
    first's answer)."""
    with app.app_context():
        UnitOfWork(keeper=_Keeper("same-key-0123456789")).commit({"n": 1})
        with pytest.raises(AnswerRace):
            UnitOfWork(keeper=_Keeper("same-key-0123456789")).commit({"n": 2})
        kept = db.session.get(IdempotentResponse, ("test", "same-key-0123456789"))
        assert kept.body == {"n": 1}


def test_notices_reach_the_committed_handlers_only_once_committed(app, handlers):
    """Given notices announced to a unit of work, one rolled back is never handed on;
    committed ones are handed on once, in order, with the (here no) transitions of
    their transaction; a commit with neither transitions nor notices calls no
    handler."""
    seen: list[Committed] = []
    uow.register([], [seen.append])
    with app.app_context():
        work = UnitOfWork()
        work.announce(TokenRevoked("t1"))
        work.rollback()
        work.commit()
        assert seen == []
        work.announce(AccountDeleted("a1"))
        work.announce(TokenRevoked("t2"))
        work.commit()
        work.commit()
    assert seen == [Committed((), (AccountDeleted("a1"), TokenRevoked("t2")))]


def test_revocations_alone(sqlite_url):
    """Given committed notices, ``publish.close_revoked`` alone tells this process's
    hubs (no ``STREAM_REDIS_URL``) ``(kind, id)`` of each revoked token and deleted
    account, in order, and nothing of the notices that are not theirs."""
    app = make_app(sqlite_url, STREAM_REDIS_URL="")
    told: list[tuple[str, str]] = []
    publish.REVOCATION_LISTENERS.append(lambda kind, ident: told.append((kind, ident)))
    try:
        with app.app_context():
            done = Committed((), (TokenRevoked("t1"), object(), AccountDeleted("a1")))
            publish.close_revoked(done)
    finally:
        publish.REVOCATION_LISTENERS.pop()
        with app.app_context():
            db.engine.dispose()
    assert told == [("token", "t1"), ("account", "a1")]
