"""Draw a Worms view as SVG text: hexes with their names, Water, Things as symbols with
a legend, worms in their team's colour with their health, the Target Token, the wind
beside the map (never over it), the Map Tiles still to place and the viewer's cards.
Pure: ``render(view) -> str``, ``targets(view, move)``, no I/O.

Every place a player may click carries ``data-place`` (``hex:-2,1``, ``worm:B1``,
``tile:2``, ``card:bazooka``); :func:`targets` names the places of a move in the order
they are clicked, and :func:`preview` the picture of a Map Tile drawn at its place
before it is placed (docs/playing/web.md, "Play by clicking the board").
"""

from __future__ import annotations

import math
from html import escape

from engines.hexgrid import DIRECTION_NAMES, DIRECTIONS, Hex
from engines.svg import wrap
from engines.worms.board import MAP
from engines.worms.board_words import team_name, words
from engines.worms.rules.setup import tile_hexes

SIZE = 34.0
TEAM_COLOURS = {"blue": "#0072B2", "red": "#D55E00", "yellow": "#E69F00", "green": "#009E73"}
THINGS = {
    "drum": "Oil drum",
    "crate": "Supply crate",
    "mine": "Mine",
    "fire": "Fire",
    "crater": "Crater",
    "sentry": "Sentry gun",
    "water": "Water",
}
"""Each Thing's name in the legend (its symbol is drawn by :func:`_symbol`)."""
LEGEND_ROW = 22


def _poly(points) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _text(x: float, y: float, content: object, size: float, **attrs: str) -> str:
    extra = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in attrs.items())
    return f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}"{extra}>{escape(str(content))}</text>'


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
    land = set(view["map"]["land"])
    hexes = shown_hexes(view)
    xs, ys = zip(*(h.to_pixel(SIZE) for h in hexes))
    pad = SIZE * 1.1
    left, top = min(xs) - pad, min(ys) - pad
    width = max(xs) - min(xs) + 2 * pad
    map_bottom = max(ys) + pad
    out = [_hex(h, h.key() in land, h == dial) for h in hexes]
    dx, dy = dial.to_pixel(SIZE)
    out.append(
        f'<circle class="dial" cx="{dx:.1f}" cy="{dy:.1f}" r="{SIZE * 0.62:.1f}" '
        f'fill="#ffffff" stroke="#223344" stroke-width="1.5"/>'
    )
    if view["wind"]:  # None: the setup has not rolled it yet
        out.append(_arrow(dx, dy, view["wind"], SIZE * 0.55, "#223344"))
    out += _things(view)
    target = view.get("target")
    if target:
        tx, ty = Hex.parse(target["hex"]).to_pixel(SIZE)
        out.append(
            f'<circle class="target" cx="{tx:.1f}" cy="{ty:.1f}" r="{SIZE * 0.8:.1f}" '
            f'fill="none" stroke="#CC0055" stroke-width="3" stroke-dasharray="6 3"/>'
        )
        if target.get("dir"):
            out.append(_arrow(tx, ty, target["dir"], SIZE * 1.6, "#CC0055"))
    y = map_bottom + 6
    below, y = _below(view, left + 8, y, width - 16)
    out += below
    out += _previews(view)
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{left:.1f} {top:.1f} '
        f'{width:.1f} {y - top:.1f}" width="{width:.0f}" height="{y - top:.0f}" '
        f'font-family="DejaVu Sans, Verdana, sans-serif" role="img" '
        f'aria-labelledby="board-title board-desc">',
        '<title id="board-title">Worms map</title>',
        f'<desc id="board-desc">{escape(" ".join(words(view)))}</desc>',
        f'<rect x="{left:.1f}" y="{top:.1f}" width="{width:.1f}" height="{y - top:.1f}" '
        f'fill="#fbfaf5"/>',
        f'<rect x="{left:.1f}" y="{top:.1f}" width="{width:.1f}" '
        f'height="{map_bottom - top:.1f}" fill="#9fd3f0"/>',
    ]
    return "\n".join(head + out + ["</svg>"])


