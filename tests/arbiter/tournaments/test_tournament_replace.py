"""``/replace`` (an organiser hands a withdrawn entry's games to the timeout policy)
writes its resignations and the tournament's ``entry-replaced`` in one transaction
(issue 22, item 15)."""

from __future__ import annotations

import re

from sqlalchemy import event

from arbiter.extensions import db
from tests.arbiter.tournaments.test_tournaments import accounts, create, enter_all, log_kinds, start
from tests.helpers import auth

INSERT = re.compile(r"\bINSERT INTO (\w+)", re.IGNORECASE)
"""An INSERT, alone or after a ``WITH`` (on PostgreSQL a move's snapshot UPDATE and its
events' INSERT are one statement: ``arbiter.games.store``)."""


def test_replace_resigns_and_logs_entry_replaced_in_one_transaction(any_app):
    """Issue 22, item 15: ``/replace`` committed each game's resignation, then
    ``entry-replaced`` in a transaction of its own (a failure between them left games
    resigned with no word of it in the tournament's log). Now one commit holds both."""
    client = any_app.test_client()
    me, bob, cy, dee = accounts(client, any_app, 4)
    t = create(client, me, name="Replace", rounds=2)
    entries = enter_all(client, t["id"], [me, bob, cy, dee])
    start(client, t["id"], me)
    base = f"/v1/tournaments/{t['id']}"
    withdrawn = client.post(f"{base}/entries/{entries[1]}/withdraw", headers=auth(me))
    assert withdrawn.status_code == 200, withdrawn.json
    with any_app.app_context():
        engine = db.engine
    written: set[str] = set()
    commits: list[frozenset[str]] = []

    def on_statement(conn, cursor, statement, *args):
        found = INSERT.search(statement)
        if found:
            written.add(found.group(1).strip('"'))

    def on_commit(conn):
        commits.append(frozenset(written))
        written.clear()

    def on_rollback(conn):
        written.clear()

    event.listen(engine, "before_cursor_execute", on_statement)
    event.listen(engine, "commit", on_commit)
    event.listen(engine, "rollback", on_rollback)
    try:
        replaced = client.post(f"{base}/entries/{entries[1]}/replace", headers=auth(me))
    finally:
        event.remove(engine, "before_cursor_execute", on_statement)
        event.remove(engine, "commit", on_commit)
        event.remove(engine, "rollback", on_rollback)
    assert replaced.status_code == 200 and len(replaced.json["games"]) == 1, replaced.json
    logging = [tables for tables in commits if {"events", "tournament_events"} & tables]
    assert len(logging) == 1, commits
    assert {"events", "tournament_events"} <= logging[0]
    assert log_kinds(any_app, t["id"])[-1] == "entry-replaced"
