"""``/v1/campaigns``: series of games whose unlocks carry from game to game."""

from __future__ import annotations

from flask.views import MethodView

from arbiter import idempotency
from arbiter.contract import link, links
from arbiter.games import access, campaigns
from arbiter.games.games import NewPlayer
from arbiter.problem import ProblemSchema
from arbiter.resources import guard, headers
from arbiter.resources.blueprint import Blueprint
from arbiter.resources.campaigns import schemas as s
from arbiter.resources.games.routes import shown
from arbiter.resources.games.schemas import GameCreatedSchema
from arbiter.uow import UnitOfWork

blp = Blueprint(
    "campaigns",
    __name__,
    url_prefix="/v1/campaigns",
    description="Campaigns: games of one engine whose unlocks carry over.",
)

ORGANISER = headers.security("organiserToken")
CAMPAIGN = "/v1/campaigns/{campaign_id}"
CREATED_LINKS = links(
    201,
    GetCampaign=link(CAMPAIGN, "get", "the new campaign", path__campaign_id="$response.body#/id"),
    NextGame=link(
        CAMPAIGN + "/games",
        "post",
        "start its first game (organiser token)",
        path__campaign_id="$response.body#/id",
        header__Authorization="Bearer {$response.body#/token}",
    ),
)


@blp.route("")
class Campaigns(MethodView):
    """``/v1/campaigns``: create a campaign."""

    @blp.arguments(s.CampaignCreateSchema)
    @blp.response(201, s.CampaignCreatedSchema)
    @blp.alt_response(
        401,
        schema=ProblemSchema,
        description="sign-in-to-invite: a player's address is no account's (a campaign "
        "is made without an account, and only an account may invite an address)",
    )
    @blp.alt_response(422, schema=ProblemSchema, description="no campaigns for that engine")
    @blp.doc(**CREATED_LINKS)
    def post(self, data):
        """Create a campaign; the answer carries the organiser token, shown only once."""
        players = NewPlayer.many(data["players"])
        campaign, token = campaigns.create_campaign(
            data["engine"], data["name"], players, data["options"]
        )
        return {**campaigns.summary(campaign), "token": token}


@blp.route("/<campaign_id>")
class CampaignById(MethodView):
    """``/v1/campaigns/{id}``: a campaign's unlocks and games."""

    @blp.response(200, s.CampaignSchema)
    @blp.alt_response(404, schema=ProblemSchema, description="no such campaign")
    def get(self, campaign_id):
        """Read a campaign: its unlocks so far and its games."""
        return campaigns.summary(campaigns.get_campaign(campaign_id))


@blp.route("/<campaign_id>/games")
class CampaignGames(MethodView):
    """``/v1/campaigns/{id}/games``: start the next game."""

    @guard.needs("organiser")
    @blp.arguments(s.NextGameSchema, required=False)
    @blp.response(201, GameCreatedSchema)
    @blp.alt_response(409, schema=ProblemSchema, description="its current game is not over")
    @blp.doc(parameters=[headers.IDEMPOTENCY], **ORGANISER)
    def post(self, data, campaign_id):
        """Start the campaign's next game (Bearer organiser token), unlocks carried."""
        # the guard checked the organiser token; once per Idempotency-Key for it
        command = campaigns.NextGame(campaign_id, data.get("options"), data.get("clock"))
        status, body = idempotency.answer(
            f"campaign:{campaign_id}:{access.token_hash(headers.token())}",
            headers.idempotency_key(),
            data,
            201,
            shown,
            lambda keeper: campaigns.start_next_game(UnitOfWork(keeper=keeper), command),
        )
        return body, status
