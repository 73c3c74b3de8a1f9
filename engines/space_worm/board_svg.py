"""Draw a Space Worm view as SVG: one player's sheet (grid, Planets, fruit spaces, the
worm's path, Hearts), the dice of the round and who took which, the shared fruit tracks,
and every other seat in one line. Pure: ``render(view) -> str``, ``words(view)``.

The sheet drawn is the viewer's; a spectator sees the sheet of the seat to move
(rules/space-worm.md has no hidden information, so every sheet may be drawn).
Fruit types differ by shape and letter as well as colour; seats by shape and number.
"""

from __future__ import annotations

from engines.svg import (
    SEAT_COLOURS,
    SHAPES,
    colour,
    document,
    seat_marker,
    shape,
    sheet_of,
    text,
    upper_first,
    who,
)

CELL = 34
LEFT = 27
WIDTH = 360


def focus_seat(view: dict) -> int:
    """Return the seat whose sheet is drawn: the viewer's, else the seat to move."""
    if view.get("you") is not None:
        return view["you"]
    return view.get("to_move") or 0


def render(view: dict) -> str:
    """Return an SVG picture of a Space Worm view (any seat's or a spectator's)."""
    seat = focus_seat(view)
    sheet = view["sheets"][seat]
    rows = view["sheet"]["rows"]
    symbols = {f["symbol"]: (i, f) for i, f in enumerate(view["sheet"]["fruits"])}
    body = [
        text(
            LEFT,
            20,
            f"Round {view['round']}: " + _sheet_of(view, seat),
            size=13,
            weight="bold",
        )
    ]
    top = 32
    eaten = {tuple(c) for c in sheet["path"]}
    for r, row in enumerate(rows):
        for c, mark in enumerate(row):
            body.append(_cell(LEFT + c * CELL, top + r * CELL, mark, (r, c) in eaten, symbols))
    mine = view.get("you") == seat and not view.get("result")
    body.append(_path(sheet["path"], top, seat, mine))
    y = top + len(rows) * CELL + 22
    body += _hearts(sheet, view["sheet"]["hearts"], y)
    y += 34
    body += _dice(view, y)
    y += 94
    body += _tracks(view, symbols, y)
    y += 24 * len(view["sheet"]["fruits"]) + 30
    body += _seats(view, y)
    y += 20 * (len(view["sheets"]) + 1) + 8
    return document(WIDTH, y, f"Space Worm board, {_sheet_of(view, seat)}", words(view), body)


def _cell(x: float, y: float, mark: str, eaten: bool, symbols: dict) -> str:
    """Return one grid space: empty, a gap, a Planet (numbered disc) or a fruit space
    (its type's shape and letter; crossed when the worm ate it)."""
    if mark == "#":
        return f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#3b3b3b"/>'
    out = f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#ffffff" stroke="#b9b9b9"/>'
    cx, cy = x + CELL / 2, y + CELL / 2
    if mark.isdigit():
        out += (
            f'<circle class="planet" cx="{cx}" cy="{cy}" r="13" fill="#dfe9f7" '
            f'stroke="#1a1a1a"/>' + text(cx, cy + 5, mark, 14, "middle", weight="bold")
        )
    elif mark in symbols:
        i, fruit = symbols[mark]
        out += shape(
            SHAPES[i % 6],
            cx,
            cy,
            10,
            colour(fruit["colour"]),
            extra=f' class="fruit" data-fruit="{fruit["type"]}"',
        )
        out += text(cx, cy + 4, mark, 11, "middle", weight="bold")
        if eaten:
            out += (
                f'<path d="M{x + 6} {y + 6}L{x + CELL - 6} {y + CELL - 6}" '
                f'stroke="#1a1a1a" stroke-width="2.5"/>'
            )
    return out


