"""The three ways in feed one ``receive``: the SMTP listener (aiosmtpd), the pipe
command with sysexits codes, and IMAP polling (see test_imap.py)."""

from __future__ import annotations

import os
import smtplib
import subprocess
import sys
from pathlib import Path

import pytest

from arbiter import settings as arbiter_settings
from arbiter.extensions import db
from arbiter.mail.capability import read
from arbiter.mail.mail import message
from arbiter.mailin import smtp as mailin_smtp
from arbiter.models import OutboxMail
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
    arbiter_settings.override(app, MAIL_MAX_BYTES=50_000)
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


@pytest.mark.parametrize(
    "base_url, domain",
    [("http://127.0.0.1:5000", "[127.0.0.1]"), ("http://[::1]:5000", "[IPv6:::1]")],
)
def test_reply_addresses_at_an_ip_address_use_the_address_literal(tmp_path, base_url, domain):
    """Issue 22, item 14: with ``BASE_URL`` at a bare IP address (the embedded default,
    ``http://127.0.0.1:<port>``) reply addresses were ``...@127.0.0.1``, which strict
    mail clients refuse; they are ``...@[127.0.0.1]`` (RFC 5321 address literal). The
    SMTP listener takes a reply to it, and to the bare form of mails sent before."""
    app = make_app(f"sqlite:///{tmp_path / 'ip.sqlite3'}", BASE_URL=base_url)
    client = app.test_client()
    game_id = started(client, app)
    mail = turn_mail(app, game_id, 0)
    to = mail.headers["Reply-To"]
    assert to.endswith("@" + domain), to
    with app.app_context():
        sent = message(db.session.get(OutboxMail, mail.id))
    assert str(sent["Reply-To"]) == to
    assert sent["Message-ID"].endswith("@" + domain + ">")
    bare = to.replace(domain, domain.strip("[]").removeprefix("IPv6:"))
    sent_to = [to, bare] if "." in domain else [to]  # x@::1 is no address at all
    port = free_port()
    listener = mailin_smtp.controller(app, f"smtp://127.0.0.1:{port}")
    listener.start()
    try:
        with smtplib.SMTP("127.0.0.1", port) as conn:
            for address in sent_to:
                conn.send_message(
                    reply(address, "status", ADDRESS.format(0)), ADDRESS.format(0), [address]
                )
    finally:
        listener.stop()
    assert [row.rcpt for row in inbound(app)] == sent_to
    with app.app_context():
        assert read(to) is not None and read(bare) is not None
        assert read(to.replace(domain, "[10.0.0.1]")) is None
