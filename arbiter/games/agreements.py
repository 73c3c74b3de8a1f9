"""Agreed undo and agreed abort: a player asks, the others answer (issue 24, item 3).

A request is an event of the game's log (``undo-requested``, ``abort-proposed``); its
number is that event's seq. Every other player still in the game answers it
(``undo-accepted`` / ``undo-refused``, ``abort-accepted`` / ``abort-refused``): one
refusal ends it; when the last of them accepts, the same transaction

- for an undo, appends ``moves-undone`` naming the taken-back move's seq, and the
  game's snapshot becomes the fold of the log without it
  (:mod:`arbiter.games.undo_policy` says which move may be taken back);
- for an abort, ends the game: ``game-over`` with the result :func:`aborted_result`
  (no scores, no ranking, reason ``aborted``; never rated) and ``seed-revealed``.

In a game played alone (nobody else to answer), a request is agreed at once. A
built-in bot (``seats.bot``) accepts every request in the request's own transaction,
as a friendly opponent at a table would: a person playing bots can take a move back or
end the game. A seat the autopilot holds for an absent person does not answer for them
(the request waits for them, or lapses).

A request lapses when its time runs out (``AGREEMENT_HOURS``), when its asker
resigns, or (an undo) when anyone moves or anything is rolled first. At most one
request of each kind waits at a time.

Versions: every request and answer is an event, so it moves the game's version (the
log's seq) on like a clock event: a seat's move made against the prompt it saw is
still taken (:func:`arbiter.games.moves.check_version`). An agreed undo starts a new
prompt: every version before it is stale for a move (409 ``stale-version``).

Abort is not open to games of a tournament: their organiser ends them (withdrawal,
adjudication), so that a round's results are never left with an unscored game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import sqlalchemy as sa

from arbiter import settings
from arbiter.accounts import identity
from arbiter.errors import Conflict, NotFound
from arbiter.extensions import db
from arbiter.games import agreement_mail, events, undo_policy
from arbiter.games.clock import parse
from arbiter.games.commit import commit
from arbiter.games.moves import Loaded, _with_retries, check_active
from arbiter.games.transition import Transition
from arbiter.models import Event, Game, TournamentGame
from arbiter.models.timestamps import iso, utcnow
from arbiter.uow import UnitOfWork

KINDS = ("undo", "abort")

ASKED = {"undo": events.UndoRequested, "abort": events.AbortProposed}
ACCEPTED = {"undo": events.UndoAccepted, "abort": events.AbortAccepted}
REFUSED = {"undo": events.UndoRefused, "abort": events.AbortRefused}


class AbortNotAllowed(Conflict):
    """The game cannot be aborted by agreement (409 ``abort-not-allowed``)."""

    code = "abort-not-allowed"


@dataclass(frozen=True)
class Ask:
    """A player's request: ``kind`` ``undo`` (take back their last move) or ``abort``
    (end the game unrated); ``caller`` as in :class:`arbiter.games.moves.SubmitMove`."""

    game_id: str
    caller: Any
    kind: str


@dataclass(frozen=True)
class Reply:
    """A player's answer to request ``request`` (its seq; None: the one waiting now)."""

    game_id: str
    caller: Any
    kind: str
    accept: bool
    request: int | None = None


@dataclass(frozen=True)
class Agreement:
    """Where a request stands.

    :param status: ``pending`` (waiting for ``waiting_for``), ``agreed``, ``refused``
        or ``lapsed``; :param seat: who asked; :param accepted: who agreed so far;
    :param version: the game's version; :param game_status: ``active`` or ``over``
        (an agreed abort); :param move_seq: the move an undo takes back, and its
        ``text`` (None when it was private); :param undone: the seqs taken back.
    """

    kind: str
    request: int
    seat: int
    status: str
    accepted: list[int]
    waiting_for: list[int]
    version: int
    game_status: str
    expires_at: str | None = None
    move_seq: int | None = None
    text: str | None = None
    undone: list[int] = field(default_factory=list)
    why: str | None = None


