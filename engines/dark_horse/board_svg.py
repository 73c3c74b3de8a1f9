"""Draw a Dark Horse view as SVG: the Track with the seven Bugs (or the placement row
while it is being built), the black base and the Ant tokens, the cards played, every
seat's card counts, and for the viewing seat its own hand and Goal cards. Pure:
``render(view) -> str``, ``words(view)``.

Only what the view holds is drawn, so a picture never shows more than its seat may
see (rules/dark-horse.md, "Setup" 1 and 4); after the end, every Goal card.
"""

from __future__ import annotations

from engines.svg import document, seat_marker, seat_name, text

WIDTH = 364
SPACE = 50
LEFT = 7
PLAYED_SHOWN = 8
"""How many of the latest played cards the picture lists."""


def _bug(x: float, y: float, name: str, black_base: bool) -> str:
    """Return a Bug token: a disc with the Bug's first three letters, its name below,
    a black square under it when it carries the black base."""
    base = (
        f'<rect class="black-base" x="{x - 19}" y="{y - 19}" width="38" height="38" '
        f'fill="#111111"/>'
        if black_base
        else ""
    )
    return (
        base + f'<circle class="bug" data-bug="{name.lower()}" cx="{x}" cy="{y}" r="16" '
        f'fill="#F0E442" stroke="#1a1a1a" stroke-width="1.5"/>'
        + text(x, y + 4, name[:3], 12, "middle", weight="bold")
        + text(x, y + 32, name, 9, "middle")
    )


def _track(view: dict, y: float) -> list[str]:
    """Return the Track, space 1 (first place) on the left, or the placement row."""
    out = []
    if view.get("track"):
        out.append(text(LEFT, y, "Track (space 1 is first place):", 12))
        for i, t in enumerate(view["track"]):
            x = LEFT + i * SPACE
            out.append(
                f'<rect class="space" x="{x + 1}" y="{y + 8}" width="{SPACE - 2}" '
                f'height="92" rx="4" fill="#e8f1e0" stroke="#1a1a1a"/>'
            )
            out.append(text(x + SPACE / 2, y + 22, t["space"], 12, "middle", weight="bold"))
            out.append(text(x + SPACE / 2, y + 34, t["name"], 8, "middle"))
            out.append(_bug(x + SPACE / 2, y + 58, t["bug_name"], t["black_base"]))
        return out
    out.append(text(LEFT, y, "Placement row (front = space 1, back = space 7):", 12))
    for i, b in enumerate(view.get("row") or []):
        out.append(_bug(LEFT + i * SPACE + SPACE / 2, y + 58, b["name"], False))
    if not view.get("row"):
        out.append(text(LEFT, y + 40, "No Bug placed yet.", 12))
    return out


