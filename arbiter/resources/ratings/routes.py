"""``/v1/ratings/{engine}``: the leaderboard of one engine."""

from __future__ import annotations

from flask.views import MethodView

import engines
from arbiter.accounts import bot_ratings, ratings
from arbiter.errors import NotFound
from arbiter.resources.blueprint import Blueprint
from arbiter.resources.problem import ProblemSchema
from arbiter.resources.ratings import schemas as s

blp = Blueprint(
    "ratings",
    __name__,
    url_prefix="/v1/ratings",
    description="Ratings per engine (openskill Plackett-Luce) and reliability.",
)


@blp.route("/<engine>")
class Leaderboard(MethodView):
    """``/v1/ratings/{engine}``."""

    @blp.arguments(s.LeaderboardQuerySchema, location="query")
    @blp.response(200, s.LeaderboardSchema)
    @blp.alt_response(404, schema=ProblemSchema, description="no such engine")
    def get(self, args, engine):
        """The best ratings at ``engine`` by ordinal (mu - 3 sigma), with each
        player's reliability (timeouts, resignations), and the built-in bots'
        ratings (one per kind and level)."""
        if engine not in engines.ENGINE_MODULES:
            raise NotFound(f"There is no game called {engine!r}.", code="unknown-engine")
        return {
            "engine": engine,
            "ratings": ratings.leaderboard(engine, args["limit"]),
            "bots": bot_ratings.leaderboard(engine),
        }
