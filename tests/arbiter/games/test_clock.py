"""The turn clock with time travel (time-machine): time controls, deadlines, timeouts,
forfeits, bank arithmetic, reminders and the outage policy (issue 5)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
import time_machine

from arbiter.extensions import db
from arbiter.games import clock_sweep
from arbiter.models import Game, OutboxMail, Seat
from arbiter.verify import verify
from tests.arbiter.clock_helpers import (
    T0,
    after,
    clocked_game,
    deadline_of,
    events,
    parse,
    reminder_mails,
    sweep,
    timeouts,
)
from tests.arbiter.games.test_games_api import assert_problem
from tests.helpers import auth, event_count, new_game, sampled, summary, until_decision

DAY = 86400


@pytest.mark.parametrize(
    "clock",
    sampled(
        [
            {"type": "per-move", "seconds": -5},
            {"type": "per-move", "seconds": 0},
            {"type": "per-move", "seconds": 400 * DAY},
            {"type": "per-move"},
            {"type": "per-move", "seconds": "60"},
            {"type": "bank", "initial": 60, "increment": -1},
            {"type": "bank", "seconds": 60},
            {"type": "sundial"},
            {"type": "per-move", "seconds": 60, "reminders": [-1]},
            {"type": "per-move", "seconds": 60, "timeout_policy": "forfeit"},
            {"type": "per-move", "seconds": 60, "vacation_days": 1000},
            {"type": "per-move", "seconds": 60, "speed": "fast"},
        ],
        kind=lambda row: row.get("type"),
    ),
)
def test_absurd_time_controls_are_refused_and_nothing_is_created(app, client, clock):
    """Given a negative, zero, absurd or incomplete time control, 422 bad-clock."""
    answer = client.post(
        "/v1/games", json={"engine": "space-worm", "clock": clock, "players": [{"name": "Ann"}]}
    )
    assert_problem(answer, 422, "bad-clock")
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Game)) == 0


def test_an_unknown_time_zone_is_refused(client):
    answer = client.post(
        "/v1/games",
        json={"engine": "space-worm", "players": [{"name": "Ann", "tz": "Mars/Olympus"}]},
    )
    assert_problem(answer, 422, "invalid-request")


def test_no_clock_means_no_deadline(app, client):
    """Given no time control, the summary has no deadline and the sweep ignores it."""
    game_id, _ = new_game(client)
    s = until_decision(client, app, game_id)
    assert s["deadline"] is None and s["clock"]["type"] == "none"
    assert sweep(app, after(T0, 400 * DAY))["claimed"] == 0


def test_a_per_move_deadline_starts_with_the_prompt_and_is_mailed_in_the_players_zone(app, client):
    """Given 3 days per move, the seat to act has a deadline 3 days after its prompt
    began, in the summary (UTC) and in its turn mail (its own time zone)."""
    with time_machine.travel(T0, tick=False):
        game_id, _, creator, s = clocked_game(
            client,
            app,
            {"type": "per-move", "seconds": 3 * DAY},
            emails=True,
            tz="America/New_York",
        )
    assert len(creator) > 30
    assert parse(s["deadline"]) == after(T0, 3 * DAY)
    seat = s["to_act"][0]
    assert s["clock"]["seats"][seat]["deadline"] == s["deadline"]
    assert s["clock"]["reminders"] == [DAY, 3600]
    with app.app_context():
        body = db.session.scalars(
            sa.select(OutboxMail.body).where(OutboxMail.dedupe_key.like("turn:%"))
        ).one()
    assert "Deadline: 2026-12-04 07:00 EST (2026-12-04 12:00 UTC)" in body


def test_the_timeout_move_is_played_once_with_the_deadline_it_enforced(app, client):
    """Given a deadline that passed, one sweep plays the engine's timeout move, marked
    with that deadline; a second sweep, a sweep before the deadline: nothing."""
    with time_machine.travel(T0, tick=False):
        game_id, _, _, s = clocked_game(client, app, {"type": "per-move", "seconds": 3600})
    seat, version = s["to_act"][0], s["version"]
    deadline = parse(s["deadline"])
    assert sweep(app, after(deadline, -1))["timeouts"] == 0
    with time_machine.travel(after(deadline, 5), tick=False):
        assert sweep(app, after(deadline, 5))["timeouts"] == 1
        assert sweep(app, after(deadline, 6))["timeouts"] == 0
    [timeout] = timeouts(app, game_id)
    assert timeout.seat == seat and timeout.seq == version + 1
    assert parse(timeout.payload["timeout"]["deadline"]) == deadline
    assert summary(client, game_id)["clock"]["seats"][seat]["misses"] == 1


def test_a_game_played_by_timeouts_alone_replays_and_verifies(app, client):
    """Given nobody moving, timeouts play the game to its end and the record verifies
    (timeouts are ordinary move events to replay and verify)."""
    now = T0
    with time_machine.travel(now, tick=False) as traveller:
        game_id, _, _, s = clocked_game(client, app, {"type": "per-move", "seconds": 60}, players=1)
        for _ in range(500):
            if s["status"] == "over":
                break
            now = after(now, 61)
            traveller.move_to(now)
            sweep(app, now)
            s = until_decision(client, app, game_id)
    assert s["status"] == "over"
    record = client.get(f"/v1/games/{game_id}/record").json
    assert verify(record).ok
    assert all("timeout" in e["payload"] for e in record["events"] if e["kind"] == "move")


def test_forfeit_after_n_misses_resigns_the_seat_which_ranks_last(app, client):
    """Given forfeit after 2 misses in a 3-player game, the second miss of a seat
    appends its resignation; it moves by timeout from then on and ranks last."""
    clock = {"type": "per-move", "seconds": 60, "timeout_policy": "forfeit", "forfeit_after": 2}
    now = T0
    with time_machine.travel(now, tick=False) as traveller:
        game_id, tokens, _, s = clocked_game(client, app, clock, players=3)
        while not events(app, game_id, "resigned"):
            seat = s["to_act"][0]
            if seat != 0:  # seats 1 and 2 play; seat 0 never does
                legal = client.get(
                    f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[seat])
                ).json
                client.post(
                    f"/v1/games/{game_id}/moves",
                    headers=auth(tokens[seat]),
                    json={"move": legal["moves"][0]},
                )
            else:
                now = after(now, 61)
                traveller.move_to(now)
                sweep(app, now)
            s = until_decision(client, app, game_id)
    [resigned] = events(app, game_id, "resigned")
    assert resigned.seat == 0 and resigned.payload["forfeit"] is True
    assert [e.seat for e in timeouts(app, game_id)] == [0, 0]
    assert summary(client, game_id)["players"][0]["resigned"] is True
    from tests.helpers import play_out

    final = play_out(client, app, game_id, tokens, seed=3)
    assert final["result"]["ranking"][-1] == [0]
    assert verify(client.get(f"/v1/games/{game_id}/record").json).ok


def test_a_bank_loses_the_time_used_and_gains_the_increment(app, client):
    """Given a bank of 1000 s + 100 s per move, a move after 300 s leaves 800 s."""
    with time_machine.travel(T0, tick=False) as traveller:
        game_id, tokens, _, s = clocked_game(
            client, app, {"type": "bank", "initial": 1000, "increment": 100}, players=1
        )
        assert parse(s["deadline"]) == after(T0, 1000)
        traveller.move_to(after(T0, 300))
        legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[0])).json
        assert (
            client.post(
                f"/v1/games/{game_id}/moves",
                headers=auth(tokens[0]),
                json={"move": legal["moves"][0]},
            ).status_code
            == 201
        )
        s = until_decision(client, app, game_id)
    assert s["clock"]["seats"][0]["bank"] == 800.0
    assert parse(s["deadline"]) == after(T0, 300 + 800)


def test_reminders_once_per_threshold_never_after_the_move(app, client):
    """Given 2 days per move and the default 24 h / 1 h reminders, each threshold
    mails the seat once; after it moved, no reminder comes for that prompt."""
    with time_machine.travel(T0, tick=False):
        game_id, tokens, _, s = clocked_game(
            client, app, {"type": "per-move", "seconds": 2 * DAY}, emails=True, tz="Europe/Paris"
        )
    deadline, seat = parse(s["deadline"]), s["to_act"][0]
    assert sweep(app, after(deadline, -DAY - 60))["reminders"] == 0
    assert sweep(app, after(deadline, -DAY + 60))["reminders"] == 1
    assert sweep(app, after(deadline, -DAY + 120))["reminders"] == 0
    [mail] = reminder_mails(app)
    assert mail.to_addr == f"p{seat}@example.org" and game_id in mail.body
    assert "2026-12-03 13:00 CET" in mail.body
    assert sweep(app, after(deadline, -3000))["reminders"] == 1
    assert len(reminder_mails(app)) == 2
    with time_machine.travel(after(deadline, -2000), tick=False):
        legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[seat])).json
        client.post(
            f"/v1/games/{game_id}/moves",
            headers=auth(tokens[seat]),
            json={"move": legal["moves"][0]},
        )
    assert sweep(app, after(deadline, -60))["reminders"] == 0


def test_a_reminder_is_mailed_only_to_an_address_that_agreed(app, client):
    """Given the seat to act unsubscribed from the game's mail (issue 10, consent), its
    reminder is recorded as given but no mail is written, then or later."""
    with time_machine.travel(T0, tick=False):
        game_id, _, _, s = clocked_game(
            client, app, {"type": "per-move", "seconds": 7200, "reminders": [3600]}, emails=True
        )
    seat = s["to_act"][0]
    with app.app_context():
        db.session.get(Seat, (game_id, seat)).mail_off = True
        db.session.commit()
    assert sweep(app, after(T0, 3700))["reminders"] == 1
    assert reminder_mails(app) == []
    assert sweep(app, after(T0, 3800))["reminders"] == 0  # given once, unmailed


def test_a_player_with_several_games_due_gets_one_mail_listing_them_all(app, client):
    """Given Ann in three games whose reminders fall due together, one mail lists all."""
    ids = []
    with time_machine.travel(T0, tick=False):
        for _ in range(3):
            game_id, _, _, s = clocked_game(
                client,
                app,
                {"type": "per-move", "seconds": 7200, "reminders": [3600]},
                players=1,
                emails=True,
                email_of=lambda i: "ann@example.org",
            )
            ids.append(game_id)
    assert sweep(app, after(T0, 3700))["reminders"] == 3
    [mail] = reminder_mails(app)
    assert mail.to_addr == "ann@example.org" and "3 games" in mail.subject
    assert all(game_id in mail.body for game_id in ids)


def test_outage_extends_deadlines_by_its_length_then_times_out_once_in_order(app, client):
    """Given the sweep stopped for 6 hours while 5 games' deadlines passed, the first
    sweep after extends each deadline by the outage; later, each game times out once,
    in the order of its (extended) deadline."""
    ids = []
    for i in range(5):
        with time_machine.travel(after(T0, i * 600), tick=False):
            ids.append(
                clocked_game(client, app, {"type": "per-move", "seconds": 3600}, players=1)[0]
            )
    sweep(app, after(T0, 3000))  # the last run before the outage
    back = after(T0, 3000 + 6 * 3600)
    with time_machine.travel(back, tick=False):
        counts = sweep(app, back)
    assert counts["outage"] == 6 * 3600 and counts["extended"] == 5
    assert counts["timeouts"] == 0
    for i, game_id in enumerate(ids):
        [ext] = events(app, game_id, "deadline-extended")
        assert ext.payload["reason"] == "outage" and ext.payload["seconds"] == 6 * 3600
        assert deadline_of(client, game_id) == after(T0, i * 600 + 3600 + 6 * 3600)
    applied = 0
    for step in range(1, 19):  # the sweep runs every 200 s again, for an hour
        at = after(back, 200 * step)
        with time_machine.travel(at, tick=False):
            counts = sweep(app, at)
        assert counts["outage"] == 0 and counts["extended"] == 0
        applied += counts["timeouts"]
    assert applied == 5
    enforced = [
        (
            parse(timeouts(app, g)[0].payload["timeout"]["deadline"]),
            timeouts(app, g)[0].at,
            len(timeouts(app, g)),
        )
        for g in ids
    ]
    assert all(n == 1 for _, _, n in enforced)
    assert [at for _, at, _ in sorted(enforced)] == sorted(at for _, at, _ in enforced)


def test_a_short_pause_of_the_sweep_is_no_outage(app, client):
    """Given a gap under the threshold, a missed deadline is enforced late, not moved."""
    with time_machine.travel(T0, tick=False):
        game_id, _, _, s = clocked_game(client, app, {"type": "per-move", "seconds": 60}, players=1)
    sweep(app, after(T0, 30))
    counts = sweep(app, after(T0, 200))
    assert counts["outage"] == 0 and counts["timeouts"] == 1


def test_two_sweepers_claim_each_due_game_once(app, client):
    """Given a due game, a second claim at the same moment gets nothing."""
    with time_machine.travel(T0, tick=False):
        game_id, _, _, _ = clocked_game(client, app, {"type": "per-move", "seconds": 60})
    with app.app_context():
        first = clock_sweep.claim_due(after(T0, 61))
        second = clock_sweep.claim_due(after(T0, 61))
    assert [g for g, _ in first] == [game_id] and second == []
    # a lost worker: the lease expires and the next sweep claims it again, once
    assert sweep(app, after(T0, 61 + clock_sweep.LEASE_SECONDS + 1))["timeouts"] == 1
    assert len(timeouts(app, game_id)) == 1


def test_migration_0002_downgrades_and_upgrades(app):
    """Given the schema at head, 0002 goes down to 0001 and up again."""
    from flask_migrate import downgrade, upgrade

    with app.app_context():
        downgrade(revision="0001")
        upgrade()
        assert "clock_reminders" in sa.inspect(db.engine).get_table_names()


def test_count_helper_sanity(app, client):
    """The helpers see what the API wrote (guards the tests above)."""
    game_id, _ = new_game(client)
    assert event_count(app, game_id) == len(events(app, game_id))
