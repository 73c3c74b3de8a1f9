"""The game-over mail: the ranking and the scores, how they were made, what is revealed
now, the final board, the links, and a ``Reply-To`` that takes commands (issue 24,
item 4)."""

from __future__ import annotations

from arbiter import settings
from arbiter.extensions import db
from arbiter.games import history, mail_sections, naming, outcome
from arbiter.games.mail_parts import BOARD_LINE, SINCE_MARK, board_lines, board_picture, draws_board
from arbiter.mail import capability, identity
from arbiter.mail.mail import finish_with
from arbiter.models import Game, OutboxMail
from engines.base import Engine


def finish_over(mail) -> str:
    """Return the text a game-over mail (``over:<game>:<seat>``) is sent with: the day
    the game started put in, in the seat's zone
    (:func:`arbiter.games.naming.fill_started`), and its mark replaced by the sections
    other parts add (the table's last messages)."""
    _, game_id, seat_no = mail.dedupe_key.split(":")
    game = db.session.get(Game, game_id)
    lines = (
        mail_sections.lines_for(
            game, int(seat_no), history.last_move_seq(game_id, int(seat_no), game.version)
        )
        if game is not None
        else []
    )
    tz = game.seats[int(seat_no)].tz if game is not None else None
    body = naming.fill_started(mail.body, game, tz)
    return body.replace(SINCE_MARK + "\n", "".join(f"{line}\n" for line in lines))


def over_mails(
    game: Game, engine: Engine, result: dict, state: dict | None = None
) -> list[OutboxMail]:
    """Return one mail per seat that may be mailed, telling how the game ended
    (:func:`over_text`), with the final board attached as PNG when the engine draws
    one, and a ``Reply-To`` capability address of the final version: a reply is read
    as commands (``status``, and the table's messages), never bounced."""
    mails = []
    for seat in game.seats:
        address = identity.seat_address(seat)
        if not address:
            continue
        mails.append(
            OutboxMail(
                dedupe_key=f"over:{game.id}:{seat.seat}",
                game_id=game.id,
                seat=seat.seat,
                to_addr=address,
                subject=f"[Arbiter] {naming.game_words(game, seat.seat, title=engine.title)} "
                "is over",
                body=over_text(game, engine, result, state, seat),
                headers={"Reply-To": capability.reply_address(game.id, seat.seat, game.version)},
                board_svg=board_picture(engine, state, seat.seat, naming.names_of(game))
                if state is not None
                else None,
            )
        )
    return mails


def over_text(game: Game, engine: Engine, result: dict, state: dict | None, seat) -> str:
    """Return the body of the game-over mail of ``seat`` (the game named by its players,
    and a mark for the day it started, put in when it is sent: :func:`finish_over`,
    :func:`arbiter.games.naming.game_words`): the ranking and scores, how they were
    made (``engine.result_words``), what was hidden and is revealed now
    (``engine.revealed_words``), the final board in words, and the links (the game
    page, the record with the revealed seed)."""
    base = settings.current().service.base_url
    names = naming.names_of(game)

    def words(lines) -> list[str]:
        return [f"  {naming.named(line, names, seat.seat)}" for line in lines]

    revealed = engine.revealed_words(state) if state is not None else []
    board = board_lines(engine, state, seat.seat, names) if state is not None else []
    return "\n".join(
        [
            f"Hello {seat.name},",
            "",
            "Your game of "
            + naming.game_words(game, seat.seat, started="when sent", title=engine.title)
            + ", is over.",
            "",
            *outcome.outcome_lines(result, names),
            "",
            *(["How the scores were made:", *words(engine.result_words(result)), ""]),
            *(["Revealed now:", *words(revealed), ""] if revealed else []),
            *(["The final board:", *words(board), ""] if board else []),
            SINCE_MARK,
            *([BOARD_LINE] if state is not None and draws_board(engine) else []),
            f"The game: {base}/games/{game.id}",
            f"The full record, with the revealed seed: {base}/v1/games/{game.id}/record",
            "",
            'Reply to this mail with a command ("status"; "help" lists them).',
        ]
    )


finish_with("over:", finish_over)
