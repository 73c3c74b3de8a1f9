"""Resuming ``/v1/me/stream``: where a reconnecting account stream starts in each of
its games, and the events it missed there.

Each line of the account stream carries a ``cursor`` (:func:`arbiter.streams.wire.cursor`):
the last seq sent of every game the stream follows. A client that reconnects with the
cursor of the last line it received gets, first, every event after those seqs (as its
seat may see them), then the live events: each missed event exactly once. A game that
the cursor does not name (it began to be followed since) starts at the present, as on
a first connection.
"""

from __future__ import annotations

from arbiter.games import reading
from arbiter.streams import wire

Followed = dict[str, tuple[int | None, int, bool]]
"""``{game_id: (seat, version, over)}``, as :func:`arbiter.games.my_games.followed`."""


def start_positions(games: Followed, resume: dict[str, int] | None) -> dict[str, int]:
    """Return, per followed game, the seq after which the stream starts: the cursor's
    (never past the game's version), else the game's version (no backlog)."""
    return {
        g: version if resume is None else min(resume.get(g, version), version)
        for g, (_, version, _) in games.items()
    }


def missed_lines(games: Followed, after: dict[str, int]) -> tuple[list[bytes], dict[str, int]]:
    """Return the ndjson lines of every event after ``after`` in the followed games
    (each with its cursor, game by game in seq order) and the positions once they are
    all sent. Reads the database (call it in an app context)."""
    sent, lines = dict(after), []
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
    return lines, sent