def _path(path: list, top: float, seat: int, arrows: bool = False) -> str:
    """Return the worm: a thick line through its spaces, a ring at the start and its
    head (the seat's marker) on the space it reached; with ``arrows``, the direction
    arrows around the head."""
    if not path:
        return ""
    points = [(LEFT + c * CELL + CELL / 2, top + r * CELL + CELL / 2) for r, c in path]
    line = " ".join(f"{x:.0f},{y:.0f}" for x, y in points)
    sx, sy = points[0]
    hx, hy = points[-1]
    return (
        f'<polyline class="worm" points="{line}" fill="none" stroke="{SEAT_COLOURS[seat % 6]}" '
        f'stroke-width="6" stroke-linecap="round" stroke-linejoin="round" opacity="0.75"/>'
        f'<circle cx="{sx:.0f}" cy="{sy:.0f}" r="15" fill="none" stroke="#1a1a1a" '
        f'stroke-dasharray="3 2"/>'
        + seat_marker(seat, hx, hy, 9)
        + (_arrows(hx, hy) if arrows else "")
    )


ARROWS = {"up": (0, -1), "right": (1, 0), "down": (0, 1), "left": (-1, 0)}
"""The directions a line is drawn in, as steps on the picture."""


def _arrows(x: float, y: float) -> str:
    """Return the four direction arrows around the worm's head: the places a player
    clicks to draw a line that way (``data-place="dir:up"``), shown only when they can
    be clicked (the page highlights the legal ones)."""
    out = []
    for name, (dx, dy) in ARROWS.items():
        cx, cy = x + dx * CELL * 0.62, y + dy * CELL * 0.62
        tip = (cx + dx * 8, cy + dy * 8)
        side = [
            (cx - dy * 8 - dx * 4, cy + dx * 8 - dy * 4),
            (cx + dy * 8 - dx * 4, cy - dx * 8 - dy * 4),
        ]
        points = " ".join(f"{px:.1f},{py:.1f}" for px, py in (tip, *side))
        out.append(
            f'<polygon class="arrow" data-place="dir:{name}" points="{points}" '
            f'fill="#ffffff" stroke="#1a1a1a" stroke-width="1.5"/>'
        )
    return "".join(out)


def targets(move: dict) -> list[str]:
    """Return the places clicked to make ``move``: the die, then the direction's
    arrow (``dir:up``) or the Hearts row (``heart``)."""
    if not isinstance(move, dict) or "die" not in move:
        return []
    return [f"die:{move['die']}", f"dir:{move['direction']}" if "direction" in move else "heart"]


def _hearts(sheet: dict, total: int, y: float) -> list[str]:
    """Return the Hearts row: coloured ones filled, the rest outlined."""
    out = [
        f'<rect class="hearts" data-place="heart" x="{LEFT - 4}" y="{y - 12}" '
        f'width="{62 + total * 26}" height="26" rx="4" fill="#ffffff" fill-opacity="0"/>',
        text(LEFT, y + 5, "Hearts:", 13),
    ]
    for i in range(total):
        x = LEFT + 62 + i * 26
        filled = i < sheet["hearts"]
        out.append(
            f'<path class="heart" data-coloured="{str(filled).lower()}" '
            f'd="M{x} {y + 8}l-9 -9a5 5 0 0 1 9 -6a5 5 0 0 1 9 6z" '
            f'fill="{"#D55E00" if filled else "#ffffff"}" stroke="#1a1a1a"/>'
        )
    out.append(text(LEFT + 62 + total * 26, y + 5, f"{sheet['hearts']} of {total} coloured", 12))
    return out


def _dice(view: dict, y: float) -> list[str]:
    """Return the dice of the round: pips, colour name's initial, and who took it."""
    out = [text(LEFT, y, "Dice of the round (die number, colour, who took it):", 12)]
    for d in view["dice"]:
        x = LEFT + d["die"] * 38
        top = y + 12
        taken = d["taken_by"] is not None
        out.append(
            f'<rect class="die" data-die="{d["die"]}" data-place="die:{d["die"]}" x="{x}" '
            f'y="{top}" width="30" height="30" rx="5" fill="{colour(d["colour"])}" '
            f'stroke="#1a1a1a" '
            f'opacity="{0.45 if taken else 1}"/>'
        )
        pips = "-" if d["pips"] is None else d["pips"]
        out.append(text(x + 15, top + 21, pips, 16, "middle", weight="bold"))
        out.append(text(x + 15, top + 42, f"{d['die']}{d['colour'][:1].upper()}", 9, "middle"))
        if taken:
            out.append(seat_marker(d["taken_by"], x + 15, top + 56, 7))
    return out


