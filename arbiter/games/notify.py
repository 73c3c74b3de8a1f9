"""The mails a transition causes: "your turn" for every new prompt, scores at the end.

They are rows of the outbox, written in the same transaction as the events; the
``dedupe_key`` makes a second copy of the same mail impossible.
"""

from __future__ import annotations

from datetime import datetime

from arbiter import queue, settings
from arbiter.accounts import links
from arbiter.games import outcome
from arbiter.games.clock import local
from arbiter.mail import capability, identity
from arbiter.models import Game, OutboxMail
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
    unsubscribe, :mod:`arbiter.mail.consent`) and does not take the daily digest
    instead (:mod:`arbiter.games.digest`).

    Each is enough to play by replying: the seat's view in words (``engine.brief``),
    its legal moves in notation, the deadline in the player's zone, and a ``Reply-To``
    capability address (:mod:`arbiter.mail.capability`) for this seat and prompt;
    an engine that draws a board gets the seat's picture attached as PNG.

    :param prompt_seq: the version at which this prompt began (part of the dedupe key,
        so a seat gets exactly one mail per prompt).
    :param deadlines: each seat's deadline (UTC), shown in the player's time zone.
    """
    mails = []
    base = settings.current().service.base_url
    board = draws_board(engine)
    for seat in game.seats:
        address = identity.seat_address(seat)
        if seat.seat not in decision.seats or not address or seat.resigned or seat.digest:
            continue
        body = "\n".join(
            [
                f"Hello {seat.name},",
                "",
                f"It is your turn in {engine.title} (game {game.id}, version {prompt_seq}).",
                "",
                engine.brief(state, seat.seat),
                "",
                *move_lines(engine, state, seat.seat),
                "",
                *_deadline_lines((deadlines or {}).get(seat.seat), seat.tz),
                REPLY_LINE,
                f"Or play in your browser: {links.seat_url(game.id, seat.seat)}",
                "",
                *(
                    [BOARD_LINE, f"The public board: {base}/v1/games/{game.id}/board.svg"]
                    if board
                    else []
                ),
                f"Game: {base}/v1/games/{game.id}",
                f"Move notation: {engine.notation}",
                f"The rules: {base}/rules/{game.engine}",
            ]
        )
        mails.append(
            OutboxMail(
                dedupe_key=f"turn:{game.id}:{prompt_seq}:{seat.seat}",
                game_id=game.id,
                seat=seat.seat,
                to_addr=address,
                subject=f"[Arbiter] Your turn in {engine.title} (game {game.id})",
                body=body,
                headers={"Reply-To": capability.reply_address(game.id, seat.seat, prompt_seq)},
                board_svg=board_picture(engine, state, seat.seat) if board else None,
            )
        )
    return mails


REPLY_LINE = (
    "Reply to this mail with your move, one per line above the quoted text "
    '("help" lists the other commands).'
)
BOARD_LINE = "The board as you see it is attached (board.png)."


def draws_board(engine: Engine) -> bool:
    """True when the engine draws a board picture."""
    return type(engine).board_svg is not Engine.board_svg


def board_picture(engine: Engine, state: dict, seat: int | None) -> str | None:
    """Return the board as ``seat`` sees it, as SVG text (None: no board)."""
    return engine.board_svg(engine.view(state, seat)) if draws_board(engine) else None


def move_lines(engine: Engine, state: dict, seat: int, everything: bool = False) -> list[str]:
    """Return the mail lines listing ``seat``'s legal moves in notation: all of them
    when there are at most ``MAIL_LIST_MOVES`` (or ``everything``), else the count,
    the first ones as examples and how to get the rest."""
    moves = [engine.describe(m) for m in engine.legal_moves(state, seat)]
    if not moves:
        return ["You have no move to make now."]
    limit = settings.current().mail.list_moves
    if everything or len(moves) <= limit:
        return [f"Your legal moves ({len(moves)}):", *(f"  {m}" for m in moves)]
    return [
        f"You have {len(moves)} legal moves; for example:",
        *(f"  {m}" for m in moves[:10]),
        'Reply "moves" for the full list.',
    ]


def _deadline_lines(deadline: datetime | None, tz: str | None) -> list[str]:
    """Return the mail lines that give a deadline in the player's zone (none: [])."""
    if deadline is None:
        return []
    return [f"Deadline: {local(deadline, tz)}", ""]


def over_mails(game: Game, engine: Engine, result: dict) -> list[OutboxMail]:
    """Return one mail per seat that may be mailed, giving how the game ended: the
    final scores, or who resigned when there are none, and the ranking
    (:func:`arbiter.games.outcome.outcome_lines`)."""
    base = settings.current().service.base_url
    names = {s.seat: s.name for s in game.seats}
    lines = outcome.outcome_lines(result, names)
    mails = []
    for seat in game.seats:
        address = identity.seat_address(seat)
        if not address:
            continue
        body = "\n".join(
            [
                f"Hello {seat.name},",
                "",
                f"The game of {engine.title} {game.id} is over "
                f"({result.get('reason', 'finished')}).",
                "",
                *lines,
                "",
                f"The full record, with the revealed seed: {base}/v1/games/{game.id}/record",
            ]
        )
        mails.append(
            OutboxMail(
                dedupe_key=f"over:{game.id}:{seat.seat}",
                game_id=game.id,
                seat=seat.seat,
                to_addr=address,
                subject=f"[Arbiter] {engine.title} game {game.id} is over",
                body=body,
            )
        )
    return mails


def mail_players(uow: UnitOfWork, appended: Appended) -> None:
    """Staged handler (:mod:`arbiter.follow_ups`): write the mails a transition causes
    (a new decision's turn mails, the end's mails) in its transaction, each sent once
    committed. A game that is not active gets none."""
    a = appended
    if a.prompt["type"] == "idle":
        return
    if a.result is not None:
        mails = over_mails(a.game, a.engine, a.result)
    elif a.prompt["type"] == "decision" and a.new_prompt:
        decision = a.engine.prompt(a.state)
        mails = turn_mails(a.game, a.engine, a.state, decision, a.version, a.deadlines)
    else:
        return
    uow.session.add_all(mails)
    for mail in mails:
        uow.enqueue_row(queue.SEND_MAIL, mail)
