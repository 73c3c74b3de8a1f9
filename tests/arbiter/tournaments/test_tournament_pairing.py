"""The service's Swiss rounds (issue 28, "FIDE Dutch pairing ... for two-seat games"):
paired by the Dutch system of the pairing package with the history of the rounds
played, pairing numbers by the engine rating then entry order, byes asked for before a
round (API and web form: half-point and zero-point), and the 2025 bye rule that keeps
the pairing-allocated bye from a late entrant who has unplayed rounds already."""

from __future__ import annotations

import random

import pytest

from arbiter.extensions import db
from arbiter.models import Rating
from arbiter.tournaments import formats as pairing
from tests.arbiter.tournaments.test_tournaments import (
    accounts,
    advance,
    create,
    enter_all,
    play_round,
    problem,
    start,
)
from tests.arbiter.web.test_web_accounts import browser_sign_in, csrf
from tests.helpers import auth


def _rate(app, client, token: str, mu: float) -> None:
    """Give the token's account a rating at space-worm (as rated games would)."""
    account = client.get("/v1/me", headers=auth(token)).json["id"]
    with app.app_context():
        db.session.add(Rating(account_id=account, engine="space-worm", mu=mu, sigma=1.0, games=5))
        db.session.commit()


def _round(client, t: str, n: int) -> dict:
    return client.get(f"/v1/tournaments/{t}/rounds/{n}").json


def test_round_one_is_dutch_by_rating_then_entry_order(app):
    client = app.test_client()
    organiser, *players = accounts(client, app, 10)
    # the last two to enter are the best rated: they are pairing numbers 1 and 2
    _rate(app, client, players[8], 40.0)
    _rate(app, client, players[7], 30.0)
    t = create(client, organiser, rounds=3)
    entries = enter_all(client, t["id"], players)
    start(client, t["id"], organiser)
    seeds = [entries[8], entries[7], *entries[:7]]
    first = _round(client, t["id"], 1)
    boards = [tuple(p["entry"] for p in table["players"]) for table in first["tables"]]
    # C.04.3: S1 (1-4) meets S2 (5-8) in order; the lowest, 9, has the bye; the top
    # seed has the first move (seat 0) and colours alternate down the boards
    assert boards == [
        (seeds[0], seeds[4]),
        (seeds[5], seeds[1]),
        (seeds[2], seeds[6]),
        (seeds[7], seeds[3]),
    ]
    assert [b["entry"] for b in first["byes"]] == [seeds[8]]
    paired = client.get(f"/v1/tournaments/{t['id']}/events").json
    logged = [e for e in paired["events"] if e["kind"] == "round-paired"][0]["payload"]
    assert logged["seeding"] == seeds