def aborted_result(players: int) -> dict:
    """Return the result of a game aborted by agreement: no scores, no ranking."""
    return {"scores": [None] * players, "ranking": [], "reason": "aborted", "aborted": True}


def ask(uow: UnitOfWork, command: Ask, loaded: Loaded | None = None) -> Agreement:
    """Record the caller's request and mail the other players that it waits; commit.
    A request that loses a race with another append is checked again on the new log.

    :raises arbiter.errors.Unauthorized: missing or wrong token.
    :raises Conflict: ``game-over`` (and the game's other states: ``check_active``),
        ``undo-not-allowed`` (:mod:`arbiter.games.undo_policy`), ``abort-not-allowed``
        (a tournament's game, a resigned player), ``undo-pending`` /
        ``abort-pending`` (one waits already).
    """
    return _with_retries(uow, command, loaded, _ask)


def _ask(uow: UnitOfWork, command: Ask, loaded: Loaded) -> Agreement:
    """Check and record a request once, against the game as ``loaded``."""
    game, engine, state = loaded
    seat = identity.seat_for(game, identity.as_principal(command.caller))
    check_active(game)
    kind = command.kind
    if seat.resigned:
        raise _refusal(kind, "You have resigned from this game: you take no part in it now.")
    waiting = pending(game, kind)
    if waiting is not None:
        raise Conflict(
            f"{_name(game, waiting.seat)}'s request to {_what(kind)} already waits for answers.",
            code=f"{kind}-pending",
        )
    expires = iso(utcnow() + timedelta(hours=settings.current().clock.agreement_hours))
    tr = Transition(game, engine, state)
    if kind == "undo":
        move = undo_policy.undoable(game, engine, state, seat.seat)
        tr.events.append(
            events.UndoRequested(
                seat=seat.seat, move_seq=move.seq, text=move.text, expires_at=expires
            )
        )
    else:
        _check_abortable(game)
        tr.events.append(events.AbortProposed(seat=seat.seat, expires_at=expires))
    request = tr.next_seq - 1
    answer = Agreement(
        kind=kind,
        request=request,
        seat=seat.seat,
        status="pending",
        accepted=[],
        waiting_for=_others(game, seat.seat),
        version=request,
        game_status="active",
        expires_at=expires,
        move_seq=move.seq if kind == "undo" else None,
        text=move.text if kind == "undo" else None,
    )
    bots = _bot_answerers(game, answer.waiting_for)
    for bot in bots:
        tr.events.append(ACCEPTED[kind](seat=bot, request=request))
    if set(answer.waiting_for) - set(bots):
        answer = _after(answer, tr, status="pending", accepted=bots)
    else:  # a game played alone, or only with built-in bots: nobody else to ask
        answer = _after(
            answer,
            tr,
            accepted=bots,
            **_conclude(tr, kind, request, move if kind == "undo" else None),
        )
    mails = agreement_mail.request_mails(game, engine, answer)
    commit(tr, extra_rows=[mails], uow=uow, result=answer)
    return answer


def reply(uow: UnitOfWork, command: Reply, loaded: Loaded | None = None) -> Agreement:
    """Record the caller's answer; when it is the last acceptance, take the move back
    (undo) or end the game (abort) in the same transaction; commit. An answer that
    loses a race with another append is checked again on the new log (a move meanwhile
    makes an undo request lapse: ``request-closed``).

    :raises NotFound: ``no-undo-request`` / ``no-abort-request``.
    :raises Conflict: ``request-closed`` (refused, agreed or lapsed; the sentence
        says which), ``own-request``, ``already-answered``, ``game-over``,
        ``undo-not-allowed`` (the move can no longer be taken back).
    """
    return _with_retries(uow, command, loaded, _reply)


