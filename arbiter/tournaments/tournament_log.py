"""A tournament's own append-only log: the only code that writes ``tournament_events``.

An append adds events after the version it read and changes the tournament row in one
guarded UPDATE (``WHERE id = .. AND version = <as read>``), as the game log does
(``arbiter/games/store.py``); ``(tournament_id, seq)`` is the primary key and the database
refuses UPDATE and DELETE. Either guard failing means somebody else appended first:
nothing is written and :class:`TournamentMoved` is raised. The caller commits.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value

from arbiter.errors import Conflict
from arbiter.extensions import db
from arbiter.models import Tournament, TournamentEntry, TournamentEvent
from arbiter.models.timestamps import iso, utcnow


class TournamentMoved(Conflict):
    """The tournament moved on since it was read (409 ``tournament-moved``)."""

    code = "tournament-moved"


def append(
    tournament: Tournament,
    events: list[tuple[str, dict]],
    changes: dict[str, Any] | None = None,
    rows: Iterable[Any] = (),
) -> list[TournamentEvent]:
    """Append ``events`` (``(kind, payload)``) after ``tournament.version``, set the
    columns ``changes`` and add ``rows`` (entries, rounds, games) in the open
    transaction; a tournament at version 0 is inserted.

    :returns: the event rows. The caller commits.
    :raises TournamentMoved: another append came first; the session has been rolled
        back.
    """
    old = tournament.version
    now = utcnow()
    values = {**(changes or {}), "version": old + len(events), "updated_at": now}
    log = [
        TournamentEvent(
            tournament_id=tournament.id, seq=old + i, kind=kind, payload=payload, at=now
        )
        for i, (kind, payload) in enumerate(events, start=1)
    ]
    try:
        if old == 0:
            for key, value in values.items():
                setattr(tournament, key, value)
            db.session.add(tournament)
            db.session.flush()
        else:
            done = db.session.execute(
                sa.update(Tournament)
                .where(Tournament.id == tournament.id, Tournament.version == old)
                .values(**values)
                .execution_options(synchronize_session=False)
            ).rowcount
            if done != 1:
                raise TournamentMoved(_moved(tournament.id))
        db.session.add_all([*log, *rows])
        db.session.flush()
    except (TournamentMoved, IntegrityError) as err:
        db.session.rollback()
        if isinstance(err, TournamentMoved):
            raise
        raise TournamentMoved(_moved(tournament.id)) from err
    for key, value in values.items():
        set_committed_value(tournament, key, value)
    return log


def _moved(tournament_id: str) -> str:
    return (
        f"Tournament {tournament_id} changed while this request was handled; "
        "read it again and retry."
    )


def events(tournament_id: str, after: int = 0) -> list[TournamentEvent]:
    """Return the tournament's log after seq ``after``, in order."""
    return list(
        db.session.scalars(
            sa.select(TournamentEvent)
            .where(TournamentEvent.tournament_id == tournament_id, TournamentEvent.seq > after)
            .order_by(TournamentEvent.seq)
        )
    )


def event_json(event: TournamentEvent, names: dict[str, str] | None = None) -> dict:
    """Return a log entry as the API shows it: ``{"seq", "kind", "payload", "at"}``.

    :param names: the entries' current names by entry id (:func:`entry_names`); an
        ``entry-added`` payload shows its entry's current name instead of the one
        logged, so a deleted account's name (erased from its entry) is not shown,
        while the log itself stays as written.
    """
    payload = event.payload
    if names and isinstance(payload, dict) and payload.get("entry") in names and "name" in payload:
        payload = {**payload, "name": names[payload["entry"]]}
    return {"seq": event.seq, "kind": event.kind, "payload": payload, "at": iso(event.at)}


def entry_names(tournament_id: str) -> dict[str, str]:
    """Return the current name of each entry of the tournament, by entry id."""
    return dict(
        db.session.execute(
            sa.select(TournamentEntry.id, TournamentEntry.name).where(
                TournamentEntry.tournament_id == tournament_id
            )
        ).all()
    )
