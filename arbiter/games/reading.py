"""Reading a game as a given reader may see it: summary, view, legal moves, events,
and the full record once it is over."""

from __future__ import annotations

import time
from collections.abc import Callable, Collection
from dataclasses import asdict

import sqlalchemy as sa

from arbiter import settings
from arbiter.accounts import identity, links
from arbiter.accounts.accounts import DELETED_NAME
from arbiter.errors import ArbiterError, Conflict, NotFound
from arbiter.extensions import db
from arbiter.games import clock
from arbiter.games.loading import load_record
from arbiter.games.naming import named_view, names_of
from arbiter.games.store import events_after
from arbiter.models import Event, Game, Seat, game_record
from arbiter.models.timestamps import iso, utcnow
from arbiter.talk import options as talk_options


def summary(game: Game) -> dict:
    """Return the public summary of a game (no secrets: no seed before the end, no
    emails)."""
    return {
        "id": game.id,
        "engine": game.engine,
        "engine_version": game.engine_version,
        "status": game.status,
        "version": game.version,
        "to_act": game.to_act,
        "prompt": {k: v for k, v in game.prompt.items() if k != "result"},
        "deadline": iso(clock.earliest(game)),
        "clock": clock.summary(game, utcnow()),
        "seed_commitment": game.seed_commitment,
        "result": game.result,
        "options": game.options,
        "rated": game.rated,
        "talk": asdict(talk_options.of(game)),
        "players": [player_of(s) for s in game.seats],
        "created_at": iso(game.created_at),
        "updated_at": iso(game.updated_at),
        "start_at": iso(game.start_at),
        "unfilled": game.unfilled,
    }


def player_of(seat: Seat) -> dict:
    """Return a seat as a summary shows it: ``seat``, ``name``, ``resigned``, ``open``
    (nobody has taken it yet: the lobby), and for a bot seat its ``bot`` (``{"kind",
    "level"}``), for a bot account's seat ``bot_account`` (true), for a seat the
    autopilot holds or held
    ``autopilot`` (``{"bot", "until", "active"}``)."""
    out = {
        "seat": seat.seat,
        "name": seat.name,
        "resigned": seat.resigned,
        "open": bool(seat.open),
    }
    if seat.bot:
        out["bot"] = dict(seat.bot)
    if seat.bot_account:
        out["bot_account"] = True
    if seat.autopilot:
        out["autopilot"] = {k: seat.autopilot[k] for k in ("bot", "until", "active")}
    return out


def created(game: Game, tokens: list[str]) -> dict:
    """Return the answer to a game's creation: its summary, every seat's token and signed
    web link, and the creator token (pause, resume, extend), all shown this once. A bot
    seat has neither (``null``): nobody but its bot moves it."""
    return {
        **summary(game),
        "creator_token": game.creator_token,
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "token": None if s.bot else t,
                "link": None if s.bot else links.seat_url(game.id, s.seat),
                **({"bot": dict(s.bot)} if s.bot else {}),
            }
            for s, t in zip(game.seats, tokens)
        ],
    }


def reader_seat(game: Game, token) -> int | None:
    """Return the seat a token (or principal) opens, ``None`` for a spectator (no
    token, or an account without a seat in this game).

    :raises arbiter.errors.Unauthorized: a game token that opens no seat of this game.
    :raises arbiter.errors.Forbidden: a personal token without ``games:read``.
    """
    seat = identity.seat_for(game, token, "games:read", required=False)
    return None if seat is None else seat.seat


Unchanged = Callable[[str], bool]
"""Given a reader's tag, True when the reader already holds that answer
(``If-None-Match``); the read then stops before the state is loaded."""


def reader_tag(version: int, seat: int | None) -> str:
    """Return the entity tag of what ``seat`` (None: a spectator) reads at ``version``."""
    return f"{version}-{'spectator' if seat is None else f'seat{seat}'}"


def summary_if_changed(game_id: str, unchanged: Unchanged) -> tuple[str, dict | None]:
    """Return ``(tag, summary)`` of a game, the summary None when ``unchanged(tag)``;
    the tag is the version. The state snapshot is never read.

    :raises NotFound: ``game-not-found``.
    """
    game = game_record.read(game_id, with_state=False)
    tag = str(game.version)
    return tag, None if unchanged(tag) else summary(game)


def view(game_id: str, token: str | None) -> dict:
    """Return ``{"seat", "version", "view"}``: the engine's view for the token's seat
    (the spectator's without a token; everything once the game is over)."""
    return view_if_changed(game_id, token, lambda tag: False)[1]


