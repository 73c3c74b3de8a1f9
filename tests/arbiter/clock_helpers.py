"""Helpers for the clock tests: games with a time control, sweeps at a given time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.games import clock_sweep
from arbiter.models import Event, OutboxMail
from tests.helpers import agreed, summary, until_decision

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def parse(text: str | None) -> datetime | None:
    """Return the aware datetime of an API timestamp."""
    return None if text is None else datetime.fromisoformat(text.replace("Z", "+00:00"))


def clocked_game(
    client,
    app,
    clock: dict,
    players: int = 2,
    emails: bool = False,
    tz: str | None = None,
    email_of=None,
) -> tuple[str, list[str], str, dict]:
    """Create a game with ``clock``, roll to its first decision; return id, seat tokens,
    creator token and the summary."""
    body = {
        "engine": "space-worm",
        "clock": clock,
        "players": [
            {
                "name": f"P{i}",
                "tz": tz,
                "email": (email_of(i) if email_of else f"p{i}@example.org") if emails else None,
            }
            for i in range(players)
        ],
    }
    agreed(app, *(p["email"] for p in body["players"] if p["email"]))
    answer = client.post("/v1/games", json=body)
    assert answer.status_code == 201, answer.json
    game_id = answer.json["id"]
    s = until_decision(client, app, game_id)
    return game_id, [x["token"] for x in answer.json["seats"]], answer.json["creator_token"], s


def sweep(app, at: datetime) -> dict:
    """Run one clock sweep as beat would, at ``at``."""
    with app.app_context():
        return clock_sweep.sweep(at)


def events(app, game_id: str, kind: str | None = None) -> list[Event]:
    """Return the game's events (of ``kind``), in order."""
    with app.app_context():
        query = sa.select(Event).where(Event.game_id == game_id).order_by(Event.seq)
        if kind:
            query = query.where(Event.kind == kind)
        rows = list(db.session.scalars(query))
        db.session.expunge_all()
        return rows


def timeouts(app, game_id: str) -> list[Event]:
    """Return the game's timeout moves."""
    return [e for e in events(app, game_id, "move") if "timeout" in e.payload]


def reminder_mails(app) -> list[OutboxMail]:
    """Return every reminder mail of the outbox."""
    with app.app_context():
        rows = list(
            db.session.scalars(
                sa.select(OutboxMail)
                .where(OutboxMail.dedupe_key.like("remind:%"))
                .order_by(OutboxMail.id)
            )
        )
        db.session.expunge_all()
        return rows


def deadline_of(client, game_id: str) -> datetime | None:
    """Return the game's earliest deadline from its public summary."""
    return parse(summary(client, game_id)["deadline"])


def after(value: datetime, seconds: float) -> datetime:
    """Return ``value`` plus ``seconds``."""
    return value + timedelta(seconds=seconds)
