"""``/v1/tournaments``: tournaments, their entries, rounds, standings, record and the
organiser's tools. Each write runs its context function
(:mod:`arbiter.tournaments.tournaments`) with a unit of work and shows its result;
creating and extending answer a retry with the same ``Idempotency-Key`` again
(:func:`arbiter.idempotency.answer`)."""

from __future__ import annotations

from flask import Response, request
from flask.views import MethodView

from arbiter import idempotency
from arbiter.models import Tournament
from arbiter.problem import ProblemSchema
from arbiter.resources import guard, headers, paging
from arbiter.resources.blueprint import Blueprint
from arbiter.resources.tournaments import schemas as s
from arbiter.tournaments import tournament_log, tournaments
from arbiter.tournaments import tournament_results as results
from arbiter.uow import UnitOfWork

blp = Blueprint(
    "tournaments",
    __name__,
    url_prefix="/v1/tournaments",
    description="Tournaments: round robin and Swiss at correspondence pace.",
)

TOKEN = headers.security("apiToken")
ORGANISER = "the organiser's personal token with tournaments:write"


def _scope(who) -> str:
    """Return the idempotency scope of an organiser's requests: its token's hash."""
    return f"tournaments:{who.token_hash}"


def _with_games(done: tournaments.ActedOn) -> dict:
    """Return an organiser's action as the API shows it: the tournament's summary and
    the games the action touched."""
    return {**tournaments.summary(done.tournament), "games": done.games}


class TournamentPage(paging.SelectPage):
    """A page of tournaments."""

    model = Tournament

    def summary(self, row) -> dict:
        """Return a tournament's summary (without its entries)."""
        return tournaments.summary(row)


@blp.route("")
class Tournaments(MethodView):
    """``/v1/tournaments``: list and create."""

    @blp.arguments(s.TournamentQuerySchema, location="query")
    @blp.response(200, s.TournamentSchema(many=True))
    @blp.paginate(TournamentPage)
    def get(self, args):
        """List tournaments, newest first; filter by status or engine."""
        return tournaments.list_tournaments(**args)

    @guard.needs("account", "tournaments:write")
    @blp.arguments(s.TournamentCreateSchema)
    @blp.response(201, s.TournamentSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="no personal token")
    @blp.alt_response(403, schema=ProblemSchema, description="missing-scope (tournaments:write)")
    @blp.alt_response(
        422,
        schema=ProblemSchema,
        description="unknown-engine, bad-player-count, bad-options, bad-clock, "
        "bad-scoring, rounds-needed, rounds-not-allowed, "
        "bad-idempotency-key, idempotency-key-reused",
    )
    @blp.doc(parameters=[headers.IDEMPOTENCY], **TOKEN)
    def post(self, data):
        """Create a tournament (a personal token with tournaments:write: you organise
        it); accounts enter it, then you start it. With an Idempotency-Key, a retry gets
        the first answer and creates nothing."""
        who = guard.principal()
        status, body = idempotency.answer(
            _scope(who),
            headers.idempotency_key(),
            data,
            201,
            lambda t: tournaments.summary(t, True),
            lambda keeper: tournaments.create(UnitOfWork(keeper=keeper), who, data),
        )
        return body, status


@blp.route("/<tournament_id>")
class TournamentById(MethodView):
    """``/v1/tournaments/{id}``."""

    @blp.response(200, s.TournamentSchema)
    @blp.alt_response(404, schema=ProblemSchema, description="tournament-not-found")
    def get(self, tournament_id):
        """Read a tournament with its entries."""
        return tournaments.summary(tournaments.get(tournament_id), True)


@blp.route("/<tournament_id>/entries")
class Entries(MethodView):
    """``/v1/tournaments/{id}/entries``: enter."""

    @guard.needs("account", "games:play")
    @blp.response(201, s.EntrySchema)
    @blp.alt_response(
        403,
        schema=ProblemSchema,
        description="missing-scope (games:play), too-unreliable, bot-cannot-enter",
    )
    @blp.alt_response(404, schema=ProblemSchema, description="tournament-not-found")
    @blp.alt_response(
        409,
        schema=ProblemSchema,
        description="entries-closed, already-entered, withdrawn (withdrew "
        "after the start), tournament-full",
    )
    @blp.doc(**TOKEN)
    def post(self, tournament_id):
        """Enter your account (a personal token with games:play)."""
        return results.entry_json(tournaments.enter(UnitOfWork(), tournament_id, guard.principal()))


@blp.route("/<tournament_id>/entries/<entry_id>/withdraw")
class Withdraw(MethodView):
    """``/v1/tournaments/{id}/entries/{entry}/withdraw``."""

    @guard.needs("account")
    @blp.response(200, s.EntrySchema)
    @blp.alt_response(403, schema=ProblemSchema, description="not-your-entry")
    @blp.alt_response(
        404, schema=ProblemSchema, description="tournament-not-found, entry-not-found"
    )
    @blp.alt_response(409, schema=ProblemSchema, description="already-withdrawn, tournament-over")
    @blp.doc(**TOKEN)
    def post(self, tournament_id, entry_id):
        """Withdraw an entry (the entrant with games:play, or the organiser): it is
        not paired from the next round on; its current games go on."""
        return results.entry_json(
            tournaments.withdraw(UnitOfWork(), tournament_id, entry_id, guard.principal())
        )


