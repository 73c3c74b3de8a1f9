"""Small pure helpers the engines' board pictures share: the SVG document with its text
alternative, text, the six marker shapes and the seat palette.

Colours follow the Okabe-Ito palette (distinguishable with the common colour-vision
deficiencies), and nothing is told by colour alone: every seat also has its own shape
and a label, every fruit or star type its own shape and letter. No I/O: each function
returns SVG text.
"""

from __future__ import annotations

import math
from html import escape

FONT = "DejaVu Sans, Verdana, sans-serif"

SEAT_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
"""One colour per seat (Okabe-Ito blue, vermillion, bluish green, reddish purple,
orange, sky blue)."""

SHAPES = ("circle", "square", "triangle", "diamond", "pentagon", "hexagon")
"""The marker shapes, in seat order (and Star Maps' star types 1-6 in this order)."""

NAMED_COLOURS = {
    "red": "#D55E00",
    "yellow": "#F0E442",
    "purple": "#CC79A7",
    "green": "#009E73",
    "blue": "#0072B2",
    "orange": "#E69F00",
}
"""A data file's colour names, drawn in the palette's nearest colour."""


def colour(name: str) -> str:
    """Return the palette colour for a colour name from a data file (grey if unknown)."""
    return NAMED_COLOURS.get(name, "#999999")


def document(width: float, height: float, title: str, words: list[str], body: list[str]) -> str:
    """Return a whole SVG document of ``width`` x ``height`` user units.

    :param title: the picture's short name (``<title>``, read by screen readers);
    :param words: the picture in words, one sentence a line (``<desc>``);
    :param body: the drawn elements, in painting order.
    """
    desc = escape(" ".join(words))
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
            f'width="{width:.0f}" height="{height:.0f}" role="img" '
            f'aria-labelledby="board-title board-desc" font-family="{FONT}">',
            f'<title id="board-title">{escape(title)}</title>',
            f'<desc id="board-desc">{desc}</desc>',
            f'<rect width="{width:.0f}" height="{height:.0f}" fill="#fbfaf5"/>',
            *body,
            "</svg>",
        ]
    )


def text(
    x: float,
    y: float,
    content: object,
    size: float = 12,
    anchor: str = "start",
    fill: str = "#1a1a1a",
    weight: str | None = None,
    extra: str = "",
) -> str:
    """Return a ``<text>`` element at (x, y) (``y`` is the baseline), escaped."""
    bold = f' font-weight="{weight}"' if weight else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
        f'fill="{fill}"{bold}{extra}>{escape(str(content))}</text>'
    )


def polygon_points(
    cx: float, cy: float, r: float, sides: int, turn: float = 0.0
) -> list[tuple[float, float]]:
    """Return the corners of a regular polygon around (cx, cy), the first one up."""
    return [
        (
            cx + r * math.sin(turn + 2 * math.pi * i / sides),
            cy - r * math.cos(turn + 2 * math.pi * i / sides),
        )
        for i in range(sides)
    ]


def shape(
    kind: str, cx: float, cy: float, r: float, fill: str, stroke: str = "#1a1a1a", extra: str = ""
) -> str:
    """Return a marker of ``kind`` (one of :data:`SHAPES`) of radius ``r`` at (cx, cy)."""
    if kind == "circle":
        return (
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="1.5"{extra}/>'
        )
    sides, turn, scale = {
        "square": (4, math.pi / 4, 1.25),
        "triangle": (3, 0, 1.3),
        "diamond": (4, 0, 1.25),
        "pentagon": (5, 0, 1.1),
        "hexagon": (6, 0, 1.1),
    }[kind]
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in polygon_points(cx, cy, r * scale, sides, turn))
    return f'<polygon points="{points}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"{extra}/>'


def seat_marker(seat: int, cx: float, cy: float, r: float = 7) -> str:
    """Return a seat's marker: its shape in its colour, with its number inside."""
    return shape(SHAPES[seat % len(SHAPES)], cx, cy, r, SEAT_COLOURS[seat % 6]) + text(
        cx,
        cy + r * 0.45,
        seat,
        size=r * 1.2,
        anchor="middle",
        fill="#ffffff",
        weight="bold",
        extra=' class="marker"',
    )


NAME_MAX = 12
"""A longer player's name is cut to this many characters in a picture (``Alexandria Smi…``)."""


def seat_name(seat: int | None, you: int | None, names: list | None = None) -> str:
    """Return how a picture names a seat: its player's name when ``names`` (a view's
    ``names``, one per seat, set by the page) has it, else ``seat 2``; ``you`` for the
    viewer (``you (seat 2)`` without names)."""
    if seat is None:
        return "nobody"
    if names and 0 <= seat < len(names) and names[seat]:
        name = str(names[seat])
        name = name if len(name) <= NAME_MAX else name[: NAME_MAX - 1] + "…"
        return "you" if seat == you else name
    return f"you (seat {seat})" if seat == you else f"seat {seat}"


def upper_first(words: str) -> str:
    """Return ``words`` with the first letter upper-case and the rest as written (a
    name keeps its capitals, unlike ``str.capitalize``)."""
    return words[:1].upper() + words[1:]


CHAR_WIDTH = 0.62
"""A generous average advance of DejaVu Sans, in ems (its widest common letters are
about 0.7, its narrowest 0.3): used to wrap a line before it leaves its box."""


def wrap(words: str, width: float, size: float) -> list[str]:
    """Return ``words`` broken into lines that fit ``width`` user units at font
    ``size`` (by :data:`CHAR_WIDTH`; a single word longer than a line stays whole)."""
    most = max(1, int(width / (size * CHAR_WIDTH)))
    lines: list[str] = []
    for word in words.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= most:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def who(view: dict, seat: int | None, you_key: str) -> str:
    """Return how a picture of ``view`` names ``seat`` (its player's name, or ``you``
    for the viewer, whose seat is ``view[you_key]``; a replay names everyone)."""
    you = None if view.get("replay") else view.get(you_key)
    return seat_name(seat, you, view.get("names"))


def sheet_of(view: dict, seat: int, you_key: str) -> str:
    """Return whose sheet a picture draws: ``your sheet`` or ``sheet of Ann``."""
    if seat == view.get(you_key) and not view.get("replay"):
        return "your sheet"
    return f"sheet of {who(view, seat, you_key)}"