def view_if_changed(
    game_id: str, token: str | None, unchanged: Unchanged
) -> tuple[str, dict | None]:
    """Return ``(tag, view)`` as :func:`view` does; the view is None (and the state
    not read) when ``unchanged(tag)``."""
    game = game_record.read(game_id, with_state=False)
    seat = reader_seat(game, token)
    tag = reader_tag(game.version, seat)
    if unchanged(tag):
        return tag, None
    game, engine, state = load_record(game_id)
    return tag, {
        "seat": seat,
        "version": game.version,
        "status": game.status,
        "to_act": game.to_act,
        "view": engine.view(state, seat),
    }


def board_svg(game_id: str, token: str | None) -> str:
    """Return the picture of the reader's view as SVG text, naming the players.

    :raises NotFound: ``no-board`` for a game its engine does not draw.
    """
    game, engine, state = load_record(game_id)
    view = engine.view(state, reader_seat(game, token))
    picture = engine.board_svg(named_view(view, names_of(game)))
    if picture is None:
        raise NotFound(f"{engine.title} has no board picture.", code="no-board")
    return picture


def legal_moves(game_id: str, token: str | None) -> dict:
    """Return ``{"seat", "version", "moves", "notation"}`` for the token's seat (no
    moves when it owes none); for a decision the engine describes by its parts,
    ``moves`` lists the short moves and one example per part, ``parts`` the parts and
    ``count`` how many moves they all make (:mod:`engines.move_parts`).

    :raises arbiter.errors.Unauthorized: missing or wrong token.
    """
    return legal_moves_if_changed(game_id, token, lambda tag: False)[1]


def legal_moves_if_changed(
    game_id: str, token: str | None, unchanged: Unchanged
) -> tuple[str, dict | None]:
    """Return ``(tag, moves)`` as :func:`legal_moves` does; the body is None when
    ``unchanged(tag)``. The route's guard reads the state with the game unless an
    ``If-None-Match`` came (``arbiter.resources.guard.Policy``: one SELECT); else it is
    read here only when the ETag is stale and the seat owes a move.

    :raises arbiter.errors.Unauthorized: missing or wrong token.
    """
    game = game_record.read(game_id, with_state=False)
    seat = identity.seat_for(game, token, "games:read")
    tag = reader_tag(game.version, seat.seat)
    if unchanged(tag):
        return tag, None
    moves, notation, parts = [], [], None
    if seat.seat in game.to_act:
        game, engine, state = load_record(game_id)
        parts = engine.legal_parts(state, seat.seat)
        moves = engine.legal_moves(state, seat.seat) if parts is None else parts["moves"]
        notation = [engine.describe(m) for m in moves]
    body = {"seat": seat.seat, "version": game.version, "moves": moves, "notation": notation}
    if parts is not None:
        body.update(parts=parts["parts"], count=parts["count"])
    return tag, body


def event_json(event: Event, seat: int | None, over: bool, deleted: Collection[int] = ()) -> dict:
    """Return an event as ``seat`` may read it: hidden payloads are replaced by
    ``{"hidden": true}`` (a chance keeps its spec) until the game is over.

    :param deleted: the seats whose player deleted their account
        (:func:`deleted_seats`): the name an event of theirs recorded (``seat-joined``,
        ``resigned``) reads as ``(deleted player)``; the log itself is never changed
        (issue 22, item 15).
    """
    payload = event.payload
    if not over and event.visible_to is not None and seat not in event.visible_to:
        payload = {"hidden": True}
        if event.kind == "chance":
            payload["spec"] = event.payload.get("spec")
    elif event.seat in deleted and isinstance(payload, dict) and "name" in payload:
        payload = {**payload, "name": DELETED_NAME}
    return {
        "seq": event.seq,
        "kind": event.kind,
        "seat": event.seat,
        "payload": payload,
        "at": iso(event.at),
    }


def deleted_seats(game) -> frozenset[int]:
    """Return the seats of ``game`` (a row, a record or an id) whose player deleted
    their account (the seat's name is then ``DELETED_NAME``: :func:`accounts.delete`)."""
    if not isinstance(game, str):
        return frozenset(s.seat for s in game.seats if s.name == DELETED_NAME)
    return frozenset(
        db.session.scalars(
            sa.select(Seat.seat).where(Seat.game_id == game, Seat.name == DELETED_NAME)
        )
    )


