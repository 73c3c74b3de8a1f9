"""The wire shapes of the Arbiter API (``openapi.yaml``) as ``TypedDict``: what the
client's methods return, so that an editor and mypy know the fields. They are plain
dicts at run time; the service may add fields (every one is optional here).
"""

from __future__ import annotations

from typing import Any, TypeAlias, TypedDict

JSON: TypeAlias = dict[str, Any]
"""A JSON object whose shape this module does not spell out."""

Move: TypeAlias = Any
"""A move: a JSON value defined by its engine. Whatever ``legal-moves`` lists can be sent
back unchanged."""


class Player(TypedDict, total=False):
    """A seat at creation: ``name`` (required), ``email``, ``tz``; or a built-in bot's
    seat: ``name`` and ``bot`` (``{"kind": "random" | "mcts", "level": 1-5}``); or,
    instead of an address, ``account``: the id of a bot account (mine, or a public one)."""

    name: str
    email: str | None
    tz: str | None
    bot: dict[str, Any]
    account: str


class Engine(TypedDict, total=False):
    """``GET /v1/engines/{id}``: one rules engine."""

    id: str
    title: str
    version: str
    min_players: int
    max_players: int
    notation: str
    options: JSON
    reference: JSON


class SeatPublic(TypedDict, total=False):
    """A seat as anyone may see it."""

    seat: int
    name: str
    resigned: bool


class SeatToken(TypedDict, total=False):
    """A seat in a creation answer, with its bearer token (shown this once)."""

    seat: int
    name: str
    token: str
    link: str


class Game(TypedDict, total=False):
    """``GET /v1/games/{id}``: a game's public summary."""

    id: str
    engine: str
    engine_version: str
    status: str
    """``waiting`` | ``active`` | ``over`` | ``cancelled``"""
    version: int
    """the seq of the last event; the ETag"""
    to_act: list[int]
    """seats that owe a move"""
    prompt: JSON
    deadline: str | None
    seed_commitment: str
    result: JSON | None
    players: list[SeatPublic]
    options: JSON
    clock: JSON
    rated: bool
    start_at: str | None
    unfilled: str
    created_at: str
    updated_at: str


class GameCreated(Game, total=False):
    """``POST /v1/games``: the summary with every seat's token and the creator token."""

    seats: list[SeatToken]
    creator_token: str


class MovePart(TypedDict):
    """A part of a large decision: every combination of one value per ``fill`` key,
    merged into ``move``, is a legal move."""

    move: JSON
    fill: dict[str, list[Any]]


class LegalMoves(TypedDict, total=False):
    """``GET /v1/games/{id}/legal-moves``: the caller's seat's legal moves now (none when
    it owes no move), in JSON and in the game's notation."""

    seat: int
    version: int
    moves: list[Move]
    notation: list[str]
    parts: list[MovePart]
    count: int


class MoveAccepted(TypedDict, total=False):
    """``POST /v1/games/{id}/moves``: the move's event."""

    seq: int
    version: int
    status: str
    text: str
    to_act: list[int]


class Resigned(TypedDict, total=False):
    """``POST /v1/games/{id}/resign``."""

    seq: int
    version: int
    status: str


class ClockEvent(TypedDict, total=False):
    """The answer of pause, resume, extend and vacation."""

    seq: int
    version: int
    kind: str


class TookBack(TypedDict, total=False):
    """``POST /v1/games/{id}/back``: a seat taken back from the autopilot."""

    seq: int
    version: int
    seat: int


class Event(TypedDict, total=False):
    """One event of a game's log as the reader may see it."""

    seq: int
    kind: str
    seat: int | None
    payload: JSON
    at: str


class Events(TypedDict, total=False):
    """``GET /v1/games/{id}/events``."""

    events: list[Event]
    version: int


class StreamEvent(Event, total=False):
    """An event from a game's stream or long-poll, with the game's ``version`` when it
    was sent."""

    version: int