def _tracks(view: dict, symbols: dict, y: float) -> list[str]:
    """Return the shared fruit tracks: each value, struck through once claimed."""
    out = [text(LEFT, y, "Fruit tracks (struck: already claimed):", 12)]
    for i, fruit in enumerate(view["sheet"]["fruits"]):
        row_y = y + 10 + i * 24
        track = view["tracks"][fruit["type"]]
        claimed = len(track["track"]) - len(track["open"])
        out.append(shape(SHAPES[i % 6], LEFT + 9, row_y + 9, 8, colour(fruit["colour"])))
        out.append(text(LEFT + 22, row_y + 14, f"{fruit['symbol']} {fruit['type']}", 12))
        for j, value in enumerate(track["track"]):
            x = LEFT + 100 + j * 36
            out.append(
                f'<rect x="{x}" y="{row_y}" width="30" height="19" fill="#ffffff" '
                f'stroke="#1a1a1a"/>' + text(x + 15, row_y + 14, value, 12, "middle")
            )
            if j < claimed:
                out.append(
                    f'<path d="M{x} {row_y + 19}L{x + 30} {row_y}" stroke="#1a1a1a" '
                    f'stroke-width="2"/>'
                )
    return out


def _seats(view: dict, y: float) -> list[str]:
    """Return one line per seat: marker, score so far, Hearts, Planets eaten."""
    out = []
    for s in view["sheets"]:
        row_y = y + s["seat"] * 20
        out.append(seat_marker(s["seat"], LEFT + 7, row_y - 4, 7))
        turn = " ▶" if view.get("to_move") == s["seat"] and not view.get("result") else ""
        out.append(
            text(
                LEFT + 20,
                row_y,
                f"{_who(view, s['seat'])}{turn}: "
                f"score {s['score']['score']}, Hearts {s['hearts']}, Planets "
                f"{len(s['planets'])}",
                11,
            )
        )
    if view.get("to_move") is not None and not view.get("result"):
        row_y = y + len(view["sheets"]) * 20
        out.append(text(LEFT + 20, row_y, "▶ to move", 11))
    return out


def words(view: dict) -> list[str]:
    """Return the picture in words: the drawn sheet, the dice, the tracks, every seat."""
    seat = focus_seat(view)
    sheet = view["sheets"][seat]
    out = [
        f"Round {view['round']}. Sheet of {_who(view, seat)}: the worm "
        f"is at row {sheet['position'][0] + 1}, column {sheet['position'][1] + 1}"
        if sheet["position"]
        else f"Sheet of {_who(view, seat)}: the worm has not started"
    ]
    out[0] += (
        f"; Hearts coloured {sheet['hearts']} of {view['sheet']['hearts']}; Planets "
        f"eaten {', '.join(map(str, sheet['planets'])) or 'none'}."
    )
    dice = "; ".join(
        f"die {d['die']} {d['colour']} {d['pips']}"
        + (f" taken by {_who(view, d['taken_by'])}" if d["taken_by"] is not None else " free")
        for d in view["dice"]
    )
    out.append(f"Dice: {dice}.")
    for fruit in view["sheet"]["fruits"]:
        t = view["tracks"][fruit["type"]]
        out.append(
            f"{fruit['type'].capitalize()} track: next value "
            f"{t['open'][0] if t['open'] else 'none (exhausted)'}."
        )
    for s in view["sheets"]:
        out.append(
            f"{upper_first(_who(view, s['seat']))}: score "
            f"{s['score']['score']}, Hearts {s['hearts']}."
        )
    return out


def _who(view: dict, seat: int | None) -> str:
    return who(view, seat, "you")


def _sheet_of(view: dict, seat: int) -> str:
    return sheet_of(view, seat, "you")
