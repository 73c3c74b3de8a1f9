"""The database models: accounts and their tokens, games, seats, the event log, the outbox, inbound
mail, idempotency keys,
the clock's reminders, heartbeat and outages, ratings, web hooks and their deliveries,
tournaments."""

from arbiter.models.account import Account, ApiToken, SignInLink
from arbiter.models.campaign import Campaign, CampaignGame
from arbiter.models.clock import ClockOutage, ClockReminder, ClockSweep
from arbiter.models.consent import ConsentEvent, Invitation, MailAddress
from arbiter.models.event import Event
from arbiter.models.game import Game, Seat
from arbiter.models.idempotency import IdempotentResponse
from arbiter.models.inbound import InboundMail
from arbiter.models.outbox import OutboxMail
from arbiter.models.presence import Presence
from arbiter.models.rating import BotRating, Rating
from arbiter.models.talk import TalkEvent, TalkMute
from arbiter.models.tournament import (
    Tournament,
    TournamentEntry,
    TournamentEvent,
    TournamentGame,
    TournamentRound,
)
from arbiter.models.webhook import Webhook, WebhookDelivery, WebhookRecipient

__all__ = [
    "ConsentEvent",
    "Invitation",
    "MailAddress",
    "Account",
    "ApiToken",
    "SignInLink",
    "Campaign",
    "CampaignGame",
    "Event",
    "Game",
    "Seat",
    "IdempotentResponse",
    "InboundMail",
    "OutboxMail",
    "Presence",
    "Rating",
    "TalkEvent",
    "TalkMute",
    "BotRating",
    "ClockOutage",
    "ClockReminder",
    "ClockSweep",
    "Webhook",
    "WebhookDelivery",
    "WebhookRecipient",
    "Tournament",
    "TournamentEntry",
    "TournamentEvent",
    "TournamentGame",
    "TournamentRound",
]
