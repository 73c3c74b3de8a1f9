"""The arbiter's answer to a player's mail: one mail per message, in its thread.

It says, command by command, what was recorded or why not (the stable ``code`` and
the player's sentence), lists the legal moves after a refusal, and ends with what
the game waits for now. ``In-Reply-To`` and ``References`` thread it under the
player's mail, ``Auto-Submitted: auto-replied`` (RFC 3834) keeps auto-responders
quiet, and its ``Reply-To`` is a fresh capability for the seat's current prompt.
"""

from __future__ import annotations

from arbiter.accounts.identity import SeatGrant
from arbiter.games import naming
from arbiter.games.games import load
from arbiter.games.notify import board_picture
from arbiter.mail import capability, identity
from arbiter.mailin import commands
from arbiter.mailin.message import Incoming
from arbiter.models import InboundMail, OutboxMail


def build(
    row: InboundMail,
    incoming: Incoming,
    seat: SeatGrant,
    done: list[commands.Done],
    ignored: list[str] | None = None,
) -> OutboxMail:
    """Return the answer to inbound ``row`` (not yet added to the session); the
    ``ignored`` lines (a greeting, a signature around the commands) are named."""
    game, engine, state = load(seat.game_id)
    player = game.seats[seat.seat]
    lines = [f"Hello {player.name},", ""]
    if ignored:
        shown = ", ".join(f'"{line[:60]}"' for line in ignored[:5])
        more = f" and {len(ignored) - 5} more" if len(ignored) > 5 else ""
        lines += [
            f"Lines read as greeting or signature and ignored: {shown}{more}. "
            "A move or command stands on a line of its own.",
            "",
        ]
    for item in done:
        if item.line:
            lines.append(f"> {item.line}")
        lines.append(item.text if item.ok else f"Refused ({item.code}): {item.text}")
        lines.append("")
    last = done[-1]
    if not last.ok and last.legal:
        lines += [*commands.legal_lines(seat), ""]
    if not last.ok and last.help:
        lines += [commands.HELP, ""]
    if not last.status:  # a last "status" already said it (issue 22, item 14)
        lines += ["Now:", commands.status_text(seat), ""]
    if game.status == "active":
        lines.append('Reply to this mail with your next command ("help" lists them).')
    refs = [*incoming.references, *([incoming.message_id] if incoming.message_id else [])]
    headers = {
        "Auto-Submitted": "auto-replied",
        "Reply-To": capability.reply_address(game.id, seat.seat, game.prompt_since),
    }
    if incoming.message_id:
        headers["In-Reply-To"] = incoming.message_id
        headers["References"] = " ".join(refs[-10:])
    subject = " ".join(incoming.subject.split()) or (
        f"[Arbiter] {naming.game_words(game, seat.seat, title=engine.title)}"
    )
    if not subject.lower().startswith("re:"):
        subject = f"Re: {subject}"
    board = any(item.board for item in done)
    return OutboxMail(
        dedupe_key=f"answer:{row.id}",
        game_id=game.id,
        seat=seat.seat,
        to_addr=identity.seat_address(player),
        subject=subject[:300],
        body="\n".join(lines),
        headers=headers,
        board_svg=board_picture(engine, state, seat.seat, naming.names_of(game)) if board else None,
    )