def placing_tiles(view: dict) -> bool:
    """True while the Map Tiles are being placed (the view's prompt asks for a tile,
    or no land is down yet)."""
    if not (view.get("setup") or {}).get("tiles_left"):
        return False
    return (view.get("prompt") or {}).get("kind") == "tile" or not view["map"]["land"]


def shown_hexes(view: dict) -> list[Hex]:
    """Return the hexes drawn: the land, the dial and the Things with the ring of Water
    around them (three rings while Map Tiles are placed: room for the next one), so
    that the map is as large as a phone allows; the open sea beyond is left out."""
    dial = Hex.parse(view["map"]["dial"])
    ring = 3 if placing_tiles(view) else 1
    near = {dial.key(), *view["map"]["land"], *(t["hex"] for t in view["things"])}
    centres = [Hex.parse(k) for k in near]
    return [
        h
        for h in dial.within(view["map"]["radius"] + ring)
        if any(h.distance(c) <= ring for c in centres)
    ]


def _hex(h: Hex, is_land: bool, is_dial: bool) -> str:
    """Return one hex (the place ``hex:q,r``) with its name at its top."""
    k = h.key()
    fill = "#8cc46b" if is_land else ("#5aa9d6" if is_dial else "#7fc0e6")
    cx, cy = h.to_pixel(SIZE)
    return (
        f'<polygon class="{"land" if is_land else "water"}" data-hex="{k}" data-place="hex:{k}" '
        f'points="{_poly(h.corners(SIZE))}" fill="{fill}" stroke="#ffffff" stroke-width="1.5"/>'
        + _text(
            cx,
            cy - SIZE * 0.5,
            k,
            10,
            text_anchor="middle",
            fill="#10301a" if is_land else "#0b2f4a",
        )
    )


def _things(view: dict) -> list[str]:
    """Return the Things and worms, several in a hex spread around its centre."""
    by_hex: dict[str, list[dict]] = {}
    for t in view["things"]:
        by_hex.setdefault(t["hex"], []).append(t)
    out = []
    for k, things in sorted(by_hex.items()):
        cx, cy = Hex.parse(k).to_pixel(SIZE)
        cy += 4  # below the hex's name
        for i, t in enumerate(things):
            angle = 2 * math.pi * i / max(1, len(things)) - math.pi / 2
            spread = 0 if len(things) == 1 else SIZE * 0.38
            x, y = cx + spread * math.cos(angle), cy + spread * math.sin(angle) * 0.8
            out.append(_worm(t, x, y) if t["kind"] == "worm" else _symbol(t["kind"], x, y, t["id"]))
    return out


def _worm(t: dict, x: float, y: float, legend: bool = False) -> str:
    """Return a worm: an upright body in its team's colour with its name, and its health
    under it (a full green bar, or half a red one when Damaged; the body then lies down,
    dashed)."""
    colour = TEAM_COLOURS.get(t.get("team"), "#999999")
    damaged = bool(t.get("damaged"))
    if damaged:
        body = (
            f'<ellipse cx="{x:.1f}" cy="{y:.1f}" rx="13" ry="8" fill="{colour}" '
            f'stroke="#000" stroke-dasharray="3 2"/>'
        )
    else:
        body = f'<ellipse cx="{x:.1f}" cy="{y:.1f}" rx="10" ry="12" fill="{colour}" stroke="#000"/>'
    health = (
        f'<rect x="{x - 10:.1f}" y="{y + 12:.1f}" width="20" height="4" fill="#ffffff" '
        f'stroke="#000" stroke-width="0.6"/>'
        f'<rect x="{x - 10:.1f}" y="{y + 12:.1f}" width="{10 if damaged else 20}" height="4" '
        f'fill="{"#CC0000" if damaged else "#1b8a3a"}"/>'
    )
    label = escape(t["id"])
    if legend:
        return f'<g class="legend-worm">{body}{health}</g>'
    return (
        f'<g class="worm" data-id="{label}" data-place="worm:{label}" '
        f'data-damaged="{str(damaged).lower()}">{body}{health}'
        + _text(x, y + 3.5, t["id"], 9, text_anchor="middle", fill="#ffffff", font_weight="bold")
        + "</g>"
    )


