"""Star Maps: the rules engine for rules/star-maps.md (registry id ``star-maps``).

Modules: ``sheet.py`` (the sheet model; sheets are data in ``sheets/*.json``),
``turn.py`` (one seat's answer: the JSON move, its checks, every legal answer),
``bonuses.py`` (bonus effects; the invented list is ``bonuses.json``), ``rules.py``
(rounds, the end, the losers' vote), ``scoring.py``, ``notation.py`` (``star 4 write 2 at
B7``, ``connect C3``), ``view.py`` (view and "your turn" brief) and ``engine.py`` (the
:class:`~engines.base.Engine` adapter). ``ENGINE`` is the instance the registry returns.

Campaigns: option ``unlocked_bonuses`` passes in the bonuses unlocked so far (shared by
every player); the ``Over`` result carries ``new_bonus`` (the losers' choice, or None) and
``unlocked_after`` (the campaign's list for its next game).

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
- A pre-filled star (printed value) is filled from the start, so it is never the star a
  die is trying to find; its boxes, written for neighbouring stars, must differ by exactly
  its value, and a write that makes that impossible is refused (``breaks-lock``). The rule
  holds even before a connection to one of its boxes is filled.
- Locks open by themselves once their listed connections are filled and listed stars
  found; arm stars may be written around while locked but score only once unlocked.
  A type is complete when all its stars are found, pre-filled ones only once unlocked.
- Bonuses: each type a move completes earns one bonus use in that same move (a bonus
  that completes a type earns another), at most two per sheet; one bonus may be used
  twice. A bonus that is not earned: ``bonus-not-earned``.
- Final ranking: score, then fewer bonuses used; still tied, the seats share a place.
- The losers' choice (multiplayer, some seat ranked below the first group, some bonus
  still locked): every loser votes at once (Decision kind ``choose-bonus``) for a bonus
  not yet unlocked; most votes wins, a tie goes to the bonus listed first in
  ``bonuses.json``. Timeout: a vote for the first bonus still locked.
- Timeout in a round: the first dice use (star die as rolled, then the other; boxes in
  printed order), else the first connection, else pass.
"""

from engines.star_maps.engine import StarMaps

ENGINE = StarMaps()
"""The Star Maps engine registered as ``star-maps``."""

__all__ = ["ENGINE", "StarMaps"]
