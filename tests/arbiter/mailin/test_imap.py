"""IMAP polling against a real Dovecot (Debian's ``dovecot-imapd``, installed by
``.ci/run``), started by the fixture on a free port with its own configuration.
Skipped with a reason where Dovecot is absent, unless ARBITER_REQUIRE_SERVICES=1."""

from __future__ import annotations

import getpass
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from imap_tools import AND
from sqlalchemy.exc import OperationalError

from arbiter import create_app
from arbiter import settings as arbiter_settings
from arbiter.mailin import imap
from tests.arbiter.mailin.support import ADDRESS, answers, inbound, reply, started, turn_mail
from tests.conftest import REQUIRE_SERVICES, free_port

DOVECOT = shutil.which("dovecot") or (
    "/usr/sbin/dovecot" if os.path.exists("/usr/sbin/dovecot") else None
)

CONFIG = """
protocols = imap
listen = 127.0.0.1
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:{root}/mail/%u
first_valid_uid = 1
{users}
passdb {{
  driver = static
  args = password=secret
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={root}/home/%u
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service pop3-login {{
  inet_listener pop3 {{
    port = 0
  }}
}}
"""


@pytest.fixture
def dovecot():
    """A Dovecot IMAP server on a free loopback port with user ``arbiter`` / ``secret``;
    yields its ``IMAP_URL``."""
    if DOVECOT is None:
        message = "Dovecot is not installed (apt-get install dovecot-imapd; .ci/run does)"
        if REQUIRE_SERVICES:
            pytest.fail(message + " (ARBITER_REQUIRE_SERVICES=1)")
        pytest.skip(message)
    # Dovecot's own processes must reach the folder (pytest's are private to us), and
    # it will not store mail as root: as root, the mail belongs to the dovecot user
    root, port = Path(tempfile.mkdtemp(prefix="arbiter-dovecot-")), free_port()
    root.chmod(0o755)
    me = getpass.getuser()
    owner = pwd.getpwnam("dovecot") if os.getuid() == 0 else pwd.getpwnam(me)
    for sub in ("run", "state", "mail", "home"):
        (root / sub).mkdir()
    for sub in ("mail", "home"):
        os.chown(root / sub, owner.pw_uid, owner.pw_gid)
    users = "" if os.getuid() == 0 else f"default_internal_user = {me}\ndefault_login_user = {me}\n"
    conf = root / "dovecot.conf"
    conf.write_text(
        CONFIG.format(root=root, port=port, uid=owner.pw_uid, gid=owner.pw_gid, users=users)
    )
    proc = subprocess.Popen(
        [DOVECOT, "-F", "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
    )
    deadline = time.monotonic() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                log = (root / "dovecot.log").read_text() if (root / "dovecot.log").exists() else ""
                proc.kill()
                pytest.fail(f"Dovecot did not start: {log[-2000:]}")
            time.sleep(0.1)
    yield f"imap://arbiter:secret@127.0.0.1:{port}/INBOX"
    proc.terminate()
    proc.wait(timeout=20)
    shutil.rmtree(root, ignore_errors=True)


def mailbox(url):
    """Return a logged-in mailbox (the same client code the poller uses)."""
    return imap.mailbox(url)


def test_polling_records_each_message_once_and_marks_it_seen_after(app, client, dovecot):
    """Given a reply and the same reply again (a re-delivery) in the mailbox, a poll
    records one inbound message (the second is a duplicate), marks both seen, and the
    reply is processed and answered; a second poll finds nothing new."""
    game_id = started(client, app)
    to = turn_mail(app, game_id, 0).headers["Reply-To"]
    msg = bytes(reply(to, "status", ADDRESS.format(0)))
    with mailbox(dovecot) as box:
        box.append(msg, "INBOX")
        box.append(msg, "INBOX")
    with app.app_context():
        assert imap.poll(dovecot) == 2
        assert imap.poll(dovecot) == 0
    [row] = inbound(app)
    assert (row.source, row.status) == ("imap", "pending")
    with mailbox(dovecot) as box:
        assert len(list(box.fetch(AND(seen=False), mark_seen=False))) == 0
        assert len(list(box.fetch(AND(seen=True), mark_seen=False))) == 2
    from arbiter.mailin.process import process

    with app.app_context():
        assert process(row.id) == "answered"
    assert len(answers(app, game_id)) == 1


def test_a_message_is_left_unseen_when_it_cannot_be_recorded(tmp_path, dovecot):
    """Given a database that cannot be reached, the poll fails and the message stays
    unseen in the mailbox for the next poll."""
    broken = create_app(
        {
            "TESTING": True,
            "ENQUEUE": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'missing' / 'x.db'}",
        }
    )
    with mailbox(dovecot) as box:
        box.append(
            bytes(reply("a-0-1-aaaaaaaaaaaa@localhost", "status", ADDRESS.format(0))), "INBOX"
        )
    with broken.app_context(), pytest.raises(OperationalError):
        imap.poll(dovecot)
    with mailbox(dovecot) as box:
        assert len(list(box.fetch(AND(seen=False), mark_seen=False))) == 1


@pytest.mark.slow  # a Dovecot of its own; make check polls with the two tests above
def test_recorded_messages_move_to_the_done_folder_when_configured(app, dovecot):
    """Given IMAP_DONE_FOLDER, a recorded message leaves INBOX for that folder."""
    with mailbox(dovecot) as box:
        box.folder.create("Arbiter")
        box.append(
            bytes(reply("a-0-1-aaaaaaaaaaaa@localhost", "status", ADDRESS.format(0))), "INBOX"
        )
    arbiter_settings.override(app, IMAP_DONE_FOLDER="Arbiter")
    with app.app_context():
        assert imap.poll(dovecot) == 1
    with mailbox(dovecot) as box:
        assert len(list(box.fetch(mark_seen=False))) == 0
        box.folder.set("Arbiter")
        assert len(list(box.fetch(mark_seen=False))) == 1
