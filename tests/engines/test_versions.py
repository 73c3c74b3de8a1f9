"""Rules versions, one mechanism for every game (engines/base.py, "Rules versions"): an
older version is a subclass of the next newer version's engine class, listed newest
first in ``older_versions``, and ``at_version`` finds exactly those; no engine code but
``base.py`` reads a version to decide anything (what an old version did lives in its
subclass), and a state records none."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import engines
from engines.base import Engine

ENGINES = Path(engines.__file__).parent
VERSION_NAMES = {"version", "rules_version"}


@pytest.mark.parametrize("engine", engines.all_engines(), ids=lambda e: e.id)
def test_older_versions_are_subclasses_each_one_step_back(engine: Engine) -> None:
    """Given an engine, then each older version it plays subclasses the next newer
    version's class, the versions go down from today's, and ``at_version`` returns one
    instance of each (the registry's ``engines.at_version`` the same), today's engine for
    today's version and None for any version not listed."""
    chain = [type(engine), *engine.older_versions]
    numbers = [int(cls.version) for cls in chain]
    assert numbers == sorted(set(numbers), reverse=True) and len(chain) > 1
    for newer, older in zip(chain, chain[1:]):
        assert older.__mro__[1] is newer, f"{older.__name__} is not a subclass of {newer.__name__}"
    assert engine.at_version(engine.version) is engine
    for cls in engine.older_versions:
        old = engine.at_version(cls.version)
        assert type(old) is cls and old.version == cls.version
        assert old is engine.at_version(cls.version) is engines.at_version(engine.id, cls.version)
    for unknown in (None, "0", str(numbers[0] + 1), "1.0"):
        assert engine.at_version(unknown) is None


@pytest.mark.parametrize("engine", engines.all_engines(), ids=lambda e: e.id)
def test_a_new_game_state_records_no_version(engine: Engine) -> None:
    """Given a new game of any version, then its state has no ``rules_version``: the game
    row records the version, the engine of that version plays it."""
    for version in [engine.version, *(cls.version for cls in engine.older_versions)]:
        played = engine.at_version(version)
        players = played.min_players if played.min_players > 1 else 2
        state = played.setup(players, played.load_options(players, {}))
        assert "rules_version" not in state


def version_tests(path: Path) -> list[str]:
    """Return the places in ``path`` that compare a version or name ``rules_version``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Compare):
            for side in [node.left, *node.comparators]:
                name = side.attr if isinstance(side, ast.Attribute) else getattr(side, "id", None)
                if name in VERSION_NAMES:
                    found.append(f"{path.relative_to(ENGINES)}:{node.lineno} compares {name}")
        if isinstance(node, ast.Constant) and node.value == "rules_version":
            found.append(f"{path.relative_to(ENGINES)}:{node.lineno} names rules_version")
    return found


def test_no_engine_code_decides_by_a_version() -> None:
    """Given every engine module but ``base.py`` (whose ``at_version`` finds a version's
    class), then none compares a version or reads a ``rules_version``: today's code plays
    today's rules, and an old version's differences are overrides in its subclass."""
    found = [
        place
        for path in sorted(ENGINES.rglob("*.py"))
        if path.name != "base.py"
        for place in version_tests(path)
    ]
    assert found == []
