"""Campaigns (issue 4, "Bonuses and campaigns"; rules/star-maps.md, "Bonuses"): bonuses
the losers choose carry over to the campaign's later games."""

from __future__ import annotations

from arbiter import fairness
from tests.helpers import auth, play_out


def create(client, players=2, engine="star-maps"):
    return client.post("/v1/campaigns", json={
        "engine": engine, "name": "Spring league",
        "players": [{"name": f"P{i}", "email": f"p{i}@example.org"} for i in range(players)]})


def next_game(client, campaign, token, **body):
    return client.post(f"/v1/campaigns/{campaign}/games", json=body,
                       headers=auth(token) if token else {})


def test_a_campaign_carries_the_losers_bonus_into_its_next_game(app, client, monkeypatch):
    """Given a 2-player campaign whose first game has a loser, the bonus the loser chose
    is unlocked in the second game's options, and the campaign lists both games."""
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
    chosen = final["result"].get("new_bonus")
    assert chosen, final["result"]  # two players who do not tie: the loser chooses
    summary = client.get(f"/v1/campaigns/{campaign}").json
    assert summary["games"][0]["id"] == first.json["id"]
    assert summary["carried"]["unlocked_bonuses"] == ([chosen] if chosen else [])
    second = next_game(client, campaign, token, options={"sheet": "arms"})
    assert second.status_code == 201
    assert second.json["options"]["unlocked_bonuses"] == ([chosen] if chosen else [])
    assert second.json["options"]["sheet"] == "arms"
    assert [g["number"] for g in client.get(f"/v1/campaigns/{campaign}").json["games"]] == [1, 2]


def test_campaign_bad_input_is_refused(client):
    assert create(client, engine="space-worm").json["code"] == "no-campaigns"
    assert create(client, engine="chess").json["code"] == "unknown-engine"
    assert create(client, players=5).json["code"] == "bad-player-count"
    campaign = create(client).json["id"]
    assert next_game(client, campaign, None).json["code"] == "missing-token"
    assert next_game(client, campaign, "x" * 40).json["code"] == "bad-token"
    assert client.get("/v1/campaigns/nope").json["code"] == "campaign-not-found"
