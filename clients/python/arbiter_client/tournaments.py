"""``client.tournaments``: round robins and Swiss tournaments of any engine."""

from __future__ import annotations

from typing import Any, cast

from arbiter_client.base import Area, seg
from arbiter_client.types import JSON, Entry, Tournament


class Tournaments(Area):
    """``/v1/tournaments`` (writes need a personal token: ``tournaments:write`` to
    organise, ``games:play`` to enter)."""

    def create(
        self,
        engine: str,
        format: str,
        table_size: int,
        *,
        idempotency_key: str | None = None,
        **fields: Any,
    ) -> Tournament:
        """Create a tournament (``format``: ``round_robin`` or ``swiss``); ``fields``
        are the contract's others (``name``, ``rounds``, ``round_seconds``, ``clock``,
        ``options``, ``rated`` ...). You organise it."""
        body = {"engine": engine, "format": format, "table_size": table_size, **fields}
        return cast(
            Tournament,
            self._s.request("POST", "/v1/tournaments", json=body, idempotency_key=idempotency_key),
        )

    def list(
        self,
        *,
        status: str | None = None,
        engine: str | None = None,
        page: int = 1,
        page_size: int = 10,
    ) -> list[Tournament]:
        """Return one page of tournaments, newest first."""
        params = {"status": status, "engine": engine, "page": page, "page_size": page_size}
        return cast(list[Tournament], self._s.request("GET", "/v1/tournaments", params=params))

    def get(self, tournament_id: str) -> Tournament:
        """Return a tournament with its entries."""
        return cast(Tournament, self._s.request("GET", self._path(tournament_id)))

    def enter(self, tournament_id: str) -> Entry:
        """Enter the session's account."""
        return cast(Entry, self._s.request("POST", self._path(tournament_id, "entries")))

    def withdraw(self, tournament_id: str, entry_id: str) -> Entry:
        """Withdraw an entry (the entrant, or the organiser)."""
        path = self._path(tournament_id, "entries", entry_id, "withdraw")
        return cast(Entry, self._s.request("POST", path))

    def request_bye(self, tournament_id: str, entry_id: str, round: int, bye: str) -> Entry:
        """Ask for a bye in a Swiss round not paired yet (the entrant, or the
        organiser): ``bye`` is ``half`` (a draw's points), ``zero`` (no points) or
        ``none`` (take the request back)."""
        path = self._path(tournament_id, "entries", entry_id, "byes")
        return cast(Entry, self._s.request("POST", path, json={"round": round, "bye": bye}))

    def replace(self, tournament_id: str, entry_id: str) -> Tournament:
        """Hand a withdrawn entry's unfinished games to the timeout policy (organiser)."""
        path = self._path(tournament_id, "entries", entry_id, "replace")
        return cast(Tournament, self._s.request("POST", path))

    def start(self, tournament_id: str) -> Tournament:
        """Start it: round 1 is paired (organiser)."""
        return cast(Tournament, self._s.request("POST", self._path(tournament_id, "start")))

    def pause(self, tournament_id: str) -> Tournament:
        """Pause the whole tournament (organiser)."""
        return cast(Tournament, self._s.request("POST", self._path(tournament_id, "pause")))

    def resume(self, tournament_id: str) -> Tournament:
        """Resume a paused tournament (organiser)."""
        return cast(Tournament, self._s.request("POST", self._path(tournament_id, "resume")))

    def extend(self, tournament_id: str, seconds: int) -> Tournament:
        """Move the current round's deadline ``seconds`` later (organiser)."""
        path = self._path(tournament_id, "extend")
        return cast(Tournament, self._s.request("POST", path, json={"seconds": seconds}))

    def standings(self, tournament_id: str, after_round: int | None = None) -> JSON:
        """Return the standings after round ``after_round`` (default: the last round
        whose every game is over), with the crosstable."""
        params = {"after_round": after_round} if after_round is not None else None
        path = self._path(tournament_id, "standings")
        return cast(JSON, self._s.request("GET", path, params=params))

    def round(self, tournament_id: str, number: int) -> JSON:
        """Return a paired round: its deadline, byes and tables."""
        path = self._path(tournament_id, "rounds", str(number))
        return cast(JSON, self._s.request("GET", path))

    def events(self, tournament_id: str) -> JSON:
        """Return the tournament's own log."""
        return cast(JSON, self._s.request("GET", self._path(tournament_id, "events")))

    def record(self, tournament_id: str) -> JSON:
        """Return the full record once it is over (every game's record included)."""
        return cast(JSON, self._s.request("GET", self._path(tournament_id, "record")))

    def trf(self, tournament_id: str) -> str:
        """Return the FIDE TRF of a tournament of 2-player games (valid while it runs)."""
        return cast(str, self._s.request("GET", self._path(tournament_id, "trf")))

    @staticmethod
    def _path(tournament_id: str, *rest: str) -> str:
        return "/".join(["/v1/tournaments", seg(tournament_id), *(seg(r) for r in rest)])
