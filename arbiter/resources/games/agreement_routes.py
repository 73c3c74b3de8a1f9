"""``/v1/games/{id}/undo-requests`` and ``/v1/games/{id}/abort-requests``: a player
asks to take back their last move or to abort the game; the others accept or refuse
(:mod:`arbiter.games.agreements`, issue 24, item 3).

A request is named by its event's seq (``request`` in the answers). Every write takes
an ``Idempotency-Key``; a refused one is a problem (``undo-not-allowed``,
``abort-not-allowed``, ``undo-pending``, ``request-closed`` ...) and writes nothing.
"""

from __future__ import annotations

from dataclasses import asdict

from flask.views import MethodView
from marshmallow import Schema, fields

from arbiter import idempotency
from arbiter.games import agreements, games
from arbiter.problem import ProblemSchema
from arbiter.resources import guard, headers
from arbiter.resources.blueprint import Blueprint
from arbiter.uow import UnitOfWork

blp = Blueprint(
    "agreements",
    __name__,
    url_prefix="/v1/games",
    description="Agreed undo and abort: a player asks, every other player answers.",
)

SEAT = headers.security("seatToken", "apiToken")


class AgreementSchema(Schema):
    """Where an undo or abort request stands."""

    kind = fields.String(metadata={"enum": list(agreements.KINDS)})
    request = fields.Integer(metadata={"description": "the request's number (its event's seq)"})
    seat = fields.Integer(metadata={"description": "the seat that asked"})
    status = fields.String(metadata={"enum": ["pending", "agreed", "refused", "lapsed"]})
    accepted = fields.List(fields.Integer(), metadata={"description": "seats that agreed"})
    waiting_for = fields.List(fields.Integer(), metadata={"description": "seats still to answer"})
    version = fields.Integer(metadata={"description": "the game's version after this"})
    game_status = fields.String(metadata={"description": "over once an abort is agreed"})
    expires_at = fields.String(allow_none=True, metadata={"description": "when it lapses (UTC)"})
    move_seq = fields.Integer(allow_none=True, metadata={"description": "the move to take back"})
    text = fields.String(allow_none=True, metadata={"description": "that move in words"})
    undone = fields.List(fields.Integer(), metadata={"description": "the seqs taken back"})
    why = fields.String(allow_none=True, metadata={"description": "why it is closed"})


WRITE_ERRORS = (
    (401, "missing or wrong token"),
    (404, "no such game or request"),
    (
        409,
        "undo-not-allowed, abort-not-allowed, undo-pending, abort-pending, "
        "request-closed, own-request, already-answered, game-over",
    ),
)


def _write(view):
    """Document a write's answers (201 and the problems) on ``view``."""
    for status, description in WRITE_ERRORS:
        view = blp.alt_response(status, schema=ProblemSchema, description=description)(view)
    view = blp.doc(parameters=[headers.IDEMPOTENCY], **SEAT)(view)
    return blp.response(201, AgreementSchema)(view)


def once(loaded: guard.Loaded, route: str, act) -> tuple[dict, int]:
    """Run ``act(uow, game)`` once per Idempotency-Key (``route`` is the fingerprint)."""
    status, body = idempotency.answer(
        loaded.scope,
        headers.idempotency_key(),
        None,
        201,
        asdict,
        lambda keeper: act(UnitOfWork(keeper=keeper), loaded.game),
        loaded.stored,
        route,
    )
    return body, status


def _requests(kind: str) -> None:
    """Define the routes of requests of ``kind`` (``undo`` or ``abort``)."""
    base = f"/<game_id>/{kind}-requests"
    what = "take back your last move" if kind == "undo" else "abort the game (unrated)"

    class Requests(MethodView):
        @guard.needs("seat", "games:play", idempotent=f"{kind}-requests")
        @_write
        def post(self, game_id, loaded):
            command = agreements.Ask(game_id, guard.principal(), kind)
            return once(
                loaded, f"POST {kind}-requests", lambda uow, g: agreements.ask(uow, command, g)
            )

    class Request(MethodView):
        @guard.needs("anyone")
        @blp.response(200, AgreementSchema)
        @blp.alt_response(404, schema=ProblemSchema, description="no such game or request")
        def get(self, game_id, request):
            return asdict(agreements.standing(games.get_game(game_id), kind, request))

    def answer(accept: bool):
        verb = "accept" if accept else "refuse"

        class Answer(MethodView):
            @guard.needs("seat", "games:play", idempotent=f"{kind}-requests-{verb}")
            @_write
            def post(self, game_id, request, loaded):
                command = agreements.Reply(game_id, guard.principal(), kind, accept, request)
                return once(
                    loaded,
                    f"POST {kind}-requests/{request}/{verb}",
                    lambda uow, g: agreements.reply(uow, command, g),
                )

        Answer.post.__doc__ = (
            f"{verb.capitalize()} another player's request to {_theirs(what)} "
            f"(Bearer seat token; Idempotency-Key)."
        )
        return Answer

    Requests.post.__doc__ = (
        f"Ask the other players to let you {what} (Bearer seat token; Idempotency-Key)."
    )
    Request.get.__doc__ = f"Read where a request to {_theirs(what)} stands (no token needed)."
    title = kind.capitalize()
    blp.route(base, endpoint=f"{title}Requests")(Requests)
    blp.route(base + "/<int:request>", endpoint=f"{title}Request")(Request)
    blp.route(base + "/<int:request>/accept", endpoint=f"{title}Accept")(answer(True))
    blp.route(base + "/<int:request>/refuse", endpoint=f"{title}Refuse")(answer(False))


def _theirs(what: str) -> str:
    """Return ``what`` said of another player ("take back their last move")."""
    return what.replace("your", "their")


for _kind in agreements.KINDS:
    _requests(_kind)
