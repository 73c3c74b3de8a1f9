"""Draw a Worms view as SVG text: hexes, Water, Things, worms by team and health, the
Target Token and the wind. Pure: ``render(view) -> str``, no I/O.
"""

from __future__ import annotations

import math
from html import escape

from engines.hexgrid import DIRECTIONS, Hex
from engines.worms.board_words import team_name, words

SIZE = 34.0
TEAM_COLOURS = {"blue": "#2f6fdd", "red": "#d23a3a", "yellow": "#e0b400", "green": "#2e9e45"}
THING_STYLE = {
    "drum": ("#8a3b12", "D"),
    "crate": ("#b8863b", "S"),
    "mine": ("#333333", "M"),
    "fire": ("#ff7a00", "F"),
    "crater": ("#6b5a4a", "C"),
    "sentry": ("#556b2f", "G"),
}


def _poly(points: list[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _arrow(cx: float, cy: float, direction: int, length: float, colour: str) -> str:
    """Return an arrow from (cx, cy) pointing in a hex direction."""
    dq, dr = DIRECTIONS[direction]
    tx, ty = Hex(dq, dr).to_pixel(1.0)
    norm = math.hypot(tx, ty)
    ux, uy = tx / norm, ty / norm
    x2, y2 = cx + ux * length, cy + uy * length
    left = (x2 - ux * 9 - uy * 6, y2 - uy * 9 + ux * 6)
    right = (x2 - ux * 9 + uy * 6, y2 - uy * 9 - ux * 6)
    return (
        f'<line x1="{cx:.1f}" y1="{cy:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
        f'stroke="{colour}" stroke-width="3"/>'
        f'<polygon points="{_poly([(x2, y2), left, right])}" fill="{colour}"/>'
    )


def render(view: dict) -> str:
    """Return an SVG picture of a Worms view (any seat's, or a spectator's)."""
    dial = Hex.parse(view["map"]["dial"])
    radius = view["map"]["radius"]
    land = set(view["map"]["land"])
    hexes = dial.within(radius)
    xs, ys = zip(*(h.to_pixel(SIZE) for h in hexes))
    pad = SIZE * 1.2
    min_x, min_y = min(xs) - pad, min(ys) - pad
    width, height = max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad + 40
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{min_x:.1f} {min_y:.1f} '
        f'{width:.1f} {height:.1f}" width="{width:.0f}" height="{height:.0f}" '
        f'font-family="sans-serif" role="img" aria-labelledby="board-title board-desc">',
        '<title id="board-title">Worms map</title>',
        f'<desc id="board-desc">{escape(" ".join(words(view)))}</desc>',
        f'<rect x="{min_x:.1f}" y="{min_y:.1f}" width="{width:.1f}" height="{height:.1f}" '
        f'fill="#9fd3f0"/>',
    ]
    for h in hexes:
        k = h.key()
        fill = "#8cc46b" if k in land else ("#5aa9d6" if h == dial else "#7fc0e6")
        out.append(
            f'<polygon class="{"land" if k in land else "water"}" data-hex="{k}" '
            f'points="{_poly(h.corners(SIZE))}" fill="{fill}" stroke="#ffffff" '
            f'stroke-width="1.5"/>'
        )
        cx, cy = h.to_pixel(SIZE)
        out.append(
            f'<text x="{cx:.1f}" y="{cy + SIZE * 0.78:.1f}" font-size="7" '
            f'text-anchor="middle" fill="#2b4d2b" opacity="0.7">{k}</text>'
        )
    dx, dy = dial.to_pixel(SIZE)
    out.append(
        f'<circle cx="{dx:.1f}" cy="{dy:.1f}" r="{SIZE * 0.7:.1f}" fill="#ffffff" '
        f'stroke="#234" stroke-width="1.5"/>'
    )
    if view["wind"] is not None:  # None: the setup has not rolled it yet
        out.append(_arrow(dx, dy, view["wind"], SIZE * 0.6, "#234"))
    out.append(
        f'<text x="{dx:.1f}" y="{dy - SIZE * 0.75:.1f}" font-size="9" '
        f'text-anchor="middle">wind {view["wind"] if view["wind"] else "-"}</text>'
    )
    by_hex: dict[str, list[dict]] = {}
    for t in view["things"]:
        by_hex.setdefault(t["hex"], []).append(t)
    for k, things in sorted(by_hex.items()):
        cx, cy = Hex.parse(k).to_pixel(SIZE)
        for i, t in enumerate(things):
            angle = 2 * math.pi * i / max(1, len(things)) - math.pi / 2
            spread = 0 if len(things) == 1 else SIZE * 0.42
            x, y = cx + spread * math.cos(angle), cy + spread * math.sin(angle)
            out.append(_thing(t, x, y))
    target = view.get("target")
    if target:
        h = Hex.parse(target["hex"])
        tx, ty = h.to_pixel(SIZE)
        out.append(
            f'<circle class="target" cx="{tx:.1f}" cy="{ty:.1f}" r="{SIZE * 0.8:.1f}" '
            f'fill="none" stroke="#e0004d" stroke-width="3" stroke-dasharray="6 3"/>'
        )
        if target.get("dir"):
            out.append(_arrow(tx, ty, target["dir"], SIZE * 1.6, "#e0004d"))
    out.append(_caption(view, min_x + 8, min_y + height - 14))
    out.append("</svg>")
    return "\n".join(out)


def _thing(t: dict, x: float, y: float) -> str:
    """Return one Thing: worms as team-coloured discs (Damaged: lying ellipse, dashed)."""
    label = escape(t["id"])
    if t["kind"] == "worm":
        colour = TEAM_COLOURS.get(t.get("team"), "#999999")
        if t.get("damaged"):
            shape = (
                f'<ellipse cx="{x:.1f}" cy="{y:.1f}" rx="13" ry="7" fill="{colour}" '
                f'stroke="#000" stroke-dasharray="3 2"/>'
            )
        else:
            shape = (
                f'<ellipse cx="{x:.1f}" cy="{y:.1f}" rx="8" ry="12" fill="{colour}" stroke="#000"/>'
            )
        return (
            f'<g class="worm" data-id="{label}" '
            f'data-damaged="{str(bool(t.get("damaged"))).lower()}">'
            f'{shape}<text x="{x:.1f}" y="{y + 3:.1f}" font-size="8" text-anchor="middle" '
            f'fill="#fff">{label}</text></g>'
        )
    colour, letter = THING_STYLE.get(t["kind"], ("#999", "?"))
    return (
        f'<g class="{escape(t["kind"])}" data-id="{label}"><rect x="{x - 7:.1f}" '
        f'y="{y - 7:.1f}" width="14" height="14" rx="3" fill="{colour}"/>'
        f'<text x="{x:.1f}" y="{y + 3.5:.1f}" font-size="9" text-anchor="middle" '
        f'fill="#fff">{letter}</text></g>'
    )


def _caption(view: dict, x: float, y: float) -> str:
    """Return the line under the map: whose turn, the hand sizes, or the result."""
    teams = view["teams"]
    if view.get("over"):
        text = "Game over: " + ", ".join(
            f"{teams[s]} {view['over']['scores'][s]}" for s in range(len(teams))
        )
    else:
        turn = view["turn"]
        head = (
            "Setup"
            if turn["number"] == 0
            else f"Turn {turn['number']}: {team_name(view, turn['seat'])}"
        )
        text = (
            head
            + (f" ({turn['worm']})" if turn.get("worm") else "")
            + " | cards: "
            + ", ".join(f"{team_name(view, s)} {n}" for s, n in enumerate(view["hand_sizes"]))
        )
        if view.get("sudden_death"):
            text += f" | Sudden Death: {view['sudden_death']}"
    return f'<text x="{x:.1f}" y="{y:.1f}" font-size="12">{escape(text)}</text>'
