"""The mails a transition causes: "your turn" for every new prompt, scores at the end.

They are rows of the outbox, written in the same transaction as the events; the
``dedupe_key`` makes a second copy of the same mail impossible.
"""

from __future__ import annotations

from datetime import datetime

from flask import current_app

from arbiter.models import Game, OutboxMail
from arbiter.service import links
from arbiter.service.clock import local
from engines.base import Decision, Engine


def turn_mails(game: Game, engine: Engine, state: dict, decision: Decision,
               prompt_seq: int, deadlines: dict[int, datetime] | None = None
               ) -> list[OutboxMail]:
    """Return one "your turn" mail per seat of ``decision`` with an email address.

    :param prompt_seq: the version at which this prompt began (part of the dedupe key,
        so a seat gets exactly one mail per prompt).
    :param deadlines: each seat's deadline (UTC), shown in the player's time zone.
    """
    mails = []
    base = current_app.config["BASE_URL"]
    board = type(engine).board_svg is not Engine.board_svg  # the engine draws a board
    for seat in game.seats:
        if seat.seat not in decision.seats or not seat.email or seat.resigned:
            continue
        body = "\n".join([
            f"Hello {seat.name},",
            "",
            f"It is your turn in {engine.title} (game {game.id}, version {prompt_seq}).",
            "",
            engine.brief(state, seat.seat),
            "",
            *_deadline_lines((deadlines or {}).get(seat.seat), seat.tz),
            f"Play in your browser: {links.seat_url(game.id, seat.seat)}",
            "",
            f"Game: {base}/v1/games/{game.id}",
            f"Your view: {base}/v1/games/{game.id}/view (send your seat token)",
            f"Legal moves: {base}/v1/games/{game.id}/legal-moves",
            *([f"Board: {base}/v1/games/{game.id}/board.svg"] if board else []),
            "",
            f"Move notation: {engine.notation}",
        ])
        mails.append(OutboxMail(
            dedupe_key=f"turn:{game.id}:{prompt_seq}:{seat.seat}", game_id=game.id,
            seat=seat.seat, to_addr=seat.email,
            subject=f"[Arbiter] Your turn in {engine.title} (game {game.id})", body=body))
    return mails


def _deadline_lines(deadline: datetime | None, tz: str | None) -> list[str]:
    """Return the mail lines that give a deadline in the player's zone (none: [])."""
    if deadline is None:
        return []
    return [f"Deadline: {local(deadline, tz)}", ""]


def over_mails(game: Game, engine: Engine, result: dict) -> list[OutboxMail]:
    """Return one mail per seat with an email address, giving the final scores."""
    base = current_app.config["BASE_URL"]
    names = {s.seat: s.name for s in game.seats}
    scores = result.get("scores") or []
    lines = [f"  {names[s]}: {scores[s] if s < len(scores) else '-'}" for s in sorted(names)]
    ranking = "; ".join(", ".join(names[s] for s in group)
                        for group in result.get("ranking", []))
    mails = []
    for seat in game.seats:
        if not seat.email:
            continue
        body = "\n".join([
            f"Hello {seat.name},", "",
            f"The game of {engine.title} {game.id} is over ({result.get('reason', 'finished')}).",
            "", "Scores:", *lines, "", f"Ranking, best first: {ranking}", "",
            f"The full record, with the revealed seed: {base}/v1/games/{game.id}/record",
        ])
        mails.append(OutboxMail(
            dedupe_key=f"over:{game.id}:{seat.seat}", game_id=game.id, seat=seat.seat,
            to_addr=seat.email, subject=f"[Arbiter] {engine.title} game {game.id} is over",
            body=body))
    return mails
