"""Sending the outbox over SMTP: each mail claimed, sent, and marked sent, once.

A mail is claimed with a conditional UPDATE (unsent, not given up, and its
``retry_at`` unset or passed) that moves ``retry_at`` a lease ahead
(``MAIL_CLAIM_SECONDS``, default 300 s), so two workers never send the same mail at
the same time and a worker lost in the middle of a send leaves the mail to the sweep
once the lease has passed. A send that fails sets ``retry_at`` by a back-off that
starts short and grows, capped (``backoff``: 5, 10, 20, 40, 40 ... seconds by
default), and keeps the board PNG that try rendered (``outbox.board_png``, dropped once
sent), so that a retry does not render it again. A permanent refusal (an SMTP 5xx
answer, an address the server cannot take) gives up at once, and so does a failure of
a mail older than ``MAIL_GIVE_UP_SECONDS`` (default 3 days); ``last_error`` keeps the
reason.

A new mail is sent by a task of its own (``send``). The outbox sweep (every
``SWEEP_SECONDS``) sends whatever is due over one SMTP session (``drain``): it connects
first, and while the server cannot be reached it claims nothing, so an outage leaves
no mail backing off for longer than its first failure's 5 s; the first sweep after
the server's return sends the whole backlog, oldest first, one connection for all
(two sweeps running at once, in the mailer's two processes, take different mails).

A mail is marked sent as soon as the server has accepted its data (the 250 answer to
DATA), before QUIT. What remains of the window in which a copy can go out is the time
between that answer and the commit of ``sent_at`` (one UPDATE; retried for
``MAIL_MARK_SENT_SECONDS`` while the database is unreachable): a worker killed just
then, or a database down for longer. The Message-ID is derived from the outbox row
alone, so such a copy carries the same Message-ID and mail clients show it once.
"""

from __future__ import annotations

import email.policy
import logging
import smtplib
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from urllib.parse import parse_qs, unquote, urlparse

import sqlalchemy as sa

from arbiter import settings
from arbiter.extensions import db
from arbiter.mail import consent
from arbiter.mail.mailboxes import as_mail_domain
from arbiter.models import OutboxMail
from arbiter.models.timestamps import utcnow

log = logging.getLogger(__name__)

DATABASE_DOWN = (sa.exc.OperationalError, sa.exc.InterfaceError)
"""The errors of a database that cannot be reached (connection refused or lost)."""


class PermanentFailure(Exception):
    """The SMTP server refused the mail for good; it will not be retried."""


def backoff(attempts: int) -> float:
    """Return the seconds to wait after the ``attempts``-th failed try (1, 2, ...):
    ``MAIL_RETRY_FIRST_SECONDS`` doubled per try, at most ``MAIL_RETRY_MAX_SECONDS``."""
    first, cap = (
        settings.current().mail.retry_first_seconds,
        settings.current().mail.retry_max_seconds,
    )
    return min(cap, first * 2 ** max(0, min(attempts, 32) - 1))


def _may_try(now: datetime):
    """The condition of a mail that may be tried at ``now``."""
    return sa.and_(
        OutboxMail.sent_at.is_(None),
        OutboxMail.given_up_at.is_(None),
        sa.or_(OutboxMail.retry_at.is_(None), OutboxMail.retry_at <= now),
    )


CLAIMED = (
    OutboxMail.id,
    OutboxMail.game_id,
    OutboxMail.to_addr,
    OutboxMail.subject,
    OutboxMail.body,
    OutboxMail.created_at,
    OutboxMail.attempts,
    OutboxMail.headers,
    OutboxMail.board_svg,
    OutboxMail.board_png,
    OutboxMail.dedupe_key,
)
"""The columns a claim returns: what ``message`` needs, and the try's count."""


def claim(mail_id: int):
    """Claim an unsent mail for sending; return its row (``id``, ``game_id``,
    ``to_addr``, ``subject``, ``body``, ``created_at``, ``attempts``, ``headers``,
    ``board_svg``, ``board_png``, ``dedupe_key``), or None if sent,
    given up, being sent or backing off. The claim and the read are one statement, so
    a database lost after it cannot leave a mail claimed but unread."""
    return _claim_where(lambda _now: mail_id)


