"""An engine's turn clock (the Worms Timer, issue 14 Deliver 3) on the arbiter's clock:
started at the turn's first decision, kept through its rolls and decisions, enforced by
the sweep with the engine's timeout move, shown in the summary and the turn mail; a
move after the turn's deadline is refused (time travel with time-machine)."""

from __future__ import annotations

import sqlalchemy as sa
import time_machine

from arbiter.extensions import db
from arbiter.games.games import load
from arbiter.mail import mail
from arbiter.models import OutboxMail
from tests.arbiter.clock_helpers import T0, after, events, parse, reminder_mails, sweep, timeouts
from tests.arbiter.games.test_games_api import assert_problem
from tests.conftest import make_app
from tests.helpers import agreed, auth, summary, until_decision

TIMER = {"setup": "first-game", "timer": True, "timer_seconds": 60}


def timed_game(client, app, clock: dict | None = None, emails: bool = False):
    """Create a 2-player first game with the Timer; roll to Blue's first decision."""
    body = {
        "engine": "worms",
        "options": TIMER,
        "clock": clock or {},
        "players": [
            {"name": f"P{i}", "email": f"p{i}@example.org" if emails else None} for i in range(2)
        ],
    }
    agreed(app, *(p["email"] for p in body["players"] if p["email"]))
    answer = client.post("/v1/games", json=body)
    assert answer.status_code == 201, answer.json
    game_id = answer.json["id"]
    return game_id, [s["token"] for s in answer.json["seats"]], until_decision(client, app, game_id)


def play(client, game_id: str, token: str, text: str):
    """Submit a move in notation; return the answer."""
    return client.post(f"/v1/games/{game_id}/moves", headers=auth(token), json={"text": text})


def test_the_turn_deadline_starts_at_the_first_decision_and_survives_the_turn(app, client):
    """ "At the start of a player's turn, before they Activate their worm, they start the
    timer": one deadline for the whole turn, with no time control at all, shown in the
    summary; later decisions and rolls of the turn keep it (Timer)."""
    with time_machine.travel(T0, tick=False):
        game_id, tokens, s = timed_game(client, app)
    assert s["clock"]["type"] == "none"
    assert parse(s["deadline"]) == after(T0, 60)
    timer = s["clock"]["turn_clock"]
    assert (timer["seat"], timer["seconds"]) == (0, 60)
    assert parse(timer["started"]) == T0 and parse(timer["deadline"]) == after(T0, 60)
    with time_machine.travel(after(T0, 20), tick=False):
        assert play(client, game_id, tokens[0], "activate B1").status_code == 201
        assert play(client, game_id, tokens[0], "inch 4").status_code == 201  # crate + mine
        s = until_decision(client, app, game_id)
    assert parse(s["deadline"]) == after(T0, 60)  # the same deadline, not 20 s later


def test_the_sweep_jumps_the_turn_to_end_turn_and_later_moves_are_refused(app, client):
    """ "If they do not, their turn immediately Jumps to step 6": after the deadline a
    move is refused (409 turn-time-up, nothing written) and the sweep plays the Timer's
    timeout move, not counted as a missed deadline."""
    with time_machine.travel(T0, tick=False):
        game_id, tokens, s = timed_game(client, app)
    version = s["version"]
    with time_machine.travel(after(T0, 61), tick=False):
        late = play(client, game_id, tokens[0], "activate B1")
        assert_problem(late, 409, "turn-time-up")
        assert summary(client, game_id)["version"] == version
        assert sweep(app, after(T0, 61))["timeouts"] == 1
    [timeout] = timeouts(app, game_id)
    assert timeout.payload["move"] == {"move": "time-up"} and timeout.payload["timeout"]["turn"]
    s = until_decision(client, app, game_id)
    with app.app_context():
        _, _, state = load(game_id)
    if state["turn"]["number"] == 1:  # Blue's Drop card asks a target
        assert state["log"][0] == "time is up" and state["log"][1].startswith("drop ")
        assert s["clock"]["turn_clock"] is None  # the Drop card is not timed
    else:  # or it needed none: Red's turn
        assert state["turn"]["seat"] == 1 and s["to_act"] == [1]
        assert s["clock"]["turn_clock"]["seat"] == 1  # Red's own Timer
    assert s["clock"]["seats"][0]["misses"] == 0
    moves = [e.payload["move"] for e in events(app, game_id, "move")]
    assert {"move": "activate", "worm": "B1"} not in moves  # no step after the deadline