class AccountEvent(StreamEvent, total=False):
    """A line of ``/v1/me/stream``: an event of one of the account's games, with the
    ``cursor`` that resumes the stream after it."""

    game: str
    cursor: str


class MessageEvent(TypedDict, total=False):
    """A message of a game's talk as it comes in a stream (``kind`` ``"message"``, no
    ``seq``): the message as ``GET /v1/games/{id}/messages`` shows it to the reader,
    with ``talk``, the talk entry that brought it (a message hidden after it was sent
    comes again, ``hidden`` true, ``text`` None, a later ``talk``); on
    ``/v1/me/stream`` with its ``game`` and ``cursor`` too."""

    kind: str
    talk: int
    n: int
    channel: str
    seat: int | None
    to: int | None
    name: str
    text: str | None
    hidden: bool
    at: str
    game: str
    cursor: str


class View(TypedDict, total=False):
    """``GET /v1/games/{id}/view``: what the caller's seat (or a spectator) may see."""

    seat: int | None
    status: str
    to_act: list[int]
    version: int
    view: JSON


class Record(TypedDict, total=False):
    """``GET /v1/games/{id}/record``: the whole log of a finished game, seed revealed."""

    id: str
    engine: str
    engine_version: str
    options: JSON
    players: list[JSON]
    seed: str
    seed_commitment: str
    events: list[Event]
    result: JSON | None


class Me(TypedDict, total=False):
    """``GET /v1/me``: my account."""

    id: str
    email: str
    display_name: str
    tz: str
    digest: bool
    created_at: str
    bot: BotOf | None
    ratings: list[JSON]
    reliability: JSON


class BotOf(TypedDict, total=False):
    """What makes an account a bot account (``Me["bot"]``)."""

    owner: str
    public: bool


class MyGame(TypedDict, total=False):
    """A game of mine in ``GET /v1/me/games``."""

    id: str
    engine: str
    status: str
    version: int
    seats: list[int]
    to_act: list[int]
    deadline: str | None
    updated_at: str


class Token(TypedDict, total=False):
    """A personal token as listed (never the token itself)."""

    id: str
    name: str
    scopes: list[str]
    created_at: str
    expires_at: str | None
    last_used_at: str | None


class TokenCreated(Token, total=False):
    """A new personal token: ``token`` (``arb_...``) is shown this once."""

    token: str


class Bot(TypedDict, total=False):
    """A bot account of mine (``GET /v1/me/bots``); seat it with
    ``{"name": ..., "account": bot["id"]}``."""

    id: str
    display_name: str
    public: bool
    created_at: str


class BotMade(Bot, total=False):
    """A bot account with a new play-scoped token (``["token"]["token"]``, shown once)."""

    token: TokenCreated


class SignedIn(TypedDict, total=False):
    """``POST /v1/auth/sessions``: the account and a personal token with every scope."""

    account: Me
    token: TokenCreated


class Webhook(TypedDict, total=False):
    """A web hook of mine."""

    id: str
    url: str
    events: list[str]
    failures: int
    created_at: str
    last_success_at: str | None
    disabled_at: str | None
    disabled_reason: str | None


class WebhookCreated(Webhook, total=False):
    """A new web hook: ``secret`` (``whsec_...``, to verify deliveries) is shown once."""

    secret: str


class Entry(TypedDict, total=False):
    """A tournament entry."""

    id: str
    account: str
    name: str
    entered_at: str
    joined_round: int
    withdrawn_round: int | None
    byes_requested: dict[str, str]


class Tournament(TypedDict, total=False):
    """``GET /v1/tournaments/{id}``: a tournament with its entries."""

    id: str
    name: str
    engine: str
    format: str
    status: str
    """``open`` | ``running`` | ``over``"""
    round: int
    rounds: int | None
    table_size: int
    entries: list[Entry]
    organiser: str
    paused: bool
    deadline: str | None
    version: int
    options: JSON
    clock: JSON
    scoring: JSON
    rated: bool
    late_entries: bool
    round_seconds: int | None
    deadline_policy: str
    reliability_threshold: float | None
    games: list[str]
    created_at: str
