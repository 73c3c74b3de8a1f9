"""The mails a transition causes: "your turn" for every new prompt, the game-over mail
(:mod:`arbiter.games.over_mail`) at the end.

They are rows of the outbox, written in the same transaction as the events; the
``dedupe_key`` makes a second copy of the same mail impossible.
"""

from __future__ import annotations

from datetime import UTC, datetime

import engines
from arbiter import queue, settings
from arbiter.accounts import links
from arbiter.extensions import db
from arbiter.games import history, mail_sections, naming, over_mail, preferences, presence
from arbiter.games.clock import local
from arbiter.games.mail_parts import (
    BOARD_LINE,
    SINCE_MARK,
    board_lines,
    board_picture,
    draws_board,
    move_lines,
)
from arbiter.mail import capability, identity
from arbiter.mail.mail import Suppressed, finish_with
from arbiter.models import Game, OutboxMail
from arbiter.talk import mailed
from arbiter.uow import Appended, UnitOfWork
from engines.base import Decision, Engine


def turn_mails(
    game: Game,
    engine: Engine,
    state: dict,
    decision: Decision,
    prompt_seq: int,
    deadlines: dict[int, datetime] | None = None,
) -> list[OutboxMail]:
    """Return one "your turn" mail per seat of ``decision`` that may be mailed
    (:func:`arbiter.mail.identity.seat_address`: an account's address that did not
    unsubscribe, :mod:`arbiter.mail.consent`) and does not take its turns in the
    digest or not at all in this game (the seat's own ``notify``, or its account's
    ``digest`` copied on it). Nothing is read for it: an accepted move stays a few
    statements; what needs reading is done when the mail is sent
    (:func:`finish_turn`: the history, the account's choice, presence).

    Each is enough to play well by replying (:func:`turn_text`): what happened since
    the seat's last turn, the board as it sees it, its legal moves once, how to win,
    the rules page, and a ``Reply-To`` capability address
    (:mod:`arbiter.mail.capability`) for this seat and prompt; an engine that draws a
    board gets the seat's picture attached as PNG.

    :param prompt_seq: the version at which this prompt began (part of the dedupe key,
        so a seat gets exactly one mail per prompt).
    :param deadlines: each seat's deadline (UTC), shown in the player's time zone.
    """
    mails = []
    board = draws_board(engine)
    names = naming.names_of(game)
    for seat in game.seats:
        address = identity.seat_address(seat)
        if seat.seat not in decision.seats or not address or seat.resigned:
            continue
        if seat.notify in ("digest", "none") or (seat.notify is None and seat.digest):
            continue
        if (seat.autopilot or {}).get("active"):  # the autopilot's bot answers it
            continue
        mails.append(
            OutboxMail(
                dedupe_key=f"turn:{game.id}:{prompt_seq}:{seat.seat}",
                game_id=game.id,
                seat=seat.seat,
                to_addr=address,
                subject="[Arbiter] Your turn in "
                + naming.game_words(game, seat.seat, title=engine.title),
                body=turn_text(game, engine, state, seat, (deadlines or {}).get(seat.seat)),
                headers={"Reply-To": capability.reply_address(game.id, seat.seat, prompt_seq)},
                board_svg=board_picture(engine, state, seat.seat, names) if board else None,
            )
        )
    return mails


def turn_text(game: Game, engine: Engine, state: dict, seat, deadline: datetime | None) -> str:
    """Return the body of ``seat``'s turn mail as written (the game named by its
    players, and a mark for the day it started, put in when it is sent:
    :func:`arbiter.games.naming.game_words`): a mark where, when it is
    sent, :func:`finish_turn` puts what happened since the seat's last turn and the
    sections other parts add (the table's messages), then the board in words, what
    to decide, the legal moves (once), the deadline, how to win, how to answer and
    the links (the game page, the rules page)."""
    base = settings.current().service.base_url
    names = naming.names_of(game)
    board = [
        naming.named(line, names, seat.seat)
        for line in board_lines(engine, state, seat.seat, names)
    ]
    return "\n".join(
        [
            f"Hello {seat.name},",
            "",
            "It is your turn in "
            + naming.game_words(game, seat.seat, started="when sent", title=engine.title)
            + ".",
            "",
            SINCE_MARK,
            "The board:",
            *(f"  {line}" for line in board),
            "",
            *brief_lines(engine, state, seat.seat, names, board),
            "",
            *move_lines(engine, state, seat.seat),
            "",
            *_deadline_lines(deadline, seat.tz),
            *([f"How to win: {engine.how_to_win}", ""] if engine.how_to_win else []),
            REPLY_LINE,
            f"Or play in your browser: {links.seat_url(game.id, seat.seat)}",
            "",
            *([BOARD_LINE] if draws_board(engine) else []),
            f"The game: {base}/games/{game.id}",
            f"The rules: {base}/rules/{game.engine}",
            f"Move notation: {engine.notation}",
            *seat_numbers(engine, names),
        ]
    )


