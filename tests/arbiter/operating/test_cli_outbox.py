"""``arbiter outbox ADDRESS`` shows what a person needs to answer a mail by hand: the
subject, the reply address (a turn mail's capability) and the text (the tester's
finding: the reply address was left out, so a player could not reply by hand)."""

from __future__ import annotations

from click.testing import CliRunner

from arbiter.cli import main
from tests.conftest import make_app
from tests.helpers import new_game, until_decision


def test_outbox_prints_the_reply_address_of_a_turn_mail(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'arbiter.sqlite3'}"
    app = make_app(url)
    client = app.test_client()
    game_id, _ = new_game(client, "space-worm", 2, emails=True)
    until_decision(client, app, game_id)
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("ARBITER_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.setenv("BASE_URL", "http://arbiter.test")
    answer = CliRunner().invoke(main, ["outbox", "p0@example.org"])
    assert answer.exit_code == 0, answer.output
    lines = answer.output.splitlines()
    assert lines[0].startswith("Subject: [Arbiter] Your turn in Space Worm")
    assert lines[1].startswith("Reply-To: ") and "@" in lines[1]
    assert lines[1].split("@")[0].removeprefix("Reply-To: ").startswith(game_id)