@blp.route("/<tournament_id>/entries/<entry_id>/byes")
class ByeRequest(MethodView):
    """``/v1/tournaments/{id}/entries/{entry}/byes``."""

    @guard.needs("account")
    @blp.arguments(s.ByeRequestSchema)
    @blp.response(200, s.EntrySchema)
    @blp.alt_response(403, schema=ProblemSchema, description="not-your-entry")
    @blp.alt_response(
        404, schema=ProblemSchema, description="tournament-not-found, entry-not-found"
    )
    @blp.alt_response(
        409, schema=ProblemSchema, description="byes-swiss-only, tournament-over, already-withdrawn"
    )
    @blp.alt_response(422, schema=ProblemSchema, description="bad-bye-round, invalid-request")
    @blp.doc(**TOKEN)
    def post(self, data, tournament_id, entry_id):
        """Ask for a bye in a Swiss round not paired yet (the entrant with games:play,
        or the organiser): ``half`` scores a draw's points, ``zero`` nothing; ``none``
        takes the request back. 422 ``bad-bye-round`` for a round already paired,
        beyond the last, or before the entry's first."""
        return results.entry_json(
            tournaments.request_bye(
                UnitOfWork(), tournament_id, entry_id, guard.principal(), data["round"], data["bye"]
            )
        )


@blp.route("/<tournament_id>/entries/<entry_id>/replace")
class Replace(MethodView):
    """``/v1/tournaments/{id}/entries/{entry}/replace``."""

    @guard.needs("account", "tournaments:write")
    @blp.response(200, s.TournamentSchema)
    @blp.alt_response(403, schema=ProblemSchema, description="not-organiser")
    @blp.alt_response(
        409, schema=ProblemSchema, description="entry-not-withdrawn, nothing-to-replace"
    )
    @blp.doc(**TOKEN)
    def post(self, tournament_id, entry_id):
        """Hand a withdrawn entry's unfinished games to the timeout policy (organiser):
        its seats resign and the engine's timeout move is played for them."""
        return _with_games(
            tournaments.replace(UnitOfWork(), tournament_id, entry_id, guard.principal())
        )


def _organiser_action(name: str, doc: str, conflicts: str, show):
    """Return the MethodView of a body-less organiser action ``name``, whose result
    ``show`` turns into the answer."""

    class Action(MethodView):
        @guard.needs("account", "tournaments:write")
        @blp.response(200, s.TournamentSchema)
        @blp.alt_response(
            403,
            schema=ProblemSchema,
            description="missing-scope (tournaments:write), not-organiser",
        )
        @blp.alt_response(404, schema=ProblemSchema, description="tournament-not-found")
        @blp.alt_response(409, schema=ProblemSchema, description=conflicts)
        @blp.doc(**TOKEN)
        def post(self, tournament_id):
            return show(getattr(tournaments, name)(UnitOfWork(), tournament_id, guard.principal()))

    Action.post.__doc__ = doc
    Action.__name__ = Action.__qualname__ = name.capitalize()
    Action.__doc__ = f"``/v1/tournaments/{{id}}/{name}``."
    return Action


blp.route("/<tournament_id>/start")(
    _organiser_action(
        "start",
        f"Start the tournament ({ORGANISER}): round 1 is paired and its games start together.",
        "already-started, too-few-entries",
        tournaments.summary,
    )
)
blp.route("/<tournament_id>/pause")(
    _organiser_action(
        "pause",
        f"Pause the whole tournament ({ORGANISER}): its games' clocks and the round deadline stop.",
        "not-running, already-paused",
        _with_games,
    )
)
blp.route("/<tournament_id>/resume")(
    _organiser_action(
        "resume",
        f"Resume a paused tournament ({ORGANISER}): deadlines move later by the pause's length.",
        "not-paused",
        _with_games,
    )
)


@blp.route("/<tournament_id>/extend")
class Extend(MethodView):
    """``/v1/tournaments/{id}/extend``."""

    @guard.needs("account", "tournaments:write")
    @blp.arguments(s.RoundExtendSchema)
    @blp.response(200, s.TournamentSchema)
    @blp.alt_response(403, schema=ProblemSchema, description="not-organiser")
    @blp.alt_response(409, schema=ProblemSchema, description="not-running, no-round-deadline")
    @blp.alt_response(
        422, schema=ProblemSchema, description="bad-idempotency-key, idempotency-key-reused"
    )
    @blp.doc(parameters=[headers.IDEMPOTENCY], **TOKEN)
    def post(self, data, tournament_id):
        """Move the current round's deadline later (the organiser's token with
        tournaments:write). With an Idempotency-Key, a retry gets the first answer and
        moves the deadline no further."""
        who, seconds = guard.principal(), data["seconds"]
        _, body = idempotency.answer(
            _scope(who),
            headers.idempotency_key(),
            {"tournament": tournament_id, "seconds": seconds},
            200,
            tournaments.summary,
            lambda keeper: tournaments.extend(
                UnitOfWork(keeper=keeper), tournament_id, who, seconds
            ),
            route="POST extend",
        )
        return body


