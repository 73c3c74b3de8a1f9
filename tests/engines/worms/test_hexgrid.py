"""engines/hexgrid.py: axial hexes, cube arithmetic, directions as on the Wind Dial."""

from engines.hexgrid import DIRECTIONS, Hex, is_line, opposite, step_length


def test_directions_clockwise_from_north_and_opposites() -> None:
    o = Hex(0, 0)
    assert [o.neighbor(d) for d in range(1, 7)] == [
        Hex(0, -1),
        Hex(1, -1),
        Hex(1, 0),
        Hex(0, 1),
        Hex(-1, 1),
        Hex(-1, 0),
    ]
    for d in DIRECTIONS:
        assert o.neighbor(d).neighbor(opposite(d)) == o
        x, y = o.neighbor(d).to_pixel(1)
        assert (y < 0) == (d in (1, 2, 6))  # 1, 2, 6 point up on the drawing


def test_distance_line_within_direct() -> None:
    a, b = Hex(-2, 1), Hex(1, 1)
    assert a.distance(b) == 3 and b.distance(a) == 3
    assert a.line(b)[0] == a and a.line(b)[-1] == b and len(a.line(b)) == 4
    assert len(Hex(0, 0).within(2)) == 19 and len(Hex(0, 0).ring(2)) == 12
    assert a.direction_to(Hex(0, 1)) == 3 and a.direction_to(Hex(0, 2)) is None
    assert a.is_direct(a) and not a.is_direct(Hex(0, 2))
    assert Hex.parse(" -3, 2") == Hex(-3, 2) and Hex(-3, 2).key() == "-3,2"


def test_parse_remembers_hexes_and_still_refuses_bad_text() -> None:
    assert Hex.parse("1,-2") is Hex.parse("1,-2") == Hex(1, -2)  # one frozen value
    for bad in ("1", "1,2,3", "a,b", "1,-2 x"):
        for _ in range(2):  # an error is raised again, never remembered
            try:
                Hex.parse(bad)
            except ValueError:
                continue
            raise AssertionError(f"{bad!r} was read as a hex")


def test_is_line_and_step_length_agree_with_direction_to_and_distance() -> None:
    o = Hex(1, -2)
    for h in o.within(5):
        dq, dr = h.q - o.q, h.r - o.r
        assert is_line(dq, dr) == (h == o or o.direction_to(h) is not None) == o.is_direct(h)
        assert step_length(dq, dr) == o.distance(h)
