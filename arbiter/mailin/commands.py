"""The commands a player writes in a reply, and running them through the service.

One command per line, in order, stopping at the first refusal: a move in the
engine's notation, ``resign``, ``board``, ``moves``, ``status``, ``help``,
``vacation N days``, ``pause`` / ``resume``. A move goes through the same
:func:`arbiter.games.moves.submit_move` as ``POST /moves`` (same checks, same event,
same follow-ups), with an Idempotency-Key derived from the Message-ID and the line,
so a message processed twice records its moves once.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import asdict, dataclass, field

import yaml

from arbiter import idempotency, problems
from arbiter.accounts.identity import Principal, SeatGrant, as_principal
from arbiter.errors import ArbiterError
from arbiter.extensions import db
from arbiter.games import (
    chance,
    clock,
    clock_actions,
    moves,
    naming,
    outcome,
    preferences,
    reading,
)
from arbiter.games.games import get_game, load
from arbiter.games.moves import cancelled_because, waiting_for
from arbiter.games.notify import move_lines
from arbiter.games.store import StaleVersion
from arbiter.mail import identity
from arbiter.mailin import agreement_commands, lobby_commands
from arbiter.models import Account, Event
from arbiter.uow import UnitOfWork
from engines.base import EngineError, InvalidMove

MAX_COMMANDS = 20
"""Lines read from one mail; more are refused as a whole (``too-many-commands``)."""

WORDS = {"help", "moves", "board", "status", "resign", "pause", "resume"}

PREFIXES: set[str] = {"notify", "say", "note", "rematch", "join"}
"""First words of the commands a line may start with besides :data:`WORDS`
(``notify digest``; the table's ``say ...`` and ``note ...``, the lobby's ``join``
and ``rematch``, where those parts run them): such a line is a command, never a
greeting or a signature to ignore (:func:`command_span`)."""

HELP = (
    """Commands (one per line, above the quoted text of your reply):
  <a move>            in the game's notation, exactly as the legal moves are listed
  moves               list your legal moves
  board               what you see of the game now (and the board picture)
  status              whose turn it is, the deadline, the score at the end
  resign              leave the game: your later turns are played for you
  vacation N days     stop your clock for N days (games with a clock)
  notify turn|digest|none [all]
                      a mail each turn, the daily digest, or no turn mail:
                      for this game, or with "all" for all your games
  pause / resume      stop or restart every clock (the game's creator only)
  say <text>          talk at the table ("say to <name>: ..." privately; "note ..." for you)
"""
    + agreement_commands.HELP
    + """
  help                this list
"""
    + lobby_commands.LINES
    + """
Several lines run in order and stop at the first one refused; a greeting
before them and a signature after them are ignored."""
)

_VACATION = re.compile(r"^vacation\s+(\d{1,3})(\s+days?)?$")


@dataclass
class Done:
    """The result of one command: the line, whether it was taken, the answer text,
    the stable ``code`` of a refusal, and whether the board picture goes along;
    ``status`` marks the answer of a ``status`` command (what the game waits for now)."""

    line: str
    ok: bool
    text: str
    code: str | None = None
    board: bool = False
    legal: bool = False
    help: bool = False
    status: bool = False


@dataclass
class Run:
    """Every command of one mail, in order, and the lines around them that were
    ignored (a greeting, a signature: :func:`command_span`)."""

    done: list[Done] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)


def lines_of(text: str, subject: str) -> list[str]:
    """Return the command lines of a reply: its non-empty lines, or, when there are
    none, the subject without ``Re:`` prefixes unless it is one of the arbiter's own."""
    lines = [" ".join(line.split()) for line in text.splitlines()]
    lines = [line for line in lines if line]
    if lines:
        return lines
    bare = re.sub(r"^\s*((re|aw|sv|fwd?|tr)\s*:\s*)+", "", subject, flags=re.I).strip()
    return [bare] if bare and not bare.startswith("[Arbiter]") else []


def key_for(message_id: str, index: int) -> str:
    """Return the Idempotency-Key of command ``index`` of a message."""
    return "mail-" + hashlib.sha256(f"{message_id}|{index}".encode()).hexdigest()[:40]


def run(seat: SeatGrant, version: int, lines: list[str], message_id: str) -> Run:
    """Run ``lines`` for ``seat`` against the prompt begun at ``version`` (the reply
    address's), in order, stopping at the first refusal."""
    result = Run()
    if len(lines) > MAX_COMMANDS:
        result.done.append(
            Done(
                lines[0],
                False,
                f"A mail may carry at most {MAX_COMMANDS} "
                f"commands; this one has {len(lines)}. Nothing was done.",
                "too-many-commands",
            )
        )
        return result
    first, last = command_span(seat, lines)
    result.ignored = lines[:first] + lines[last + 1 :]
    expected = version
    for index, line in enumerate(lines[first : last + 1], start=first):
        done, expected = _one(seat, expected, line, key_for(message_id, index), message_id)
        result.done.append(done)
        if not done.ok:
            break
    return result


def command_span(seat: SeatGrant, lines: list[str]) -> tuple[int, int]:
    """Return the first and last index of the lines that read as commands or moves
    (:func:`readable`): what stands before (a greeting, "Hi Arbiter,") and after (a
    signature, "Thanks, Ann", "Sent from my phone") is ignored, as people write
    around a move on a line of its own. When no line reads, the whole mail is the
    span, so its first line is refused with what to write."""
    game, engine, state = load(seat.game_id)
    marks = [i for i, line in enumerate(lines) if readable(engine, state, seat.seat, line)]
    if not marks:
        return 0, len(lines) - 1
    return marks[0], marks[-1]


def any_command(seat: SeatGrant, lines: list[str]) -> bool:
    """True when any of ``lines`` reads as a command or a move (:func:`readable`)."""
    _, engine, state = load(seat.game_id)
    return any(readable(engine, state, seat.seat, line) for line in lines)


def readable(engine, state: dict, seat: int, line: str) -> bool:
    """True when ``line`` is a command (:data:`WORDS`, ``vacation N days``, one of
    :data:`PREFIXES`, an agreement's ``undo``, ``accept undo`` ...) or reads as a move
    in the engine's notation now (legal or not: an illegal move is refused, not
    ignored)."""
    word = line.lower().rstrip(".!")
    if word in WORDS or _VACATION.match(word) or word.split(" ", 1)[0] in PREFIXES:
        return True
    if agreement_commands.parse(word) is not None:  # undo, abort, accept/refuse ...
        return True
    try:
        engine.parse(line, state, seat)
    except InvalidMove:
        return False
    except EngineError:
        return True
    return True


def _one(seat: SeatGrant, expected: int, line: str, key: str, message_id: str) -> tuple[Done, int]:
    """Run one command; return its :class:`Done` and the version the next runs against."""
    word = line.lower().rstrip(".!")
    try:
        agreed = agreement_commands.run(seat, word, key, once)  # undo, abort, answers
        if agreed is not None:
            return Done(line, True, agreed), expected
        table_command = lobby_commands.match(line)  # join <game>, rematch
        if table_command:
            return Done(line, *table_command(seat, key, once)), expected
        if word in WORDS:
            return _word(seat, word, line, key), expected
        if word.split(" ", 1)[0] == "notify":
            return _notify(seat, word, line), expected
        vacation = _VACATION.match(word)
        if vacation:
            command = clock_actions.Vacation(seat.game_id, seat, int(vacation.group(1)))
            _, answer = once(
                seat,
                key,
                {"text": line},
                "POST vacation",
                lambda uow: clock_actions.vacation(uow, command),
            )
            return Done(
                line,
                True,
                f"Vacation recorded: your clock stops for {vacation.group(1)} day(s).",
            ), expected
        return _move(seat, expected, line, key, message_id)
    except StaleVersion:
        game, _, _ = load(seat.game_id)
        return Done(
            line,
            False,
            "The game has moved on since the mail you answered: nothing was "
            "recorded. Here is where it stands now.",
            "stale-version",
            legal=True,
        ), expected
    except ArbiterError as err:
        return Done(line, False, *problems.refusal(err), legal=True), expected
    except InvalidMove as err:  # neither a command nor a move: say what is understood
        sentence, code = problems.refusal(err)
        return Done(
            line,
            False,
            f"{named(seat, sentence)} It is not a command either.",
            code,
            legal=True,
            help=True,
        ), expected
    except EngineError as err:
        sentence, code = problems.refusal(err)
        return Done(line, False, named(seat, sentence), code, legal=True), expected


_SEAT = re.compile(r"\b([Ss])eat (\d+)\b")


def named(seat: SeatGrant, detail: str) -> str:
    """Return an engine's sentence with its seat numbers (``seat 0``, ``Seat 2``: the
    engines know no names) written as the players' names, as the other mails name
    players; the reader's own seat reads ``you``/``You`` (``It is not your turn``)."""
    game, _, _ = load(seat.game_id)
    names = {s.seat: s.name for s in game.seats}

    def name(match: re.Match) -> str:
        number = int(match.group(2))
        if number == seat.seat:
            return "You" if match.group(1) == "S" else "you"
        return names.get(number, match.group(0))

    out = _SEAT.sub(name, detail)
    return out.replace("you's", "your").replace("You's", "Your")


def _word(seat: SeatGrant, word: str, line: str, key: str) -> Done:
    """Run a one-word command."""
    if word == "help":
        return Done(line, True, HELP)
    if word == "moves":
        return Done(line, True, "\n".join(legal_lines(seat, everything=True)))
    if word == "board":
        game, engine, state = load(seat.game_id)
        return Done(line, True, view_text(engine.view(state, seat.seat)), board=True)
    if word == "status":
        return Done(line, True, status_text(seat), status=True)
    if word == "resign":
        _, answer = once(
            seat,
            key,
            None,
            "POST resign",
            lambda uow: moves.resign(uow, moves.Resign(seat.game_id, seat)),
        )
        return Done(line, True, "Your resignation is recorded.")
    creator = creator_principal(seat)
    if creator is None:
        return Done(
            line,
            False,
            "Only the game's creator may pause or resume it: by mail "
            "from the address of the account that created it, or with the creator "
            "token over HTTP.",
            "not-creator",
        )
    if word == "pause":
        command, action = clock_actions.Pause(seat.game_id, creator), clock_actions.pause
    else:
        command, action = clock_actions.Resume(seat.game_id, creator), clock_actions.resume
    once(seat, key, None, f"POST {word}", lambda uow: action(uow, command))
    return Done(line, True, f"The game is {word}d.")


def _notify(seat: SeatGrant, word: str, line: str) -> Done:
    """``notify turn|digest|none`` for this game, ``... all`` for all the account's
    games (:mod:`arbiter.games.preferences`)."""
    parts = word.split()
    mode = parts[1] if len(parts) > 1 else ""
    everywhere = parts[2:] == ["all"]
    game = get_game(seat.game_id)
    held = game.seats[seat.seat]
    account = db.session.get(Account, held.account_id) if held.account_id else None
    if mode not in preferences.MODES or parts[2:] not in ([], ["all"]) or account is None:
        return Done(line, False, NOTIFY_HELP, "bad-notify-mode")
    if everywhere:
        preferences.set_for_all(UnitOfWork(), account, mode)
    else:
        preferences.set_for_game(UnitOfWork(), preferences.SetForGame(account, game.id, mode))
    where = "in all your games" if everywhere else "in this game"
    return Done(line, True, f"From now on {NOTIFY_WORDS[mode]} {where}.")


NOTIFY_HELP = (
    'Write "notify turn" (a mail each turn), "notify digest" (one daily digest) or '
    '"notify none" (no turn mail) for this game; add "all" for all your games.'
)
NOTIFY_WORDS = {
    "turn": "you get a mail for each of your turns",
    "digest": "your turns come in the daily digest",
    "none": "you get no turn mail",
}


def once(seat: SeatGrant, key: str, fingerprint, route: str, act) -> tuple[int, dict]:
    """Run ``act`` (a context function given a unit of work) once per ``key`` (made
    from the mail's Message-ID and the line): a mail processed twice records its
    commands once (:mod:`arbiter.idempotency`)."""
    return idempotency.answer(
        idempotency.caller_scope(seat.game_id, as_principal(seat)),
        key,
        fingerprint,
        201,
        asdict,
        lambda keeper: act(UnitOfWork(keeper=keeper)),
        route=route,
    )


def creator_principal(seat: SeatGrant) -> Principal | None:
    """Return the creator's principal when the seat's address (the verified sender of
    this mail) is the address of the account that created the game, else None."""
    game = get_game(seat.game_id)
    account = db.session.get(Account, game.creator_account_id) if game.creator_account_id else None
    if account is None or account.deleted_at is not None or not account.email:
        return None
    if account.email.lower() != identity.seat_address(game.seats[seat.seat]):
        return None
    return Principal(
        token="",
        token_hash=f"mail-creator:{account.id}",
        account=account,
        scopes=frozenset({"games:create"}),
    )


def _move(seat: SeatGrant, expected: int, line: str, key: str, message_id: str) -> tuple[Done, int]:
    """Submit ``line`` as a move; roll what it made the game wait for, so that the
    next line of the mail is checked against the game as it then stands."""
    via = {"channel": "mail", "message_id": message_id}
    command = moves.SubmitMove(seat.game_id, seat, moves.Notation(line), expected, via)
    _, answer = once(
        seat,
        key,
        {"text": line, "expected_version": expected, **via},
        "POST moves",
        lambda uow: moves.submit_move(uow, command),
    )
    game, engine, _ = load(seat.game_id)
    if game.prompt.get("type") == "chance":
        chance.advance_chance(seat.game_id, game.version)
        game, _, _ = load(seat.game_id)
    return Done(line, True, f"Recorded: {recorded_words(game, engine, answer)}."), game.version


def recorded_words(game, engine, answer: dict) -> str:
    """Return a recorded move as a reply says it: its notation, as the player wrote it,
    and the move in words (the engine's ``move_words`` of the recorded event)."""
    event = db.session.get(Event, (game.id, answer["seq"]))
    try:
        words = engine.move_words(event.payload["move"])
    except (AttributeError, ValueError, KeyError, TypeError):  # an engine error: ValueError
        return answer["text"]
    return answer["text"] if words == answer["text"] else f"{answer['text']} (you {words})"


NOT_ACTIVE = {
    "waiting": "The game has not started.",
    "cancelled": "The game was cancelled.",
}
"""What a game that is neither on nor over waits for (:mod:`arbiter.games.invitations`);
a waiting game's sentence is :func:`not_active`'s."""


STATUS_WORDS = {
    "active": "in play",
    "over": "over",
    "waiting": "not started yet",
    "cancelled": "cancelled",
}
"""A game's status as a status reply says it."""


def not_active(game) -> str:
    """Return the sentence for a game that is neither on nor over: what a waiting one
    waits for (invited players, its start time: :func:`arbiter.games.moves.waiting_for`)."""
    if game.status == "waiting":
        return f"The game has not started: {waiting_for(game)}."
    if game.status == "cancelled":
        return f"The game was cancelled: {cancelled_because(game)}."
    return NOT_ACTIVE[game.status]


def legal_lines(seat: SeatGrant, everything: bool = False) -> list[str]:
    """Return the lines listing the seat's legal moves now (or why there are none)."""
    game, engine, state = load(seat.game_id)
    if game.status != "active":
        return [not_active(game) if game.status in NOT_ACTIVE else "The game is over."]
    if seat.seat not in game.to_act:
        return ["It is not your turn now, so you have no legal moves."]
    return move_lines(engine, state, seat.seat, everything)


def status_text(seat: SeatGrant) -> str:
    """Return what the game waits for now, as a few lines."""
    game, engine, state = load(seat.game_id)
    summary = reading.summary(game)
    names = {p["seat"]: p["name"] for p in summary["players"]}
    lines = [f"{engine.title}: {STATUS_WORDS.get(game.status, game.status)}."]
    if game.status == "over":
        lines += outcome.outcome_lines(game.result or {}, names)
        return "\n".join(lines)
    if game.status in NOT_ACTIVE:
        return "\n".join([*lines, not_active(game)])
    waiting = [names[s] for s in game.to_act]
    if seat.seat in game.to_act:
        lines.append(
            "It is your turn"
            + (
                f" (with {', '.join(w for w in waiting if w != names[seat.seat])})"
                if len(waiting) > 1
                else ""
            )
            + "."
        )
        lines.append(naming.named(engine.brief(state, seat.seat), names, seat.seat))
    elif waiting:
        lines.append(f"Waiting for: {', '.join(waiting)}.")
    else:
        lines.append("Waiting for a roll or a draw.")
    deadline = clock.deadlines(game).get(seat.seat)
    if deadline is not None:
        lines.append(f"Your deadline: {clock.local(deadline, game.seats[seat.seat].tz)}.")
    return "\n".join(lines)


def view_text(view: dict) -> str:
    """Return an engine view as indented text (YAML)."""
    return yaml.safe_dump(
        view, sort_keys=False, default_flow_style=None, width=100, allow_unicode=True
    ).rstrip()
