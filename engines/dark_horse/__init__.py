"""Dark Horse: a Bug race of hidden hands and secret goals (rules/dark-horse.md).

Modules: :mod:`.cards` (component data from ``components.json``), :mod:`.track`
(Track movement), :mod:`.rules` (setup, turns, special cards, scoring), :mod:`.view`
(views, the turn brief, secrets), :mod:`.notation` (text moves), :mod:`.engine`.

Decisions (the book is silent or contradicts itself; see also
shared/components/dark-horse.md):

- Track: space 1, the sugar cube, is first; space 3 is the cherry; space 7, the stone,
  is last, although "End of the Game" calls the stone first ("Run for your life!" only
  works with the stone last).
- Placement draft ("Setup" 3): the row has a ``front`` end (toward space 1) and a
  ``back`` end (toward the stone). When it is complete its front Bug stands on space 1
  and its back Bug on space 7: laid out from the start of the Track, spaces 7, 6, ... 1,
  the first Bug of the row from the start goes on the first space. The first Bug is
  placed without an end. Dilly Dally: once the Bugs stand on their spaces, the black
  base goes on the Bug on the last space, the stone ("after having placed the Bugs on
  their corresponding space, put a black base on the last Bug"): the dark horse the
  Ant holders bet on reaching the top three.
- Chance: the Goal deck is shuffled first (nobody sees the order) and dealt one card at
  a time from seat 0; then a public die with one face per player picks the start
  player (face k: seat k-1); after the draft the Move cards are shuffled (nobody sees
  it) and dealt one at a time from the start player, the rest set aside unseen.
- Movement: a pictured Bug moving past either end stops there. A pictured Bug's ± card
  ("the pictured Bug must be moved forward or backward one space") offers only a
  direction in which the Bug can move: not forward from space 1, not backward from the
  last space (``direction-blocked`` otherwise), so it always moves it. A positions card moves
  the Bugs that stood on those spaces, all the same way ("each Bug must move in the
  same direction"), so it offers only a direction in which each of them can move (the
  Bugs on spaces 1 and 2 only backward, on 6 and 7 only forward; ``direction-blocked``
  otherwise); the front one moves first when moving forward, the rear one first when
  moving backward.
- Rule versions: a game keeps the rules it was created with. Version 2 let a pictured
  Bug's ± card be played toward the end its Bug stood on (moving nothing);
  ``ENGINE.at_version("2")`` plays it. Version 1 (games created before versions)
  besides put the black base on the last Bug chosen in the draft, let a positions card
  move either way (a Bug at the end staying put) and dealt from the deck in
  ``components-v1.json``; ``ENGINE.at_version("1")`` plays it (``versions.py``).
- Bad encounter!: ``{"play": "mv-bad-encounter", "swap": N}`` swaps your Goal card N
  (numbered from 1, in the order shown to you) with the top of the Goal deck;
  ``{"play": "mv-bad-encounter", "choose": SEAT}`` makes that seat owe a decision
  ``{"swap": N}`` before the turn passes on. The given card goes to the bottom of the
  Goal deck, the card taken keeps the slot and only its owner sees it. Goal cards are
  named by number, never by id, so the public log of moves tells nothing about them.
  A seat answering (or playing) while another seat's Bad encounter prompt is open gets
  ``not-your-choice`` (HTTP 409 in the arbiter).
- Dilly Dally round ("Dilly Dally Variant" 3): one pass round from the start player,
  each player takes one token or passes; it ends when the tokens are gone or every
  player has answered. A token scores +5 if the black-based Bug finishes 1st to 3rd,
  else -3.

Timeouts (the least surprising move): placing, the first Bug not yet placed (in the
data file's order) at the back of the row; the Dilly Dally round, pass; a turn, the
first card of the hand, ``forward`` when the card asks for a direction (``backward``
when its Bug, or one of a positions card's Bugs, cannot move forward), and for Bad
encounter! a swap of the player's own Goal card 1 (nobody else is made to act); a
player chosen by Bad encounter!, a swap of their Goal card 1.
"""

from __future__ import annotations

from .engine import DarkHorse
from .versions import DarkHorseV1, DarkHorseV2

ENGINE = DarkHorse()
"""The registered Dark Horse engine (id ``dark-horse``)."""

__all__ = ["ENGINE", "DarkHorse", "DarkHorseV1", "DarkHorseV2"]
