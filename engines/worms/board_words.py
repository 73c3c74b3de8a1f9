"""A Worms view in words: the text alternative of the board picture (``board_svg``).
Pure: ``words(view) -> list[str]``."""

from __future__ import annotations


def team_name(view: dict, seat: int | None) -> str:
    """Return a seat's team as a reader may see it (``seat 2`` while the Reference
    Cards are still hidden, ``setup`` when no seat is named)."""
    if seat is None:
        return "setup"
    names = view.get("names") or []
    name = names[seat] if seat < len(names) else None
    return view["teams"][seat] or name or f"seat {seat}"


def words(view: dict) -> list[str]:
    """Return the map in words: wind, Target, each worm and Thing by hex, the turn."""
    teams = view["teams"]
    wind = view["wind"] if view["wind"] is not None else "not yet set"
    out = [f"Worms map: wind {wind}."]
    worms = [t for t in view["things"] if t["kind"] == "worm"]
    others = [t for t in view["things"] if t["kind"] != "worm"]
    out += [
        f"Worm {t['id']} ({t.get('team')}) at {t['hex']}"
        + (", damaged." if t.get("damaged") else ".")
        for t in worms
    ]
    if others:
        out.append("Things: " + ", ".join(f"{t['kind']} at {t['hex']}" for t in others) + ".")
    if view.get("target"):
        out.append(f"Target token at {view['target']['hex']}.")
    if view.get("over"):
        out.append(
            "Game over: "
            + ", ".join(f"{teams[s]} {view['over']['scores'][s]}" for s in range(len(teams)))
            + "."
        )
    elif view.get("turn"):
        turn = view["turn"]
        if turn["number"] == 0:
            out.append("Setup in progress.")
        else:
            out.append(f"Turn {turn['number']}: {team_name(view, turn['seat'])} to play.")
    return out
