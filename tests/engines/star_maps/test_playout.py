"""Invariants over random games on every sheet, 1 to 4 players, with and without bonuses.

rules/star-maps.md, "Game End" (every game ends), "Choose Phase" (every asked seat has a
move; answers are independent), "Final Scoring" (scores add up); DESIGN.md, "Engines: pure
functions of state and input" (replay). ``ARBITER_PLAYOUTS`` sets the number of games
(default 200; the soak run uses 10,000).
"""

from __future__ import annotations

import ast
import itertools
import json
import os
import random
from pathlib import Path

from arbiter.playout import random_game
from engines.base import Decision, EngineError, Input, fold
from engines.star_maps import ENGINE
from engines.star_maps.bonuses import BONUS_IDS, BONUS_LIMIT, UNLOCKED_BY
from engines.star_maps.scoring import rank
from engines.star_maps.sheet import SHEETS

from .helpers import ALL_BONUSES

GAMES = int(os.environ.get("ARBITER_PLAYOUTS", "200"))
CONFIGS = list(
    itertools.product(sorted(SHEETS), (1, 2, 3, 4), ([], ALL_BONUSES, ["echo", "bridge"]))
)
FORBIDDEN = {"flask", "sqlalchemy", "celery", "arbiter", "random", "time", "os", "socket"}


def games():
    """Yield ``(options, players, playout)`` for GAMES random games, cycling the configs."""
    rng = random.Random("star-maps-playouts")
    for i in range(GAMES):
        sheet, players, bonuses = CONFIGS[i % len(CONFIGS)]
        options = {"sheet": sheet, "unlocked_bonuses": bonuses}
        yield options, players, random_game(ENGINE, players, options, rng, keep_states=i % 10 == 0)


def reversed_rounds(inputs):
    """Return the inputs with each round's answers (and the votes) in reverse order."""
    out, block = [], []
    for item in inputs:
        if item.kind == "chance" or (
            item.value["act"] == "choose-bonus"
            and block
            and block[-1].value["act"] != "choose-bonus"
        ):
            out += block[::-1]
            block = []
        (out if item.kind == "chance" else block).append(item)
    return out + block[::-1]


def check_result(options, players, state, result):
    layout = SHEETS[options["sheet"]]
    assert sorted(s for g in result["ranking"] for s in g) == list(range(players))
    details = result["details"]
    assert result["scores"] == [d["total"] for d in details]
    in_play = result["unlocked_in_play"]
    usable = set(options["unlocked_bonuses"]) | {u["bonus"] for u in in_play}
    assert result["unlocked_bonuses"] == [b for b in BONUS_IDS if b in usable]
    for u in in_play:
        assert u["bonus"] not in options["unlocked_bonuses"] and u["by"]
        assert UNLOCKED_BY[u["type"]] == u["bonus"]
        assert all(u["type"] in details[seat]["complete_types"] for seat in u["by"])
    found = {t for d in details for t in d["complete_types"]}
    assert {UNLOCKED_BY[t] for t in found} <= usable
    for d in details:
        assert d["total"] == sum(d["by_type"].values()) + d["sheet_points"]
        assert sum(d["by_type"].values()) == sum(d["stars"].values())
        assert len(d["bonuses_used"]) <= BONUS_LIMIT
        assert set(d["bonuses_used"]) <= usable
    assert result["ranking"] == rank(result["scores"], [len(d["bonuses_used"]) for d in details])
    assert result["ended_round"] <= len(layout.boxes) + len(layout.connections) + 1
    assert result["cannot_move"]
    after = usable | ({result["new_bonus"]} if result["new_bonus"] else set())
    assert result["unlocked_after"] == [b for b in BONUS_IDS if b in after]
    if result["new_bonus"] is not None:
        assert players > 1 and result["new_bonus"] not in usable
        assert result["new_bonus"] in result["votes"]
        assert {s for s, v in enumerate(result["votes"]) if v} == set(result["losers"])


