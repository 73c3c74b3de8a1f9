"""The Target Token: Target steps, Accuracy X and Scatter (Target, Air Strike
targets, Emptiest, Accuracy X, Scatter).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engines.hexgrid import Hex, is_line, step_length
from engines.worms import board as B
from engines.worms.rules.frames import ask_dice, ask_move, done, note
from engines.worms.rules.things import active_worm

Coords = tuple[str, int, int]
"""A board hex as ``(key, q, r)`` (:func:`engines.worms.board.board_coords`)."""


def target_hexes(st: dict) -> list[str]:
    """Return the hexes the Target Token covers: its hex, and for an Air Strike the two
    next hexes in its direction (Target, Air Strike targets)."""
    tgt = st["target"]
    if tgt is None:
        return []
    if tgt.get("dir") is None:
        return [tgt["hex"]]
    h = Hex.parse(tgt["hex"])
    return [h.neighbor(tgt["dir"], k).key() for k in range(3)]


def target_options(st: dict, step: dict) -> list[dict]:
    """Return the legal ``{"at": [q, r]}`` (and ``"dir"``) answers of a target step, in
    board order."""
    if step["do"] == "air-strike":
        board = B.board_coords(st["dial"], st["radius"])
        return [{"at": [q, r], "dir": d} for _, q, r in board for d in range(1, 7)]
    return [{"at": [q, r]} for _, q, r in fitting_hexes(st, step)]


def fitting_hexes(st: dict, step: dict) -> Sequence[Coords]:
    """Return the board hexes ``(key, q, r)`` that fit a target step's limits, in board
    order: the hexes for which :func:`target_error` finds nothing wrong, tested all at
    once (the listings test every board hex)."""
    hexes: Sequence[Coords] = B.board_coords(st["dial"], st["radius"])
    if step["direct"] or step["within"] is not None:
        if not st["turn"]["worm_hex"]:
            return []
        hexes = _aimed(
            st["dial"], st["radius"], st["turn"]["worm_hex"], step["direct"], step["within"]
        )
    if step["new"] and st["target"]:
        hexes = [h for h in hexes if h[0] != st["target"]["hex"]]
    if step.get("empty") or step.get("nonfull"):
        most = 0 if step.get("empty") else 2
        land, counts = set(st["land"]), B.counts(st)
        hexes = [h for h in hexes if h[0] in land and counts.get(h[0], 0) <= most]
    return hexes


@lru_cache(maxsize=4096)
def _aimed(
    dial: str, radius: int, origin: str, direct: bool, within: int | None
) -> tuple[Coords, ...]:
    """Return the board hexes on a line from hex ``origin`` when ``direct``, within
    ``within`` of it when given (Direct hex, Hex within X), in board order; remembered
    (a search lists the same few origins again and again)."""
    o = Hex.parse(origin)
    out = []
    for h in B.board_coords(dial, radius):
        dq, dr = h[1] - o.q, h[2] - o.r
        if direct and not is_line(dq, dr):
            continue
        if within is not None and step_length(dq, dr) > within:
            continue
        out.append(h)
    return tuple(out)


def target_error(st: dict, step: dict, key: str) -> tuple[str, str] | None:
    """Return ``(code, sentence)`` when hex ``key`` breaks a target step's limits
    (Direct hex, Hex within X, New hex, Empty, Non-full hex), None when it fits. With
    no active worm on the map (a Drop card after the worm sank) Direct and within
    count from nowhere: no hex fits them."""
    h = Hex.parse(key)
    if not B.on_board(st, key):
        return "off-the-map", f"{key} is off the map."
    if step["do"] == "air-strike":
        return None
    origin = Hex.parse(st["turn"]["worm_hex"]) if st["turn"]["worm_hex"] else None
    if (step["direct"] or step["within"] is not None) and origin is None:
        return "no-worm", "Your worm is not on the map to aim from."
    if step["direct"] and not origin.is_direct(h):
        return "not-direct", f"{key} is not a Direct hex from your worm."
    if step["within"] is not None and origin.distance(h) > step["within"]:
        return "out-of-range", f"{key} is more than {step['within']} hexes from your worm."
    if step["new"] and st["target"] and st["target"]["hex"] == key:
        return "not-new", "That hex holds the Target Token: target a New hex."
    if step.get("empty") and not (B.is_land(st, key) and B.count_in(st, key) == 0):
        return "not-empty", f"{key} is not an Empty hex (a Land hex with no Things)."
    if step.get("nonfull") and not (B.is_land(st, key) and B.count_in(st, key) < 3):
        return "full-hex", f"{key} is not a Non-full hex (a Land hex with fewer than three Things)."
    return None


def set_target(st: dict, at: list[int], direction: int | None = None) -> None:
    """Place the Target Token."""
    st["target"] = {"hex": Hex(*at).key(), "dir": direction}
    note(st, f"target {at[0]},{at[1]}" + (f" dir {direction}" if direction else ""))


def accuracy_dice(x: int, distance: int) -> int:
    """Return how many dice Accuracy ``x`` rolls at ``distance`` from the worm."""
    return max(1, x - max(0, distance - 1))


def move_target(st: dict, direction: int | None) -> None:
    """Move the Target Token one hex (its Air Strike direction is kept)."""
    if direction is not None and st["target"] is not None:
        st["target"]["hex"] = Hex.parse(st["target"]["hex"]).neighbor(direction).key()
        note(st, f"target moves {direction} to {st['target']['hex']}")


class Targets:
    """The handlers of the Target Token's steps, as methods of the engine."""

    def h_target(self, st: dict, fr: dict) -> None:
        """Target a (New) (Direct) hex (within X), or an Air Strike (Target). A target
        step with no legal hex, first in its text or not, is skipped: the Target Token
        is cleared, so the steps aimed at it do nothing, and the card goes on
        (docs/games/worms.md, decision 21)."""
        if "preset" in fr and fr["preset"]:
            fr["answer"] = {"move": "target", **fr.pop("preset")}
        if "answer" not in fr:
            options = [dict(o, move="target") for o in target_options(st, fr)]
            if not options:
                st["target"] = None
                done(st)
                return
            ask_move(st, "target", options)
            return
        set_target(st, fr["answer"]["at"], fr["answer"].get("dir"))
        done(st)

    def h_target_own(self, st: dict, fr: dict) -> None:
        """Target your Own hex (no worm on the map: no target)."""
        if active_worm(st) is None:
            st["target"] = None
        else:
            set_target(st, list(map(int, st["turn"]["worm_hex"].split(","))))
        done(st)

    def h_target_emptiest(self, st: dict, fr: dict) -> None:
        """Target the Emptiest hex; the active player breaks ties (Emptiest)."""
        if "answer" not in fr:
            ties = B.emptiest(st)
            if len(ties) > 1:
                ask_move(
                    st,
                    "target",
                    [{"move": "target", "at": list(map(int, k.split(",")))} for k in ties],
                )
                return
            if not ties:
                st["target"] = None
                done(st)
                return
            fr["answer"] = {"at": list(map(int, ties[0].split(",")))}
        set_target(st, fr["answer"]["at"])
        done(st)

    def h_accuracy(self, st: dict, fr: dict) -> None:
        """Accuracy X: X less the distance beyond adjacent (never below 1, phantom Water
        counted); roll that many dice, the player picks one; move the target (Accuracy X)."""
        if st["target"] is None:
            done(st)
            return
        if "rolled" not in fr:
            if "answer" not in fr:
                dist = Hex.parse(st["turn"]["worm_hex"]).distance(Hex.parse(st["target"]["hex"]))
                ask_dice(st, accuracy_dice(fr["x"], dist), "accuracy")
                return
            fr["rolled"] = [B.face_label(o) for o in fr.pop("answer")]
            note(st, f"accuracy dice {fr['rolled']}")
        faces = list(dict.fromkeys(fr["rolled"]))
        if len(faces) > 1 and "answer" not in fr:
            ask_move(st, "pick", [{"move": "pick", "die": f} for f in faces], rolled=fr["rolled"])
            return
        chosen = fr["answer"]["die"] if "answer" in fr else faces[0]
        move_target(st, B.direction_of(st, chosen))
        done(st)

    def h_scatter(self, st: dict, fr: dict) -> None:
        """Scatter the target (Scatter)."""
        if st["target"] is None:
            done(st)
            return
        if "answer" not in fr:
            ask_dice(st, 1, "scatter")
            return
        move_target(st, B.direction_of(st, B.face_label(fr["answer"][0])))
        done(st)
