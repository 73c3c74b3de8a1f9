"""A seat's presence mark (:mod:`arbiter.games.presence`) against its stream's end
(:meth:`arbiter.streams.asgi.Front.keep_present`): a mark still being written when
the stream ends must land before the clear, never after it, or a short read of the
stream leaves the seat marked present, its turns unmailed, for the mark's lifetime."""

from __future__ import annotations

import asyncio
import time

from arbiter.extensions import db
from arbiter.games import presence
from arbiter.streams.asgi import Front
from tests.helpers import new_game


def test_a_stream_that_ends_while_its_mark_is_written_leaves_no_mark(app, client, monkeypatch):
    """Given a mark that takes 0.3 s to write, when the stream ends 0.05 s after it
    opened, its seat is not present once both are done."""
    game_id, _ = new_game(client, "dark-horse", players=2)
    front = Front(app)
    written = presence.mark

    def slow_mark(*args, **kwargs):
        time.sleep(0.3)
        written(*args, **kwargs)

    monkeypatch.setattr(presence, "mark", slow_mark)

    async def open_and_leave() -> None:
        keeper = asyncio.ensure_future(front.keep_present(game_id, 1))
        await asyncio.sleep(0.05)
        keeper.cancel()
        await asyncio.gather(keeper, return_exceptions=True)
        await asyncio.sleep(0.5)  # a mark written after the clear would be there now

    asyncio.run(open_and_leave())
    with app.app_context():
        assert presence.present(game_id) == set()
        db.session.rollback()
