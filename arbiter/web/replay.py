"""The replay of a finished game (issue 23, item 5): ``/games/<id>/replay?step=N&seat=S``
shows event N of the record in words and the board as it was after it, through the
eyes of seat S or a spectator (after the end every seat's view may be shown: the whole
record is public, DESIGN.md "The game log"). Prev/next are plain links; the arrow keys
follow them with ``static/replay.js``. The states come from folding the record's
inputs with the game's engine, as ``arbiter verify`` does; nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import abort, render_template, request

import engines
from arbiter.games import games, reading
from arbiter.web import game_page
from arbiter.web.routes import bp
from engines.base import Input, apply


@dataclass
class ReplayPage:
    """What the replay template shows at one step."""

    game: object
    title: str
    step: int
    steps: int
    seat: int | None
    names: dict[int, str]
    line: str
    board_svg: str | None
    board_words: list[str]
    how_to_win: str = ""
    lines: list[str] = field(default_factory=list)


def _number(text: str | None, default: int) -> int:
    """Return ``text`` read as a whole number, else ``default`` (bad input is no 500)."""
    return int(text) if text and text.isdigit() and len(text) < 9 else default


def build(game_id: str, step: int, seat: int | None) -> ReplayPage:
    """Return the replay page of a finished game at ``step`` (1 = its first event;
    clamped into range) through ``seat``'s eyes (None: a spectator).

    :raises arbiter.errors.NotFound: no such game.
    :raises arbiter.errors.Conflict: ``game-not-over`` while it is being played.
    """
    game = games.get_game(game_id)
    record = reading.record(game_id)
    engine = engines.at_version(game.engine, game.engine_version) or engines.get(game.engine)
    names = {p["seat"]: p["name"] for p in record["players"]}
    events = record["events"]
    step = min(max(step, 1), max(len(events), 1))
    players = len(record["players"])
    state = engine.setup(players, engine.load_options(players, record["options"]))
    for e in events[:step]:
        if e["kind"] == "move":
            state = apply(engine, state, Input("move", e["seat"], e["payload"]["move"]))
        elif e["kind"] == "chance":
            state = apply(engine, state, Input("chance", None, e["payload"]["outcome"]))
    if seat is not None and seat not in names:
        seat = None
    view = {**game_page.named_view(engine.view(state, seat), names), "replay": True}
    marked = game_page.at_creation(events)
    shown = marked[max(0, step - 3) : step]
    return ReplayPage(
        game=game,
        title=engine.title,
        step=step,
        steps=len(events),
        seat=seat,
        names=names,
        line=game_page.event_words(marked[step - 1], names, engine) if events else "",
        board_svg=engine.board_svg(view),
        board_words=engine.board_text(view),
        how_to_win=engine.how_to_win,
        lines=[game_page.event_words(e, names, engine) for e in shown],
    )


@bp.get("/games/<game_id>/replay")
def replay(game_id: str):
    """The replay page of a finished game, one event a step."""
    step = _number(request.args.get("step"), 1)
    seat_arg = request.args.get("seat")
    seat = _number(seat_arg, -1) if seat_arg else -1
    page = build(game_id, step, None if seat < 0 else seat)
    if page.steps == 0:
        abort(404)
    return render_template("replay.html", page=page)
