"""Tournament formats, pure: pairing, scoring, tie-breaks, standings, TRF export.

The orchestration (models, service, routes) passes entrant ids (strings) in and stores
what comes out. Nothing here does I/O or reads a clock; randomness is only a
``random.Random`` seeded from the input, so equal input gives equal output.

What a caller passes, and keeps:
- ``seeding_order(entries, ratings)``: pairing numbers (rating, then entry order); pass
  every entrant who takes or took part, withdrawn ones too, as ``seeding``.
- ``swiss_round(entrants present, results, byes so far, table_size, number, scoring,
  rounds=total, history=rounds paired so far, seeding=..., requested_byes={entrant:
  "H" | "F" | "Z"}, initial_colour="w" | "b")``: a ``Round``; keep its tables, ``byes``,
  ``requested_byes`` (they are history for every later round and the TRF) and
  ``relaxed`` (absolute rules given up: tell the organiser).
- ``round_robin_schedule(entrants in seeding order, table_size)``: every round, fixed.
- ``GameResult(round, players, places, forfeited=(absent players,))``.
- ``swiss_standings(entrants, rounds, results, scoring, after_round)`` and
  ``round_robin_standings(entrants, schedule, results, scoring, withdrawn={entrant:
  first round missed}, after_round, least_players)``: ``Row`` values with the
  crosstable; ``standings_csv(rows, names, withdrawn)``.
- ``trf_export(name, date, [(id, name)] in seeding order, rounds, results, scoring,
  total_rounds=..., ratings=..., after_round=..., upcoming_byes=..., upcoming_absent=...,
  initial_colour=...)``.
``standings(entrants, results, byes, scoring)`` is the older summary (no rounds: no
crosstable, no "after round N").
"""

from arbiter.tournaments.formats.crosstable import (
    Row,
    cell_label,
    round_robin_standings,
    swiss_standings,
)
from arbiter.tournaments.formats.export import standings_csv
from arbiter.tournaments.formats.model import (
    FULL_BYE,
    HALF_BYE,
    PAIRING_BYE,
    ZERO_BYE,
    GameResult,
    Round,
    Scoring,
    Standing,
    Table,
)
from arbiter.tournaments.formats.round_robin import round_robin_schedule
from arbiter.tournaments.formats.scoring import default_scoring
from arbiter.tournaments.formats.standings import standings
from arbiter.tournaments.formats.swiss import seeding_order, swiss_round
from arbiter.tournaments.formats.trf import trf_export

__all__ = [
    "FULL_BYE",
    "HALF_BYE",
    "PAIRING_BYE",
    "ZERO_BYE",
    "GameResult",
    "Round",
    "Row",
    "Scoring",
    "Standing",
    "Table",
    "cell_label",
    "default_scoring",
    "round_robin_schedule",
    "round_robin_standings",
    "seeding_order",
    "standings",
    "standings_csv",
    "swiss_round",
    "swiss_standings",
    "trf_export",
]