def test_the_turn_mail_shows_the_turn_deadline(app, client):
    """Email players see the Timer's deadline in their turn mail."""
    with time_machine.travel(T0, tick=False):
        game_id, _, _ = timed_game(client, app, emails=True)
    with app.app_context():
        bodies = list(
            db.session.scalars(
                sa.select(OutboxMail.body).where(OutboxMail.dedupe_key.like(f"turn:{game_id}:%"))
            )
        )
    assert bodies and "Deadline: 2026-12-01 12:01 UTC" in bodies[-1]
    assert "Timer: this turn must reach End turn within 60 seconds" in bodies[-1]


def test_the_game_page_shows_the_turn_deadline(app, client):
    """Web players see the Timer's deadline on the game page (issue 14: "the deadline
    is shown in their mails and pages")."""
    from tests.arbiter.web.test_web_pages import open_seat, page

    with time_machine.travel(T0, tick=False):
        game_id, _, _ = timed_game(client, app)
        assert open_seat(client, app, game_id, 0).status_code == 303
        text = page(client, game_id)
    assert "Deadline:" in text and 'datetime="2026-12-01T12:01:00' in text
    assert "the turn's Timer" in text


def test_a_turn_deadline_is_mailed_and_reminded_over_real_smtp(sqlite_url, smtp):
    """Email players get the Timer's deadline in their turn mail and, when the game has
    reminders (a time control), a reminder before the turn deadline like before any
    other; both reach a real SMTP server. The reminders longer than the Timer are not
    sent (issue 14: "the deadline is shown in their mails")."""
    url, inbox = smtp
    app = make_app(sqlite_url, SMTP_URL=url)
    client = app.test_client()
    clock = {"type": "per-move", "seconds": 3 * 86400, "reminders": [86400, 3600]}
    options = {**TIMER, "timer_seconds": 7200}
    with time_machine.travel(T0, tick=False):
        body = {
            "engine": "worms",
            "options": options,
            "clock": clock,
            "players": [{"name": f"P{i}", "email": f"p{i}@example.org"} for i in range(2)],
        }
        agreed(app, "p0@example.org", "p1@example.org")  # accounts: they agreed to mail
        created = client.post("/v1/games", json=body).json
        game_id, tokens = created["id"], created["seats"]
        s = until_decision(client, app, game_id)
        assert parse(s["deadline"]) == after(T0, 7200)  # the Timer, not 3 days
        send_all(app)
    [turn] = inbox.to("p0@example.org")
    text = turn.get_body(preferencelist=("plain",)).get_content()
    assert "Deadline: 2026-12-01 14:00 UTC" in text
    assert "Timer: this turn must reach End turn within 7200 seconds" in text
    assert sweep(app, after(T0, 60))["reminders"] == 0  # no 24 h reminder for 2 h
    with time_machine.travel(after(T0, 3601), tick=False):  # the reminder's created_at
        assert sweep(app, after(T0, 3601))["reminders"] == 1  # is then, not the real now
    assert sweep(app, after(T0, 3700))["reminders"] == 0  # once
    with time_machine.travel(after(T0, 3601), tick=False):
        send_all(app)
    [reminder] = [m for m in inbox.to("p0@example.org") if "Reminder" in m["Subject"]]
    text = reminder.get_content()
    assert "deadline 2026-12-01 14:00 UTC (the turn's Timer" in text
    assert not inbox.to("p1@example.org")  # Red owes nothing yet
    with time_machine.travel(after(T0, 3700), tick=False):
        token = [s["token"] for s in tokens]
        assert play(client, game_id, token[0], "activate B1").status_code == 201
        until_decision(client, app, game_id)
    assert sweep(app, after(T0, 3710))["reminders"] == 0  # not again each decision


def test_no_reminder_of_a_turn_deadline_without_reminders(app, client):
    """With no time control there are no reminders (``none`` has none), so a Timer's
    deadline is shown but never reminded of."""
    with time_machine.travel(T0, tick=False):
        timed_game(client, app, emails=True)
    assert sweep(app, after(T0, 59))["reminders"] == 0
    assert not reminder_mails(app)


def send_all(app) -> None:
    """Send every queued outbox mail, as the mail worker would."""
    with app.app_context():
        for mail_id in mail.unsent(older_than_seconds=-1):
            mail.send(mail_id)
