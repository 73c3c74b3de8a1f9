"""Campaigns: create one, start its next game, read its unlocks and its games."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import sqlalchemy as sa

from arbiter.accounts import inviters
from arbiter.errors import Conflict, NotFound, Unauthorized, Unprocessable
from arbiter.extensions import db
from arbiter.games import access, bot_seats
from arbiter.games.creation import CreateGame, GameCreated, create_game
from arbiter.games.games import NewPlayer, check_players, engine_for
from arbiter.models import Campaign, CampaignGame, Game
from arbiter.uow import UnitOfWork


def create_campaign(
    engine_id: str, name: str, players: list[NewPlayer], options: dict | None
) -> tuple[Campaign, str]:
    """Create a campaign; return it and the organiser's token (shown once).

    :raises Unprocessable: ``unknown-engine``, ``no-campaigns`` for an engine without
        campaigns, ``duplicate-player-name``, ``duplicate-player-email``, ``bad-bot``
        (a player's ``bot``: :func:`arbiter.games.bot_seats.check_bots`); :raises
        engines.base.InvalidOptions: bad player count or options; :raises
        arbiter.errors.Unauthorized: ``sign-in-to-invite``: a player's address is no
        account's (a campaign is made without an account, and only an account may
        invite an address: :func:`arbiter.accounts.inviters.check_inviter`).
    """
    engine = engine_for(engine_id)
    if engine.campaign_options([]) is None:
        raise Unprocessable(f"{engine.title} has no campaigns.", code="no-campaigns")
    engine.load_options(len(players), options)
    players = bot_seats.check_bots(players)
    check_players(players)
    inviters.check_inviter(None, [p.email for p in players if p.bot is None])
    refuse_carried(engine.campaign_options([]), options)
    token = access.new_token()
    campaign = Campaign(
        id=secrets.token_hex(8),
        engine=engine.id,
        name=name,
        players=[
            {"name": p.name, "email": p.email, "tz": p.tz, **({"bot": p.bot} if p.bot else {})}
            for p in players
        ],
        options=dict(options or {}),
        token_hash=access.token_hash(token),
    )
    db.session.add(campaign)
    db.session.commit()
    return campaign, token


def refuse_carried(carried_options: dict, options: dict | None) -> None:
    """Refuse options that the campaign itself sets from its finished games.

    :raises Unprocessable: ``carried-option``.
    """
    clash = sorted(set(carried_options) & set(options or {}))
    if clash:
        raise Unprocessable(
            f"{', '.join(clash)} is set by the campaign from its finished games, not by hand.",
            code="carried-option",
        )


def get_campaign(campaign_id: str) -> Campaign:
    """Return the campaign.

    :raises NotFound: ``campaign-not-found``.
    """
    campaign = db.session.get(Campaign, campaign_id)
    if campaign is None:
        raise NotFound(f"There is no campaign {campaign_id!r}.", code="campaign-not-found")
    return campaign


def games_of(campaign: Campaign) -> list[Game]:
    """Return the campaign's games in the order they were started."""
    return list(
        db.session.scalars(
            sa.select(Game)
            .join(CampaignGame, CampaignGame.game_id == Game.id)
            .where(CampaignGame.campaign_id == campaign.id)
            .order_by(CampaignGame.number)
        )
    )


def carried(campaign: Campaign, games: list[Game]) -> dict:
    """Return the options the campaign's next game inherits (its unlocks so far)."""
    results = [g.result for g in games if g.status == "over" and g.result]
    return engine_for(campaign.engine).campaign_options(results) or {}


def summary(campaign: Campaign) -> dict:
    """Return the campaign's public summary: players, unlocks, games."""
    games = games_of(campaign)
    return {
        "id": campaign.id,
        "engine": campaign.engine,
        "name": campaign.name,
        "players": [p["name"] for p in campaign.players],
        "options": campaign.options,
        "carried": carried(campaign, games),
        "games": [
            {"number": i, "id": g.id, "status": g.status, "result": g.result}
            for i, g in enumerate(games, start=1)
        ],
    }


def organised(campaign_id: str, token: str | None) -> Campaign:
    """Return the campaign whose organiser token ``token`` is.

    :raises NotFound: ``campaign-not-found``; :raises Unauthorized: the organiser's
        token is missing or wrong.
    """
    campaign = get_campaign(campaign_id)
    if token is None or not secrets.compare_digest(access.token_hash(token), campaign.token_hash):
        raise Unauthorized(
            "Starting a campaign's game needs its organiser token.",
            code="missing-token" if token is None else "bad-token",
        )
    return campaign


@dataclass(frozen=True)
class NextGame:
    """A campaign's next game, started by its organiser (the channel checked the
    organiser token: :func:`organised`): ``options`` and ``clock`` as a new game's."""

    campaign_id: str
    options: dict | None = None
    clock: dict | None = None


def start_next_game(uow: UnitOfWork, command: NextGame) -> GameCreated:
    """Start the campaign's next game with its carried unlocks; commit ``uow``.

    :returns: the new game, as :func:`arbiter.games.creation.create_game` does.
    :raises NotFound: ``campaign-not-found``; :raises Conflict:
        ``campaign-game-active`` while its last game is still played; :raises
        Unprocessable: ``carried-option`` (an option the campaign carries), and what
        :func:`arbiter.games.creation.create_game` raises.
    """
    campaign = get_campaign(command.campaign_id)
    games = games_of(campaign)
    if any(g.status == "active" for g in games):
        raise Conflict(
            "The campaign's current game is still being played.", code="campaign-game-active"
        )
    inherited = carried(campaign, games)
    refuse_carried(inherited, command.options)
    merged = {**campaign.options, **(command.options or {}), **inherited}
    players = NewPlayer.many(campaign.players)
    number = len(games) + 1

    def link(game: Game) -> list[CampaignGame]:
        return [CampaignGame(campaign_id=campaign.id, number=number, game_id=game.id)]

    return create_game(uow, CreateGame(campaign.engine, players, merged, command.clock), link)
