"""The ``arbiter`` command: verify records, play random games, manage the database."""

from __future__ import annotations

import json
import sys

import click

import engines


@click.group()
def main() -> None:
    """Arbiter: a play-by-email and REST turn arbiter for board games."""


@main.command("verify")
@click.argument("record", type=click.File("r"))
def verify_cmd(record) -> None:
    """Re-derive every roll of RECORD.json from its seed and replay the game.

    Exit status 0 when everything matches, 1 with the first mismatch otherwise.
    """
    from arbiter.verify import verify

    try:
        data = json.load(record)
    except json.JSONDecodeError as err:
        click.echo(f"not a JSON record: {err}", err=True)
        sys.exit(2)
    if not isinstance(data, dict):
        click.echo("not a game record: expected a JSON object", err=True)
        sys.exit(2)
    verdict = verify(data)
    for note in verdict.notes:
        click.echo(f"note: {note}")
    if verdict.ok:
        click.echo(f"OK: seed matches its commitment; {verdict.rolls} rolls re-derived, "
                   f"{verdict.moves} moves replayed, result confirmed.")
        return
    click.echo(f"MISMATCH: {verdict.mismatch}", err=True)
    sys.exit(1)


@main.command("play")
@click.argument("engine", type=click.Choice(list(engines.ENGINE_MODULES)))
@click.option("--players", type=int, default=2, show_default=True)
@click.option("--url", default="http://127.0.0.1:8000", show_default=True,
              help="base URL of a running Arbiter")
@click.option("--seed", type=int, default=None, help="seed of the random player")
@click.option("--out", "out_dir", default="records", show_default=True,
              help="folder for the saved record")
@click.option("--email", "emails", multiple=True,
              help="an address per seat for turn mails (repeat)")
@click.option("--token", envvar="ARBITER_TOKEN", default=None,
              help="personal API token with games:create (env ARBITER_TOKEN), needed "
                   "where OPEN_CREATION is off")
def play_cmd(engine, players, url, seed, out_dir, emails, token) -> None:
    """Create a game on a running server and play it out with random legal moves."""
    from arbiter.play import PlayError, play

    try:
        played = play(url, engine, players, seed, out_dir, list(emails) or None,
                      token=token)
    except (PlayError, OSError) as err:
        click.echo(f"error: {err}", err=True)
        sys.exit(2)
    sys.exit(0 if played.verdict.ok else 1)


@main.command("db-upgrade")
def db_upgrade() -> None:
    """Create or upgrade the database schema (Alembic migrations)."""
    from flask_migrate import upgrade

    from arbiter import create_app

    app = create_app()
    with app.app_context():
        upgrade()
    click.echo(f"database ready: {_safe(app.config['SQLALCHEMY_DATABASE_URI'])}")


def _safe(url: str) -> str:
    """Return a database URL without its password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


if __name__ == "__main__":
    main()
