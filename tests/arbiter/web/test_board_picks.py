"""Picking on the board (issue 12: "for Worms' large decisions, pick on the board"):
places a legal move names become links; a pick narrows the moves to those naming it."""

from __future__ import annotations

from dataclasses import dataclass

from arbiter.web.board_picks import linked, names, narrowed


@dataclass
class Move:
    """A move as the page lists it."""

    text: str


def test_a_place_is_named_only_as_a_whole_word() -> None:
    """``2,0`` names hex 2,0, not 12,0 or 2,-1 or 2,01; ``die 3`` is not ``die 31``."""
    assert names("2,0", "play bazooka at 2,0")
    assert names("2,0", "jump 2,0")
    assert not names("2,0", "play bazooka at 12,0")
    assert not names("2,0", "jump 2,01")
    assert not names("2,-1", "jump 2,-12")
    assert names("-2,1", "target -2,1 dir 3")
    assert not names("2,1", "target -2,1 dir 3")
    assert names("die 3", "die 3 up") and not names("die 3", "die 31 up")
    assert names("B7", "star 4 write 2 at B7") and not names("B7", "at B70")


def test_only_places_a_move_names_become_links() -> None:
    """Hexes, boxes and dice named by a legal move are wrapped in a pick link with a
    name for screen readers; the others are left as they are."""
    svg = (
        '<svg role="img"><polygon class="land" data-hex="1,0" points="0,0"/>'
        '<polygon class="land" data-hex="0,1" points="0,0"/>'
        '<rect class="box" data-box="B7" x="1"/><rect class="die" data-die="3" x="2"/></svg>'
    )
    out = linked(svg, ["jump 1,0", "star 4 write 2 at B7", "die 3 left"])
    assert (
        '<a class="pick" href="?pick=1%2C0#moves-h" aria-label="Pick 1,0">'
        '<polygon class="land" data-hex="1,0" points="0,0"/></a>' in out
    )
    assert '<polygon class="land" data-hex="0,1" points="0,0"/>' in out
    assert 'aria-label="Pick 0,1"' not in out
    assert 'aria-label="Pick B7"' in out and 'href="?pick=die%203#moves-h"' in out
    assert out.startswith('<svg role="group">')
    assert linked(svg, ["inch 3"]) == svg  # nothing to pick: still an image


def test_a_pick_narrows_the_moves_or_keeps_them_all() -> None:
    """A pick keeps the moves that name it; an unknown pick, or none, keeps them all."""
    moves = [Move("jump 1,0"), Move("play bazooka at 1,0"), Move("inch 3")]
    assert narrowed(moves, "1,0") == (moves[:2], True)
    assert narrowed(moves, "5,5") == (moves, False)
    assert narrowed(moves, None) == (moves, False)
