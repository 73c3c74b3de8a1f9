"""Engines are pure (DESIGN.md, "Dependency direction"): they import nothing from
Flask, SQLAlchemy, Celery or ``arbiter``, and no clock, randomness or I/O module."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINES = Path(__file__).resolve().parents[2] / "engines"
FORBIDDEN = {
    "flask",
    "flask_sqlalchemy",
    "flask_smorest",
    "sqlalchemy",
    "celery",
    "kombu",
    "redis",
    "arbiter",
    "workers",
    "random",
    "secrets",
    "time",
    "datetime",
    "requests",
    "socket",
    "smtplib",
    "subprocess",
}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize(
    "path", sorted(ENGINES.rglob("*.py")), ids=lambda p: str(p.relative_to(ENGINES))
)
def test_engine_modules_import_nothing_impure(path):
    assert not imported_roots(path) & FORBIDDEN
