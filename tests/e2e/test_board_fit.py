"""Board pictures that fit (issue 23, item 7): Debian's Chromium draws each engine's
SVG at every player count, at the start, middle and end of a seeded random playout,
and every text's extent (``getBBox``, what the browser really laid out) must lie inside
the picture and must not run into another text; every place a player clicks lies
inside the picture. No server: the pictures come straight from the engines.
"""

from __future__ import annotations

import random

import pytest

import engines
from arbiter.playout import random_game
from engines.base import Decision

pytestmark = pytest.mark.xdist_group("browser")

NAMES = ["Alexandria Featherstonehaugh", "Bo", "Christopher Columbus", "Dee", "Eve", "Flo"]
"""Players' names, two of them long (a picture cuts a name at 12 characters)."""
SLACK = 0.5
"""User units of overlap that count as touching, not overlapping (anti-aliasing)."""

MEASURE = """() => {
  const svg = document.querySelector("svg");
  const box = svg.viewBox.baseVal;
  const inside = (b) => b.x >= box.x - 0.5 && b.y >= box.y - 0.5 &&
    b.x + b.width <= box.x + box.width + 0.5 && b.y + b.height <= box.y + box.height + 0.5;
  // a seat's marker (its number in its shape) is drawn over what it stands on
  const texts = [...svg.querySelectorAll("text:not(.marker)")].filter(t => t.textContent.trim());
  const boxes = texts.map(t => { const b = t.getBBox();
    return {text: t.textContent, x: b.x, y: b.y, width: b.width, height: b.height}; });
  const out = boxes.filter(b => !inside(b)).map(b => "outside: " + b.text);
  const places = [...svg.querySelectorAll("[data-place]")].filter(p => !inside(p.getBBox()))
    .map(p => "place outside: " + p.getAttribute("data-place"));
  return {out: out.concat(places), boxes: boxes};
}"""


def overlaps(boxes: list[dict]) -> list[str]:
    """Return the pairs of texts whose boxes overlap by more than :data:`SLACK`.
    A text's box is its line height, so lines set closer than their size overlap."""
    found = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            dx = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
            dy = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
            if dx > SLACK and dy > 2.5:  # lines of one block touch by their leading only
                found.append(f"{a['text']!r} runs into {b['text']!r}")
    return found


def pictures(engine_id: str):
    """Yield ``(label, svg)`` for every player count of the engine: the start, middle
    and end of one seeded random playout, for a seat that is to move (or seat 0) and a
    spectator."""
    engine = engines.get(engine_id)
    for players in range(engine.min_players, engine.max_players + 1):
        played = random_game(engine, players, rng=random.Random(players), keep_states=True)
        states = played.states
        for when, state in (("start", states[0]), ("middle", states[len(states) // 2])):
            yield from _views(engine, state, f"{players}p {when}")
        yield from _views(engine, played.state, f"{players}p end")


def _views(engine, state: dict, label: str):
    prompt = engine.prompt(state)
    seat = prompt.seats[0] if isinstance(prompt, Decision) else 0
    names = NAMES[: len(engine.view(state, None).get("names") or []) or 6]
    for who in (seat, None):
        view = {**engine.view(state, who), "names": names}
        yield f"{label}, seat {who}", engine.board_svg(view)


@pytest.mark.parametrize("engine_id", list(engines.ENGINE_MODULES))
def test_no_text_leaves_its_picture_or_runs_into_another(page, engine_id) -> None:
    """Every text of every picture lies inside it and clear of the others."""
    problems = []
    for label, svg in pictures(engine_id):
        page.set_content(f"<!doctype html><html lang=en><body>{svg}</body></html>")
        measured = page.evaluate(MEASURE)
        problems += [f"{label}: {p}" for p in measured["out"] + overlaps(measured["boxes"])]
    assert problems == [], "\n".join(sorted(set(problems))[:40])
