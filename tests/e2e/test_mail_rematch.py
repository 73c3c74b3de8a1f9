"""A game played only by mail, from the invitation's "Hi Arbiter, yes, count me in!"
to the end, every reply with a greeting and a signature, then a rematch asked for by a
reply to the game-over mail (issue 24, "Check"; issue 23, item 1: ``rematch`` by mail).

Real processes (web, worker, mailer, beat, the mailin listener) on the embedded
default; the players' mail server is a real SMTP server on loopback, and every reply
goes to the mailin listener over SMTP. Also checked: the raw bytes of every mail the
arbiter sent hold ``<http`` in ``List-Unsubscribe``, and no mail holds an unfilled
``{{...}}`` mark.
"""

from __future__ import annotations

import random
import re
import time

import pytest
import requests

from arbiter.play_mail import (
    MailPlayer,
    Sink,
    body_of,
    is_turn_mail,
    listed_moves,
    play_by_email,
)
from tests.conftest import free_port
from tests.e2e.talk_checks import check_list_unsubscribe

pytestmark = pytest.mark.slow

ENGINE = "space-worm"
"""The engine whose 2-seat games end soonest by mail."""


def wait_for(found, seconds: float = 120):
    """Return ``found()`` once it is truthy; fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = found()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"nothing came within {seconds} s")


def test_a_game_by_polite_mail_ends_in_a_rematch_by_reply(start_stack, tmp_path):
    """Given two invited addresses that accept by mail and play every move by polite
    replies, the game ends; one player replies "rematch" (greeting and signature
    around it) to the game-over mail, the answer names the new game in words and links
    its page, both players'
    accounts sit in it, it starts at once, and its first move is played by mail."""
    sink_url = f"smtp://127.0.0.1:{free_port()}"
    mailin_url = f"smtp://127.0.0.1:{free_port()}"
    with Sink(sink_url) as sink:
        url = start_stack(None, None, sink_url, mailin_url)
        played, check = play_by_email(
            url, ENGINE, 2, sink, mailin_url, seed=3, out_dir=tmp_path, echo=lambda _: None
        )
        assert played.verdict.ok, played.verdict.mismatch
        assert check.problems == [], check.problems
        addresses = check.addresses
        over = {a: next(m for m in sink.to(a) if "is over" in str(m["Subject"])) for a in addresses}
        assert all(m["Reply-To"] for m in over.values())

        player = MailPlayer(sink, mailin_url, addresses, random.Random(1), lambda _: None)
        asker = addresses[1]
        sent = player.send(asker, over[asker], "rematch")
        answer = body_of(player.answer_of(sent, 120))
        found = re.search(r"The rematch: .*\n?.*Its page: \S+/games/([0-9a-f]+)", answer)
        assert found, answer
        assert "Refused" not in answer, answer
        new_id = found.group(1)
        assert new_id != played.game_id

        game = requests.get(f"{url}/v1/games/{new_id}", timeout=30).json()
        assert game["engine"] == ENGINE
        assert game["status"] == "active", game
        assert [s["name"] for s in game["players"]] == [p["name"] for p in played.record["players"]]

        def turn_mail():
            for address in addresses:
                for m in sink.to(address):
                    if is_turn_mail(m) and f"/games/{new_id}" in body_of(m):  # its link
                        return address, m
            return None

        address, mail = wait_for(turn_mail)
        moves, complete = listed_moves(body_of(mail))
        if not complete:
            moves, _ = listed_moves(
                body_of(player.answer_of(player.send(address, mail, "moves"), 120))
            )
        answer = body_of(player.answer_of(player.send(address, mail, moves[0]), 120))
        assert "Recorded: " in answer, answer
        events = requests.get(f"{url}/v1/games/{new_id}/events?after=0", timeout=30).json()
        moved = [e for e in events["events"] if e["kind"] == "move"]
        assert moved and moved[0]["payload"]["via"]["channel"] == "mail"

        time.sleep(1)  # a late mail would show now
        raws = list(sink.raw)
        assert check_list_unsubscribe(raws) == len(sink.snapshot())
        for m in sink.snapshot():
            assert "{{" not in body_of(m), body_of(m)
