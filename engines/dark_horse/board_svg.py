"""Draw a Dark Horse view as SVG: the Track with the seven Bugs (or the placement row
while it is being built), the black base and the Ant tokens, the cards played, every
seat's card counts, and for the viewing seat its own hand and Goal cards. Pure:
``render(view) -> str``, ``words(view)``.

Only what the view holds is drawn, so a picture never shows more than its seat may
see (rules/dark-horse.md, "Setup" 1 and 4); after the end, every Goal card.
"""

from __future__ import annotations

from engines.svg import document, seat_marker, seat_name, text, upper_first, who

WIDTH = 364
SPACE = 50
LEFT = 7
PLAYED_SHOWN = 8
"""How many of the latest played cards the picture lists."""


def _bug(x: float, y: float, bug: str, name: str, black_base: bool, low: bool = False) -> str:
    """Return a Bug token (the place ``bug:ID`` a player clicks): a disc with the Bug's
    first three letters, its name below (one line lower when ``low``, so that long
    names side by side do not touch), a black square under it with the black base."""
    base = (
        f'<rect class="black-base" x="{x - 19}" y="{y - 19}" width="38" height="38" '
        f'fill="#111111"/>'
        if black_base
        else ""
    )
    return (
        base + f'<circle class="bug" data-bug="{bug}" data-place="bug:{bug}" cx="{x}" '
        f'cy="{y}" r="16" fill="#F0E442" stroke="#1a1a1a" stroke-width="1.5"/>'
        + text(x, y + 4, name[:3], 12, "middle", weight="bold")
        + text(x, y + (44 if low else 31), name, 9, "middle")
    )


TRACK_HEIGHT = 112
"""The height of the Track (or of the placement row with the Bugs still to place)."""


def _track(view: dict, y: float) -> list[str]:
    """Return the Track, space 1 (first place) on the left, or the placement row."""
    out = []
    if view.get("track"):
        out.append(text(LEFT, y, "Track (space 1 is first place):", 12))
        for i, t in enumerate(view["track"]):
            x = LEFT + i * SPACE
            out.append(
                f'<rect class="space" x="{x + 1}" y="{y + 8}" width="{SPACE - 2}" '
                f'height="{TRACK_HEIGHT - 10}" rx="4" fill="#e8f1e0" stroke="#1a1a1a"/>'
            )
            out.append(text(x + SPACE / 2, y + 22, t["space"], 12, "middle", weight="bold"))
            out.append(_space_name(x + SPACE / 2, y + 33, t["name"]))
            out.append(
                _bug(x + SPACE / 2, y + 60, t["bug"], t["bug_name"], t["black_base"], i % 2 == 1)
            )
        return out
    row = view.get("row") or []
    out.append(text(LEFT, y, "Placement row (front = space 1, back = space 7):", 12))
    ends = len(row) > 0
    step = min(SPACE, (WIDTH - 2 * LEFT) / (len(row) + 2))  # both ends fit beside it
    start = LEFT + (step if ends else 0)
    for i, b in enumerate(row):
        out.append(_bug(start + i * step + step / 2, y + 42, b["bug"], b["name"], False, i % 2))
    if ends:
        out.append(_end("front", LEFT, y + 20, step))
        out.append(_end("back", start + len(row) * step, y + 20, step))
    else:
        out.append(text(LEFT, y + 40, "No Bug placed yet.", 12))
    waiting = [b for b in view.get("bugs") or [] if b["bug"] not in {r["bug"] for r in row}]
    if waiting:
        out.append(text(LEFT, y + 90, "Bugs to place:", 11))
        for i, b in enumerate(waiting):
            out.append(_bug(LEFT + 104 + i * 36, y + 86, b["bug"], b["name"][:3], False))
    return out


def _space_name(x: float, y: float, name: str) -> str:
    """Return a Track space's name, on two lines when it has two words."""
    first, _, rest = name.partition(" ")
    if not rest:
        return text(x, y, first, 8, "middle")
    return text(x, y - 3, first, 8, "middle") + text(x, y + 6, rest, 8, "middle")


def _end(end: str, x: float, y: float, width: float) -> str:
    """Return an end of the placement row, the place (``end:front``) a player clicks
    to put the Bug there."""
    return (
        f'<rect class="end" data-place="end:{end}" x="{x + 2:.1f}" y="{y}" '
        f'width="{width - 4:.1f}" height="44" rx="6" fill="#ffffff" stroke="#1a1a1a" '
        f'stroke-dasharray="4 3"/>' + text(x + width / 2, y + 26, end, 10, "middle")
    )


CARD_W, CARD_H = 172, 28
"""A card face; two a row, wide enough for the longest label."""


