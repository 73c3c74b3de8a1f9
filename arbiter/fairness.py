"""Provable randomness: seeds, commitments and outcomes derived from them.

Construction (version ``arbiter/v1``), documented in docs/randomness.md so that anyone can
re-derive a game's dice and shuffles from its revealed seed:

- the seed is 32 secret random bytes, chosen when the game is created; its commitment
  is ``sha256(seed)`` in hex, published in the game summary from the start;
- the outcome for the chance event at log position ``seq`` is read from the byte
  stream ``HMAC-SHA256(key=seed, msg=b"arbiter/v1|" + seq (8 bytes, big-endian) +
  counter (8 bytes, big-endian))`` for counter = 0, 1, 2, ... concatenated;
- a uniform integer below ``n`` takes 4 bytes at a time as a big-endian uint32 ``u``
  and rejects ``u >= 2**32 - (2**32 % n)`` (no modulo bias), returning ``u % n``;
- a die with ``f`` faces is ``1 + uniform(f)``; dice are read in spec order;
- a shuffle of ``N`` is Fisher-Yates on ``[0, 1, ..., N-1]``: for ``i`` from ``N-1``
  down to 1, swap item ``i`` with item ``uniform(i + 1)``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator, Mapping
from typing import Any

DOMAIN = b"arbiter/v1|"


def new_seed() -> str:
    """Return a fresh secret seed: 32 random bytes as 64 hex characters."""
    return secrets.token_hex(32)


def commitment(seed_hex: str) -> str:
    """Return the SHA-256 commitment (hex) of a hex seed."""
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def _stream(seed_hex: str, seq: int) -> Iterator[int]:
    """Yield uint32 values from the HMAC-SHA256 stream for event ``seq``."""
    key = bytes.fromhex(seed_hex)
    counter = 0
    while True:
        msg = DOMAIN + seq.to_bytes(8, "big") + counter.to_bytes(8, "big")
        block = hmac.new(key, msg, hashlib.sha256).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i : i + 4], "big")
        counter += 1


class _Uniform:
    """Unbiased integers drawn from one event's stream."""

    def __init__(self, seed_hex: str, seq: int) -> None:
        self._words = _stream(seed_hex, seq)

    def below(self, n: int) -> int:
        """Return a uniform integer in ``0..n-1`` (rejection sampling)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = 2**32 - (2**32 % n)
        while True:
            u = next(self._words)
            if u < limit:
                return u % n


def derive(spec: Mapping[str, Any], seed_hex: str, seq: int) -> list[int]:
    """Return the outcome of chance ``spec`` for event ``seq`` of the seeded game.

    :param spec: ``{"kind": "dice", "faces": [f, ...]}`` or
        ``{"kind": "shuffle", "size": N}`` (see ``engines/base.py``).
    :returns: the dice values (each ``1..f``) or a permutation of ``range(N)``.
    :raises ValueError: an unknown spec kind.
    """
    rng = _Uniform(seed_hex, seq)
    kind = spec.get("kind")
    if kind == "dice":
        return [1 + rng.below(int(f)) for f in spec["faces"]]
    if kind == "shuffle":
        items = list(range(int(spec["size"])))
        for i in range(len(items) - 1, 0, -1):
            j = rng.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return items
    raise ValueError(f"unknown chance kind {kind!r}")