def _symbol(kind: str, x: float, y: float, ident: str = "") -> str:
    """Return a Thing as a small picture (an oil drum, a crate, a mine...)."""
    shapes = {
        "drum": f'<rect x="{x - 6:.1f}" y="{y - 8:.1f}" width="12" height="16" rx="2" '
        f'fill="#8a3b12" stroke="#000"/><path d="M{x - 6:.1f} {y - 3:.1f}h12M{x - 6:.1f} '
        f'{y + 3:.1f}h12" stroke="#f0c080" stroke-width="1.5"/>',
        "crate": f'<rect x="{x - 7:.1f}" y="{y - 7:.1f}" width="14" height="14" fill="#d9a85b" '
        f'stroke="#5a3a10"/><path d="M{x - 7:.1f} {y - 7:.1f}l14 14M{x + 7:.1f} {y - 7:.1f}'
        f'l-14 14" stroke="#5a3a10"/>',
        "mine": f'<path d="M{x - 9:.1f} {y:.1f}h18M{x:.1f} {y - 9:.1f}v18M{x - 6.5:.1f} '
        f'{y - 6.5:.1f}l13 13M{x + 6.5:.1f} {y - 6.5:.1f}l-13 13" stroke="#222" '
        f'stroke-width="1.5"/><circle cx="{x:.1f}" cy="{y:.1f}" r="5.5" fill="#222"/>'
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="1.8" fill="#ff3030"/>',
        "fire": f'<path d="M{x:.1f} {y - 9:.1f}C{x + 8:.1f} {y - 2:.1f} {x + 7:.1f} '
        f"{y + 8:.1f} {x:.1f} {y + 8:.1f}C{x - 7:.1f} {y + 8:.1f} {x - 8:.1f} {y - 1:.1f} "
        f'{x:.1f} {y - 9:.1f}z" fill="#ff7a00" stroke="#a02000"/>',
        "crater": f'<ellipse cx="{x:.1f}" cy="{y:.1f}" rx="9" ry="6" fill="#4a3b2e" '
        f'stroke="#c8b89a" stroke-width="2"/>',
        "sentry": f'<path d="M{x - 8:.1f} {y + 7:.1f}L{x:.1f} {y - 7:.1f}L{x + 8:.1f} '
        f'{y + 7:.1f}z" fill="#556b2f" stroke="#000"/><path d="M{x:.1f} {y:.1f}h10" '
        f'stroke="#000" stroke-width="2.5"/>',
        "water": f'<path d="M{x - 8:.1f} {y:.1f}q4 -5 8 0t8 0M{x - 8:.1f} {y + 5:.1f}q4 -5 '
        f'8 0t8 0" fill="none" stroke="#0b4f8a" stroke-width="2"/>',
    }
    shape = shapes.get(kind, f'<circle cx="{x:.1f}" cy="{y:.1f}" r="6" fill="#999"/>')
    ident = f' data-id="{escape(ident)}"' if ident else ""
    return f'<g class="{escape(kind)}"{ident}>{shape}</g>'


