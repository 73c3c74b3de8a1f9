"""The daily digest: one mail per account listing every game where it is its turn,
instead of one "your turn" mail per game (webDiplomacy's one mail per user).

An account with ``digest`` on gets no per-game turn mail (:mod:`arbiter.games.notify`
skips its seats). A beat sweep (:func:`sweep`) sends it one digest as soon as a game is
due (the clock's beat sweep calls :func:`sweep`), listing every due game with its deadline, and no
other until the account has
moved in one of its games since, or ``DIGEST_SECONDS`` (a day) has passed. Reminders
before a deadline are already one mail per address (:mod:`arbiter.games.clock_sweep`).
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import sqlalchemy as sa

from arbiter import queue, settings
from arbiter.extensions import db
from arbiter.games import clock, history, mail_sections, naming, preferences
from arbiter.mail import consent
from arbiter.models import Account, Event, Game, OutboxMail, Seat
from arbiter.models.timestamps import iso, utcnow
from arbiter.talk import mailed

DIGEST_SECONDS = 86400
"""At most one digest a day, unless the account moved since the last one."""


def due_seats(account: Account) -> list[tuple[Game, Seat]]:
    """Return ``(game, seat)`` for every active game where a seat of the account that
    may be mailed owes a move now, earliest deadline first."""
    rows = db.session.execute(
        sa.select(Game, Seat)
        .join(Seat, Seat.game_id == Game.id)
        .where(
            Seat.account_id == account.id,
            Game.status == "active",
            Game.prompt_type == "decision",
            Seat.resigned.is_(False),
        )
    ).all()
    due = [
        (g, s)
        for g, s in rows
        if s.seat in g.to_act and consent.may_mail(s) and preferences.mode(s) == "digest"
    ]
    far = datetime.max.replace(tzinfo=utcnow().tzinfo)
    return sorted(due, key=lambda gs: clock.deadlines(gs[0]).get(gs[1].seat) or far)


def moved_since(account: Account, since: datetime) -> bool:
    """True when one of the account's seats has moved since ``since``."""
    return (
        db.session.scalar(
            sa.select(sa.func.count())
            .select_from(Event)
            .join(Seat, sa.and_(Seat.game_id == Event.game_id, Seat.seat == Event.seat))
            .where(Seat.account_id == account.id, Event.kind == "move", Event.at > since)
        )
        > 0
    )


def digest_mail(account: Account, due: list[tuple[Game, Seat]], now: datetime) -> OutboxMail:
    """Return the digest mail listing ``due`` with deadlines in the account's zone."""
    base = settings.current().service.base_url
    lines = [
        f"Hello {account.display_name},",
        "",
        f"It is your turn in {len(due)} game{'s' if len(due) > 1 else ''}:",
        "",
    ]
    for game, seat in due:
        since = history.last_move_seq(game.id, seat.seat, game.version)
        extra = mail_sections.lines_for(game, seat.seat, since)
        lines += extra
    for game, seat in due:
        deadline = clock.deadlines(game).get(seat.seat)
        when = f"deadline {clock.local(deadline, account.tz)}" if deadline else "no deadline"
        lines += [
            f"- {naming.game_words(game, seat.seat, started=True, tz=account.tz)}, "
            f"as {seat.name}: {when}",
            f"  {base}/games/{game.id}",
            *mailed.section(game, seat.seat, account.digest_sent_at),
        ]
    keys = "|".join(f"{g.id}:{g.prompt_since}:{s.seat}" for g, s in due)
    digest = hashlib.sha256(f"{account.id}|{iso(now)}|{keys}".encode()).hexdigest()[:32]
    first_game, first_seat = due[0]
    return OutboxMail(
        dedupe_key=f"digest:{digest}",
        game_id=first_game.id,
        seat=first_seat.seat,
        to_addr=first_seat.email,
        subject=f"[Arbiter] Your turn in {len(due)} game{'s' if len(due) > 1 else ''}",
        body="\n".join(
            [
                *lines,
                "",
                "You get this digest instead of a mail per turn. To change it, reply "
                '"notify turn" to any turn mail, or see your account page: '
                f"{base}/me/notifications",
            ]
        ),
    )


def due_now(account: Account, now: datetime) -> bool:
    """True when ``account`` may get a digest at ``now``: with a digest hour, in that
    hour of its zone and not within the last ``HOUR_GAP_SECONDS``; without one, once
    ``DIGEST_SECONDS`` passed since the last or the account has moved since."""
    last = account.digest_sent_at
    if account.digest_hour is not None:
        local_hour = now.astimezone(ZoneInfo(account.tz or "UTC")).hour
        recent = last is not None and (now - last).total_seconds() < HOUR_GAP_SECONDS
        return local_hour == account.digest_hour and not recent
    return not (
        last and now - last < timedelta(seconds=DIGEST_SECONDS) and not moved_since(account, last)
    )


HOUR_GAP_SECONDS = 20 * 3600
"""With a digest hour, at most one digest in this many seconds (one a day)."""


def sweep(now: datetime | None = None) -> int:
    """Queue the digests that are due; return how many."""
    now = now or utcnow()
    per_game = sa.select(Seat.account_id).where(Seat.notify == "digest")
    accounts = db.session.scalars(
        sa.select(Account).where(
            sa.or_(Account.digest.is_(True), Account.id.in_(per_game)),
            Account.mail_off.is_(False),
            Account.deleted_at.is_(None),
        )
    )
    mail_ids = []
    for account in accounts:
        if not due_now(account, now):
            continue
        due = due_seats(account)
        if not due:
            continue
        mail = digest_mail(account, due, now)
        account.digest_sent_at = now
        db.session.add(mail)
        db.session.flush()
        mail_ids.append(mail.id)
    db.session.commit()
    for mail_id in mail_ids:
        queue.enqueue(queue.SEND_MAIL, mail_id)
    return len(mail_ids)
