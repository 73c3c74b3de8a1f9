"""The rulebooks in the product: each game's rulebook, shipped with the package
(``engines/rules/<engine>.md``, the books the engines cite as ``rules/<engine>.md``), as
a page at ``/rules/<engine>`` linked from game pages and turn mails.

The books are plain text (a title, short heading lines, paragraphs, lists of ``•`` or
``-`` items), not Markdown: :func:`blocks` reads them into headings, paragraphs and
lists; each heading gets an anchor (``#special-cards``), so that a rule's source
(``rules/dark-horse.md, "Special Cards"``) has an address.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib.resources import files

from flask import render_template

import engines
from arbiter.web.routes import bp

BOOKS = files("engines") / "rules"
"""The folder of the rulebooks in the installed package."""

LONGEST_HEADING = 60
"""A line longer than this (characters) is never a heading."""

ITEM = re.compile(r"^\s*(?:•|-)\s+")


@dataclass
class Block:
    """One piece of a book: ``kind`` is ``heading``, ``paragraph`` or ``list``."""

    kind: str
    text: str = ""
    items: list[str] = field(default_factory=list)
    anchor: str = ""


def anchor(heading: str) -> str:
    """Return the anchor of a heading: lower case, words joined by ``-``."""
    return "-".join(re.findall(r"[a-z0-9]+", heading.lower()))


def is_heading(line: str, following: str) -> bool:
    """Tell whether ``line`` reads as a heading: short, no end punctuation, not an item,
    and followed by text."""
    text = line.strip()
    return (
        bool(text)
        and len(text) <= LONGEST_HEADING
        and not ITEM.match(line)
        and text[-1] not in ".,;:!?)"
        and bool(following.strip())
    )


def blocks(book: str) -> list[Block]:
    """Return the book's text as blocks, in order (the "Table of Contents" headings and
    their lists kept: they are the book's own)."""
    lines = book.splitlines()
    out: list[Block] = []
    for number, line in enumerate(lines):
        following = next((x for x in lines[number + 1 :] if x.strip()), "")
        if not line.strip():
            continue
        if ITEM.match(line):
            if not out or out[-1].kind != "list":
                out.append(Block("list"))
            out[-1].items.append(ITEM.sub("", line).strip())
        elif is_heading(line, following):
            out.append(Block("heading", line.strip(), anchor=anchor(line)))
        else:
            out.append(Block("paragraph", line.strip()))
    return out


def book(engine: str) -> str | None:
    """Return the rulebook of ``engine`` (its text), or None when there is none."""
    if not re.fullmatch(r"[a-z0-9-]+", engine):
        return None
    path = BOOKS / f"{engine}.md"
    return path.read_text(encoding="utf-8") if path.is_file() else None


@bp.get("/rules/<engine>")
def rulebook(engine: str):
    """The rulebook page of ``engine`` (a 404 page that says why for a game without
    one)."""
    text = book(engine)
    if text is None:
        known = ", ".join(e.title for e in engines.all_engines())
        message = f"There is no game called “{engine}” here; the games are {known}."
        return render_template("error.html", message=message), 404
    parts = blocks(text)
    title = parts[0].text if parts else engine
    return render_template("rulebook.html", title=title, blocks=parts[1:], engine=engine)
