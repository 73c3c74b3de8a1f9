"""The tournaments context: entries, rounds, results and standings on the tournament's
own log (:mod:`arbiter.tournaments.tournament_log`); the pure formats (pairing, scoring,
TRF) are in :mod:`arbiter.tournaments.formats`."""
