"""Players by name in the texts engines write: engines know seats by number ("seat 2",
"Seat 0 is the start player"); mails and pages name people (the developers' guide:
"names, not seat numbers"). And a game by its players, never its id
(:func:`game_words`: "Dark Horse with Bob and Cat, started on 2 December"), which
every mail uses."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import sqlalchemy as sa

import engines
from arbiter.extensions import db
from arbiter.models import Event

_SEAT = re.compile(r"\b([Ss])eat (\d+)('s)?\b")
_SEATS = re.compile(r"\b[Ss]eats (\d+(?:, \d+)*(?:,? and \d+)?)\b")
_VERBS = {"holds": "hold", "has": "have", "is": "are", "was": "were"}
_YOU_VERB = re.compile(r"\b([Yy])ou (holds|has|is|was)\b")
_OF_YOU = re.compile(r"\bof you\b")
_YOU_SEAT = re.compile(r"\b([Yy])ou \([Ss]eat \d+\)")


def named(text: str, names: dict[int, str], me: int | None = None) -> str:
    """Return ``text`` with every ``seat N`` / ``Seat N`` (and ``seat N's``) written as
    that player's name from ``names``, and a list ``seats N, M and K`` as the names
    listed (``Ann, Bob and Cy``); the reader's own seat ``me`` reads
    ``you``/``You`` (``your``/``Your``). A number that names no seat is left as is."""

    def name(match: re.Match) -> str:
        number, possessive = int(match.group(2)), match.group(3) or ""
        if number == me:
            word = "your" if possessive else "you"
            return word.capitalize() if match.group(1) == "S" else word
        if number not in names:
            return match.group(0)
        return names[number] + possessive

    def listed(match: re.Match) -> str:
        numbers = [int(n) for n in re.findall(r"\d+", match.group(1))]
        if not all(n in names or n == me for n in numbers):
            return match.group(0)
        words = ["you" if n == me else names[n] for n in numbers]
        said = joined(words, most=len(words))
        return said[:1].upper() + said[1:] if match.group(0)[0] == "S" else said

    text = _SEATS.sub(listed, text)
    out = _SEAT.sub(name, _YOU_SEAT.sub(lambda m: m.group(1) + "ou", text))
    out = _YOU_VERB.sub(lambda m: f"{m.group(1)}ou {_VERBS[m.group(2)]}", out)
    return _OF_YOU.sub("of yours", out)


def names_of(game) -> dict[int, str]:
    """Return ``{seat: name}`` of a game row."""
    return {s.seat: s.name for s in game.seats}


def named_view(view: dict, names: dict[int, str]) -> dict:
    """Return ``view`` with the players' names, one per seat (``names``): what the
    engines' pictures and board words call the seats instead of ``seat 2``."""
    return {**view, "names": [names.get(s) for s in range(max(names, default=-1) + 1)]}


STARTED_MARK = "{{started-on}}"
"""What :func:`game_words` writes for the day a game started when it is told later
(``started="when sent"``): a mail written in a move's transaction reads nothing more,
and its finisher puts the day in when it is sent (:func:`fill_started`)."""

MOST_NAMED = 3
"""How many other players a game's name spells out; more are counted (``Bob, Cat and
3 others``)."""


def joined(words: list[str], most: int = MOST_NAMED) -> str:
    """Return ``words`` as a person lists them: ``Bob``, ``Bob and Cat``, ``Bob, Cat
    and Dan``; more than ``most`` name the first two and count the rest (``Bob, Cat and
    3 others``)."""
    if len(words) > most:
        words = [*words[:2], f"{len(words) - 2} others"]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" and {words[-1]}"


def started_at(game) -> datetime:
    """Return when ``game`` started: the time of its ``game-started`` event (a game
    that waited for its invited players or a full table), else of its creation."""
    at = db.session.scalar(
        sa.select(Event.at)
        .where(Event.game_id == game.id, Event.kind == "game-started")
        .order_by(Event.seq)
        .limit(1)
    )
    return at or game.created_at


def day(value: datetime, tz: str | None = None) -> str:
    """Return the day of ``value`` as a person says it, in zone ``tz`` (UTC without
    one): ``2 December``, with the year when it is not this year's
    (``30 December 2025``)."""
    zone = ZoneInfo(tz) if tz else UTC
    local = value.astimezone(zone)
    this_year = datetime.now(zone).year
    return f"{local.day} {local:%B}" + ("" if local.year == this_year else f" {local.year}")


def game_words(
    game,
    seat: int | None = None,
    *,
    started: bool | datetime | str = False,
    tz: str | None = None,
    title: str | None = None,
) -> str:
    """Return how a mail names ``game`` to a person: its engine's title and the other
    players (``Dark Horse with Bob and Cat``; with ``seat`` None, every player; a
    lobby's open seat is nobody yet;
    ``Bob, Cat and 3 others`` when there are many: :func:`joined`), and with
    ``started`` the day it started (``..., started on 2 December``: ``started`` itself
    when it is that time, else :func:`started_at`, one read; ``"when sent"``: a mark
    :func:`fill_started` replaces, read nothing now) in ``tz``, else the zone of
    ``seat``, else UTC. Never the game's id: an id is for links and headers, not for
    people (issue 23, "people's language").

    :param title: the engine's title when the caller has it (else looked up; the
        engine's id for an engine this server no longer has)."""
    if title is None:
        title = engine_title(game.engine)
    others = [s.name for s in game.seats if s.seat != seat and not s.open]
    words = f"{title} with {joined(others)}" if others else title
    if not started:
        return words
    if started == "when sent":
        return words + STARTED_MARK
    if tz is None and seat is not None and seat < len(game.seats):
        tz = game.seats[seat].tz
    when = started if isinstance(started, datetime) else started_at(game)
    return f"{words}, started on {day(when, tz)}"


def fill_started(text: str, game, tz: str | None = None) -> str:
    """Return ``text`` with the mark :func:`game_words` left for the day ``game``
    started (``started="when sent"``) replaced by ``, started on 2 December`` (in zone
    ``tz``, else UTC); with no game (deleted since), the mark is dropped with the comma
    that closed its clause ("Your game of Dark Horse with Bob is over."). A text
    without the mark is returned as is, with nothing read."""
    if STARTED_MARK not in text:
        return text
    if game is None:  # the sentence's closing comma goes with the clause it closed
        return text.replace(STARTED_MARK + ",", "").replace(STARTED_MARK, "")
    return text.replace(STARTED_MARK, f", started on {day(started_at(game), tz)}")


def engine_title(engine_id: str) -> str:
    """Return the title of engine ``engine_id`` ("Space Worm"), or the id itself for an
    engine this server no longer has."""
    try:
        return engines.get(engine_id).title
    except engines.UnknownEngine:
        return engine_id