def _hand(view: dict, y: float) -> tuple[list[str], float]:
    """Return the viewer's own Goal and Move cards (none for spectators): each a place
    a player clicks (``goal:N``, ``card:ID``), and the two direction buttons
    (``dir:forward``) when a card of the hand lets its player choose one."""
    you = view.get("you")
    if not you:
        return [], y
    out = [text(LEFT, y, "Your Goal cards:", 12, weight="bold")]
    for i, g in enumerate(you["goals"]):
        out += _card(
            LEFT + (i % 2) * (CARD_W + 6),
            y + 6 + (i // 2) * (CARD_H + 6),
            f"{g['number']}. {g['bug_name']}",
            "#CC79A7",
            f"goal:{g['number']}",
        )
    y += 6 + ((len(you["goals"]) + 1) // 2) * (CARD_H + 6) + 14
    out.append(text(LEFT, y, "Your Move cards:", 12, weight="bold"))
    for i, h in enumerate(you["hand"]):
        out += _card(
            LEFT + (i % 2) * (CARD_W + 6),
            y + 6 + (i // 2) * (CARD_H + 6),
            f"{h['number']}. {h['label']}",
            "#56B4E9",
            f"card:{h['card']}",
        )
    y += 6 + ((len(you["hand"]) + 1) // 2) * (CARD_H + 6) + 6
    if any(h.get("choose_direction") for h in you["hand"]):
        for i, (way, label) in enumerate((("forward", "◀ forward"), ("backward", "backward ▶"))):
            x = LEFT + i * (CARD_W + 6)
            out.append(
                f'<rect class="direction" data-place="dir:{way}" x="{x}" y="{y}" '
                f'width="{CARD_W}" height="{CARD_H}" rx="14" fill="#ffffff" stroke="#1a1a1a"/>'
            )
            out.append(text(x + CARD_W / 2, y + 19, label, 12, "middle"))
        y += CARD_H + 8
    return out, y + 14


def _card(x: float, y: float, label: str, fill: str, place: str) -> list[str]:
    """Return a card face: a rounded rectangle with its label."""
    return [
        f'<rect class="card" data-place="{place}" x="{x}" y="{y}" width="{CARD_W}" '
        f'height="{CARD_H}" rx="4" fill="{fill}" stroke="#1a1a1a"/>',
        text(x + 8, y + 19, label, 12),
    ]


def _seats(view: dict, y: float) -> list[str]:
    """Return one line per seat: its marker, cards held, Ant token, turn."""
    out = []
    for s in view["seats"]:
        row_y = y + s["seat"] * 20
        out.append(
            f'<rect class="seat" data-place="seat:{s["seat"]}" x="{LEFT - 3}" y="{row_y - 15}" '
            f'width="{WIDTH - 2 * LEFT + 6}" height="19" fill="#ffffff" fill-opacity="0"/>'
        )
        out.append(seat_marker(s["seat"], LEFT + 7, row_y - 4, 7))
        extra = " | Ant token" if s["ant_token"] else ""
        extra += " | to act" if s["seat"] in view.get("to_act", []) else ""
        out.append(
            text(
                LEFT + 20,
                row_y,
                f"{_who(view, s['seat'])}: "
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
        line = f"{_who(view, p['seat'])}: {p['label']}"
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
                f"{upper_first(seat_name(s, None, view.get('names')))}: "
                f"{result['scores'][s]} points (Goals: {names})",
                11,
            )
        )
    return out


def render(view: dict) -> str:
    """Return an SVG picture of a Dark Horse view (any seat's or a spectator's)."""
    body = [text(LEFT, 20, f"Dark Horse: {view['phase']} phase", 14, weight="bold")]
    body += _track(view, 40)
    y = 40 + TRACK_HEIGHT + 10
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
        holder = _who(view, s["seat"])
        holds = "hold" if holder.startswith("you") else "holds"  # "You hold", "Ann holds"
        out.append(
            f"{upper_first(holder)} {holds} {s['hand_count']} Move "
            f"cards and {s['goal_count']} Goal cards"
            + (", and an Ant token" if s["ant_token"] else "")
            + "."
        )
    if view["played"]:
        p = view["played"][-1]
        out.append(f"Last card played: {p['label']} by {_who(view, p['seat'])}.")
    if view.get("result"):
        out.append(
            "Final scores: "
            + ", ".join(
                f"{seat_name(s, None, view.get('names'))} {v}"
                for s, v in enumerate(view["result"]["scores"])
            )
            + "."
        )
    return out


def targets(view: dict, move: dict, bug: str | None = None) -> list[str]:
    """Return the places clicked to make ``move`` (``bug``: the Bug its card pictures,
    if any): the Bug (then the row's end) to
    place one; a card, then the Bug it moves, then the direction for a ± card; a
    card, then the Goal card or the seat for Bad encounter!; a Goal card to answer
    one. An Ant token decision has no place: it is chosen from the list."""
    if not isinstance(move, dict):
        return []
    if "place" in move:
        return [f"bug:{move['place']}"] + ([f"end:{move['end']}"] if "end" in move else [])
    if "swap" in move and "play" not in move:
        return [f"goal:{move['swap']}"]
    if "play" not in move:
        return []
    out = [f"card:{move['play']}"]
    if bug in {t["bug"] for t in view.get("track") or []}:
        out.append(f"bug:{bug}")
    if "direction" in move:
        out.append(f"dir:{move['direction']}")
    if "swap" in move:
        out.append(f"goal:{move['swap']}")
    if "choose" in move:
        out.append(f"seat:{move['choose']}")
    return out


def _who(view: dict, seat: int | None) -> str:
    return who(view, seat, "seat")
