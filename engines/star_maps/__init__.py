"""Star Maps: the rules engine for rules/star-maps.md (registry id ``star-maps``).

Modules: ``sheet.py`` (the sheet model; sheets are data in ``sheets/*.json``),
``turn.py`` (one seat's answer: the JSON move, its checks, every legal answer),
``bonuses.py`` (bonus effects; the invented list is ``bonuses.json``), ``rules.py``
(rounds, the end, the losers' vote), ``scoring.py``, ``notation.py`` (``star 4 write 2 at
B7``, ``connect C3``), ``view.py`` (view and "your turn" brief) and ``engine.py`` (the
:class:`~engines.base.Engine` adapter). ``ENGINE`` is the instance the registry returns.

Campaigns: option ``unlocked_bonuses`` passes in the bonuses unlocked so far (shared by
every player); the ``Over`` result carries ``unlocked_in_play`` (bonuses unlocked during
the game), ``new_bonus`` (the losers' choice, or None) and ``unlocked_after`` (the
campaign's list for its next game: all of them).

Decisions where the rulebook is silent (each one is tested in
``tests/engines/star_maps/``):

- A round is one public roll of two six-sided dice, then one Decision (kind ``choose``)
  for every seat that owes an answer; all answer the same roll (components/star-maps.md).
- Answers are applied as they arrive: an answer writes only on its own sheet, and its
  legality reads only that sheet and the roll, so the order of a round's answers never
  changes the state reached once all are in.
- A seat that can neither use the dice nor make a connection at the roll is not asked
  (no mail, no deadline wait); the others finish the round, then the game ends. If no
  seat can act, the game ends at the roll. ``pass`` exists in the notation but is legal
  only for a seat with no action (``must-act`` otherwise), so no asked seat ever passes.
- A second answer in one round: :class:`rules.AlreadyAnswered`, code
  ``already-answered`` (HTTP 409 in the arbiter).
- Each star has exactly two boxes, printed next to it or joined by a connection; a
  connection's box is adjacent only once it is filled. Doubles give one star type.
- A pre-filled star (printed value) is never the star a die is trying to find; its boxes,
  written for neighbouring stars, must differ by exactly its value, and a write that makes
  that impossible is refused (``breaks-lock``). The rule holds even before a connection to
  one of its boxes is filled.
- A pre-filled star is found only once its two boxes are adjacent and filled ("Lock/Unlock":
  "the player must fill out the two adjacent squares in a way that makes the pre-filled
  value true"; components/star-maps.md: "its two boxes must then be filled so that their
  difference is that value"). Until then it does not score ("A player scores unlocked
  pre-filled numbers normally": an unlocked star is scored as any star is, once filled
  out; "Final Scoring": "all filled out stars"), does not complete its type for a bonus,
  a sheet rule or an unlock in play, and does not open a lock that names it (a lock
  "connected to" a pre-filled star opens once its value is made true). Its printed value
  is shown in the view all along.
- Locks open by themselves once their listed connections are filled and listed stars
  found; arm stars may be written around while locked but score only once unlocked.
  A type is complete when all its stars are found, pre-filled ones only once unlocked.
- Bonuses: each type a move completes earns one bonus use in that same move (a bonus
  that completes a type earns another), at most two per sheet; one bonus may be used
  twice. A bonus that is not earned: ``bonus-not-earned``.
- Bonuses unlocked in play ("During the course of the game, players unlock bonuses for
  future use"): once a round's answers are in, each type whose stars are all found on
  some sheet unlocks the bonus keyed to it (``unlocked_by`` in ``bonuses.json``: 1
  Bridge, 2 Echo, 3 Nudge, 4 Reprise, 5 Comet, 6 Leap), if still locked, for every player
  from the next round on (the round's answers are simultaneous, so no answer may depend
  on another's; "for future use": not in the move that unlocked it) and for the
  campaign's later games. A keyed bonus instead of a choice keeps simultaneous answers
  free of conflicts.
- Final ranking: score, then fewer bonuses used; still tied, the seats share a place.
- The losers' choice (multiplayer, some seat ranked below the first group, some bonus
  still locked): every loser votes at once (Decision kind ``choose-bonus``) for a bonus
  not yet unlocked or for ``none`` (they "may cooperate to choose"); most votes wins, a
  tie goes to the bonus listed first in ``bonuses.json``, and ``none`` wins only with
  more votes than every bonus. Timeout: ``none``.
- Rule versions: a game keeps the rules it was created with. Version 2 counted a
  pre-filled star found from the start (scoring and completing its type once unlocked,
  its boxes empty); ``ENGINE.at_version("2")`` plays it. Version 1 (games created
  before versions) besides unlocked no bonus in play, made the losers choose one
  (timeout: the first still locked) and did not know Leap; ``ENGINE.at_version("1")``
  plays it (``versions.py``).
- Timeout in a round: the first dice use (star die as rolled, then the other; boxes in
  printed order), else the first connection, else pass.
"""

from engines.star_maps.engine import StarMaps
from engines.star_maps.versions import StarMapsV1, StarMapsV2

ENGINE = StarMaps()
"""The Star Maps engine registered as ``star-maps``."""

__all__ = ["ENGINE", "StarMaps", "StarMapsV1", "StarMapsV2"]
