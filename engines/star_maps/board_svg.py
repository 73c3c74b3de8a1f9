"""Draw a Star Maps view as SVG: one seat's sheet (boxes with their values, stars by
shape with the value found, connections, arms and their locks, bonuses used), the roll,
and every seat in one line. Pure: ``render(view) -> str``, ``words(view)``.

The printed sheet has no coordinates in its data file, so the picture lays it out: one
row per box letter (A, B, E, W ...), boxes in number order; a star sits between its two
printed boxes, or beside its one printed box, and a dashed line runs to a box it reaches
through a connection (solid once that connection is filled). Star types differ by shape
and name as well as colour (rules/star-maps.md, "Components").
"""

from __future__ import annotations

import re

from engines.svg import SHAPES, document, seat_marker, shape, sheet_of, text, upper_first, who, wrap

LEFT = 20
STEP = 48
BOX = 30
ROW = 96
WIDTH = 372
TYPE_COLOURS = ("#56B4E9", "#E69F00", "#009E73", "#F0E442", "#CC79A7", "#D55E00")


def focus_seat(view: dict) -> int:
    """Return the seat whose sheet is drawn: the viewer's, else the first still to
    answer, else seat 0."""
    if view.get("seat") is not None:
        return view["seat"]
    return (view.get("to_answer") or [0])[0]


def box_places(boxes: list[str], top: float) -> dict[str, tuple[float, float]]:
    """Return the top-left corner of every box: one row per letter, in sheet order."""
    rows: dict[str, list[str]] = {}
    for box in boxes:
        rows.setdefault(re.match(r"[A-Z]+", box).group(0), []).append(box)
    places = {}
    for r, (_, row) in enumerate(rows.items()):
        ordered = sorted(row, key=lambda b: int(re.sub(r"\D", "", b) or 0))
        for c, box in enumerate(ordered):
            places[box] = (LEFT + c * STEP, top + 40 + r * ROW)
    return places


def star_places(stars: dict, places: dict) -> dict[str, tuple[float, float]]:
    """Return the centre of every star: between its two printed boxes, else beside its
    printed box on a free side, above the box row (below when both sides are taken)."""
    taken: set[tuple[float, float]] = set()
    out = {}
    by_printed = sorted(stars, key=lambda sid: -sum(b["via"] is None for b in stars[sid]["boxes"]))
    for sid in by_printed:
        star = stars[sid]
        printed = [places[b["box"]] for b in star["boxes"] if b["via"] is None]
        if len(printed) == 2 and printed[0][1] == printed[1][1]:
            candidates = [((printed[0][0] + printed[1][0]) / 2 + BOX / 2, printed[0][1] - 18)]
        else:
            x, y = (printed or [places[star["boxes"][0]["box"]]])[0]
            candidates = [
                (x + BOX / 2 + STEP / 2, y - 18),
                (x + BOX / 2 - STEP / 2, y - 18),
                (x + BOX / 2 + STEP / 2, y + BOX + 20),
            ]
        spot = next((c for c in candidates if c not in taken), candidates[-1])
        taken.add(spot)
        out[sid] = spot
    return {sid: out[sid] for sid in stars}


def type_shape(layout: dict, star_type: int) -> str:
    """Return the shape of a star type: the one its name says (``Triangle``), else the
    shape in die order."""
    name = str(layout["types"].get(str(star_type), "")).lower()
    return name if name in SHAPES else SHAPES[(star_type - 1) % len(SHAPES)]


