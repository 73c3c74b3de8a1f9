"""What a game page shows, built from the same service calls as the REST API
(``reading.view``, ``reading.legal_moves``, ``reading.events``, ``reading.record``):
the board, whose turn, the deadline, the legal moves, the log in words, the seed
commitment and, after the end, the verification. No rule is decided here.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from datetime import datetime

import engines
from arbiter.accounts.identity import SeatGrant
from arbiter.games import clock, outcome, reading
from arbiter.models import Game
from arbiter.models.timestamps import iso
from arbiter.verify import verify
from arbiter.web import board_picks

BUTTONS_MAX = 24
"""Up to this many legal moves are buttons; more are a list to pick from."""

LOG_SHOWN = 60
"""How many of the latest events the page lists."""


@dataclass
class MoveChoice:
    """One legal move as the page offers it: its notation and its JSON."""

    text: str
    move_json: str


@dataclass
class GamePage:
    """Everything the game template needs."""

    game: Game
    title: str
    seat: int | None
    names: dict[int, str]
    view: dict
    board_svg: str | None
    board_words: list[str]
    to_act: list[int]
    deadline: datetime | None
    deadline_text: str | None
    moves: list[MoveChoice]
    log: list[str]
    earlier: int
    notation: str
    form_key: str
    pick: str | None = None
    picked: bool = False
    verdict: object = None
    timer: bool = False
    seed: str | None = None
    result_lines: list[str] = field(default_factory=list)

    @property
    def my_turn(self) -> bool:
        """True when the viewing seat owes a move now."""
        return self.seat is not None and self.seat in self.to_act

    @property
    def as_buttons(self) -> bool:
        """True when the legal moves are few enough to be one button each."""
        return len(self.moves) <= BUTTONS_MAX

    @property
    def deadline_iso(self) -> str | None:
        """The deadline as an ISO 8601 UTC timestamp (for ``<time datetime>``)."""
        return iso(self.deadline)


def _is_turn_deadline(game: Game, deadline: datetime) -> bool:
    """True when ``deadline`` is a turn clock's (an engine's Timer, e.g. Worms')."""
    turn = clock.turn_deadline(game.clock_state)
    return turn is not None and turn[1] == deadline


def build(game: Game, grant: SeatGrant | None, pick: str | None = None) -> GamePage:
    """Return the page of ``game`` for the seat of ``grant`` (None: a spectator); with
    ``pick`` (a place picked on the board), the moves that name it first.

    :raises arbiter.errors.NotFound: no such game.
    """
    engine = (
        engines.at_version(game.engine, game.engine_version)  # the game's rules
        or engines.get(game.engine)
    )
    read = reading.view(game.id, grant)
    seat = read["seat"]
    names = {s.seat: s.name for s in game.seats}
    tz = next((s.tz for s in game.seats if s.seat == seat), None)
    deadline = clock.earliest(game) if game.status == "active" else None
    legal = (
        reading.legal_moves(game.id, grant) if seat is not None else {"moves": [], "notation": []}
    )
    log, earlier = log_lines(game, grant, names)
    page = GamePage(
        game=game,
        title=engine.title,
        seat=seat,
        names=names,
        view=read["view"],
        board_svg=engine.board_svg(read["view"]),
        board_words=engine.board_text(read["view"]),
        to_act=list(read["to_act"]),
        deadline=deadline,
        deadline_text=clock.local(deadline, tz) if deadline else None,
        moves=[MoveChoice(t, json.dumps(m)) for m, t in zip(legal["moves"], legal["notation"])],
        log=log,
        earlier=earlier,
        notation=engine.notation,
        form_key=uuid.uuid4().hex,
        timer=deadline is not None and _is_turn_deadline(game, deadline),
    )
    if page.my_turn and page.board_svg:
        page.board_svg = board_picks.linked(page.board_svg, [m.text for m in page.moves])
        page.moves, page.picked = board_picks.narrowed(page.moves, pick)
        page.pick = pick if page.picked else None
    if game.status == "over":
        record = reading.record(game.id)
        page.verdict = verify(record)
        page.seed = record["seed"]
        page.result_lines = result_lines(game.result or {}, names)
    return page


def log_lines(game: Game, grant: SeatGrant | None, names: dict[int, str]) -> tuple[list[str], int]:
    """Return the latest events as sentences, as the reader may see them, and how many
    earlier ones are left out."""
    rows = reading.events(game.id, grant, 0)["events"]
    shown = rows[-LOG_SHOWN:]
    return [f"{e['seq']}. {event_words(e, names)}" for e in shown], len(rows) - len(shown)


def event_words(event: dict, names: dict[int, str]) -> str:
    """Return one event of the log in words (a hidden one says only that it happened)."""
    payload, kind = event["payload"], event["kind"]
    who = names.get(event["seat"], "") if event["seat"] is not None else ""
    if payload.get("hidden"):
        return f"{who} made a hidden move." if kind == "move" else "A hidden draw or shuffle."
    if kind == "move":
        late = " (played for them: the deadline passed)" if payload.get("timeout") else ""
        return f"{who}: {payload.get('text', 'a move')}{late}."
    if kind == "chance":
        return str(payload.get("text") or "Chance.").rstrip(".") + "."
    if kind == "seat-joined":
        return f"{payload.get('name', who)} takes seat {event['seat']}."
    if kind == "resigned":
        return f"{who} resigned" + (" (forfeit)." if payload.get("forfeit") else ".")
    if kind == "game-over":
        return "Game over: " + "; ".join(result_lines(payload.get("result", {}), names)) + "."
    if kind == "seed-revealed":
        return f"Seed revealed: {payload.get('seed')}."
    if kind == "game-created":
        return "Game created; seed commitment " + str(payload.get("seed_commitment")) + "."
    return kind.replace("-", " ").capitalize() + (f" ({who})" if who else "") + "."


def result_lines(result: dict, names: dict[int, str]) -> list[str]:
    """Return the scores best first: ``1. Ann: 42`` (tied seats share a place); a
    result without scores (a resignation) gives ``1. Ann`` and ``2. Bob (resigned)``."""
    scored = outcome.has_scores(result)
    resigned = set(result.get("resigned") or [])
    lines = []
    place = 1
    for group in result.get("ranking") or []:
        for s in group:
            score = (
                f": {outcome.score_text(result, s)}"
                if scored
                else " (resigned)"
                if s in resigned
                else ""
            )
            lines.append(f"{place}. {names.get(s, f'seat {s}')}{score}")
        place += len(group)
    return lines
