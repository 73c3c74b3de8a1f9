"""The tournament package is pure (notes/TOURNAMENTS.md: "No I/O, no DB, no Flask"): it
imports nothing from the web, the database, the queue or the rest of ``arbiter``, and no
clock or I/O module. (``random`` is allowed: only a ``random.Random`` seeded from the input.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.engines.test_purity import imported_roots

PACKAGE = Path(__file__).resolve().parents[2] / "arbiter" / "tournaments" / "formats"
FORBIDDEN = {
    "flask",
    "flask_sqlalchemy",
    "flask_smorest",
    "sqlalchemy",
    "celery",
    "kombu",
    "redis",
    "workers",
    "engines",
    "secrets",
    "time",
    "datetime",
    "requests",
    "socket",
    "smtplib",
    "subprocess",
    "os",
    "pathlib",
}


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: p.name)
def test_tournament_modules_import_nothing_impure(path):
    assert not imported_roots(path) & FORBIDDEN


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: p.name)
def test_tournament_modules_import_only_themselves_from_arbiter(path):
    text = path.read_text()
    for line in text.splitlines():
        if line.startswith("from arbiter") or line.startswith("import arbiter"):
            assert line.startswith("from arbiter.tournaments"), line


def test_no_module_level_random_calls():
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text()
        for call in ("random.choice(", "random.shuffle(", "random.random(", "random.seed("):
            assert call not in text, (path.name, call)