def render(view: dict) -> str:
    """Return an SVG picture of a Star Maps view (any seat's or a spectator's)."""
    seat = focus_seat(view)
    layout, marks = view["sheet"], view["sheets"][seat]
    roll = view.get("roll")
    title = f"Round {view['round']}: " + _sheet_of(view, seat)
    body = [
        text(LEFT, 20, title, 14, weight="bold"),
        text(LEFT, 38, f"Dice: {roll[0]} and {roll[1]}" if roll else "Dice: not rolled", 12),
    ]
    places = box_places(layout["boxes"], 36)
    spots = star_places(layout["stars"], places)
    body += _arms(layout, marks, places)
    body += _links(layout, marks, places, spots)
    for box, (x, y) in places.items():
        value = marks["boxes"].get(box)
        body.append(
            f'<rect class="box" data-box="{box}" data-place="box:{box}" x="{x}" y="{y}" '
            f'width="{BOX}" '
            f'height="{BOX}" fill="{"#ffffff" if value is None else "#e4e4e4"}" '
            f'stroke="#1a1a1a" stroke-width="1.5"/>'
        )
        body.append(
            text(x + BOX / 2, y + 21, "" if value is None else value, 16, "middle", weight="bold")
        )
        body.append(text(x + BOX / 2, y + BOX + 11, box, 9, "middle", fill="#444444"))
    for sid, star in layout["stars"].items():
        body += _star(
            sid, type_shape(layout, star["type"]), star, marks["stars"].get(sid), spots[sid]
        )
    y = max(y for _, y in places.values()) + BOX + 40
    body += _legend(layout, y)
    y += 34
    for line in _connection_lines(layout, marks, WIDTH - 2 * LEFT):
        body.append(text(LEFT, y, line, 11))
        y += 15
    y += 4
    used = ", ".join(view["bonuses"][b]["name"] for b in marks["bonuses_used"]) or "none"
    unlocked = ", ".join(view["bonuses"][b]["name"] for b in view["unlocked_bonuses"]) or "none"
    for line in wrap(f"Bonuses unlocked: {unlocked}; used: {used}", WIDTH - 2 * LEFT, 12):
        body.append(text(LEFT, y, line, 12))
        y += 16
    y += 6
    for s in view["sheets"]:
        body.append(seat_marker(s["seat"], LEFT + 7, y - 4, 7))
        state = (
            " (answered)"
            if s["seat"] in view.get("answered", [])
            else " (to answer)"
            if s["seat"] in view.get("to_answer", [])
            else ""
        )
        body.append(
            text(
                LEFT + 20,
                y,
                f"{_who(view, s['seat'])}{state}: score {s['score']}",
                12,
            )
        )
        y += 20
    return document(WIDTH, y, f"Star Maps board, {_sheet_of(view, seat)}", words(view), body)


def _star(sid: str, kind: str, star: dict, value, spot: tuple[float, float]) -> list[str]:
    """Return a star: its type's shape (filled once found), its id, its value."""
    x, y = spot
    found = value is not None
    fill = TYPE_COLOURS[(star["type"] - 1) % 6] if found else "#ffffff"
    out = [
        shape(
            kind,
            x,
            y,
            11,
            fill,
            extra=f' class="star" data-star="{sid}" data-found="{str(found).lower()}"',
        )
    ]
    out.append(text(x, y + 4, value if found else "", 11, "middle", weight="bold"))
    out.append(text(x + 14, y - 8, sid, 9, "start", fill="#444444"))
    return out


def _links(layout: dict, marks: dict, places: dict, spots: dict) -> list[str]:
    """Return the lines from each star to its boxes: thin for printed neighbours, dashed
    for a connection not yet filled, thick with the connection's id once filled."""
    out = []
    filled = set(marks["connections"])
    for sid, star in layout["stars"].items():
        sx, sy = spots[sid]
        for link in star["boxes"]:
            bx, by = places[link["box"]]
            tx, ty = bx + BOX / 2, by if by > sy else by + BOX
            via = link["via"]
            style = (
                'stroke="#888888" stroke-width="1"'
                if via is None
                else 'stroke="#1a1a1a" stroke-width="3"'
                if via in filled
                else 'stroke="#1a1a1a" stroke-width="1.5" stroke-dasharray="4 3"'
            )
            out.append(
                f'<line x1="{sx:.1f}" y1="{sy:.1f}" x2="{tx:.1f}" y2="{ty:.1f}" {style}'
                + (f' class="connection" data-connection="{via}"' if via else "")
                + "/>"
            )
            if via:
                out.append(
                    f'<line class="connection-target" data-place="connection:{via}" '
                    f'x1="{sx:.1f}" y1="{sy:.1f}" x2="{tx:.1f}" y2="{ty:.1f}" '
                    f'stroke="#ffffff" stroke-opacity="0" stroke-width="12"/>'
                )
    return out


