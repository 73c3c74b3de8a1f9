"""The new-game page's fields, read from each engine's options schema, and the posted
form read into a creation command (issue 23, item 1). Two steps, no JavaScript
needed: pick the game (``?engine=``), then its options, players and clock.

Each player row after the creator's is one of: a friend by name and address (invited
as by ``POST /v1/games``: consent as for any invitation), ``anyone`` (an open seat of a
public table, :mod:`arbiter.games.lobby`), a built-in bot (its strength from
:data:`BOT_LEVELS`; no email address), or nobody (no seat).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from marshmallow import ValidationError, missing, validate
from marshmallow import fields as ma_fields

from arbiter.bots import specs
from arbiter.bots.players import KINDS, Bot
from arbiter.errors import Unprocessable
from arbiter.games.games import NewPlayer
from arbiter.player_rules import PlayerSchema
from engines.base import Engine

CLOCKS = {
    "none": ("No clock: nobody is hurried", None),
    "1h": ("1 hour per move", {"type": "per-move", "seconds": 3600}),
    "12h": ("12 hours per move", {"type": "per-move", "seconds": 43200}),
    "1d": ("1 day per move", {"type": "per-move", "seconds": 86400}),
    "3d": ("3 days per move", {"type": "per-move", "seconds": 259200}),
    "7d": ("7 days per move", {"type": "per-move", "seconds": 604800}),
}
"""The time controls the page offers (a move missing its deadline is played for the
player by the arbiter's timeout move)."""

BOTS_READY = "bot" in {f.name for f in fields(NewPlayer)}
"""Whether game creation takes built-in bots (``NewPlayer.bot``, the bots-seats
work); until it does, the page offers no bot."""

SEAT_KINDS = {
    "friend": "A friend, by name and address (they get an invitation to accept)",
    "open": "Anyone: an open seat in the lobby",
    **({"bot": "A built-in bot (choose how strong below)"} if BOTS_READY else {}),
    "none": "Nobody (no seat)",
}
"""What a player row after the creator's may be."""

BOT_LEVELS = {
    "random-1": ("random", 1, "Random: any legal move"),
    **{f"mcts-{n}": ("mcts", n, f"Thinking, level {n} of 5") for n in range(1, 6)},
}
"""The bots a row may be (kind, level, words), when :data:`BOTS_READY`."""


@dataclass
class OptionField:
    """One engine option as the page shows it: its input kind (``flag``, ``choice``,
    ``number``, ``list``), label, explanation, choices, bounds and default."""

    name: str
    kind: str
    label: str
    help: str
    choices: list = field(default_factory=list)
    minimum: int | None = None
    maximum: int | None = None
    default: object = None


def option_fields(engine: Engine) -> list[OptionField]:
    """Return the engine's options as page fields, in the schema's order."""
    return [_option(name, f) for name, f in engine.options_schema().fields.items()]


def _option(name: str, f: ma_fields.Field) -> OptionField:
    """Return one option field (see :class:`OptionField`)."""
    default = None if f.load_default is missing or callable(f.load_default) else f.load_default
    out = OptionField(
        name=name,
        kind="number",
        label=name.replace("_", " ").capitalize(),
        help=f.metadata.get("description", ""),
        default=default,
    )
    if isinstance(f, ma_fields.Boolean):
        out.kind = "flag"
    elif isinstance(f, ma_fields.List):
        out.kind = "list"
    elif not isinstance(f, ma_fields.Integer | ma_fields.Float):
        out.kind = "text"
    for rule in f.validators:
        if isinstance(rule, validate.OneOf):
            out.kind, out.choices = "choice", list(rule.choices)
        elif isinstance(rule, validate.Range):
            out.minimum, out.maximum = rule.min, rule.max
    return out


def read_options(engine: Engine, form) -> dict:
    """Return the options the posted ``form`` sets (unset numbers and lists left to the
    engine's defaults); the engine checks them at creation.

    :raises Unprocessable: ``bad-options`` for a number that is not a whole number.
    """
    options: dict = {}
    for opt in option_fields(engine):
        raw = (form.get(f"opt-{opt.name}") or "").strip()
        if opt.kind == "flag":
            options[opt.name] = bool(raw)
        elif opt.kind == "list":
            if raw:
                options[opt.name] = [p.strip() for p in raw.split(",") if p.strip()]
        elif opt.kind == "number":
            if raw:
                if not raw.lstrip("-").isdigit():
                    raise Unprocessable(
                        f"{opt.label} must be a whole number.",
                        "bad-options",
                        {"fields": {f"opt-{opt.name}": "A whole number, please."}},
                    )
                options[opt.name] = int(raw)
        elif raw:
            options[opt.name] = raw
    return options


PLAYER_FIELDS = {"name": "name", "email": "email", "bot": "bot", "open": "kind"}
"""The form field of each member of a player (:class:`PlayerSchema`) a refusal names."""


def bot_spec(choice: str) -> dict:
    """Return the bot a row's ``bot-N`` choice names, as ``POST /v1/games`` takes it
    (``mcts-3``: ``{"kind": "mcts", "level": 3}``); a choice the page does not offer
    is passed on as it reads, for :func:`arbiter.bots.specs.bot_of` to refuse."""
    if choice in BOT_LEVELS:
        kind, level, _ = BOT_LEVELS[choice]
        return {"kind": kind, "level": level}
    kind, _, level = choice.rpartition("-")
    return {"kind": kind or choice, "level": int(level) if level.isdigit() else level}


BOT_CHOICES = "Random, or Thinking at a level from 1 to 5"
"""The bots the form offers, in its own words (:data:`BOT_LEVELS`)."""


def read_bot(choice: str, row: int) -> tuple[Bot | None, str | None]:
    """Return ``(bot, None)`` for a row's ``bot-N`` choice, checked by the rules of
    ``POST /v1/games`` (:func:`arbiter.bots.specs.bot_of`), or ``(None, problem)``: a
    sentence in the form's words (row ``row + 1``) naming the cause: no strength
    chosen, no such bot, or no such level."""
    choice = choice.strip()
    spec = bot_spec(choice)
    try:
        return specs.bot_of(spec, f"row {row + 1}"), None
    except Unprocessable:
        pass
    where = f"Row {row + 1}"
    if not choice:
        return None, f"{where}: choose how the bot plays: {BOT_CHOICES}."
    kind, level = spec["kind"], "" if spec["kind"] == choice else str(spec["level"])
    if kind in KINDS:
        title = "Thinking" if kind == "mcts" else "Random"
        has = f"has no level {level[:20]}" if level else "needs a level"
        return None, f"{where}: a {title} bot {has}: choose how the bot plays: {BOT_CHOICES}."
    return None, (
        f"{where}: there is no bot {choice[:40]!r}: choose how the bot plays: {BOT_CHOICES}."
    )


def read_players(engine: Engine, form, me_name: str, me_email: str) -> list[NewPlayer]:
    """Return the players of the posted ``form``: the creator first, then each row
    that is a friend, an open seat or a bot, checked by the rules of ``POST /v1/games``
    (:class:`arbiter.player_rules.PlayerSchema`, and
    :func:`arbiter.bots.specs.bot_of` for a bot), not a copy of them.

    :raises Unprocessable: ``bad-player`` with ``fields``, a message for each form
        field refused (``email-1``: not an address; ``kind-2``: no such choice;
        ``bot-1``: no such bot), or ``bad-player-count`` (too few or too many).
    """
    rows: list[dict] = [{"name": me_name, "email": me_email}]
    form_rows = [0]  # the form row of each player in rows
    refused: dict[str, str] = {}
    for row in range(1, engine.max_players):
        kind = form.get(f"kind-{row}", "none")
        name = (form.get(f"name-{row}") or "").strip()
        email = (form.get(f"email-{row}") or "").strip() or None
        if kind not in SEAT_KINDS:
            refused[f"kind-{row}"] = "Choose who plays this seat from the list."
        elif kind == "open":
            rows.append({"open": True})
        elif kind == "bot":
            bot, problem = read_bot(form.get(f"bot-{row}", ""), row)
            if problem:
                refused[f"bot-{row}"] = problem
            if email:  # POST /v1/games refuses it too (bad-bot): never drop it unsaid
                refused[f"email-{row}"] = (
                    f"Row {row + 1}: a bot has no email address (it gets no mail). Leave "
                    "the address empty, or choose a friend for this row."
                )
            rows.append({"name": name or f"Bot {len(rows) + 1}", "bot": bot and bot.to_json()})
        elif kind == "friend":
            if not name:
                refused[f"name-{row}"] = "A friend needs a name."
            if not email:
                refused[f"email-{row}"] = "A friend needs an email address for the invitation."
            rows.append({"name": name or None, "email": email})
        if kind in SEAT_KINDS and kind != "none":
            form_rows.append(row)
    try:
        loaded = PlayerSchema(many=True).load(rows)
    except ValidationError as err:
        loaded = []
        for i, messages in err.messages.items():
            for member, words in messages.items():
                where = f"{PLAYER_FIELDS.get(member, 'name')}-{form_rows[i]}"
                if form_rows[i] == 0:
                    where = "you"
                refused.setdefault(where, " ".join(words))
    if refused:
        rows_refused = sorted({int(k.rpartition("-")[2]) + 1 for k in refused if k != "you"})
        whose = ", ".join(f"player {n}" for n in rows_refused) or "you"
        raise Unprocessable(
            f"Please correct what is marked below ({whose}).", "bad-player", {"fields": refused}
        )
    players = NewPlayer.many(loaded)
    if not engine.min_players <= len(players) <= engine.max_players:
        raise Unprocessable(
            f"{engine.title} takes {engine.min_players} to {engine.max_players} players; "
            f"this form has {len(players)}.",
            "bad-player-count",
        )
    return players


def read_clock(form) -> dict | None:
    """Return the time control the form picked (None: no clock).

    :raises Unprocessable: ``bad-clock`` for a choice the page does not offer."""
    choice = form.get("clock", "none")
    if choice not in CLOCKS:
        raise Unprocessable(
            "Pick one of the offered clocks.", "bad-clock", {"fields": {"clock": "Pick one."}}
        )
    return CLOCKS[choice][1]