def check_step(state, options):
    """At one state: every owing seat has moves that all play, describe/parse back, and
    exactly the listed plain moves are accepted among all candidates."""
    prompt = ENGINE.prompt(state)
    if not isinstance(prompt, Decision):
        return
    layout = SHEETS[options["sheet"]]
    for seat in prompt.seats:
        moves = ENGINE.legal_moves(state, seat)
        assert moves and ENGINE.timeout_move(state, seat) in moves
        for move in moves:
            assert ENGINE.parse(ENGINE.describe(move), state, seat) == move
            ENGINE.play(state, seat, move)
        if prompt.kind != "choose":
            continue
        candidates = [{"act": "pass"}] + [
            {"act": "connect", "connection": c} for c in layout.connections
        ]
        candidates += [
            {"act": "dice", "star": s, "write": w, "box": b}
            for s, w in {tuple(state["roll"]), tuple(state["roll"][::-1])}
            for b in layout.boxes
        ]
        for move in candidates:
            try:
                ENGINE.play(state, seat, move)
                accepted = True
            except EngineError:
                accepted = False
            assert accepted == (move in moves), move


def test_random_games_end_replay_and_score_consistently():
    """Game End, Final Scoring, Choose Phase. Given random legal games, then each ends (no
    dead end, no runaway), replays to the same state, also when each round's answers come
    in reverse order, round-trips through JSON, and its scores add up."""
    played = 0
    for options, players, game in games():
        state = game.state
        assert fold(ENGINE, players, options, game.inputs) == state
        assert fold(ENGINE, players, options, reversed_rounds(game.inputs)) == state
        assert json.loads(json.dumps(state)) == state
        check_result(options, players, state, game.result)
        for step in game.states:
            check_step(step, options)
        played += 1
    assert played == GAMES


def test_bonuses_and_votes_happen_in_random_games():
    """Bonuses. Given random games with bonuses unlocked, then some seats use bonuses, some
    use two, and some games end with a vote for a new bonus; given games with no bonus
    unlocked at the start, then some unlock bonuses in play and some seats use them
    ("During the course of the game, players unlock bonuses for future use"), solo games
    included, and some votes choose none."""
    used, two, votes, unlocked, used_in_play, solo_used, nones = 0, 0, 0, 0, 0, 0, 0
    rng = random.Random("star-maps-bonus-coverage")
    for i in range(48):
        sheet, players = ("plain", "arms")[i % 2], 1 + i % 4
        game = random_game(ENGINE, players, {"sheet": sheet, "unlocked_bonuses": ALL_BONUSES}, rng)
        counts = [len(d["bonuses_used"]) for d in game.result["details"]]
        used += sum(1 for c in counts if c)
        two += counts.count(2)
        game = random_game(ENGINE, players, {"sheet": sheet}, rng)
        votes += game.result["new_bonus"] is not None
        nones += "none" in game.result["votes"]
        unlocked += bool(game.result["unlocked_in_play"])
        in_play = sum(bool(d["bonuses_used"]) for d in game.result["details"])
        used_in_play += in_play
        solo_used += players == 1 and in_play
    assert used and two and votes and unlocked and used_in_play and solo_used and nones


def test_a_state_never_changes_in_place():
    """DESIGN.md, "Engines: pure functions": given a state, when every legal move is played
    from it, then the state is unchanged."""
    rng = random.Random("star-maps-purity")
    game = random_game(
        ENGINE, 3, {"sheet": "arms", "unlocked_bonuses": ALL_BONUSES}, rng, keep_states=True
    )
    for state in game.states[::5]:
        frozen = json.dumps(state, sort_keys=True)
        for seat in ENGINE.to_act(state):
            for move in ENGINE.legal_moves(state, seat):
                ENGINE.play(state, seat, move)
        ENGINE.view(state, None)
        assert json.dumps(state, sort_keys=True) == frozen


def test_the_engine_imports_nothing_impure():
    """DESIGN.md, "Engines": no Flask, SQLAlchemy, Celery, arbiter, clock or randomness."""
    package = Path(ENGINE.__class__.__module__.replace(".", "/")).parent
    root = Path(__file__).resolve().parents[3]
    for path in (root / package).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            assert not {n.split(".")[0] for n in names} & FORBIDDEN, (path, names)


def test_inputs_logged_for_one_seat_replay_as_inputs():
    """Round. Given the inputs of a game, then they are Input values of kind move or chance
    only (a game is a fold of them)."""
    rng = random.Random("star-maps-inputs")
    game = random_game(ENGINE, 2, {}, rng)
    assert {i.kind for i in game.inputs} == {"move", "chance"}
    assert all(isinstance(i, Input) for i in game.inputs)