def send(mail_id: int) -> bool:
    """Send outbox mail ``mail_id`` if nobody has; return True when this call sent it
    (or settled it: a mail its finisher suppresses is given up, :class:`Suppressed`).

    A failure is recorded in ``last_error`` with the next try's time (``backoff``), and
    the board PNG rendered for this try is kept for the next one; a permanent refusal,
    or a failure of a mail older than ``MAIL_GIVE_UP_SECONDS``, gives the mail up.
    Nothing is raised for a failed send; a database that stays unreachable after the
    server accepted the mail raises (the mail is resent, with the same Message-ID,
    once its lease has passed).
    """
    mail = claim(mail_id)
    return mail is not None and _attempt(mail) is None


class Suppressed(Exception):
    """A mail that is not to be sent after all (its reader has the game open, or
    chose not to be mailed): recorded as given up with the reason, never retried."""


Finisher = Callable[[object], str]
"""``(claimed outbox row) -> body``: the text a mail is sent with, completed when it
is sent (what the move's transaction need not read); raises :class:`Suppressed`."""

FINISHERS: dict[str, Finisher] = {}
"""Finishers by ``dedupe_key`` prefix, registered by the contexts that write the
mails (:func:`arbiter.games.notify.finish_turn`)."""


def finish_with(prefix: str, finisher: Finisher) -> None:
    """Complete every mail whose ``dedupe_key`` starts with ``prefix`` with
    ``finisher`` when it is sent."""
    FINISHERS[prefix] = finisher


def final_body(mail) -> str:
    """Return the text ``mail`` is sent with: its finisher's, else its body.

    :raises Suppressed: the mail is not to be sent.
    """
    for prefix, finisher in FINISHERS.items():
        if mail.dedupe_key.startswith(prefix):
            return finisher(mail)
    return mail.body


def _attempt(mail, smtp: smtplib.SMTP | None = None) -> Exception | None:
    """Try claimed mail ``mail`` once over session ``smtp`` (None: a session of its
    own); return None when it was sent, else the error, recorded by ``_failed``; a
    mail its finisher suppresses is given up with the reason (and counts as done)."""
    try:
        body = final_body(mail)
    except Suppressed as why:
        _update(mail.id, {"given_up_at": utcnow(), "last_error": f"not sent: {why}"[:500]})
        log.info("mail %s not sent: %s", mail.id, why)
        return None
    png = mail.board_png or (board_png(mail.board_svg) if mail.board_svg else None)
    try:
        deliver(message(mail, png, body), accepted=lambda: mark_sent(mail.id), smtp=smtp)
    except (smtplib.SMTPException, OSError, UnicodeError) as err:
        _failed(mail.id, err, mail.attempts, mail.created_at, None if mail.board_png else png)
        return err
    return None


def claim_next():
    """Claim the oldest mail that may be tried now and that no other worker is
    claiming (``FOR UPDATE SKIP LOCKED`` on PostgreSQL; SQLite has one writer at a
    time); return its row as ``claim`` does, or None when no mail is due."""
    return _claim_where(
        lambda now: (
            sa.select(OutboxMail.id)
            .where(_may_try(now))
            .order_by(OutboxMail.id)
            .limit(1)
            .with_for_update(skip_locked=True)
            .scalar_subquery()
        )
    )


def _claim_where(which: Callable[[datetime], object]):
    """Claim the mail whose id is ``which(now)`` (an id or a subquery) if it may be
    tried now, in one UPDATE ... RETURNING committed at once; return its ``CLAIMED``
    row or None."""
    now = utcnow()
    lease = now + timedelta(seconds=settings.current().mail.claim_seconds)
    row = db.session.execute(
        sa.update(OutboxMail)
        .where(OutboxMail.id == which(now), _may_try(now))
        .values(claimed_at=now, retry_at=lease, attempts=OutboxMail.attempts + 1)
        .returning(*CLAIMED)
        .execution_options(synchronize_session=False)
    ).first()
    db.session.commit()
    return row


