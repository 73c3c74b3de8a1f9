"""Play by email: delay from an inbound reply accepted to the next turn mail handed to
SMTP, and inbound messages processed per second.

What it measures: the Procfile's web (uvicorn), Celery workers and ``mailin`` SMTP
listener run as subprocesses on loopback, on the embedded default (SQLite + the filesystem broker),
then on PostgreSQL (fresh schema) + Redis (an empty database). The arbiter's mail goes
to a local SMTP sink (aiosmtpd) in this process, which stamps each message's arrival.
A 2-seat Space Worm game is played by mail only, one reply at a time
(``ARBITER_BENCH_MAIL_SAMPLES``, default 25 moves per backend): for each reply with a
move, the clock starts when ``mailin`` answered 250 to the DATA (the message is stored)
and stops when the next "your turn" mail (whichever seat's; a roll may lie between)
arrives at the sink, i.e. was handed to SMTP. Reported: median and p95.

Then ``ARBITER_BENCH_MAIL_BURST`` (default 100) "status" replies are sent as fast as
one SMTP connection takes them, and the clock runs until the last answer arrives at
the sink: inbound messages processed (stored, checked, answered, the answer sent) per
second. The machine is shared, so the figures are noisy.

Run alone: ``.venv/bin/python bench/mail_delay.py``.
"""

from __future__ import annotations

import os
import random
import smtplib
import time

import common
import requests

from arbiter.play_mail import (
    MailPlayer,
    Sink,
    body_of,
    is_invitation,
    is_turn_mail,
    listed_moves,
    sign_up_by_mail,
)

SAMPLES = int(os.environ.get("ARBITER_BENCH_MAIL_SAMPLES", "25"))
BURST = int(os.environ.get("ARBITER_BENCH_MAIL_BURST", "100"))
TIMEOUT = 60.0


def stack_for(folder, database_url, broker_url, sink_url, mailin_url) -> common.Stack:
    """Return a web + worker + mailin stack whose mail goes to ``sink_url``."""
    stack = common.Stack(folder, database_url, broker_url)
    stack.env.update(
        SMTP_URL=sink_url,
        MAILIN_URL=mailin_url,
        MAIL_DOMAIN="bench.test",
        MAIL_REPLIES_PER_HOUR="1000000",
    )
    stack.commands["mailin"] = [common.BIN / "arbiter", "mailin"]
    return stack


def wait_for(sink: Sink, seen: int, predicate, timeout: float = TIMEOUT) -> tuple[int, float]:
    """Wait for a message after index ``seen`` that ``predicate`` accepts; return its
    index and arrival time."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with sink.lock:
            found = [
                (i, sink.arrived[i])
                for i in range(seen, len(sink.messages))
                if predicate(sink.messages[i])
            ]
        if found:
            return found[0]
        time.sleep(0.005)
    raise RuntimeError("no mail arrived in time")


def accept_invitations(sink: Sink, player: MailPlayer) -> None:
    """Reply ``accept`` to each player's invitation mail (their addresses are not
    accounts: the game waits until both have agreed to mail)."""
    for address in player.addresses:
        index, _ = wait_for(sink, 0, lambda m: is_invitation(m) and str(m["To"]) == address)
        player.send(address, sink.messages[index], "accept")


def delays(sink: Sink, player: MailPlayer) -> list[float]:
    """Play moves by mail one at a time; return the accepted -> next turn mail delays."""
    out: list[float] = []
    index, _ = wait_for(sink, 0, is_turn_mail)
    while len(out) < SAMPLES:
        msg = sink.messages[index]
        if "is over" in str(msg["Subject"]):
            break
        moves, _ = listed_moves(body_of(msg))
        after = len(sink.messages)
        player.send(str(msg["To"]), msg, player.rng.choice(moves))
        accepted = time.monotonic()  # mailin's 250 to DATA came before send() returned
        index, arrived = wait_for(
            sink, after, lambda m: is_turn_mail(m) or "is over" in str(m["Subject"])
        )
        if is_turn_mail(sink.messages[index]):
            out.append(arrived - accepted)
    return out


def burst(sink: Sink, player: MailPlayer, turn) -> float:
    """Send ``BURST`` "status" replies on one connection; return messages/s until the
    last answer arrived."""
    address = str(turn["To"])
    before = len(player.sent)
    started = time.monotonic()
    with smtplib.SMTP(*player.mailin, timeout=30) as smtp:
        for _ in range(BURST):
            msg = player.reply(address, turn, "status")
            smtp.send_message(msg, from_addr=address, to_addrs=[str(turn["Reply-To"])])
    ids = set(list(player.sent)[before:])
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        with sink.lock:
            got = [sink.arrived[i] for i, m in enumerate(sink.messages) if m["In-Reply-To"] in ids]
        if len(got) >= BURST:
            return BURST / (max(got) - started)
        time.sleep(0.05)
    raise RuntimeError(f"only {len(got)} of {BURST} answers arrived")


def run(report: common.Report, case: str, folder, database_url, broker_url) -> None:
    sink_url = f"smtp://127.0.0.1:{common.free_port()}"
    mailin_url = f"smtp://127.0.0.1:{common.free_port()}"
    with (
        Sink(sink_url) as sink,
        stack_for(folder, database_url, broker_url, sink_url, mailin_url) as stack,
    ):
        addresses = ["a@players.test", "b@players.test"]
        host = sign_up_by_mail(requests.Session(), stack.url, sink, "host@players.test")
        answer = requests.post(  # only an account may invite the two players
            f"{stack.url}/v1/games",
            timeout=30,
            headers={"Authorization": f"Bearer {host}"},
            json={
                "engine": "space-worm",
                "players": [
                    {"name": "A", "email": addresses[0]},
                    {"name": "B", "email": addresses[1]},
                ],
            },
        )
        answer.raise_for_status()
        player = MailPlayer(sink, mailin_url, addresses, random.Random(1), lambda _: None)
        accept_invitations(sink, player)
        samples = delays(sink, player)
        report.add(
            case,
            f"accepted -> next turn mail p50 (n={len(samples)})",
            common.ms(common.percentile(samples, 50)),
        )
        report.add(
            case, "accepted -> next turn mail p95", common.ms(common.percentile(samples, 95))
        )
        turn = next(m for m in reversed(sink.snapshot()) if is_turn_mail(m))
        report.add(
            case, f"inbound processed/s ({BURST} status)", f"{burst(sink, player, turn):.1f}"
        )
        for problem in stack.problems():
            report.note(f"{case}: {problem[:300]}")


if __name__ == "__main__":
    report = common.Report("mail_delay")
    print(f"mail_delay ({common.machine()})")
    common.run_on_backends(report, run)
