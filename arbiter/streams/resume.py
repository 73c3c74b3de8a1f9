"""Resuming ``/v1/me/stream``: where a reconnecting account stream starts in each of
its games, and the events it missed there.

Each line of the account stream carries a ``cursor`` (:func:`arbiter.streams.wire.cursor`):
the last seq sent of every game the stream follows. A client that reconnects with the
cursor of the last line it received gets, first, every event after those seqs (as its
seat may see them), then the live events: each missed event exactly once. A game that
the cursor does not name (it began to be followed since) starts at the present, as on
a first connection; on either, a game where the account owes a move starts with its
last event (:func:`start_positions`).

The account stream carries each game's talk too (:mod:`arbiter.talk.streamed`): the
cursor holds, beside each game's seq, its talk position under the key
:func:`arbiter.streams.talk_notices.key` (``talk:<game>``): the talk entry of the last
message sent. Resuming sends the messages after it, once; a game whose talk the cursor
does not name hears it from the present (:func:`talk_positions`).
"""

from __future__ import annotations

from collections.abc import Collection

from arbiter.games import reading
from arbiter.streams import talk_notices, wire
from arbiter.talk import streamed

Followed = dict[str, tuple[int | None, int, bool]]
"""``{game_id: (seat, version, over)}``, as :func:`arbiter.games.my_games.followed`."""


def start_positions(
    games: Followed, resume: dict[str, int] | None, owing: Collection[str] = ()
) -> dict[str, int]:
    """Return, per followed game, the seq after which the stream starts: the cursor's
    (never past the game's version), else the game's version (no backlog), except in
    the games of ``owing`` (where the account owes a move): there the stream starts
    with the game's last event, so that a bot that connects hears of every game
    waiting for it (as Lichess's stream starts with the games in progress)."""

    def fresh(game_id: str, version: int) -> int:
        return version - 1 if game_id in owing and version > 0 else version

    return {
        g: fresh(g, version) if resume is None or g not in resume else min(resume[g], version)
        for g, (_, version, _) in games.items()
    }


def talk_positions(
    games: Followed, resume: dict[str, int] | None, muted: frozenset[str]
) -> tuple[dict[str, int], dict[str, int]]:
    """Return where the stream hears each followed game's talk, under its talk key:
    the entry it reads after, and the position its cursor carries
    (:func:`arbiter.talk.streamed.starts`). Reads the database."""
    wanted = None
    if resume is not None:
        wanted = {talk_notices.game_of(k): n for k, n in resume.items() if talk_notices.is_key(k)}
    found = streamed.starts({g: seat for g, (seat, _, _) in games.items()}, muted, wanted)
    after = {talk_notices.key(g): a for g, (a, _) in found.items()}
    told = {talk_notices.key(g): t for g, (_, t) in found.items()}
    return after, told


def missed_lines(
    games: Followed,
    after: dict[str, int],
    told: dict[str, int] | None = None,
    muted: frozenset[str] = frozenset(),
) -> tuple[list[bytes], dict[str, int]]:
    """Return the ndjson lines of every event after ``after`` in the followed games
    (each with its cursor, game by game in seq order), then of every message after
    the games' talk positions in ``after`` (``told``: the talk positions the cursor
    carries, :func:`talk_positions`; the account's ``muted`` authors left out), and
    the positions once they are all sent. Reads the database (call it in an app
    context)."""
    sent, lines = {**after, **(told or {})}, []
    for game_id, (seat, version, over) in games.items():
        if after[game_id] >= version:
            continue
        rows = reading.backlog(game_id, after[game_id])
        deleted = reading.deleted_seats(game_id) if rows else frozenset()
        over = over or any(e.kind == "game-over" for e in rows)
        last = rows[-1].seq if rows else after[game_id]
        for event in rows:
            sent[game_id] = event.seq
            lines.append(
                wire.with_cursor(
                    wire.ndjson(game_id, reading.event_json(event, seat, over, deleted), last), sent
                )
            )
    for game_id, (seat, _, _) in games.items():
        key = talk_notices.key(game_id)
        if told is None or key not in after:
            continue
        reader = streamed.seat_reader(seat, muted)
        for message in streamed.backlog(game_id, reader, after[key]):
            sent[key] = message["talk"]
            lines.append(wire.with_cursor(wire.ndjson_talk(game_id, message), sent))
    return lines, sent
