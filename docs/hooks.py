"""MkDocs hook: the rulebooks shipped in ``engines/rules/`` become pages of the docs
(``rules/<engine>.md``), read as the service reads them for ``/rules/<engine>``
(:func:`arbiter.web.rulebooks.blocks`), so that the docs and a deployment show the same
books and a clone needs nothing beside it."""

from __future__ import annotations

import sys
from pathlib import Path

from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arbiter.web.rulebooks import BOOKS, blocks  # noqa: E402 (after the path above)


def markdown(book: str) -> str:
    """Return a rulebook's text as Markdown: its title, headings, paragraphs, lists."""
    parts = blocks(book)
    out = [f"# {parts[0].text}\n"]
    for block in parts[1:]:
        if block.kind == "heading":
            out.append(f"{'#' * block.level} {block.text} {{#{block.anchor}}}\n")
        elif block.kind == "contents":
            links = zip(block.items, block.anchors, strict=True)
            out.append("\n".join(f"- [{item}](#{name})" for item, name in links) + "\n")
        elif block.kind == "table":
            head, *rows = block.rows
            lines = [head, ["---"] * len(head), *rows]
            out.append("\n".join("| " + " | ".join(r) + " |" for r in lines) + "\n")
        elif block.kind == "list":
            out.append("\n".join(f"- {item}" for item in block.items) + "\n")
        else:
            out.append(block.text + "\n")
    return "\n".join(out)


def on_files(files, config):
    """Add one generated page per rulebook."""
    for path in sorted(Path(str(BOOKS)).glob("*.md")):
        files.append(
            File.generated(config, f"rules/{path.name}", content=markdown(path.read_text()))
        )
    return files