def events(game_id: str, token: str | None, after: int = 0, wait: float = 0.0) -> dict:
    """Return ``{"events": [...], "version"}`` with ``seq > after``, as the reader
    may see them (at most 1,000; ``version`` is the seq of the last one returned, the
    ``after`` of the next call); with ``wait`` > 0, hold the request up to that many
    seconds (capped by ``LONG_POLL_MAX``) until there is something new (long-poll).
    A game that is over or cancelled answers at once: nothing more will come.

    :raises ArbiterError: 400 ``after-past-version`` when ``after`` is past the game's
        version (see :func:`check_after`).
    """
    game = game_record.read(game_id, with_state=False)
    seat = reader_seat(game, token)
    check_after(after, game.version, "after-past-version")
    deadline = time.monotonic() + min(max(wait, 0.0), settings.current().streams.long_poll_max)
    known, status = game.version, game.status  # as just read: no second SELECT (issue 26)
    while True:
        rows = events_after(game_id, after)
        if rows or status in ENDED or time.monotonic() >= deadline:
            break
        db.session.rollback()
        time.sleep(0.1)
        known, status = db.session.execute(
            sa.select(Game.version, Game.status).where(Game.id == game_id)
        ).one()
    game = game_record.read(game_id, with_state=False)
    over = game.status == "over"
    # the next ``after``: never past an event this answer did not include
    version = rows[-1].seq if rows else min(after, known)
    deleted = deleted_seats(game)
    return {"events": [event_json(e, seat, over, deleted) for e in rows], "version": version}


def check_after(after: int, version: int, code: str) -> None:
    """Refuse a reader's start ``after`` past the game's ``version``: it would wait
    for seqs still to come and skip the events in between.

    :param code: the problem's code (``after-past-version`` for ``/events``,
        ``bad-last-event-id`` for a stream); the problem carries ``version``.
    :raises ArbiterError: 400 with that code.
    """
    if after <= version:
        return
    raise ArbiterError(
        f"There is no event {after} yet: this game is at version {version}.",
        code=code,
        extra={"version": version},
    )


ENDED = ("over", "cancelled")
"""The statuses of a game whose log is complete: nothing more will come (a finished
game ends with ``seed-revealed``, a cancelled one with ``game-cancelled``)."""

LAST_KINDS = ("seed-revealed", "game-cancelled")
"""The last event of a game that ended (:data:`ENDED`): a stream ends once it sent one."""


def stream_reader(game_id: str, token, after: int = 0) -> tuple[int | None, bool, int, bool]:
    """Return ``(seat, over, version, ended)`` for a reader opening a stream of
    ``game_id`` after seq ``after``: the token's seat (None: a spectator), whether the
    game is over (its whole log is public), its version, and whether its log is
    complete (over or cancelled, :data:`ENDED`: the stream ends once it is sent).

    :raises NotFound: ``game-not-found``; :raises arbiter.errors.Unauthorized: a
        token that opens no seat of this game; :raises ArbiterError: 400
        ``bad-last-event-id`` when ``after`` is past the game's version.
    """
    game = game_record.read(game_id, with_state=False)
    seat = reader_seat(game, token)
    check_after(after, game.version, "bad-last-event-id")
    return seat, game.status == "over", game.version, game.status in ENDED


def backlog(game_id: str, after: int) -> list[Event]:
    """Return every event of ``game_id`` after seq ``after``, in order (a stream's
    catch-up, read in pages of 1,000)."""
    rows: list[Event] = []
    while True:
        page = events_after(game_id, after)
        rows += page
        if len(page) < 1000:
            return rows
        after = page[-1].seq


def record(game_id: str) -> dict:
    """Return the full record of a finished game, seed revealed.

    :raises Conflict: ``game-not-over`` while it is still being played.
    """
    game = game_record.read(game_id, with_state=False)
    if game.status != "over":
        raise Conflict(
            "The record, with its seed, is published when the game is over.", code="game-not-over"
        )
    rows = events_after(game_id, 0, limit=10**9)
    deleted = deleted_seats(game)
    return {
        "id": game.id,
        "engine": game.engine,
        "engine_version": game.engine_version,
        "options": game.options,
        "players": [{"seat": s.seat, "name": s.name} for s in game.seats],
        "seed": game.seed,
        "seed_commitment": game.seed_commitment,
        "events": [event_json(e, None, True, deleted) for e in rows],
        "result": game.result,
    }