def _reply(uow: UnitOfWork, command: Reply, loaded: Loaded) -> Agreement:
    """Check and record an answer once, against the game as ``loaded``."""
    game, engine, state = loaded
    seat = identity.seat_for(game, identity.as_principal(command.caller))
    kind = command.kind
    number = command.request if command.request is not None else _latest(game.id, kind)
    now = standing(game, kind, number)
    if now.status != "pending":
        raise Conflict(now.why or "This request is closed.", code="request-closed")
    check_active(game)
    if seat.seat == now.seat:
        raise Conflict("You made this request: the other players answer it.", code="own-request")
    if seat.seat not in now.waiting_for:
        raise Conflict(
            "You have already answered this request, or take no part in it.",
            code="already-answered",
        )
    tr = Transition(game, engine, state)
    if not command.accept:
        tr.events.append(REFUSED[kind](seat=seat.seat, request=number))
        result = _after(now, tr, status="refused", accepted=now.accepted)
        commit(tr, uow=uow, result=result)
        return result
    tr.events.append(ACCEPTED[kind](seat=seat.seat, request=number))
    accepted = [*now.accepted, seat.seat]
    if set(now.waiting_for) - {seat.seat}:
        result = _after(now, tr, status="pending", accepted=accepted)
    else:
        move = None
        if kind == "undo":
            move = undo_policy.undoable(game, engine, state, now.seat)
            if move.seq != now.move_seq:
                raise Conflict(
                    "The move this request named is no longer the last one.",
                    code="request-closed",
                )
        result = _after(now, tr, accepted=accepted, **_conclude(tr, kind, number, move))
    commit(tr, uow=uow, result=result)
    return result


def _conclude(
    tr: Transition, kind: str, number: int, move: undo_policy.Undoable | None
) -> dict[str, Any]:
    """Append to ``tr`` what agreed request ``number`` does: the undo's marker, with
    the state without ``move``, or the aborted game's end; return the changes to the
    request's :class:`Agreement`."""
    if kind == "undo":
        assert move is not None
        tr.state = move.state
        tr.events.append(events.MovesUndone(request=number, seqs=[move.seq]))
        return {"status": "agreed", "undone": [move.seq]}
    tr.finish(aborted_result(len(tr.game.seats)))
    return {"status": "agreed", "game_status": "over"}


def _after(now: Agreement, tr: Transition, **changes) -> Agreement:
    """Return ``now`` as it stands once ``tr`` is written."""
    waiting = [s for s in now.waiting_for if s not in changes.get("accepted", [])]
    if changes.get("status") != "pending":
        waiting = []
    return Agreement(
        **{
            **now.__dict__,
            "waiting_for": waiting,
            "version": tr.game.version + len(tr.events),
            "why": None,
            **changes,
        }
    )


def standing(game: Game, kind: str, number: int | None) -> Agreement:
    """Return where request ``number`` of ``kind`` stands, read from the log.

    :raises NotFound: ``no-undo-request`` / ``no-abort-request``.
    """
    known = number is not None and 0 < number <= game.version  # never a SQL overflow
    rows = _rows_from(game.id, number) if known else []
    if not rows or rows[0].kind != ASKED[kind].kind:
        raise NotFound(
            f"There is no request to {_what(kind)} numbered {number} in this game."
            if number is not None
            else f"Nobody has asked to {_what(kind)} in this game.",
            code=f"no-{kind}-request",
        )
    asked = rows[0]
    accepted: list[int] = []
    status, why = "pending", None
    for e in rows[1:]:
        mine = (e.payload or {}).get("request") == number
        if e.kind == ACCEPTED[kind].kind and mine:
            accepted.append(e.seat)
        elif e.kind == REFUSED[kind].kind and mine:
            status, why = "refused", f"{_name(game, e.seat)} refused this request."
            break
        elif e.kind == "moves-undone" and mine or kind == "abort" and e.kind == "game-over":
            status = "agreed" if e.kind == "moves-undone" or _was_aborted(e) else "lapsed"
            why = "This request was agreed already." if status == "agreed" else "The game ended."
            break
        elif kind == "undo" and e.kind in undo_policy.ENGINE_INPUTS:
            status, why = "lapsed", "The game moved on since this request: it has lapsed."
            break
    expires = asked.payload.get("expires_at")
    if status == "pending":
        status, why = _lapsed(game, asked.seat, expires)
    others = _others(game, asked.seat) if status == "pending" else []
    return Agreement(
        kind=kind,
        request=number,
        seat=asked.seat,
        status=status,
        accepted=accepted,
        waiting_for=[s for s in others if s not in accepted],
        version=game.version,
        game_status=game.status,
        expires_at=expires,
        move_seq=asked.payload.get("move_seq"),
        text=asked.payload.get("text"),
        undone=[asked.payload["move_seq"]] if status == "agreed" and kind == "undo" else [],
        why=why,
    )


