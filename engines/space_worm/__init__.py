"""Space Worm: the rules engine for rules/space-worm.md (registry id ``space-worm``).

Modules: ``sheet.py`` (the sheet data, read from ``sheets/*.json``), ``rules.py`` (the
rules as pure functions of a JSON state), ``moves.py`` (the JSON move), ``scoring.py``,
``notation.py`` (``die 3 up``, ``die 5 heart``, the "your turn" brief), ``view.py`` and
``engine.py`` (the :class:`~engines.base.Engine` adapter). ``ENGINE`` is the instance
the registry (``engines/__init__.py``) returns.

Decisions where the rulebook is silent (each one is tested in
``tests/engines/space_worm/``):

- Start Planet: "Roll 2 dice and colour in the Planet of the number you rolled" reads
  as each player rolling for their own sheet: option ``start_roll`` ``each`` (the
  default) asks for one public roll of 2 dice per seat, from the hungriest player
  clockwise; ``shared`` asks for one roll that places every worm. The Planet is taken
  from the sheet's ``planets.start_by_sum`` and counts as eaten
  (shared/components/space-worm.md, "Decisions").
- "The hungriest player goes first": the creator names that seat (option
  ``hungriest_seat``, default 0; a seat outside the game is ``bad-options``); it is
  the first start player, and the marker then passes one seat clockwise (seat + 1)
  each round.
- Rule versions: a game keeps the rules it was created with. Version 1 (games created
  before these options) had one shared start roll and seat 0 as the hungriest player;
  ``ENGINE.at_version("1")`` plays it (``versions.py``).
- Each round the start player's roll of the 8 dice is one public Chance; then seats take
  one die each in turn, clockwise from the start player, until all 8 are taken (fewer
  than 8 players: seats take several dice; 1 player takes all 8).
- A die that cannot be moved its full distance in any direction is still taken and
  colours a Heart (the worm does not move); a die that can move must move
  (``must-move``). An illegal line reports the first obstacle along it:
  ``blocked-path`` (a visited space) or ``off-the-map`` (the edge or a gap in the map).
- Fruit: completing a fruit type scores the highest number still open on its shared
  track (0 if none is left), then that number is coloured for all; completions are
  resolved in the order they happen (the draft is sequential, so this is the order of
  moves, then the order along one line). +1 marks count only for a fruit type the
  player completes.
- The game ends immediately after the move that gives a player all 4 Hearts or every
  fruit space; the remaining dice of the round are not taken.
- Ties in the final score share a place in the ranking (the rulebook has no tiebreak).
- Legal move order, and so the timeout move: dice by index ascending; for each die its
  open directions up, right, down, left, or ``heart`` when none is open.
"""

from engines.space_worm.engine import SpaceWorm
from engines.space_worm.versions import SpaceWormV1

ENGINE = SpaceWorm()
"""The Space Worm engine registered as ``space-worm``."""

__all__ = ["ENGINE", "SpaceWorm", "SpaceWormV1"]