def _hand(view: dict, y: float) -> tuple[list[str], float]:
    """Return the viewer's own Move and Goal cards (none for spectators)."""
    you = view.get("you")
    if not you:
        return [], y
    out = [text(LEFT, y, "Your Goal cards:", 12, weight="bold")]
    for i, g in enumerate(you["goals"]):
        out += _card(LEFT + i * 88, y + 6, f"{g['number']}. {g['bug_name']}", "#CC79A7")
    y += 44
    out.append(text(LEFT, y, "Your Move cards:", 12, weight="bold"))
    for i, h in enumerate(you["hand"]):
        out += _card(
            LEFT + (i % 4) * 88, y + 6 + (i // 4) * 34, f"{h['number']}. {h['label']}", "#56B4E9"
        )
    return out, y + 6 + ((len(you["hand"]) + 3) // 4) * 34 + 14


def _card(x: float, y: float, label: str, fill: str) -> list[str]:
    """Return a card face: a rounded rectangle with its label."""
    return [
        f'<rect class="card" x="{x}" y="{y}" width="84" height="28" rx="4" fill="{fill}" '
        f'stroke="#1a1a1a"/>',
        text(x + 42, y + 18, label, 10, "middle"),
    ]


def _seats(view: dict, y: float) -> list[str]:
    """Return one line per seat: its marker, cards held, Ant token, turn."""
    out = []
    for s in view["seats"]:
        row_y = y + s["seat"] * 20
        out.append(seat_marker(s["seat"], LEFT + 7, row_y - 4, 7))
        extra = " | Ant token" if s["ant_token"] else ""
        extra += " | to act" if s["seat"] in view.get("to_act", []) else ""
        out.append(
            text(
                LEFT + 20,
                row_y,
                f"{seat_name(s['seat'], view.get('seat'))}: "
                f"{s['hand_count']} Move cards, {s['goal_count']} Goal cards{extra}",
                12,
            )
        )
    return out


def _played(view: dict, y: float) -> list[str]:
    """Return the latest played cards, newest last."""
    played = view["played"][-PLAYED_SHOWN:]
    earlier = len(view["played"]) - len(played)
    out = [
        text(LEFT, y, "Cards played" + (f" ({earlier} earlier not shown):" if earlier else ":"), 12)
    ]
    for i, p in enumerate(played):
        line = f"{seat_name(p['seat'], view.get('seat'))}: {p['label']}"
        if p.get("direction"):
            line += f" ({p['direction']})"
        out.append(text(LEFT + 10, y + 16 + i * 15, line, 11))
    if not played:
        out.append(text(LEFT + 10, y + 16, "none yet", 11))
    return out


def _ants(view: dict, y: float) -> list[str]:
    """Return the Ant tokens left (Dilly Dally only)."""
    ants = view.get("ants")
    if not ants:
        return []
    out = [text(LEFT, y, f"Ant tokens: {ants['left']} of {ants['tokens']} left", 12)]
    for i in range(ants["tokens"]):
        fill = "#E69F00" if i < ants["left"] else "#ffffff"
        out.append(
            f'<circle class="ant" cx="{LEFT + 200 + i * 18}" cy="{y - 4}" r="6" '
            f'fill="{fill}" stroke="#1a1a1a"/>'
        )
    return out


def _result(view: dict, y: float) -> list[str]:
    """Return the final scores and every revealed Goal card."""
    result, revealed = view.get("result"), view.get("revealed")
    if not result or not revealed:
        return []
    out = [text(LEFT, y, "Game over. Scores and Goal cards:", 12, weight="bold")]
    for s, goals in enumerate(revealed["goals"]):
        names = ", ".join(g["bug_name"] for g in goals)
        out.append(
            text(
                LEFT + 10,
                y + 16 + s * 15,
                f"seat {s}: {result['scores'][s]} points (Goals: {names})",
                11,
            )
        )
    return out


def render(view: dict) -> str:
    """Return an SVG picture of a Dark Horse view (any seat's or a spectator's)."""
    body = [text(LEFT, 20, f"Dark Horse: {view['phase']} phase", 14, weight="bold")]
    body += _track(view, 40)
    y = 162
    if view.get("black_base"):
        body.append(
            text(LEFT, y - 8, "Black base (Dilly Dally) on the Bug with the black square.", 11)
        )
    body += _ants(view, y + 8)
    y += 28 if view.get("ants") else 8
    hand, y = _hand(view, y + 6)
    body += hand
    body += _seats(view, y + 10)
    y += 20 * len(view["seats"]) + 14
    body += _played(view, y)
    y += 16 + 15 * max(1, min(PLAYED_SHOWN, len(view["played"]))) + 10
    if view.get("result"):
        body += _result(view, y)
        y += 16 + 15 * view["players"] + 6
    return document(WIDTH, y, "Dark Horse board", words(view), body)


def words(view: dict) -> list[str]:
    """Return the picture in words: Track, viewer's cards, seats, latest cards played."""
    me = view.get("seat")
    out = [f"Dark Horse, {view['phase']} phase."]
    if view.get("track"):
        out.append(
            "Track from first to last: "
            + ", ".join(
                f"{t['space']} {t['bug_name']}" + (" (black base)" if t["black_base"] else "")
                for t in view["track"]
            )
            + "."
        )
    else:
        out.append(
            "Placement row, front first: "
            + (", ".join(b["name"] for b in view.get("row") or []) or "empty")
            + "."
        )
    you = view.get("you")
    if you:
        out.append(
            "Your Goal cards: "
            + ", ".join(f"{g['number']}. {g['bug_name']}" for g in you["goals"])
            + "."
        )
        out.append(
            "Your Move cards: "
            + (", ".join(f"{h['number']}. {h['label']}" for h in you["hand"]) or "none")
            + "."
        )
    for s in view["seats"]:
        out.append(
            f"{seat_name(s['seat'], me).capitalize()} holds {s['hand_count']} Move "
            f"cards and {s['goal_count']} Goal cards"
            + (", and an Ant token" if s["ant_token"] else "")
            + "."
        )
    if view["played"]:
        p = view["played"][-1]
        out.append(f"Last card played: {p['label']} by {seat_name(p['seat'], me)}.")
    if view.get("result"):
        out.append(
            "Final scores: "
            + ", ".join(f"seat {s} {v}" for s, v in enumerate(view["result"]["scores"]))
            + "."
        )
    return out
