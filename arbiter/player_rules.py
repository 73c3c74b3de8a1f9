"""The rules a new game's player meets, for every channel that creates games: REST's
``POST /v1/games`` (and campaigns) and the web's new-game form
(:mod:`arbiter.web.new_game`) load players with the one :class:`PlayerSchema`, so
that a form cannot accept what the API refuses (issue 24: bad input gets a clear
answer and changes nothing). Here rather than in a channel, so that neither channel
imports the other.
"""

from marshmallow import Schema, ValidationError, fields, pre_load, validate, validates_schema

from arbiter.games.clock import check_tz
from arbiter.text import printable
from engines.option_fields import JsonBoolean

__all__ = ["PlayerSchema", "mail_address"]


def mail_address(value: str) -> None:
    """Refuse an address whose local part (before the ``@``) is over 64 characters,
    the limit of RFC 5321, 4.5.3.1.1 (no mail server takes it).

    :raises marshmallow.ValidationError: saying so.
    """
    if len(value.rpartition("@")[0]) > 64:
        raise ValidationError("The part before the @ may be at most 64 characters.")


class PlayerSchema(Schema):
    """A player at creation: a name (surrounding spaces dropped), and an email address
    for turn mails."""

    name = fields.String(
        load_default=None,
        validate=[validate.Length(min=1, max=80), printable],
        metadata={"description": "required, except for an open seat"},
    )
    email = fields.Email(
        load_default=None, allow_none=True, validate=[validate.Length(max=254), mail_address]
    )
    open = JsonBoolean(
        load_default=False,
        metadata={
            "description": "a seat anyone signed in may take from the lobby "
            "(POST /v1/games/{id}/seats): no name or email; the game waits until "
            "every open seat is taken"
        },
    )

    @validates_schema
    def _named(self, data, **_):
        """A player needs a name, unless the seat is open (then it has no address)."""
        if data.get("open") and data.get("email"):
            raise ValidationError("An open seat has no address.", "email")
        if not data.get("open") and not data.get("name"):
            raise ValidationError("Missing data for required field.", "name")

    @pre_load
    def _trim(self, data, **_):
        """Drop the spaces around a name (``"  Ann "`` is ``Ann``)."""
        if isinstance(data, dict) and isinstance(data.get("name"), str) and data["name"].strip():
            data = {**data, "name": data["name"].strip()}
        return data

    tz = fields.String(
        load_default=None,
        allow_none=True,
        validate=[validate.Length(max=64), check_tz],
        metadata={"description": "IANA time zone for deadlines in mails, e.g. Europe/Paris"},
    )
    bot = fields.Raw(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "a built-in bot plays this seat: {kind: random | mcts, level: "
            "1-5} (default random, level 1); no email; its name is shown as a bot's "
            "('Robo (bot)'); invalid: 422 bad-bot",
            "type": "object",
            "properties": {
                "kind": {"type": "string", "enum": ["random", "mcts"]},
                "level": {"type": "integer", "minimum": 1, "maximum": 5},
            },
        },
    )
    account = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(min=1, max=32),
        metadata={
            "description": "the id of a bot account to seat (yours, or a public one; "
            "422 unknown-bot, bot-not-yours); not with email or bot"
        },
    )

    @validates_schema
    def _account_alone(self, data, **_):
        """A seat is named by address, by built-in bot or by bot account: one of them."""
        if data.get("account") and (data.get("email") or data.get("bot")):
            raise ValidationError("Name a bot account alone, without email or bot.", "account")