def wants_csv(args: dict) -> bool:
    """True when the request asks for CSV: ``?format=csv``, or an ``Accept`` that
    prefers ``text/csv`` to JSON."""
    if "format" in args:
        return args["format"] == "csv"
    best = request.accept_mimetypes.best_match(["application/json", "text/csv"])
    return best == "text/csv"


@blp.route("/<tournament_id>/standings")
class Standings(MethodView):
    """``/v1/tournaments/{id}/standings``."""

    @blp.arguments(s.StandingsQuerySchema, location="query")
    @blp.response(200, s.StandingsSchema)
    @blp.doc(responses={200: {"content": {"text/csv": {"schema": {"type": "string"}}}}})
    @blp.alt_response(404, schema=ProblemSchema, description="tournament-not-found")
    @blp.alt_response(409, schema=ProblemSchema, description="round-not-over")
    def get(self, args, tournament_id):
        """The standings after a round (``?after_round=N``; default the last round
        whose every game is over): points, the format's tie-breaks (Swiss: Buchholz,
        Sonneborn-Berger, head-to-head; round robin: head-to-head, wins,
        Sonneborn-Berger), shared ranks, forfeit and bye counts and the crosstable;
        CSV with ``Accept: text/csv`` or ``?format=csv``."""
        t = tournaments.get(tournament_id)
        rows = results.standings(t, args.get("after_round"))
        if wants_csv(args):
            return Response(
                results.standings_csv(rows),
                mimetype="text/csv",
                headers={"Content-Disposition": f'attachment; filename="standings-{t.id}.csv"'},
            )
        return {
            "tournament": t.id,
            "round": t.round,
            "after_round": results.after_round(t, args.get("after_round")),
            "status": t.status,
            "tiebreaks": results.standings_of.tiebreaks(t.format),
            "standings": rows,
        }


# the largest round number the address takes (the contract's maximum, as ?page= and
# ?after= cap theirs); a larger one matches no route: 404 not-found, never a database
# integer overflow
@blp.route(f"/<tournament_id>/rounds/<int(max={2**31 - 1}):number>")
class RoundByNumber(MethodView):
    """``/v1/tournaments/{id}/rounds/{n}``."""

    @blp.response(200, s.RoundSchema)
    @blp.alt_response(
        404,
        schema=ProblemSchema,
        description="tournament-not-found, round-not-found; not-found above the maximum",
    )
    def get(self, tournament_id, number):
        """A paired round: its deadline, byes and tables (games, players, places)."""
        return results.round_json(tournaments.get(tournament_id), number)


@blp.route("/<tournament_id>/events")
class Events(MethodView):
    """``/v1/tournaments/{id}/events``."""

    @blp.response(200, s.TournamentEventsSchema)
    @blp.alt_response(404, schema=ProblemSchema, description="tournament-not-found")
    def get(self, tournament_id):
        """The tournament's own append-only log: entries, pairings, results, and
        every organiser action."""
        t = tournaments.get(tournament_id)
        names = tournament_log.entry_names(t.id)
        return {
            "events": [tournament_log.event_json(e, names) for e in tournament_log.events(t.id)],
            "version": t.version,
        }


@blp.route("/<tournament_id>/record")
class Record(MethodView):
    """``/v1/tournaments/{id}/record``."""

    @blp.response(200, s.TournamentRecordSchema)
    @blp.alt_response(404, schema=ProblemSchema, description="tournament-not-found")
    @blp.alt_response(409, schema=ProblemSchema, description="tournament-not-over")
    def get(self, tournament_id):
        """The full record once over: the log, every game's record (seed revealed),
        the standings; ``arbiter verify`` checks it all."""
        t = tournaments.get(tournament_id)
        return results.record(t, tournaments.summary(t))


@blp.route("/<tournament_id>/trf")
class Trf(MethodView):
    """``/v1/tournaments/{id}/trf``."""

    @blp.doc(
        responses={
            "200": {
                "description": "FIDE TRF text (TRF-2016 and TRF26 records)",
                "content": {"text/plain": {"schema": {"type": "string"}}},
            }
        }
    )
    @blp.alt_response(404, schema=ProblemSchema, description="tournament-not-found")
    @blp.alt_response(
        409, schema=ProblemSchema, description="not-two-player-swiss (games of more than 2)"
    )
    def get(self, tournament_id):
        """The FIDE TRF (TRF-2016 / TRF26) of a tournament of 2-player games, valid at
        every moment: the rounds over in the player records (forfeits ``+``/``-``,
        byes ``U``/``H``/``F``/``Z``), the round being played as comment lines and its
        set byes as ``240`` records, the event's scoring (``162``/``XXS``)."""
        text = results.trf(tournaments.get(tournament_id))
        return Response(text, mimetype="text/plain")
