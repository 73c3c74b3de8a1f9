"""REST resources, one package per noun (``routes.py`` thin views, ``schemas.py``)."""

from __future__ import annotations

from flask_smorest import Api

from arbiter.resources.auth.routes import blp as auth_blp
from arbiter.resources.bots.routes import blp as bots_blp
from arbiter.resources.bulk.routes import blp as bulk_blp
from arbiter.resources.campaigns.routes import blp as campaigns_blp
from arbiter.resources.engines.routes import blp as engines_blp
from arbiter.resources.games.agreement_routes import blp as agreements_blp
from arbiter.resources.games.clock_routes import blp as clock_blp
from arbiter.resources.games.routes import blp as games_blp
from arbiter.resources.health.routes import blp as health_blp
from arbiter.resources.invitations.routes import blp as invitations_blp
from arbiter.resources.lobby.routes import blp as lobby_blp
from arbiter.resources.me.routes import blp as me_blp
from arbiter.resources.metrics.routes import blp as metrics_blp
from arbiter.resources.ratings.routes import blp as ratings_blp
from arbiter.resources.talk.routes import blp as talk_blp
from arbiter.resources.tournaments.routes import blp as tournaments_blp
from arbiter.resources.webhooks.routes import blp as webhooks_blp

BLUEPRINTS = [
    engines_blp,
    games_blp,
    bulk_blp,
    clock_blp,
    agreements_blp,
    campaigns_blp,
    auth_blp,
    me_blp,
    bots_blp,
    webhooks_blp,
    metrics_blp,
    ratings_blp,
    tournaments_blp,
    health_blp,
    invitations_blp,
    lobby_blp,
    talk_blp,
]


def register_blueprints(api: Api) -> None:
    """Register every resource blueprint on ``api``."""
    for blp in BLUEPRINTS:
        api.register_blueprint(blp)