@pytest.mark.slow  # 3 rounds of 11 accounts; tests/tournaments pair byes and late entries
def test_requested_byes_and_a_late_entrant_pair_as_the_dutch_rules_say(any_app):
    app = any_app
    client = app.test_client()
    organiser, *players = accounts(client, app, 11)
    t = create(client, organiser, rounds=3)
    base = f"/v1/tournaments/{t['id']}"
    entries = enter_all(client, t["id"], players[:8])
    token_of = dict(zip(entries, players))
    half, zero = entries[0], entries[1]
    asked = client.post(
        f"{base}/entries/{half}/byes", json={"round": 2, "bye": "half"}, headers=auth(players[0])
    )
    assert asked.status_code == 200 and asked.json["byes_requested"] == {"2": "H"}
    by_organiser = client.post(
        f"{base}/entries/{zero}/byes", json={"round": 2, "bye": "zero"}, headers=auth(organiser)
    )
    assert by_organiser.status_code == 200 and by_organiser.json["byes_requested"] == {"2": "Z"}
    problem(
        client.post(
            f"{base}/entries/{half}/byes",
            json={"round": 2, "bye": "half"},
            headers=auth(players[2]),
        ),
        403,
        "not-your-entry",
    )
    problem(
        client.post(
            f"{base}/entries/{half}/byes",
            json={"round": 4, "bye": "half"},
            headers=auth(players[0]),
        ),
        422,
        "bad-bye-round",
    )
    start(client, t["id"], organiser)
    problem(
        client.post(
            f"{base}/entries/{half}/byes",
            json={"round": 1, "bye": "zero"},
            headers=auth(players[0]),
        ),
        422,
        "bad-bye-round",
    )
    rng = random.Random(11)
    first = play_round(client, app, t["id"], 1, token_of, rng)
    assert len(first["tables"]) == 4 and first["byes"] == []
    late = client.post(f"{base}/entries", headers=auth(players[8]))
    assert late.status_code == 201 and late.json["joined_round"] == 2
    token_of[late.json["id"]] = players[8]
    assert advance(app, t["id"]) == "advanced"
    second = _round(client, t["id"], 2)
    assert {(b["entry"], b["bye"]) for b in second["requested_byes"]} == {
        (half, "H"),
        (zero, "Z"),
    }
    seated = {p["entry"] for table in second["tables"] for p in table["players"]}
    assert half not in seated and zero not in seated
    # 7 to pair: the pairing-allocated bye is not the late entrant's, who has an
    # unplayed round already (C.04.3 2025, the bye to the fewest unplayed games)
    assert len(second["byes"]) == 1 and second["byes"][0]["entry"] != late.json["id"]
    play_round(client, app, t["id"], 2, token_of, rng)
    assert advance(app, t["id"]) == "advanced"
    after = client.get(f"{base}/standings?after_round=2").json
    assert after["after_round"] == 2 and after["tiebreaks"][0] == "buchholz"
    problem(client.get(f"{base}/standings?after_round=3"), 409, "round-not-over")
    by_entry = {s["entry"]: s for s in after["standings"]}
    assert by_entry[half]["bye_kinds"]["H"] == 1 and by_entry[zero]["bye_kinds"]["Z"] == 1
    first_points = {
        s["entry"]: s["points"]
        for s in client.get(f"{base}/standings?after_round=1").json["standings"]
    }
    assert by_entry[half]["points"] == first_points[half] + 0.5
    assert by_entry[zero]["points"] == first_points[zero]
    assert by_entry[late.json["id"]]["crosstable"][0] == ""  # not entered yet in round 1
    # the service's round 2 is the pure Dutch pairing of the same history
    with app.app_context():
        from arbiter.tournaments import tournament_results as res

        history = res.paired_rounds(t["id"], before=2)
        expected = pairing.swiss_round(
            [e for e in res.seeding(t["id"]) if e not in (half, zero)],
            res.results(t["id"]),
            {},
            2,
            2,
            pairing.default_scoring(2),
            3,
            history=history,
            seeding=res.seeding(t["id"]),
        )
    assert [list(table.players) for table in expected.tables] == [
        [p["entry"] for p in table["players"]] for table in second["tables"]
    ]


def test_a_round_robin_has_no_byes_to_ask_for(app):
    client = app.test_client()
    organiser, ann, bob = accounts(client, app, 3)
    t = create(client, organiser, format="round_robin", rounds=None)
    (entry, _) = enter_all(client, t["id"], [ann, bob])
    problem(
        client.post(
            f"/v1/tournaments/{t['id']}/entries/{entry}/byes",
            json={"round": 1, "bye": "half"},
            headers=auth(ann),
        ),
        409,
        "byes-swiss-only",
    )


def test_the_page_asks_for_a_bye_and_takes_it_back(client, app):
    organiser = accounts(client, app, 1)[0]
    t = create(client, organiser, name="Bye Swiss", rounds=3)
    browser = app.test_client()
    browser_sign_in(browser, app, "ann@example.org", "Ann")
    page = browser.get(f"/tournaments/{t['id']}").get_data(as_text=True)
    entered = browser.post(
        f"/tournaments/{t['id']}/enter", data={"csrf_token": csrf(page)}, follow_redirects=True
    ).get_data(as_text=True)
    assert "Ask for a bye" in entered
    entry = client.get(f"/v1/tournaments/{t['id']}").json["entries"][0]["id"]
    done = browser.post(
        f"/tournaments/{t['id']}/entries/{entry}/byes",
        data={"csrf_token": csrf(entered), "round": "2", "bye": "half"},
        follow_redirects=True,
    ).get_data(as_text=True)
    assert "You have a half-point bye in round 2" in done
    assert "Byes you asked for: round 2 (half a point)" in done
    api = client.get(f"/v1/tournaments/{t['id']}").json["entries"][0]
    assert api["byes_requested"] == {"2": "H"}
    wrong = browser.post(
        f"/tournaments/{t['id']}/entries/{entry}/byes",
        data={"csrf_token": csrf(done), "round": "9", "bye": "half"},
    )
    assert wrong.status_code == 422 and "not round 9" in wrong.get_data(as_text=True)
    back = browser.post(
        f"/tournaments/{t['id']}/entries/{entry}/byes",
        data={"csrf_token": csrf(done), "round": "2", "bye": "none"},
        follow_redirects=True,
    ).get_data(as_text=True)
    assert "No bye in round 2" in back and "Byes you asked for" not in back
