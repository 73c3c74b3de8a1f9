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

LONGEST_NAME = 40
"""A game's id is never longer than this (a longer name is no game: 404)."""

ITEM = re.compile(r"^\s*(?:•|-)\s+")
STEP = re.compile(r"^\d+\.\s+\S")
TABLE_SEPARATOR = re.compile(r"^\|[\s|:-]+\|$")


@dataclass
class Block:
    """One piece of a book: ``kind`` is ``heading`` (``level`` 2, or 3 for a numbered
    step), ``paragraph``, ``list``, ``table`` (``rows`` of cells, the first the header)
    or ``contents`` (``items`` that link ``anchors``)."""

    kind: str
    text: str = ""
    items: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    anchor: str = ""
    anchors: list[str] = field(default_factory=list)
    level: int = 2


def anchor(heading: str) -> str:
    """Return the anchor of a heading: lower case, words joined by ``-``."""
    return "-".join(re.findall(r"[a-z0-9]+", heading.lower()))


def cells(line: str) -> list[str] | None:
    """Return the cells of a table row (tab-separated, or ``| a | b |``), else None."""
    text = line.strip()
    if text.startswith("|") and text.endswith("|"):
        return [c.strip() for c in text[1:-1].split("|")]
    if "\t" in text:
        return [c.strip() for c in text.split("\t")]
    return None


def is_heading(line: str, following: str) -> bool:
    """Tell whether ``line`` reads as a heading: short, no end punctuation, not an item
    nor a table row, and followed by text."""
    text = line.strip()
    return (
        bool(text)
        and len(text) <= LONGEST_HEADING
        and not ITEM.match(line)
        and cells(line) is None
        and bool(anchor(text))
        and text[-1] not in ".,;:!?)"
        and bool(following.strip())
    )


def contents(lines: list[str], start: int) -> tuple[list[str], int]:
    """Read a table of contents from ``lines[start:]``: headings (items or bare lines)
    until the first of them comes again, where the book itself begins. Return the
    headings and the index the book resumes at; no headings when what follows is
    already the book (the first line is followed by text, not by more headings)."""
    items: list[str] = []
    for number in range(start, len(lines)):
        text = ITEM.sub("", lines[number]).strip()
        if not text or text == "Table of Contents":
            continue
        if items and text == items[0]:
            return items, number
        if len(text) > LONGEST_HEADING or text[-1] in ".,;:!?)":
            break
        items.append(text)
    return [], start


def blocks(book: str) -> list[Block]:
    """Return the book's text as blocks, in order: its title first (a second title line
    such as "... Rulebook" left out), its table of contents as links, then headings,
    paragraphs, lists and tables; every anchor unique."""
    lines = book.splitlines()
    out: list[Block] = []
    seen: set[str] = set()
    number = 0
    while number < len(lines):
        line = lines[number]
        text = line.strip()
        following = next((x for x in lines[number + 1 :] if x.strip()), "")
        number += 1
        if not text:
            continue
        if not out:
            out.append(Block("heading", text, anchor=anchor(text), level=1))
            continue
        if text.endswith("Rulebook") and len(out) == 1:
            continue
        if text == "Table of Contents":
            items, number = contents(lines, number)
            if items:
                out.append(Block("contents", items=items, anchors=[anchor(i) for i in items]))
            continue
        row = cells(line)
        if row is not None:
            if TABLE_SEPARATOR.match(text):
                continue
            if not out or out[-1].kind != "table":
                out.append(Block("table"))
            out[-1].rows.append(row)
        elif ITEM.match(line):
            if out[-1].kind != "list":
                out.append(Block("list"))
            out[-1].items.append(ITEM.sub("", line).strip())
        elif is_heading(line, following) or (STEP.match(text) and is_heading(line, "x")):
            level = 3 if STEP.match(text) else 2
            out.append(Block("heading", text, anchor=unique(anchor(text), seen), level=level))
        else:
            out.append(Block("paragraph", text))
    return out


def unique(name: str, seen: set[str]) -> str:
    """Return ``name``, or ``name-2``, ``-3``... when already taken; remember it."""
    candidate, n = name, 1
    while candidate in seen:
        n += 1
        candidate = f"{name}-{n}"
    seen.add(candidate)
    return candidate


def book(engine: str) -> str | None:
    """Return the rulebook of ``engine`` (its text), or None when there is none."""
    if len(engine) > LONGEST_NAME or not re.fullmatch(r"[a-z0-9-]+", engine):
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
