"""The engine registry: every game the arbiter runs, by id.

Each game is a package under ``engines/`` exposing ``ENGINE``, an instance of
:class:`engines.base.Engine`. Engines import nothing from Flask, SQLAlchemy, Celery
or ``arbiter`` (``tests/engines/test_purity.py`` checks it).
"""

from __future__ import annotations

import importlib

from engines.base import Engine

ENGINE_MODULES: dict[str, str] = {
    "space-worm": "engines.space_worm",
    "dark-horse": "engines.dark_horse",
    "worms": "engines.worms",
    "star-maps": "engines.star_maps",
}
"""Engine id -> the module that exposes ``ENGINE``."""


class UnknownEngine(KeyError):
    """No engine with that id is registered."""


def get(engine_id: str) -> Engine:
    """Return the engine registered as ``engine_id``.

    :raises UnknownEngine: no such engine.
    """
    try:
        module = ENGINE_MODULES[engine_id]
    except (KeyError, TypeError):
        raise UnknownEngine(engine_id) from None
    return importlib.import_module(module).ENGINE


def at_version(engine_id: str, version: str | None) -> Engine | None:
    """Return the engine ``engine_id`` playing the rules of ``version`` (the version a
    game or a record was made with), or None when this code no longer plays them
    (:meth:`engines.base.Engine.at_version`).

    :raises UnknownEngine: no such engine.
    """
    return get(engine_id).at_version(version)


def all_engines() -> list[Engine]:
    """Return every registered engine, in registry order."""
    return [get(engine_id) for engine_id in ENGINE_MODULES]
