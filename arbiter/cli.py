"""The ``arbiter`` command: verify records, play random games, manage the database."""

from __future__ import annotations

import json
import logging
import sys

import click
import sqlalchemy as sa
from flask_migrate import upgrade
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

import engines
from arbiter import create_app, health, settings
from arbiter.accounts.accounts import normal_address
from arbiter.extensions import db
from arbiter.mail import mail as outbox
from arbiter.mailin.receive import receive
from arbiter.mailin.smtp import serve
from arbiter.models import OutboxMail
from arbiter.verify import verify
from arbiter.verify_tournament import verify_tournament


@click.group()
def main() -> None:
    """Arbiter: a play-by-email and REST turn arbiter for board games."""


@main.command("verify")
@click.argument("record", type=click.File("r"))
def verify_cmd(record) -> None:
    """Re-derive every roll of RECORD.json from its seed and replay the game; for a
    tournament's record (GET /v1/tournaments/{id}/record), every game of it, its
    pairings, results and standings.

    Exit status 0 when everything matches, 1 with the first mismatch otherwise.
    """

    try:
        data = json.load(record)
    except json.JSONDecodeError as err:
        click.echo(f"not a JSON record: {err}", err=True)
        sys.exit(2)
    if not isinstance(data, dict):
        click.echo("not a game record: expected a JSON object", err=True)
        sys.exit(2)
    tournament = "tournament" in data
    verdict = verify_tournament(data) if tournament else verify(data)
    for note in verdict.notes:
        click.echo(f"note: {note}")
    if verdict.ok and tournament:
        click.echo(
            f"OK: {len(data['games'])} games verified ({verdict.rolls} rolls "
            f"re-derived, {verdict.moves} moves replayed); pairings, results and "
            "standings confirmed."
        )
        return
    if verdict.ok:
        click.echo(
            f"OK: seed matches its commitment; {verdict.rolls} rolls re-derived, "
            f"{verdict.moves} moves replayed, result confirmed."
        )
        return
    click.echo(f"MISMATCH: {verdict.mismatch}", err=True)
    sys.exit(1)


@main.command("play")
@click.argument("engine", type=click.Choice(list(engines.ENGINE_MODULES)))
@click.option("--players", type=int, default=2, show_default=True)
@click.option(
    "--url",
    default="http://127.0.0.1:8000",
    show_default=True,
    help="base URL of a running Arbiter",
)
@click.option("--seed", type=int, default=None, help="seed of the random player")
@click.option(
    "--out", "out_dir", default="records", show_default=True, help="folder for the saved record"
)
@click.option(
    "--email", "emails", multiple=True, help="an address per seat for turn mails (repeat)"
)
@click.option(
    "--token",
    envvar="ARBITER_TOKEN",
    default=None,
    help="personal API token with games:create (env ARBITER_TOKEN), needed "
    "where OPEN_CREATION is off, and to name players by addresses that are no "
    "account's (an invitation: only an account invites)",
)
@click.option(
    "--by-email",
    is_flag=True,
    help="play every move by replying to the turn mails (see --sink, --mailin)",
)
@click.option(
    "--sink",
    default="smtp://127.0.0.1:2525",
    show_default=True,
    help="with --by-email: where to listen for the server's mail (its SMTP_URL)",
)
@click.option(
    "--mailin",
    default="smtp://127.0.0.1:8025",
    show_default=True,
    help="with --by-email: the server's mailin listener (its MAILIN_URL)",
)
def play_cmd(engine, players, url, seed, out_dir, emails, token, by_email, sink, mailin) -> None:
    """Create a game on a running server and play it out with random legal moves,
    over HTTP or (--by-email) by replying to the turn mails."""
    from arbiter.play import PlayError, play  # noqa: PLC0415 - arbiter_client is optional

    try:
        if by_email:
            from arbiter.play_mail import Sink, play_by_email  # noqa: PLC0415 - arbiter_client is optional

            with Sink(sink) as inbox:
                played, check = play_by_email(
                    url, engine, players, inbox, mailin, seed, out_dir, token=token
                )
            sys.exit(0 if played.verdict.ok and not check.problems else 1)
        played = play(url, engine, players, seed, out_dir, list(emails) or None, token=token)
    except (PlayError, OSError) as err:
        click.echo(f"error: {err}", err=True)
        sys.exit(2)
    sys.exit(0 if played.verdict.ok else 1)


