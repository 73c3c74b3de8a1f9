"""The three ways in feed one ``receive``: the SMTP listener (aiosmtpd), the pipe
command with sysexits codes, and IMAP polling (see test_imap.py)."""

from __future__ import annotations

import os
import smtplib
import subprocess
import sys
from pathlib import Path

import pytest

from arbiter.mailin import smtp as mailin_smtp
from tests.arbiter.mailin.support import ADDRESS, inbound, reply, started, turn_mail
from tests.conftest import free_port, make_app

BIN = Path(sys.executable).parent


def test_the_smtp_listener_stores_what_it_accepts_and_refuses_relaying(app, client):
    """Given the mailin listener on a free port: a reply to a capability is accepted
    (250) and stored with its envelope; a recipient at another domain is refused (550);
    a message over MAIL_MAX_BYTES is refused at DATA (552)."""
    game_id = started(client, app)
    to = turn_mail(app, game_id, 0).headers["Reply-To"]
    port = free_port()
    app.config["MAIL_MAX_BYTES"] = 50_000
    listener = mailin_smtp.controller(app, f"smtp://127.0.0.1:{port}")
    listener.start()
    try:
        with smtplib.SMTP("127.0.0.1", port) as conn:
            conn.send_message(reply(to, "status", ADDRESS.format(0)), ADDRESS.format(0), [to])
            with pytest.raises(smtplib.SMTPRecipientsRefused):
                conn.send_message(
                    reply("someone@elsewhere.example", "x", ADDRESS.format(0)),
                    ADDRESS.format(0),
                    ["someone@elsewhere.example"],
                )
        with smtplib.SMTP("127.0.0.1", port) as conn:
            big = reply(to, "status\n" + "x" * 60_000, ADDRESS.format(0))
            with pytest.raises(smtplib.SMTPException) as refused:
                conn.send_message(big, ADDRESS.format(0), [to])
            assert "552" in str(refused.value)
    finally:
        listener.stop()
    [row] = inbound(app)
    assert (row.source, row.rcpt, row.mail_from, row.status) == (
        "smtp",
        to,
        ADDRESS.format(0),
        "pending",
    )


def pipe(env: dict, data: bytes, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(BIN / "arbiter"), "mail-in", *args],
        input=data,
        env=env,
        capture_output=True,
        timeout=60,
    )


@pytest.mark.slow
def test_the_pipe_command_exits_with_sysexits_codes(tmp_path):
    """Given ``arbiter mail-in``: 0 for a message taken (and for the same again), 65 for
    input that is not a mail, 75 when the database cannot be reached."""
    db_path = tmp_path / "a.sqlite3"
    make_app(f"sqlite:///{db_path}")
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{db_path}",
        "ARBITER_INSTANCE_PATH": str(tmp_path / "instance"),
    }
    msg = bytes(reply("x-0-1-aaaaaaaaaaaa@localhost", "status", "ann@example.org"))
    taken = pipe(env, msg, "--rcpt", "x@localhost", "--sender", "ann@example.org")
    assert taken.returncode == 0, taken.stderr
    assert b"accepted" in taken.stdout
    again = pipe(env, msg)
    assert again.returncode == 0 and b"duplicate" in again.stdout
    assert pipe(env, b"").returncode == 65
    assert pipe(env, b"no headers here at all\n").returncode == 65
    down = {**env, "DATABASE_URL": f"postgresql://nobody@127.0.0.1:{free_port()}/none"}
    assert pipe(down, msg).returncode == 75
