"""Every public piece of the Dark Horse package says what it is (STYLE.md, "What we
take from all of them" 7; the import purity of engines is tests/engines/test_purity.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import engines.dark_horse

PACKAGE = Path(engines.dark_horse.__file__).parent


def test_every_public_function_has_a_docstring() -> None:
    """Given the package's modules, public functions, classes and methods, then each has
    a docstring."""
    modules = sorted(PACKAGE.glob("*.py"))
    assert len(modules) >= 6
    for path in modules:
        tree = ast.parse(path.read_text())
        assert ast.get_docstring(tree), path.name
        nodes = [*tree.body, *(n for c in tree.body if isinstance(c, ast.ClassDef) for n in c.body)]
        for node in nodes:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
                assert ast.get_docstring(node), f"{path.name}: {node.name}"