def _connection_lines(layout: dict, marks: dict, width: float) -> list[str]:
    """Return the lines that name each connection (the lines on the sheet carry no
    label, which would cover the boxes' names): ``C1 a3 to B4 (made)``."""
    filled = set(marks["connections"])
    named = [
        f"{link['via']} {sid} to {link['box']} ({'made' if link['via'] in filled else 'open'})"
        for sid, star in layout["stars"].items()
        for link in star["boxes"]
        if link["via"]
    ]
    if not named:
        return []
    return wrap("Connections (solid: made, dashed: open): " + "; ".join(named), width, 11)


def _arms(layout: dict, marks: dict, places: dict) -> list[str]:
    """Return a frame around each arm's boxes, saying whether its lock is open."""
    out = []
    for aid, arm in layout["arms"].items():
        boxes = {
            b["box"] for s in arm["stars"] for b in layout["stars"][s]["boxes"] if b["via"] is None
        }
        xs = [places[b][0] for b in boxes]
        ys = [places[b][1] for b in boxes]
        if not xs:
            continue
        unlocked = aid in marks["unlocked_arms"]
        out.append(
            f'<rect class="arm" data-arm="{aid}" x="{min(xs) - 8}" y="{min(ys) - 38}" '
            f'width="{max(xs) - min(xs) + BOX + 16}" height="{BOX + 56}" rx="8" '
            f'fill="none" stroke="#1a1a1a" '
            f'stroke-dasharray="{"none" if unlocked else "6 4"}"/>'
        )
        label = f"{arm['name']}: {'unlocked' if unlocked else 'locked'} ({arm['lock']})"
        out.append(text(max(xs) + BOX + 4, min(ys) + BOX + 14, label, 9, "end"))
    return out


def _legend(layout: dict, y: float) -> list[str]:
    """Return the star types, each shape with its die value and name."""
    out = []
    for i, (die, name) in enumerate(sorted(layout["types"].items())):
        x = LEFT + (i % 3) * 110
        row_y = y + (i // 3) * 18 - 12
        out.append(
            shape(type_shape(layout, int(die)), x + 6, row_y, 6, TYPE_COLOURS[(int(die) - 1) % 6])
        )
        out.append(text(x + 16, row_y + 4, f"{die} {name}", 11))
    return out


def words(view: dict) -> list[str]:
    """Return the picture in words: the roll, the drawn sheet's boxes, stars and
    connections, every seat's score."""
    seat = focus_seat(view)
    layout, marks = view["sheet"], view["sheets"][seat]
    out = [f"Star Maps round {view['round']}, sheet of {_who(view, seat)}."]
    if view.get("roll"):
        out.append(f"Dice: {view['roll'][0]} and {view['roll'][1]}.")
    written = ", ".join(f"{b} {v}" for b, v in marks["boxes"].items()) or "none"
    out.append(f"Boxes written: {written}.")
    found = (
        ", ".join(
            f"{s} ({layout['types'][str(layout['stars'][s]['type'])]}) {v}"
            for s, v in marks["stars"].items()
            if v is not None
        )
        or "none"
    )
    out.append(f"Stars found: {found}.")
    out.append("Connections filled: " + (", ".join(marks["connections"]) or "none") + ".")
    if layout["arms"]:
        out.append("Arms unlocked: " + (", ".join(marks["unlocked_arms"]) or "none") + ".")
    out += [f"{upper_first(_who(view, s['seat']))}: score {s['score']}." for s in view["sheets"]]
    return out


def targets(move: dict) -> list[str]:
    """Return the places clicked to make ``move``: the box written in (``box:B7``) or
    the connection marked (``connection:C3``), then those of its bonuses. Passing and
    the losers' vote have no place: they are chosen from the list."""
    if not isinstance(move, dict) or move.get("act") not in ("dice", "connect"):
        return []
    out = []
    for part in [move, *move.get("bonuses", [])]:
        if "connection" in part:
            out.append(f"connection:{part['connection']}")
        elif "box" in part:
            out.append(f"box:{part['box']}")
    return out


def _who(view: dict, seat: int | None) -> str:
    return who(view, seat, "seat")


def _sheet_of(view: dict, seat: int) -> str:
    return sheet_of(view, seat, "seat")
