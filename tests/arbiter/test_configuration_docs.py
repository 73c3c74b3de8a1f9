"""The configuration page of the docs (``docs/operating/configuration.md``) and the
settings the code reads agree (issue 27): every variable ``arbiter.config.load`` reads is
in the page's tables, and every variable the tables name is read somewhere (the config,
another module, the Procfile or the Makefile)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from arbiter import config

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "operating" / "configuration.md"


class Recording(Mapping):
    """An empty environment that remembers every name asked of it."""

    def __init__(self) -> None:
        self.asked: set[str] = set()

    def __getitem__(self, name: str) -> str:
        self.asked.add(name)
        raise KeyError(name)

    def get(self, name, default=None):
        self.asked.add(name)
        return default

    def __contains__(self, name) -> bool:
        self.asked.add(name)
        return False

    def __iter__(self):
        return iter(())

    def __len__(self) -> int:
        return 0


def documented() -> set[str]:
    """Return the variables named in the first column of the page's tables."""
    names = set()
    for line in PAGE.read_text().splitlines():
        if line.startswith("| `"):
            names |= set(re.findall(r"`([A-Z][A-Z0-9_]+)`", line.split("|")[1]))
    return names


def read_anywhere() -> str:
    """Return the text of every place a variable can be read from."""
    places = [*(ROOT / "arbiter").rglob("*.py"), *(ROOT / "workers").rglob("*.py")]
    places += [ROOT / "Procfile", ROOT / "Makefile"]
    return "\n".join(p.read_text() for p in places)


def test_every_variable_the_config_reads_is_documented(tmp_path):
    env = Recording()
    config.load(str(tmp_path), env)
    missing = sorted(env.asked - documented())
    assert not missing, f"read but not in {PAGE.name}: {missing}"


def test_every_documented_variable_is_read():
    text = read_anywhere()
    unread = sorted(n for n in documented() if not re.search(rf"\b{n}\b", text))
    assert not unread, f"in {PAGE.name} but read nowhere: {unread}"
