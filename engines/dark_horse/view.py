"""What each seat may see, the "your turn" brief, and each seat's secrets.

Face-down things stay hidden (rules/dark-horse.md, "Setup" 1 and 4: Goal cards "remain
secret until the end of the game", Move cards are dealt face-down, the rest "put
aside"): a seat sees its own hand and Goal cards, and of the others only how many
they hold. Everyone sees the Track, the placement row, the played cards (face up,
"Gameplay"), the Ant tokens (taken "fully visible", "Dilly Dally Variant" 3) and the
black base. Nobody sees the Goal deck or the cards set aside. Once the game is over
everything is shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import rules as r
from .cards import BAD_ENCOUNTER_CARD, Components


def secrets(c: Components, state: Mapping[str, Any], seat: int | None) -> list[str]:
    """Return every hidden value ``seat`` holds that the others may not see: its Move
    card ids and Goal card ids (rules/dark-horse.md, "Setup" 1 and 4). For ``None``,
    what nobody may see: the Goal deck and the cards set aside. Empty once the game
    is over, when everything is public."""
    if r.phase(c, state) == r.OVER:
        return []
    if seat is None:
        return [*(state["goal_deck"] or []), *(state["set_aside"] or [])]
    goals = state["goals"][seat] if state["goals"] is not None else []
    hand = state["hands"][seat] if state["hands"] is not None else []
    return [*hand, *goals]


def view(game: r.Game, state: Mapping[str, Any], seat: int | None) -> dict:
    """Return what ``seat`` may see (``None``: a spectator), as JSON
    (rules/dark-horse.md, "Setup", "Gameplay"; see the module docstring)."""
    c = game.components
    n = state["players"]
    step = r.phase(c, state)
    over = step == r.OVER
    if seat is not None and not (type(seat) is int and 0 <= seat < n):
        seat = None
    prompt = r.prompt(c, state)
    out: dict[str, Any] = {
        "seat": seat,
        "players": n,
        "options": {"dilly_dally": state["dilly_dally"]},
        "phase": step,
        "to_act": list(getattr(prompt, "seats", ())),
        "first_player": state["first"],
        "black_base": state["black_base"],
        "goal_deck_count": len(state["goal_deck"] or []),
        "set_aside_count": len(state["set_aside"] or []),
        "pending_bad_encounter": state["pending"],
        "played": [_played(c, e) for e in state["played"]],
    }
    if step == r.PLACE:
        out["row"] = [{"bug": b, "name": c.bug_name(b)} for b in state["track"]]
        out["track"] = None
    else:
        out["row"] = None
        out["track"] = track_view(c, state)
    holders = r.ant_holders(state) if state["dilly_dally"] and state["first"] is not None else []
    if state["dilly_dally"]:
        out["ants"] = {
            "tokens": r.ANT_TOKENS[n],
            "left": r.ants_left(state),
            "holders": holders,
            "round_over": state["hands"] is not None and r.ants_done(state),
        }
    out["seats"] = [_seat_summary(state, s, holders) for s in range(n)]
    if seat is not None and not over:
        out["you"] = {"hand": hand_view(game, state, seat), "goals": goals_view(c, state, seat)}
    if over:
        out["you"] = None
        out["revealed"] = {
            "goals": [goals_view(c, state, s) for s in range(n)],
            "goal_deck": list(state["goal_deck"]),
            "set_aside": list(state["set_aside"]),
        }
        out["result"] = prompt.result
    return out


def track_view(c: Components, state: Mapping[str, Any]) -> list[dict] | None:
    """Return the Track space by space, space 1 (first place) first, or ``None``
    before the Bugs are placed (rules/dark-horse.md, "Setup" 2 and 3)."""
    if len(state["track"]) < len(c.spaces):
        return None
    return [
        {
            "space": s.number,
            "name": s.name,
            "bug": bug,
            "bug_name": c.bug_name(bug),
            "black_base": bug == state["black_base"],
        }
        for s, bug in zip(c.spaces, state["track"])
    ]


def hand_view(game: r.Game, state: Mapping[str, Any], seat: int) -> list[dict]:
    """Return ``seat``'s Move cards, numbered from 1 as ``play N`` names them
    (rules/dark-horse.md, "Setup" 4: dealt face-down), each with the directions it may
    be played in now (``[]`` for a card that moves as printed; "Gameplay": a positions
    card moves every Bug it names the same way)."""
    c = game.components
    hand = state["hands"][seat] if state["hands"] is not None else []
    return [
        {
            "number": i,
            "card": card_id,
            "label": c.label(card_id),
            "choose_direction": c.move_by_id[card_id].directed,
            "directions": (
                game.directions(card_id, state["track"]) if c.move_by_id[card_id].directed else []
            ),
        }
        for i, card_id in enumerate(hand, 1)
    ]


def goals_view(c: Components, state: Mapping[str, Any], seat: int) -> list[dict]:
    """Return ``seat``'s Goal cards, numbered from 1 as ``swap N`` names them
    (rules/dark-horse.md, "Setup" 1: secret until the end)."""
    goals = state["goals"][seat] if state["goals"] is not None else []
    return [
        {
            "number": i,
            "card": goal_id,
            "bug": c.goal_by_id[goal_id].bug,
            "bug_name": c.bug_name(c.goal_by_id[goal_id].bug),
        }
        for i, goal_id in enumerate(goals, 1)
    ]


def _seat_summary(state: Mapping[str, Any], seat: int, holders: list[int]) -> dict:
    """Return what everyone may know of ``seat``: card counts, played cards, Ant token."""
    return {
        "seat": seat,
        "hand_count": len(state["hands"][seat]) if state["hands"] is not None else 0,
        "goal_count": len(state["goals"][seat]) if state["goals"] is not None else 0,
        "played": [e["card"] for e in state["played"] if e["seat"] == seat],
        "ant_token": seat in holders,
    }


def _played(c: Components, entry: Mapping[str, Any]) -> dict:
    """Return one played card with its label (every played card is face up)."""
    return {**entry, "label": c.label(entry["card"])}


# --------------------------------------------------------------------------- brief


def brief(game: r.Game, state: Mapping[str, Any], seat: int) -> str:
    """Return the lines of a "your turn" mail for ``seat``: what to decide, its own
    hand and Goal cards, the Track (rules/dark-horse.md, "Setup", "Gameplay")."""
    c = game.components
    step = r.phase(c, state)
    actor = r.seat_to_act(state, step)
    lines = []
    if actor != seat:
        waiting = f" Waiting for seat {actor}." if actor is not None else ""
        lines.append(f"You have nothing to decide now.{waiting}")
    elif step == r.PLACE:
        row = state["track"]
        placed = " | ".join(c.bug_name(b) for b in row) or "(empty)"
        free = ", ".join(b.id for b in c.bugs if b.id not in row)
        lines += [
            f"Place a Bug. The row so far, front (space 1) first: {placed}.",
            f"Bugs left: {free}.",
            "Write 'place BUG' for the first Bug, then 'place BUG front' or "
            "'place BUG back' (just before or after the row, never between).",
        ]
    elif step == r.ANTS:
        lines += [
            f"Dilly Dally: take an Ant token or pass ('ant take' / 'ant pass'). "
            f"{r.ants_left(state)} left. Black base: "
            f"{c.bug_name(state['black_base'])}: +{r.ANT_BONUS} if it finishes in the first "
            f"{r.ANT_TOP_PLACES}, {r.ANT_PENALTY} otherwise."
        ]
    elif step == r.BAD_ENCOUNTER:
        by = state["pending"]["by"]
        lines += [
            f"Seat {by} played Bad encounter! and chose you: swap one of your Goal "
            f"cards with the top card of the Goal deck ('swap N')."
        ]
    elif step == r.PLAY:
        lines.append("Play one Move card: 'play N', adding 'forward' or 'backward' for a ± card.")
        if any(c.move_by_id[h].kind == BAD_ENCOUNTER_CARD for h in state["hands"][seat]):
            lines.append(
                "Bad encounter!: 'bad-encounter swap N' swaps your Goal card N with "
                "the top of the Goal deck; 'bad-encounter choose SEAT' makes that seat "
                "swap one."
            )
    if state["goals"] is not None:
        goals = ", ".join(f"{g['number']}. {g['bug_name']}" for g in goals_view(c, state, seat))
        lines.append(f"Your Goal cards: {goals}.")
    if state["hands"] is not None and state["hands"][seat]:
        cards = ", ".join(
            f"{h['number']}. {h['label']}"
            + (f" ({h['directions'][0]} only)" if len(h["directions"]) == 1 else "")
            for h in hand_view(game, state, seat)
        )
        lines.append(f"Your Move cards: {cards}.")
    track = track_view(c, state)
    if track:
        spaces = " | ".join(
            f"{t['space']} {t['name']}: {t['bug_name']}"
            + (" (black base)" if t["black_base"] else "")
            for t in track
        )
        lines.append(f"Track (space 1 is first): {spaces}.")
    return "\n".join(lines)


def _place(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``."""
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


def result_words(c, result: Mapping[str, Any]) -> list[str]:
    """Return a Dark Horse result in words (rules/dark-horse.md, "End of the Game"):
    the finish order, then per seat its revealed Goal cards, each Bug's place and
    points, the Ant token and the total."""
    lines = ["Every Move card has been played; the Goal cards are revealed."]
    finish = result.get("finish") or []
    if finish:
        lines.append(
            "Finish: " + ", ".join(f"{_place(f['place'])} {c.bug_name(f['bug'])}" for f in finish)
        )
    for d in result.get("details") or []:
        goals = "; ".join(
            f"{c.bug_name(g['bug'])} finished {_place(g['place'])}: "
            f"{g['points']} point{'' if g['points'] == 1 else 's'}"
            for g in d["goals"]
        )
        ant = d.get("ant")
        ant_text = (
            f"; Ant token on the {c.bug_name(ant['bug'])} ({_place(ant['place'])}): "
            f"{ant['points']:+d}"
            if ant
            else ""
        )
        lines.append(f"Seat {d['seat']}'s Goal cards: {goals}{ant_text}; total {d['total']}.")
    return lines
