"""A finished Worms game's replay tells its shuffles and rolls in the rulebook's words
(issue 23, item 4: people's language), not the log's ids ("shuffle of 8
(starter_pool)", "scatter: 5")."""

from __future__ import annotations

import re

from tests.helpers import new_game, play_out

ROLLED = r"The (Accuracy dice|die|dice|Danger Flipper)\b[^<]*? (shows|show|landed) "


def test_a_worms_replay_tells_shuffles_and_rolls_in_words(app, client):
    game_id, tokens = new_game(client, "worms", players=2)
    play_out(client, app, game_id, tokens, seed=1)
    events = client.get(f"/v1/games/{game_id}/record").json["events"]
    chances = [(i + 1, e["payload"]["spec"]) for i, e in enumerate(events) if e["kind"] == "chance"]
    shuffle = next(i for i, spec in chances if spec.get("deck") == "starter_pool")
    roll = next(i for i, spec in chances if spec.get("kind") == "dice")
    said = {shuffle: r"The Starter cards were shuffled\.", roll: ROLLED}
    for step, words in said.items():
        page = client.get(f"/games/{game_id}/replay?step={step}").get_data(as_text=True)
        assert re.search(words, page), step
        assert "starter_pool" not in page and "shuffle of" not in page