def brief_lines(
    engine: Engine, state: dict, seat: int, names: dict[int, str], board: list[str]
) -> list[str]:
    """Return what ``seat`` must decide now (``engine.brief``), with names, without
    the lines the board already says."""
    said = {line.strip() for line in board}
    lines = naming.named(engine.brief(state, seat), names, seat).splitlines()
    return [line for line in lines if line.strip() not in said]


def seat_numbers(engine: Engine, names: dict[int, str]) -> list[str]:
    """Return the line that gives each player's seat number, for a notation that
    names a player by it (Dark Horse's ``bad-encounter choose SEAT``), else []."""
    if "SEAT" not in engine.notation:
        return []
    return [
        "Where the notation says SEAT: "
        + ", ".join(f"{s} for {n}" for s, n in sorted(names.items()))
        + "."
    ]


def finish_turn(mail) -> str:
    """Return the text a turn mail (outbox row ``turn:<game>:<version>:<seat>``) is
    sent with: the day the game started put in, in the seat's zone
    (:func:`arbiter.games.naming.fill_started`), and its mark replaced by what
    happened since the seat's last turn up to
    the prompt (in words, with names, as the seat may see it:
    :mod:`arbiter.games.history`) and the sections other parts add
    (:mod:`arbiter.games.mail_sections`); the same text for every try.

    :raises Suppressed: the turn is over (the seat moved, the game moved on to
        another prompt, as after an agreed undo, or ended) before the mail could go: a
        late "your turn" would only earn a refusal; the seat has the game open now
        (:mod:`arbiter.games.presence`: Rally the Troops mails only players not
        connected), or chose the digest or no turn mail
        (:mod:`arbiter.games.preferences`).
    """
    _, game_id, version, seat_no = mail.dedupe_key.split(":")
    game = db.session.get(Game, game_id)
    seat = game.seats[int(seat_no)] if game is not None else None
    if seat is None:
        return naming.fill_started(mail.body, None).replace(SINCE_MARK + "\n", "")
    if not _still_to_act(game, seat.seat, int(version)):
        raise Suppressed(TURN_OVER)
    if seat.seat in presence.present(game.id):
        raise Suppressed("the player has the game open")
    if not preferences.per_turn(seat):
        raise Suppressed(f"the player chose {preferences.mode(seat)} for their turns")
    engine = engines.at_version(game.engine, game.engine_version) or engines.get(game.engine)
    since = history.last_move_seq(game.id, seat.seat, int(version))
    told = history.since_last_turn(game, engine, seat.seat, int(version))
    lines = (
        ["Since your last turn:" if since else "So far:", *(f"  {t}" for t in told), ""]
        if told
        else []
    )
    lines += mail_sections.lines_for(game, seat.seat, since)
    body = naming.fill_started(mail.body, game, seat.tz)
    return body.replace(SINCE_MARK + "\n", "".join(f"{line}\n" for line in lines))


finish_with("turn:", finish_turn)

TURN_OVER = "the turn was over before the mail went"
"""Why a turn mail was not sent (its row's ``last_error`` is ``not sent: `` and this)."""


def _still_to_act(game: Game, seat: int, prompt_seq: int) -> bool:
    """True while ``seat`` is still to decide at the prompt begun at ``prompt_seq``."""
    prompt = game.prompt or {}
    return (
        game.status == "active"
        and game.prompt_since == prompt_seq
        and prompt.get("type") == "decision"
        and seat in prompt.get("seats", ())
    )


NEVER = datetime(1970, 1, 1, tzinfo=UTC)


def messages_since(game: Game, seat: int, since: int) -> list[str]:
    """The turn mail's section of what the others said since ``seat``'s previous turn
    mail of this game was sent (every message they may read when none was):
    :func:`arbiter.talk.mailed.section`. Not since its last move: a message said
    between a mail and the move it prompted would reach no mail (issue 24)."""
    lines = mailed.section(game, seat, mailed.last_sent_at(game.id, seat) or NEVER)
    return lines[:-1] if lines and not lines[-1] else lines  # the hook adds the blank line


mail_sections.register(messages_since)


REPLY_LINE = (
    "Reply to this mail with your move on a line of its own, above the quoted text; "
    'a greeting and a signature are fine ("help" lists the other commands).'
)


def _deadline_lines(deadline: datetime | None, tz: str | None) -> list[str]:
    """Return the mail lines that give a deadline in the player's zone (none: [])."""
    if deadline is None:
        return []
    return [f"Deadline: {local(deadline, tz)}", ""]


def mail_players(uow: UnitOfWork, appended: Appended) -> None:
    """Staged handler (:mod:`arbiter.follow_ups`): write the mails a transition causes
    (a new decision's turn mails, the end's mails) in its transaction, each sent once
    committed. A game that is not active gets none."""
    a = appended
    if a.prompt["type"] == "idle":
        return
    if a.result is not None:
        mails = over_mail.over_mails(a.game, a.engine, a.result, a.state)
    elif a.prompt["type"] == "decision" and a.new_prompt:
        decision = a.engine.prompt(a.state)
        mails = turn_mails(a.game, a.engine, a.state, decision, a.version, a.deadlines)
    else:
        return
    uow.session.add_all(mails)
    for mail in mails:
        uow.enqueue_row(queue.SEND_MAIL, mail)