def drain(limit: int = 1000, seconds: float = 30.0) -> int:
    """Send the mail that is due, oldest first, over one SMTP session (the outbox
    sweep's work); return how many were sent.

    The server is connected before any mail is claimed: while it cannot be reached no
    mail is claimed, rendered or charged a try (each stays due, and the next sweep
    tries again, one connection for the whole backlog), and a mail written more than
    ``MAIL_GIVE_UP_SECONDS`` ago is given up. So when an outage ends, the next sweep
    sends every waiting mail, without waiting for their back-offs. Each mail is then
    claimed (``claim_next``: two workers draining at once take different mails), sent
    and marked sent before the next is claimed; a mail's own failure is recorded as in
    ``send``, and one that leaves the session unusable ends the run. The run stops
    after ``limit`` mails or ``seconds`` (seconds of wall time), leaving the rest to
    the next sweep (queued meanwhile, so it follows at once): a long backlog, or a
    slow server, does not hold a mailer process from its other tasks (new mail) for
    longer than that.
    """
    if not settings.current().mail.smtp_url:
        return sum(send(i) for i in unsent(older_than_seconds=-1, limit=limit))
    try:
        smtp = connect()
    except (smtplib.SMTPException, OSError) as err:
        _server_unreachable(err)
        return 0
    started = time.monotonic()
    sent, stop = 0, started + seconds
    try:
        while sent < limit and time.monotonic() < stop:
            mail = claim_next()
            if mail is None:
                break
            err = _attempt(mail, smtp)
            if err is None:
                sent += 1
            elif not _session_usable(err):
                break
    finally:
        _hang_up(smtp)
    if sent:
        log.info("drained %s mails in %.1f s over one session", sent, time.monotonic() - started)
    return sent


def _session_usable(err: Exception) -> bool:
    """True after a failure that concerned one mail only: the server refused its
    sender, recipients or data (smtplib then resets the transaction) without saying
    it closes the session (421), or the mail could not be encoded."""
    if isinstance(err, smtplib.SMTPRecipientsRefused):
        return all(code != 421 for code, _ in err.recipients.values())
    if isinstance(err, (smtplib.SMTPSenderRefused, smtplib.SMTPDataError)):
        return err.smtp_code != 421
    return isinstance(err, UnicodeError)


def _server_unreachable(err: Exception) -> None:
    """The SMTP server could not be reached by a drain: give up the due mails written
    more than ``MAIL_GIVE_UP_SECONDS`` ago, and log the error (and how many were given
    up)."""
    now = utcnow()
    error = f"{type(err).__name__}: {err}"[:500]
    too_old = now - timedelta(seconds=settings.current().mail.give_up_seconds)
    given_up = db.session.execute(
        sa.update(OutboxMail)
        .where(_may_try(now), OutboxMail.created_at < too_old)
        .values(given_up_at=now, last_error=error)
        .execution_options(synchronize_session=False)
    ).rowcount
    db.session.commit()
    log.warning(
        "SMTP server unreachable (%s): due mail waits for the next sweep%s",
        error,
        f"; {given_up} mails given up" if given_up else "",
    )


def _failed(
    mail_id: int, err: Exception, attempts: int, created: datetime, png: bytes | None = None
) -> None:
    """Record a failed send: when to try again (keeping ``png``, the board rendered for
    this try, when given), or that the mail is given up."""
    now = utcnow()
    error = f"{type(err).__name__}: {err}"[:500]
    values = {"last_error": error, "retry_at": now + timedelta(seconds=backoff(attempts))}
    too_old = (now - created).total_seconds() > settings.current().mail.give_up_seconds
    if is_permanent(err) or too_old:
        values.update(given_up_at=now, board_png=None)
    elif png is not None:
        values["board_png"] = png
    _update(mail_id, values)
    log.warning(
        "mail %s not sent (try %s): %s%s",
        mail_id,
        attempts,
        error,
        "; given up" if "given_up_at" in values else "",
    )


def mark_sent(mail_id: int) -> None:
    """Record that the SMTP server accepted mail ``mail_id`` (and drop its kept PNG),
    retrying for
    ``MAIL_MARK_SENT_SECONDS`` while the database cannot be reached.

    :raises sqlalchemy.exc.OperationalError: the database stayed unreachable.
    """
    give_up = time.monotonic() + settings.current().mail.mark_sent_seconds
    while True:
        try:
            _update(mail_id, {"sent_at": utcnow(), "last_error": None, "board_png": None})
            return
        except DATABASE_DOWN:
            db.session.rollback()
            if time.monotonic() > give_up:
                raise
            log.warning(
                "mail %s accepted by the server; waiting for the database to mark it sent", mail_id
            )
            time.sleep(1.0)


