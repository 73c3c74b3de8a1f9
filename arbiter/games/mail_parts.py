"""The parts the turn mail and the game-over mail share: the board in words and as a
picture, the legal moves in notation, and the mark a stored body keeps for what is
read when the mail is sent."""

from __future__ import annotations

import yaml

from arbiter import settings
from arbiter.games.naming import named_view
from engines.base import Engine

SINCE_MARK = "{{since-your-last-turn}}"
"""The line of a turn or game-over mail's stored body that :func:`finish_turn` and
:func:`finish_over` replace, when it is sent, with what needs reading."""


def board_lines(
    engine: Engine, state: dict, seat: int | None, names: dict[int, str] | None = None
) -> list[str]:
    """Return the board as ``seat`` sees it, in words (``engine.board_text``) naming
    the players (``names``), or the view as indented text for an engine without words."""
    view = named_view(engine.view(state, seat), names or {})
    words = engine.board_text(view)
    if words:
        return list(words)
    return yaml.safe_dump(view, sort_keys=False, width=100, allow_unicode=True).splitlines()


BOARD_LINE = "The board as you see it is attached (board.png)."


def draws_board(engine: Engine) -> bool:
    """True when the engine draws a board picture."""
    return type(engine).board_svg is not Engine.board_svg


def board_picture(
    engine: Engine, state: dict, seat: int | None, names: dict[int, str] | None = None
) -> str | None:
    """Return the board as ``seat`` sees it, as SVG text naming the players
    (``names``; its ``<title>`` and its words too), None for an engine without one."""
    if not draws_board(engine):
        return None
    return engine.board_svg(named_view(engine.view(state, seat), names or {}))


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
