"""What a game page shows, built from the same service calls as the REST API
(``reading.view``, ``reading.legal_moves``, ``reading.events``, ``reading.record``):
the board, whose turn, the deadline, the legal moves, the log in words, the seed
commitment and, after the end, the verification. No rule is decided here.
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass, field
from datetime import datetime

import engines
from arbiter.accounts.identity import SeatGrant
from arbiter.games import clock, invitations, outcome, reading
from arbiter.games.games import open_name
from arbiter.games.history import chance_words
from arbiter.games.naming import named_view, names_of
from arbiter.models import Game
from arbiter.models.timestamps import iso
from arbiter.verify import verify
from arbiter.web import board_clicks, board_picks

BUTTONS_MAX = 24
"""Up to this many legal moves are buttons; more are a list to pick from."""

LOG_SHOWN = 60
"""How many of the latest events the page lists."""


@dataclass
class MoveChoice:
    """One legal move as the page offers it: its notation, its JSON and its words."""

    text: str
    move_json: str
    words: str = ""

    @property
    def label(self) -> str:
        """What its button says: the move in words (the notation when it has none)."""
        return self.words or self.text


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
    board_moves: str | None = None
    waiting_for: list[str] = field(default_factory=list)
    how_to_win: str = ""
    dilly_dally: bool = False
    autopilot: str | None = None
    """How long the autopilot holds the viewing seat (``"return"``: until its player
    says "I'm back" or moves; ``"end"``: to the end); None: it does not hold it."""

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


def notation_help(text: str, options: dict) -> str:
    """Return the engine's notation help without the lines of a variant the game does
    not play (Dark Horse's Dilly Dally lines when it is off)."""
    if options.get("dilly_dally"):
        return text
    return "\n".join(line for line in text.splitlines() if "Dilly Dally" not in line)


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
    view = named_view(read["view"], names)
    tz = next((s.tz for s in game.seats if s.seat == seat), None)
    deadline = clock.earliest(game) if game.status == "active" else None
    legal = (
        reading.legal_moves(game.id, grant) if seat is not None else {"moves": [], "notation": []}
    )
    log, earlier = log_lines(game, grant, names, engine)
    page = GamePage(
        game=game,
        title=engine.title,
        seat=seat,
        names=names,
        view=read["view"],
        board_svg=engine.board_svg(view),
        board_words=engine.board_text(view),
        to_act=list(read["to_act"]),
        deadline=deadline,
        deadline_text=clock.local(deadline, tz) if deadline else None,
        moves=[
            MoveChoice(t, json.dumps(m), board_clicks.words(engine, m, names))
            for m, t in zip(legal["moves"], legal["notation"])
        ],
        log=log,
        earlier=earlier,
        notation=notation_help(engine.notation, game.options or {}),
        form_key=uuid.uuid4().hex,
        timer=deadline is not None and _is_turn_deadline(game, deadline),
        how_to_win=engine.how_to_win,
        dilly_dally=bool((game.options or {}).get("dilly_dally")),
        autopilot=held_until(game, seat),
    )
    if game.status == "waiting":
        page.waiting_for = [
            names.get(i.seat, i.email)
            for i in invitations.of_game(game.id)
            if i.status == "pending"
        ]
    if page.my_turn and page.board_svg:
        page.board_moves = board_clicks.clickable(engine, view, legal, page.board_svg)
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


def held_until(game: Game, seat: int | None) -> str | None:
    """Return how long the autopilot holds ``seat`` of an active ``game`` (its
    ``until``: ``"return"`` or ``"end"``); None when it does not, or for a spectator."""
    if seat is None or game.status != "active":
        return None
    held = next((s.autopilot for s in game.seats if s.seat == seat), None) or {}
    return (held.get("until") or "return") if held.get("active") else None


def log_lines(
    game: Game, grant: SeatGrant | None, names: dict[int, str], engine=None
) -> tuple[list[str], int]:
    """Return the latest events as sentences, as the reader may see them, and how many
    earlier ones are left out."""
    rows = reading.events(game.id, grant, 0)["events"]
    shown = rows[-LOG_SHOWN:]
    return [event_words(e, names, engine) for e in at_creation(shown)], len(rows) - len(shown)


def at_creation(rows: list[dict]) -> list[dict]:
    """Return ``rows`` with the ``seat-joined`` events the game's creation wrote marked
    (``at_creation``): there a seat was only named or opened, nobody joined yet. They
    follow ``game-created`` (the log's first event), one a seat in seat order."""
    created = next((e["seq"] for e in rows if e["kind"] == "game-created"), 1)
    return [
        {**e, "at_creation": True}
        if e["kind"] == "seat-joined" and e["seq"] == created + 1 + e["seat"]
        else e
        for e in rows
    ]


SEAT = re.compile(r"\b([Ss])eat (\d+)('s)?\b")


def named_seats(text: str, names: dict[int, str]) -> str:
    """Return an engine's sentence with ``seat 2`` / ``Seat 2's`` replaced by the
    player's name (a seat the game does not have stays as written)."""

    def name(found: re.Match) -> str:
        seat = int(found.group(2))
        return names[seat] + (found.group(3) or "") if seat in names else found.group(0)

    return SEAT.sub(name, text)


def said(game: Game, move) -> str | None:
    """Return a move just made, as the page confirms it (``you took die 3 and went
    up``); None for a move written in notation (``move`` None) or one the engine cannot
    put in words."""
    if move is None:
        return None
    engine = engines.at_version(game.engine, game.engine_version) or engines.get(game.engine)
    try:
        return "you " + named_seats(engine.move_words(move), names_of(game))
    except (ValueError, KeyError, TypeError):
        return None


def move_words(engine, payload: dict) -> str:
    """Return a move of the log in words (the engine's ``move_words``), falling back to
    its notation."""
    if engine is not None and "move" in payload:
        try:
            return engine.move_words(payload["move"])
        except (ValueError, KeyError, TypeError):  # an engine error is a ValueError
            pass
    return f"played {payload.get('text', 'a move')}"


def event_words(event: dict, names: dict[int, str], engine=None) -> str:
    """Return one event of the log in words (a hidden one says only that it happened)."""
    payload, kind = event["payload"], event["kind"]
    who = names.get(event["seat"], "") if event["seat"] is not None else ""
    if payload.get("hidden"):
        return f"{who} made a hidden move." if kind == "move" else "A hidden draw or shuffle."
    if kind == "move":
        words = named_seats(move_words(engine, payload), names)
        if (payload.get("via") or {}).get("autopilot"):
            late = ": the deadline passed" if payload.get("timeout") else ""
            return f"{who}'s bot {words} (by the autopilot{late})."
        late = " (played for them: the deadline passed)" if payload.get("timeout") else ""
        return f"{who} {words}{late}."
    if kind == "autopilot-on":
        name = payload.get("name", who)
        until = "to the end of the game" if payload.get("until") == "end" else "until they are back"
        return f"{name} missed the deadline: a bot plays for them {until}."
    if kind == "autopilot-off":
        name = payload.get("name", who)
        if payload.get("reason") == "move":
            return f"{name} moved and so took their seat back from the bot."
        return f"{name} is back: the bot no longer plays for them."
    if kind == "chance":
        shown = chance_words(engine, payload) or payload.get("text") or "Chance."
        return named_seats(str(shown).rstrip(".") + ".", names)
    if kind == "seat-joined" and event.get("at_creation"):
        name = payload.get("name", who)
        if name == open_name(event["seat"]):
            return "A seat was opened in the lobby for anyone to take."
        return f"A seat was set for {name}."
    if kind == "seat-joined":
        return f"{payload.get('name', who)} joined the game."
    if kind == "game-cancelled":
        seats = [
            s for s in payload.get("unfilled") or [] if names.get(s, open_name(s)) != open_name(s)
        ]
        empty = [names[s] for s in seats]
        return "The game was cancelled" + (
            f": {', '.join(empty)} did not take their seat." if empty else "."
        )
    if kind == "resigned":
        return f"{who} resigned" + (" (forfeit)." if payload.get("forfeit") else ".")
    if kind == "game-over":
        return "Game over: " + "; ".join(result_lines(payload.get("result", {}), names)) + "."
    if kind == "seed-revealed":
        return "The secret seed was revealed (see Fair dice below)."
    if kind == "game-created":
        return "The game was created."
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
            lines.append(f"{place}. {names.get(s, f'Player {s + 1}')}{score}")
        place += len(group)
    return lines
