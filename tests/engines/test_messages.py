"""Player-facing engine texts: errors echo input as JSON, notation help is plain text.

Engine errors reach players verbatim (problem+json ``detail``, mails), so an echoed input
must read as the JSON the player sent (``null``, ``["fly"]``), never as Python
(``None``, ``['fly']``); the ``notation`` help is mailed as is, so it carries no markup.
"""

from __future__ import annotations

import random
import re

import pytest

import engines
from arbiter.playout import random_game
from engines.base import Chance, Decision, Engine, EngineError, shown
from tests.engines.worms.helpers import start as worms_start

ENGINES = engines.all_engines()
PYTHON_REPR = re.compile(r"\b(None|True|False)\b|\['|\{'|'\]|'\}|\\'")
GARBAGE_MOVES = [
    None,
    True,
    False,
    3.5,
    ["fly"],
    {"die": 3},
    {"die": None, "direction": "up"},
    {"die": 1, "direction": None},
    {"die": 1, "heart": "yes"},
    {"die": 1, "extra": [1]},
    {"move": "jump", "to": "3,-1"},
    {"move": "inch", "dir": None},
    {"move": True},
    {"move": "activate", "worm": None},
    {"move": "skip", "extra": None},
    {"place": None},
    {"place": "fly", "end": None},
    {"play": None},
    {"play": ["fly"]},
    {"play": "mv-nope"},
    {"ant": None},
    {"swap": None},
    {"swap": "one"},
    {"act": None},
    {"act": "dice"},
    {"act": "dice", "star": None, "write": 2, "box": "A1"},
    {"act": "connect", "connection": None},
    {"act": "connect", "connection": "C3", "bonuses": [{"bonus": None}]},
    {"act": "choose-bonus", "bonus": True},
    {"act": "choose-bonus", "bonus": "nope"},
]
GARBAGE_TEXT = [
    "",
    "fly away",
    "jump 3,,",
    "inch north",
    "pick die 9",
    "order worms",
    "die 3 sideways",
    "place fly middle",
    "play nope",
    "swap nope",
    "x" * 200,
]
GARBAGE_OUTCOMES = [None, True, {"die": 3}, ["a"], [None], [0], [99, 99], "1,1,1"]


def test_shown_writes_json_and_cuts_long_values() -> None:
    """Given player input, then ``shown`` writes it as compact JSON, cut with "…"."""
    assert shown(None) == "null"
    assert shown(True) == "true"
    assert shown(["fly"]) == '["fly"]'
    assert shown({"die": 3}) == '{"die": 3}'
    assert shown("fly") == '"fly"'
    assert shown("grün") == '"grün"'
    assert shown({1, 2}) == "{1, 2}"  # not JSON: str
    long = shown("x" * 200)
    assert len(long) == 60 and long.endswith("…") and long.startswith('"xxx')


def _sample_states(engine: Engine) -> list[dict]:
    """Return some decision and chance states of a random game of ``engine``."""
    rng = random.Random(f"messages-{engine.id}")
    game = random_game(engine, 2, {}, rng, keep_states=True)
    return [engine.setup(2, engine.load_options(2, {})), *game.states[:40:4], *game.states[-3:]]


def _detail(call) -> str | None:
    try:
        call()
    except EngineError as err:
        return err.detail
    return None


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.id)
def test_errors_echo_input_as_json_not_python(engine: Engine) -> None:
    """Given garbage moves, texts and outcomes, when refused, then no detail shows a
    Python repr (``None``, ``True``, ``['fly']``, ``{'die': 3}``)."""
    details = []
    for state in _sample_states(engine):
        prompt = engine.prompt(state)
        seats = list(prompt.seats) if isinstance(prompt, Decision) else [0]
        for mv in GARBAGE_MOVES:
            details.append(_detail(lambda: engine.play(state, seats[0], mv)))
        for text in GARBAGE_TEXT:
            details.append(_detail(lambda: engine.parse(text, state, seats[0])))
        if isinstance(prompt, Chance):
            for outcome in GARBAGE_OUTCOMES:
                details.append(_detail(lambda: engine.resolve(state, outcome)))
    details.append(_detail(lambda: engine.load_options(engine.min_players, {"bogus": None})))
    details.append(_detail(lambda: engine.load_options(99, {})))
    shown_details = [d for d in details if d]
    assert shown_details
    for detail in shown_details:
        assert not PYTHON_REPR.search(detail), detail


def test_worms_echoes_a_malformed_jump_as_sent() -> None:
    """Given ``{"move": "jump", "to": "3,-1"}`` (a string hex), then the detail shows that
    move and a right one, not the garbled notation ``3,,``."""
    worms = engines.get("worms")
    detail = _detail(lambda: worms.play(worms_start(2), 0, {"move": "jump", "to": "3,-1"}))
    assert detail == (
        'Not a well-formed Worms move: {"move": "jump", "to": "3,-1"}; '
        'for example {"move": "jump", "to": [3, -1]}.'
    )


def test_worms_names_the_decision_it_waits_for() -> None:
    """Given the activate decision, when a seat inches, then "an activate decision"."""
    worms = engines.get("worms")
    detail = _detail(lambda: worms.play(worms_start(2), 0, {"move": "inch", "dir": 3}))
    assert detail == "The game asks for an activate decision, not 'inch 3'."


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.id)
def test_notation_help_is_plain_text(engine: Engine) -> None:
    """Given the notation help (API and mails), then it has no reStructuredText or
    Markdown markup: no backticks, no table rules."""
    text = engine.notation
    assert text.strip()
    assert "`" not in text
    assert not re.search(r"^\s*[=\-]{4,}", text, re.M), text
