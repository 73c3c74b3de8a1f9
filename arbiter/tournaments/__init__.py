"""Tournament formats, pure: pairing, scoring, tie-breaks, standings, TRF export.

The interface is fixed in notes/TOURNAMENTS.md; the orchestration (models, service, routes)
passes entrant ids (strings) in and stores what comes out. Nothing here does I/O or reads a
clock; randomness is only a ``random.Random`` seeded from the input, so equal input gives
equal output.

Byes: ``byes`` arguments are {entrant: number of byes received so far} (absent = none).
Late entry and withdrawal: every call takes the current ``entrants``; an entrant who joined
late simply has fewer games, one who withdrew is left out of ``entrants`` (their results
still count for their opponents' tie-breaks).
"""

from arbiter.tournaments.crosstable import (
    Row,
    cell_label,
    round_robin_standings,
    swiss_standings,
)
from arbiter.tournaments.export import standings_csv
from arbiter.tournaments.model import (
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
from arbiter.tournaments.round_robin import round_robin_schedule
from arbiter.tournaments.scoring import default_scoring
from arbiter.tournaments.standings import standings
from arbiter.tournaments.swiss import seeding_order, swiss_round
from arbiter.tournaments.trf import trf_export

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