def _lapsed(game: Game, seat: int, expires: str | None) -> tuple[str, str | None]:
    """Return ``("pending", None)``, or ``("lapsed", why)`` for a request whose game
    is no longer on, whose asker resigned or whose time ran out."""
    if game.status != "active":
        return "lapsed", "The game is no longer being played."
    if game.seats[seat].resigned:
        return "lapsed", f"{game.seats[seat].name} has resigned since asking."
    if expires and parse(expires) <= utcnow():
        return "lapsed", "This request waited too long for answers and has lapsed."
    return "pending", None


def pending(game: Game, kind: str) -> Agreement | None:
    """Return the request of ``kind`` that waits for answers in ``game``, or None."""
    number = _latest(game.id, kind)
    if number is None:
        return None
    now = standing(game, kind, number)
    return now if now.status == "pending" else None


def _latest(game_id: str, kind: str) -> int | None:
    """Return the seq of the game's latest request of ``kind``, or None."""
    return db.session.scalar(
        sa.select(sa.func.max(Event.seq)).where(
            Event.game_id == game_id, Event.kind == ASKED[kind].kind
        )
    )


def _rows_from(game_id: str, seq: int) -> list[Event]:
    return list(
        db.session.scalars(
            sa.select(Event).where(Event.game_id == game_id, Event.seq >= seq).order_by(Event.seq)
        )
    )


def _was_aborted(event: Event) -> bool:
    return ((event.payload or {}).get("result") or {}).get("reason") == "aborted"


def _others(game: Game, seat: int) -> list[int]:
    """Return the seats that answer ``seat``'s request: the others still playing."""
    return [s.seat for s in game.seats if s.seat != seat and not s.resigned]


def _bot_answerers(game: Game, seats: list[int]) -> list[int]:
    """Return those of ``seats`` that a built-in bot plays: they accept at once. (A
    seat the autopilot holds for an absent person does not answer for them.)"""
    return [s.seat for s in game.seats if s.seat in seats and s.bot is not None]


def _check_abortable(game: Game) -> None:
    """:raises AbortNotAllowed: a game of a tournament (its organiser ends it)."""
    in_tournament = db.session.scalar(
        sa.select(TournamentGame.game_id).where(TournamentGame.game_id == game.id)
    )
    if in_tournament is not None:
        raise AbortNotAllowed(
            "This game belongs to a tournament: its organiser ends it (withdrawal or "
            "adjudication), so the players cannot abort it by agreement."
        )


def _refusal(kind: str, sentence: str) -> Conflict:
    return undo_policy.UndoNotAllowed(sentence) if kind == "undo" else AbortNotAllowed(sentence)


def _name(game: Game, seat: int) -> str:
    return game.seats[seat].name if 0 <= seat < len(game.seats) else f"seat {seat}"


def _what(kind: str) -> str:
    return "take back a move" if kind == "undo" else "abort the game"