@main.command("settings-reference")
def settings_reference_cmd() -> None:
    """Rewrite the settings tables of docs/operating/configuration.md from the settings
    object (arbiter/settings.py)."""
    changed = settings.write_reference()
    click.echo(f"{settings.REFERENCE_PAGE}: {'rewritten' if changed else 'up to date'}")


@main.command("doctor")
def doctor_cmd() -> None:
    """Check this deployment: configuration, database (reachable, migrated), broker,
    SMTP, beat's heartbeat, the outbox and inbound backlogs, the clock sweep's lag.

    Prints one line per check; exit status 0 when nothing is a problem, 1 otherwise.
    """
    app = create_app()
    with app.app_context():
        findings = health.run(app)
    width = max(len(f.name) for f in findings)
    for f in findings:
        click.echo(f"{f.level.upper():8} {f.name:{width}}  {f.detail}")
    problems = [f for f in findings if not f.ok]
    click.echo(f"{len(problems)} problem(s)." if problems else "Nothing is wrong.")
    sys.exit(1 if problems else 0)


@main.command("mail-in")
@click.option(
    "--rcpt",
    "rcpts",
    multiple=True,
    help="an envelope recipient (Postfix pipe: ${recipient}); repeat",
)
@click.option("--sender", default=None, help="the envelope sender (Postfix pipe: ${sender})")
def mail_in(rcpts, sender) -> None:
    """Read one message on standard input and store it for processing.

    Exit status (sysexits): 0 taken (or a duplicate), 65 refused as unreadable or too
    large, 75 try again later (the database is unavailable).
    """

    raw = sys.stdin.buffer.read()
    try:
        app = create_app()
        with app.app_context():
            outcome = receive(raw, list(rcpts) or None, sender, "pipe")
    except SQLAlchemyError as err:
        click.echo(f"try again later: {type(err).__name__}", err=True)
        sys.exit(EX_TEMPFAIL)
    if not outcome.taken:
        click.echo(f"refused: {outcome.reason}", err=True)
        sys.exit(EX_DATAERR)
    click.echo(f"{outcome.status}: inbound #{outcome.inbound_id}")


EX_DATAERR = 65
EX_TEMPFAIL = 75


@main.command("mailin")
@click.option("--url", default=None, help="smtp://host:port to bind (default MAILIN_URL)")
def mailin_cmd(url) -> None:
    """Run the SMTP listener for inbound mail (the Procfile's ``mailin``)."""

    logging.basicConfig(level=logging.INFO)
    serve(create_app(), url)


@main.command("outbox")
@click.argument("address")
def outbox_cmd(address) -> None:
    """Print the newest mail written for ADDRESS (its subject and reply address, then
    its text), sent or not: how a local operator reads a sign-in link when there is no
    SMTP server (the embedded default of ``make run`` only logs mail). Exit status 1
    when there is none.
    """

    app = create_app()
    with app.app_context():
        mail = db.session.scalar(
            sa.select(OutboxMail)
            .where(OutboxMail.to_addr == normal_address(address))
            .order_by(OutboxMail.id.desc())
            .limit(1)
        )
        if mail is None:
            click.echo(f"No mail for {address}.", err=True)
            sys.exit(1)
        reply_to = (mail.headers or {}).get("Reply-To")
        head = f"Subject: {mail.subject}" + (f"\nReply-To: {reply_to}" if reply_to else "")
        try:
            text = outbox.final_body(mail)  # as it is (or would be) sent
        except outbox.Suppressed as why:
            text = f"(not sent: {why})"
        click.echo(f"{head}\n\n{text}")


@main.command("db-upgrade")
def db_upgrade() -> None:
    """Create or upgrade the database schema (Alembic migrations)."""

    app = create_app()
    with app.app_context():
        upgrade()
    click.echo(f"database ready: {_safe(app.config['SQLALCHEMY_DATABASE_URI'])}")


def _safe(url: str) -> str:
    """Return a database URL without its password."""
    return make_url(url).render_as_string(hide_password=True)


if __name__ == "__main__":
    main()