def _below(view: dict, x: float, y: float, width: float) -> tuple[list[str], float]:
    """Return what is drawn under the map: the turn line, the wind, the legend, the Map
    Tiles to place and the viewer's cards; and the y below them."""
    out = []
    for line in wrap(_caption(view), width, 13):
        y += 17
        out.append(_text(x, y, line, 13, fill="#1a1a1a"))
    y += 22
    if view["wind"]:
        out.append(_arrow(x + 12, y - 5, view["wind"], 11, "#223344"))
        wind = f"Wind: towards {view['wind']} ({DIRECTION_NAMES[view['wind']]}), as on the dial"
    else:
        wind = "Wind: not set yet"
    out.append(_text(x + 28, y, wind, 12, fill="#1a1a1a"))
    y += 10
    kinds = ["worm"] + [k for k in THINGS if any(t["kind"] == k for t in view["things"])]
    columns = 2
    col_width = width / columns
    for i, kind in enumerate(kinds):
        cx = x + (i % columns) * col_width
        cy = y + 14 + (i // columns) * LEGEND_ROW
        if kind == "worm":
            out.append(_worm({"id": "", "team": "blue"}, cx + 10, cy - 4, legend=True))
            label = "Worm, health bar below"
        else:
            out.append(_symbol(kind, cx + 10, cy - 4))
            label = THINGS[kind]
        out.append(_text(cx + 26, cy, label, 12, fill="#1a1a1a"))
    y += 14 + ((len(kinds) + columns - 1) // columns) * LEGEND_ROW
    tiles, y = _tiles(view, x, y, width)
    out += tiles
    cards, y = _hand(view, x, y, width)
    out += cards
    return out, y + 6


def _caption(view: dict) -> str:
    """Return the line under the map: whose turn, the hand sizes, or the result."""
    teams = view["teams"]
    if view.get("over"):
        return "Game over: " + ", ".join(
            f"{teams[s]} {view['over']['scores'][s]}" for s in range(len(teams))
        )
    turn = view["turn"]
    head = (
        "Setup"
        if turn["number"] == 0
        else f"Turn {turn['number']}: {team_name(view, turn['seat'])}"
    )
    text = (
        head
        + (f" ({turn['worm']})" if turn.get("worm") else "")
        + ". Cards held: "
        + ", ".join(f"{team_name(view, s)} {n}" for s, n in enumerate(view["hand_sizes"]))
    )
    if view.get("sudden_death"):
        text += f". Sudden Death: {view['sudden_death']}"
    return text


def _tiles(view: dict, x: float, y: float, width: float) -> tuple[list[str], float]:
    """Return the Map Tiles still to place, each drawn as its hexes (the place
    ``tile:2`` a player clicks before the hex where it goes)."""
    left = (view.get("setup") or {}).get("tiles_left") or []
    if not left or not placing_tiles(view):
        return [], y
    out = [_text(x, y + 14, "Map Tiles to place (click one, then its anchor hex):", 12)]
    small = 11.0
    per_row = max(1, int(width // 92))
    for i, tile in enumerate(left):
        cx, cy = x + 40 + (i % per_row) * 92, y + 62 + (i // per_row) * 84
        cells = [Hex.parse(k) for k in MAP["tiles"][tile]["hexes"]]
        ox = sum(h.to_pixel(small)[0] for h in cells) / len(cells)
        oy = sum(h.to_pixel(small)[1] for h in cells) / len(cells)
        shapes = "".join(
            f'<polygon points="{_poly(_moved(h, small, cx - ox, cy - 6 - oy))}" '
            f'fill="#8cc46b" stroke="#ffffff"/>'
            for h in cells
        )
        ax, ay = cx - ox, cy - 6 - oy
        out.append(
            f'<g class="tile" data-place="tile:{escape(tile)}">'
            f'<rect x="{cx - 40:.1f}" y="{cy - 36:.1f}" width="84" height="76" rx="6" '
            f'fill="#ffffff" stroke="#1a1a1a"/>{shapes}'
            f'<circle cx="{ax:.1f}" cy="{ay:.1f}" r="3" fill="#1a1a1a"/>'
            + _text(cx + 2, cy + 34, f"Tile {tile}", 10, text_anchor="middle")
            + "</g>"
        )
    return out, y + 22 + ((len(left) + per_row - 1) // per_row) * 84


def _previews(view: dict) -> list[str]:
    """Return, while Map Tiles are placed, the ``<defs>`` of each tile still to place in
    each of its six turns, drawn around its anchor at (0, 0) (``preview-tile-2-3``: Tile
    2 turned 3 sixths clockwise; its anchor a dot, no text: the page's hint names it),
    for the page to draw at the hex a player picks (:func:`preview`); nothing is shown
    until it is used."""
    left = (view.get("setup") or {}).get("tiles_left") or []
    if not left or not placing_tiles(view):
        return []
    out = ["<defs>"]
    for tile in left:
        for rot in range(6):
            cells = [Hex.parse(k) for k in tile_hexes(tile, [0, 0], rot)]
            shapes = "".join(
                f'<polygon points="{_poly(h.corners(SIZE))}" fill="#8cc46b" '
                f'fill-opacity="0.75" stroke="#1a1a1a" stroke-width="3" '
                f'stroke-dasharray="7 4"/>'
                for h in cells
            )
            out.append(
                f'<g id="{_preview_id(tile, rot)}" class="tile-preview">{shapes}'
                f'<circle cx="0" cy="0" r="5" fill="#1a1a1a"/></g>'
            )
    out.append("</defs>")
    return out


def _preview_id(tile: str, rot: int) -> str:
    """Return the id of a Map Tile's picture turned ``rot`` sixths (:func:`_previews`)."""
    return f"preview-tile-{escape(tile)}-{rot % 6}"


def preview(view: dict, move: dict) -> dict | None:
    """Return the picture to draw on the map while ``move`` is chosen, before it is
    confirmed: for a Map Tile placement the id of the tile's picture in that turn and
    the centre of its anchor hex (``{"shape": "preview-tile-2-3", "x": .., "y": ..}``);
    None for any other move, or when the picture has no tiles to place."""
    if not isinstance(move, dict) or move.get("move") != "tile" or not placing_tiles(view):
        return None
    if move.get("tile") not in ((view.get("setup") or {}).get("tiles_left") or []):
        return None
    at = move.get("at")
    if not (isinstance(at, list) and len(at) == 2 and isinstance(move.get("rot"), int)):
        return None
    x, y = Hex(at[0], at[1]).to_pixel(SIZE)
    return {"shape": _preview_id(move["tile"], move["rot"]), "x": round(x, 1), "y": round(y, 1)}


def _moved(h: Hex, size: float, cx: float, cy: float) -> list[tuple[float, float]]:
    """Return the corners of hex offset ``h`` drawn at ``size`` around (cx, cy)."""
    px, py = h.to_pixel(size)
    return [(cx + px + ex, cy + py + ey) for ex, ey in Hex(0, 0).corners(size)]


def _hand(view: dict, x: float, y: float, width: float) -> tuple[list[str], float]:
    """Return the viewer's Weapon Cards, each the place ``card:KIND`` a player clicks to
    play it (then, for a card that aims, the hex)."""
    hand = view.get("hand") or []
    if not hand:
        return [], y
    out = [_text(x, y + 14, "Your cards:", 12, font_weight="bold")]
    per_row = 2
    w = (width - 8) / per_row
    for i, card in enumerate(hand):
        cx, cy = x + (i % per_row) * (w + 8), y + 22 + (i // per_row) * 32
        out.append(
            f'<rect class="card" data-place="card:{escape(card["card"])}" x="{cx:.1f}" '
            f'y="{cy:.1f}" width="{w:.1f}" height="26" rx="4" fill="#f5e6c8" stroke="#1a1a1a"/>'
            + _text(cx + 8, cy + 17, card["name"], 12, fill="#1a1a1a")
        )
    return out, y + 22 + ((len(hand) + per_row - 1) // per_row) * 32


def targets(view: dict, move: dict) -> list[str]:
    """Return the places clicked to make ``move``: a Map Tile then its anchor hex; the
    hex where a Thing goes; a worm to make it Active; the hex it inches or jumps to;
    the Target's hex; a card, then the hex it aims at. What is left (a tile's turn, a
    die picked, an order) is chosen from the moves that remain."""
    if not isinstance(move, dict):
        return []
    kind = move.get("move")
    at = move.get("at") or move.get("to")
    hexes = [f"hex:{at[0]},{at[1]}"] if isinstance(at, list) and len(at) == 2 else []
    if kind == "tile":
        return [f"tile:{move['tile']}", *hexes]
    if kind == "activate":
        return [f"worm:{move['worm']}"]
    if kind == "inch":
        worm_hex = (view.get("turn") or {}).get("worm_hex")
        if not worm_hex or move.get("dir") not in DIRECTIONS:
            return []
        dq, dr = DIRECTIONS[move["dir"]]
        here = Hex.parse(worm_hex)
        return [f"hex:{here.q + dq},{here.r + dr}"]
    if kind == "play":
        return [f"card:{move['card']}", *hexes]
    if kind in ("place", "jump", "target"):
        return hexes
    return []
