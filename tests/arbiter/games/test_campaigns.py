"""Campaigns (issue 4, "Bonuses and campaigns"; rules/star-maps.md, "Bonuses"): bonuses
the losers choose carry over to the campaign's later games."""

from __future__ import annotations

from arbiter import fairness
from tests.helpers import agreed, auth, play_out


def create(client, players=2, engine="star-maps"):
    agreed(client.application, *(f"p{i}@example.org" for i in range(players)))
    return client.post(
        "/v1/campaigns",
        json={
            "engine": engine,
            "name": "Spring league",
            "players": [{"name": f"P{i}", "email": f"p{i}@example.org"} for i in range(players)],
        },
    )


def next_game(client, campaign, token, **body):
    return client.post(
        f"/v1/campaigns/{campaign}/games", json=body, headers=auth(token) if token else {}
    )


def test_a_campaign_carries_the_losers_bonus_into_its_next_game(app, client, monkeypatch):
    """Given a 2-player campaign whose first game has a loser, the bonus the loser chose
    and those unlocked in play are unlocked in the second game's options, and the
    campaign lists both games."""
    monkeypatch.setattr(fairness, "new_seed", lambda: "11" * 32)  # a game with a loser
    created = create(client)
    assert created.status_code == 201
    campaign, token = created.json["id"], created.json["token"]
    assert created.json["carried"] == {"unlocked_bonuses": []}
    first = next_game(client, campaign, token)
    assert first.status_code == 201
    assert first.json["options"]["unlocked_bonuses"] == []
    tokens = [s["token"] for s in first.json["seats"]]
    busy = next_game(client, campaign, token)
    assert busy.status_code == 409 and busy.json["code"] == "campaign-game-active"
    final = play_out(client, app, first.json["id"], tokens, seed=3)
    result = final["result"]
    chosen = result.get("new_bonus")
    assert chosen, result  # two players who do not tie: the loser chooses
    in_play = [u["bonus"] for u in result["unlocked_in_play"]]
    carried = result["unlocked_after"]
    assert set(carried) == {chosen, *in_play}
    summary = client.get(f"/v1/campaigns/{campaign}").json
    assert summary["games"][0]["id"] == first.json["id"]
    assert summary["carried"]["unlocked_bonuses"] == carried
    second = next_game(client, campaign, token, options={"sheet": "arms"})
    assert second.status_code == 201
    assert second.json["options"]["unlocked_bonuses"] == carried
    assert second.json["options"]["sheet"] == "arms"
    assert [g["number"] for g in client.get(f"/v1/campaigns/{campaign}").json["games"]] == [1, 2]


def test_a_solo_campaign_carries_the_bonuses_unlocked_in_play(app, client, monkeypatch):
    """Given a solo campaign (no losers, so no choice), when its first game unlocks
    bonuses by finding the last star of a type, then the second game starts with them
    (rules/star-maps.md, "Bonuses": "players unlock bonuses for future use"; issue 15,
    1: a solo game could never use a bonus before)."""
    monkeypatch.setattr(fairness, "new_seed", lambda: "22" * 32)
    created = create(client, players=1).json
    first = next_game(client, created["id"], created["token"]).json
    final = play_out(client, app, first["id"], [first["seats"][0]["token"]], seed=5)
    in_play = [u["bonus"] for u in final["result"]["unlocked_in_play"]]
    assert in_play, final["result"]  # this seed finds the last star of some type
    assert final["result"]["new_bonus"] is None
    second = next_game(client, created["id"], created["token"])
    assert second.status_code == 201
    assert set(second.json["options"]["unlocked_bonuses"]) == set(in_play)
    assert client.get(f"/v1/campaigns/{created['id']}").json["carried"] == {
        "unlocked_bonuses": second.json["options"]["unlocked_bonuses"]
    }


def test_campaign_bad_input_is_refused(client):
    assert create(client, engine="space-worm").json["code"] == "no-campaigns"
    assert create(client, engine="chess").json["code"] == "unknown-engine"
    assert create(client, players=5).json["code"] == "bad-player-count"
    campaign = create(client).json["id"]
    assert next_game(client, campaign, None).json["code"] == "missing-token"
    assert next_game(client, campaign, "x" * 40).json["code"] == "bad-token"
    assert client.get("/v1/campaigns/nope").json["code"] == "campaign-not-found"
