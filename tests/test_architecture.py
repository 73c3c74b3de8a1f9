"""No import cycles (DESIGN.md, "Layout"): the module-level imports of arbiter, workers
and engines form no cycle. An import inside a function that would dodge one is refused
by ruff (PLC0415, pyproject.toml), and the layers themselves by import-linter
(``lint-imports``, contracts in pyproject.toml); this test is what makes a cycle fail.

The graph is read from the source (ast), so it is the import statements as written:
``from a.b import c`` is an edge to ``a.b.c`` when that is a module, else to ``a.b``;
importing ``a.b.c`` also runs the packages ``a`` and ``a.b`` (an edge to each, unless
the importing module is inside it, where the package is already running). Imports
inside functions and under ``if TYPE_CHECKING:`` are not executed at import time and
are left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("arbiter", "workers", "engines")


def _name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


FILES = {
    _name(p): p
    for package in PACKAGES
    for p in sorted((ROOT / package).rglob("*.py"))
    if "migrations" not in p.parts
}


def _module_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    found = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                visit(ast.Module(body=child.orelse, type_ignores=[]))  # the body never runs
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append(child)
            visit(child)

    visit(tree)
    return found


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> set[str]:
    if isinstance(node, ast.Import):
        named = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            here = module.split(".")
            if FILES[module].name != "__init__.py":
                here = here[:-1]
            here = here[: len(here) - (node.level - 1)]
            base = ".".join(here + ([base] if base else []))
        named = [f"{base}.{a.name}" if f"{base}.{a.name}" in FILES else base for a in node.names]
    out = set()
    for target in named:
        if target not in FILES:
            continue
        parts = target.split(".")
        for i in range(1, len(parts) + 1):
            package = ".".join(parts[:i])
            inside = module == package or module.startswith(package + ".")
            if package in FILES and (i == len(parts) or not inside):
                out.add(package)
    out.discard(module)
    return out


def import_graph() -> nx.DiGraph:
    """Return the graph of module-level imports among the packages' modules."""
    graph = nx.DiGraph()
    graph.add_nodes_from(FILES)
    for module, path in FILES.items():
        for node in _module_level_imports(ast.parse(path.read_text(), str(path))):
            graph.add_edges_from((module, target) for target in _targets(module, node))
    return graph


def test_the_import_graph_is_read():
    graph = import_graph()
    assert graph.has_edge("arbiter.games.moves", "arbiter.games.transition")
    assert graph.has_edge("arbiter.streams.hub", "arbiter.games")  # a package runs first
    assert not graph.has_edge("arbiter.games.moves", "arbiter.games")  # already running
    assert graph.number_of_edges() > 500


def test_no_import_cycle():
    graph = import_graph()
    cycles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    shown = []
    for component in cycles:
        cycle = nx.find_cycle(graph.subgraph(component))
        shown.append(" -> ".join([a for a, _ in cycle] + [cycle[0][0]]))
    assert not cycles, "import cycles:\n" + "\n".join(shown)
