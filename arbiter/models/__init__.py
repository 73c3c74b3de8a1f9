"""The database models: games, seats, the event log, the outbox, idempotency keys."""

from arbiter.models.event import Event
from arbiter.models.game import Game, Seat
from arbiter.models.idempotency import IdempotentResponse
from arbiter.models.outbox import OutboxMail

__all__ = ["Event", "Game", "Seat", "IdempotentResponse", "OutboxMail"]
