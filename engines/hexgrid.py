"""Hex grid helpers shared by hex-map engines (Red Blob Games, "Hexagonal Grids").

Hexes are stored in axial coordinates ``(q, r)``; algorithms use cube coordinates
``(q, r, s)`` with ``s = -q - r``. The grid is drawn **flat-topped**: ``q`` grows to the
east-south-east, ``r`` grows to the south.

The six directions are numbered **once, here**, 1 to 6 clockwise from north, as on
the Worms Wind Dial (the published dial's numbering is not known; this one is the
engine's documented choice)::

            1 (N)
     6 (NW)       2 (NE)
          [hex]
     5 (SW)       3 (SE)
            4 (S)

====  =====  ===============
 no.  name   axial (dq, dr)
====  =====  ===============
  1    N      ( 0, -1)
  2    NE     (+1, -1)
  3    SE     (+1,  0)
  4    S      ( 0, +1)
  5    SW     (-1, +1)
  6    NW     (-1,  0)
====  =====  ===============

Text keys: engines store hexes in JSON as ``"q,r"`` strings (:meth:`Hex.key`,
:meth:`Hex.parse`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from dataclasses import dataclass

DIRECTIONS: dict[int, tuple[int, int]] = {
    1: (0, -1),
    2: (1, -1),
    3: (1, 0),
    4: (0, 1),
    5: (-1, 1),
    6: (-1, 0),
}
"""Direction number (1..6, clockwise from north, as on the Wind Dial) -> axial step."""

DIRECTION_NAMES: dict[int, str] = {1: "N", 2: "NE", 3: "SE", 4: "S", 5: "SW", 6: "NW"}


def opposite(direction: int) -> int:
    """Return the direction pointing the other way (1 <-> 4, 2 <-> 5, 3 <-> 6)."""
    return (direction + 2) % 6 + 1


@dataclass(frozen=True, order=True)
class Hex:
    """One hex in axial coordinates.

    :param q: the column axis (grows east-south-east on a flat-topped drawing).
    :param r: the row axis (grows south).
    """

    q: int
    r: int

    # -- cube arithmetic ----------------------------------------------------------
    @property
    def s(self) -> int:
        """Return the third cube coordinate, ``-q - r``."""
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def scale(self, k: int) -> Hex:
        """Return this hex vector multiplied by ``k``."""
        return Hex(self.q * k, self.r * k)

    def length(self) -> int:
        """Return the distance from the origin."""
        return (abs(self.q) + abs(self.r) + abs(self.s)) // 2

    # -- neighbours and distance --------------------------------------------------
    def neighbor(self, direction: int, steps: int = 1) -> Hex:
        """Return the hex ``steps`` hexes away in ``direction`` (1..6).

        :raises ValueError: an unknown direction.
        """
        try:
            dq, dr = DIRECTIONS[direction]
        except KeyError:
            raise ValueError(f"direction must be 1..6, not {direction!r}") from None
        return Hex(self.q + dq * steps, self.r + dr * steps)

    def neighbors(self) -> list[Hex]:
        """Return the six adjacent hexes in direction order 1..6."""
        return [self.neighbor(d) for d in DIRECTIONS]

    def distance(self, other: Hex) -> int:
        """Return the number of hex steps between the two hexes."""
        return (self - other).length()

    def direction_to(self, other: Hex) -> int | None:
        """Return the direction (1..6) in which ``other`` lies on a straight line from
        this hex, or ``None`` when it is not on one of the six lines (or is this hex)."""
        d = other - self
        n = d.length()
        if n == 0:
            return None
        for number, (dq, dr) in DIRECTIONS.items():
            if d.q == dq * n and d.r == dr * n:
                return number
        return None

    def is_direct(self, other: Hex) -> bool:
        """Return True when ``other`` is this hex or lies on one of its six lines."""
        return is_line(other.q - self.q, other.r - self.r)

    def line(self, other: Hex) -> list[Hex]:
        """Return the hexes on the straight line from this hex to ``other``, both ends
        included (cube linear interpolation with a nudge, as Red Blob Games)."""
        n = self.distance(other)
        if n == 0:
            return [self]
        eps = 1e-6
        aq, ar, as_ = self.q + eps, self.r + eps, self.s - 2 * eps
        bq, br, bs = other.q + eps, other.r + eps, other.s - 2 * eps
        out = []
        for i in range(n + 1):
            t = i / n
            out.append(_cube_round(aq + (bq - aq) * t, ar + (br - ar) * t, as_ + (bs - as_) * t))
        return out

    def within(self, radius: int) -> list[Hex]:
        """Return every hex at distance ``radius`` or less, this hex included, sorted."""
        out = []
        for dq in range(-radius, radius + 1):
            for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
                out.append(Hex(self.q + dq, self.r + dr))
        return sorted(out)

    def ring(self, radius: int) -> list[Hex]:
        """Return the hexes at exactly ``radius`` (sorted)."""
        return [h for h in self.within(radius) if self.distance(h) == radius]

    # -- text and drawing ---------------------------------------------------------
    def key(self) -> str:
        """Return the JSON text key ``"q,r"``."""
        return f"{self.q},{self.r}"

    @classmethod
    def parse(cls, text: str) -> Hex:
        """Read ``"q,r"`` (spaces allowed).

        :raises ValueError: not two integers separated by a comma.
        """
        if cls is Hex and type(text) is str:
            return _parse(text)  # remembered: Worms reads the same few keys all the time
        parts = str(text).split(",")
        if len(parts) != 2:
            raise ValueError(f"a hex is written q,r, not {text!r}")
        return cls(int(parts[0].strip()), int(parts[1].strip()))

    def to_pixel(self, size: float) -> tuple[float, float]:
        """Return the centre of this hex on a flat-topped drawing with hexes of
        ``size`` (centre to corner); y grows downwards."""
        return (size * 1.5 * self.q, size * math.sqrt(3) * (self.r + self.q / 2))

    def corners(self, size: float) -> list[tuple[float, float]]:
        """Return the six corners of this hex on a flat-topped drawing."""
        cx, cy = self.to_pixel(size)
        return [
            (cx + size * math.cos(math.radians(60 * i)), cy + size * math.sin(math.radians(60 * i)))
            for i in range(6)
        ]


def _cube_round(fq: float, fr: float, fs: float) -> Hex:
    """Return the hex nearest to fractional cube coordinates."""
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(q, r)


def key(q: int, r: int) -> str:
    """Return the text key ``"q,r"``."""
    return f"{q},{r}"


def is_line(dq: int, dr: int) -> bool:
    """Return True when the axial step ``(dq, dr)`` is zero or runs along one of the six
    directions (one coordinate stays: ``q``, ``r`` or ``s``)."""
    return dq == 0 or dr == 0 or dq == -dr


def step_length(dq: int, dr: int) -> int:
    """Return the number of hex steps of the axial step ``(dq, dr)``."""
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def step(hex_key: str, direction: int, steps: int = 1) -> str:
    """Return the text key of the hex ``steps`` away from ``hex_key`` in ``direction``."""
    return Hex.parse(hex_key).neighbor(direction, steps).key()


def distance(a: str, b: str) -> int:
    """Return the distance between two text keys."""
    return Hex.parse(a).distance(Hex.parse(b))


def iter_direct(origin: Hex, radius: int) -> Iterator[Hex]:
    """Yield ``origin`` then every hex on its six lines up to ``radius`` away."""
    yield origin
    for d in DIRECTIONS:
        for n in range(1, radius + 1):
            yield origin.neighbor(d, n)


@functools.lru_cache(maxsize=4096)
def _parse(text: str) -> Hex:
    """Return :meth:`Hex.parse` of a string, remembered (a Hex is frozen, so one value
    serves every caller; an error is raised each time, never remembered).

    :raises ValueError: not two integers separated by a comma.
    """
    parts = text.split(",")
    if len(parts) != 2:
        raise ValueError(f"a hex is written q,r, not {text!r}")
    return Hex(int(parts[0].strip()), int(parts[1].strip()))