def _update(mail_id: int, values: dict) -> None:
    """Set columns of one outbox row in a short transaction of its own."""
    db.session.execute(
        sa.update(OutboxMail)
        .where(OutboxMail.id == mail_id)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    db.session.commit()


def is_permanent(err: Exception) -> bool:
    """True for a refusal that retrying cannot cure: an SMTP 5xx answer, or an address
    or feature the server does not take."""
    if isinstance(err, (smtplib.SMTPNotSupportedError, UnicodeError)):
        return True
    if isinstance(err, smtplib.SMTPRecipientsRefused):  # permanent only if all are 5xx
        return all(500 <= code < 600 for code, _ in err.recipients.values())
    code = getattr(err, "smtp_code", None)
    return isinstance(code, int) and 500 <= code < 600


POLICY = email.policy.default.clone(refold_source="none")
"""The policy of outgoing mail: the default (RFC 5322 folding, RFC 2047 encoding of
what needs it), except that a header stored raw (``set_raw``) is written as given.
``List-Unsubscribe`` is one: RFC 2369 and RFC 8058 want ``<https://...>`` as is,
and the default policy, unable to fold a URL longer than a line, would encode it
(``=?utf-8?q?=3Chttp...``), which no mail client can follow (issue 24)."""


def message(mail, png: bytes | None = None, body: str | None = None) -> EmailMessage:
    """Return the MIME message of an outbox row (an ``OutboxMail``, or the row
    ``claim`` returns): its extra headers (``Reply-To``, threading), RFC 8058's
    ``List-Unsubscribe`` one-click headers (:mod:`arbiter.mail.consent`),
    ``Auto-Submitted: auto-generated`` unless the row says otherwise (answers say
    ``auto-replied``, RFC 3834), its text (``body``, else :func:`final_body`), and
    its board attached as PNG: ``png`` when given (already rendered), else the row's
    kept ``board_png``, else rendered from its ``board_svg``.

    :raises Suppressed: from :func:`final_body` when no ``body`` is given.
    """
    msg = EmailMessage(policy=POLICY)
    msg["From"] = settings.current().mail.sender
    msg["To"] = mail.to_addr
    _set_subject(msg, mail.subject)
    msg["Message-ID"] = message_id(mail.id, mail.game_id)
    msg["Date"] = format_datetime(mail.created_at)
    msg["X-Arbiter-Outbox"] = str(mail.id)
    one_game = mail.dedupe_key.startswith(("turn:", "over:", "invite:", "answer:"))
    headers = {
        "Auto-Submitted": "auto-generated",
        **(mail.headers or {}),
        **consent.list_unsubscribe_headers(mail.to_addr, mail.game_id if one_game else None),
    }
    for name, value in headers.items():
        if name == "List-Unsubscribe":
            msg.set_raw(name, value)  # as is: `<https://...>`, never RFC 2047-encoded
        else:
            msg[name] = value
    msg.set_content(body if body is not None else final_body(mail))
    if mail.board_svg:
        png = png or mail.board_png or board_png(mail.board_svg)
        msg.add_attachment(png, maintype="image", subtype="png", filename="board.png")
    return msg


def _set_subject(msg: EmailMessage, subject: str) -> None:
    """Set the Subject: an ASCII one as given, on one line (RFC 5322 allows 998
    characters); the default policy folds some before their first word
    (``Subject:\n [Arbiter] Your turn in Worms: ...``), which reads back with a
    leading space. Any other is encoded by the policy (RFC 2047)."""
    if subject.isascii() and len(subject) < 900 and "\n" not in subject:
        msg.set_raw("Subject", subject)
    else:
        msg["Subject"] = subject


def message_id(mail_id: int, game_id: str | None) -> str:
    """Return the Message-ID of outbox row ``mail_id`` (the same for every resend)."""
    host = as_mail_domain(urlparse(settings.current().service.base_url).hostname or "arbiter")
    return f"<arbiter.outbox.{mail_id}.{game_id or 'account'}@{host}>"


def board_png(svg: str) -> bytes:
    """Return an SVG board picture rendered as PNG (``cairosvg``)."""
    import cairosvg  # noqa: PLC0415 - cairo only to draw a board

    return cairosvg.svg2png(bytestring=svg.encode(), output_width=800)


def connect() -> smtplib.SMTP:
    """Return a session with the SMTP server of ``SMTP_URL`` (which must be set):
    connected, with STARTTLS and login as the URL says.

    :raises smtplib.SMTPException, OSError: the server could not be reached or refused
        the session.
    """
    parts = urlparse(settings.current().mail.smtp_url)
    query = parse_qs(parts.query)
    smtp_class = smtplib.SMTP_SSL if parts.scheme == "smtps" else smtplib.SMTP
    port = parts.port or (465 if parts.scheme == "smtps" else 25)
    smtp = smtp_class(
        parts.hostname or "localhost", port, timeout=settings.current().mail.smtp_timeout_seconds
    )
    try:
        if query.get("starttls", ["0"])[0] in ("1", "true"):
            smtp.starttls()
        if parts.username:
            smtp.login(unquote(parts.username), unquote(parts.password or ""))
    except BaseException:
        smtp.close()
        raise
    return smtp


@contextmanager
def smtp_session() -> Iterator[smtplib.SMTP | None]:
    """Yield a session from ``connect`` (None without ``SMTP_URL``) and say QUIT at the
    end (a failure of QUIT itself is ignored).

    :raises smtplib.SMTPException, OSError: as ``connect``.
    """
    if not settings.current().mail.smtp_url:
        yield None
        return
    smtp = connect()
    try:
        yield smtp
    finally:
        _hang_up(smtp)


def deliver(
    msg: EmailMessage, accepted: Callable[[], None] = lambda: None, smtp: smtplib.SMTP | None = None
) -> None:
    """Hand ``msg`` to the SMTP server over session ``smtp`` (``smtp_session``; without
    one, a session of its own is opened and closed; without ``SMTP_URL``, ``msg`` is
    logged), and call ``accepted`` as soon as the server has accepted the data, before
    QUIT.

    :raises smtplib.SMTPException, OSError: the server refused or could not be reached.
    """
    if smtp is None:
        if settings.current().mail.smtp_url:
            with smtp_session() as own:
                deliver(msg, accepted, own)
            return
        log.info("mail (no SMTP_URL set, not sent):\n%s", readable(msg))
        accepted()
        return
    smtp.send_message(msg)
    accepted()


LOGGED_HEADERS = ("From", "To", "Subject", "Reply-To", "Message-ID", "Date")


def readable(msg: EmailMessage) -> str:
    """Return ``msg`` as a person reads it, for the log of a mail not sent: its main
    headers, each text/plain part decoded (no quoted-printable ``=3D`` or soft line
    breaks, so a link in it can be pasted) and one line per attachment."""
    lines = [f"{name}: {msg[name]}" for name in LOGGED_HEADERS if msg[name]]
    for part in msg.walk():
        if part.is_multipart():
            continue
        if part.get_content_type() == "text/plain" and not part.get_filename():
            lines += ["", part.get_content().rstrip("\n")]
        else:
            lines.append(
                f"[attached: {part.get_filename() or 'unnamed'} ({part.get_content_type()})]"
            )
    return "\n".join(lines)


def _hang_up(smtp: smtplib.SMTP) -> None:
    """Say QUIT and close; a server that does not answer QUIT is only closed."""
    try:
        smtp.quit()
    except (smtplib.SMTPException, OSError):
        smtp.close()


def unsent(older_than_seconds: float = 10.0, limit: int = 500) -> list[int]:
    """Return ids of unsent mails older than the delay that may be tried now (not given
    up, not being sent, not backing off), oldest first."""
    now = utcnow()
    cutoff = now - timedelta(seconds=older_than_seconds)
    return list(
        db.session.scalars(
            sa.select(OutboxMail.id)
            .where(_may_try(now), OutboxMail.created_at < cutoff)
            .order_by(OutboxMail.id)
            .limit(limit)
        )
    )
