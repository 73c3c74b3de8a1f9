"""Board pictures of each engine: SVG size and render time.

What it measures: for every engine in the registry, the states of one seeded random
game (``arbiter.playout.random_game``, seed 7, 3 players where the engine allows it,
else its largest count below) at every input, each drawn for seat 0 through the
engine's own ``view`` + ``board_svg`` (no database, no HTTP). Reported: the SVG's size
in KB at mid-game (median over the states) and the largest, and the time to build one
picture (view + SVG text), p50 and p95 over every state; when cairosvg is installed,
also the time to rasterise the mid-game picture to a 720-pixel-wide PNG (what a
browser does is not measured here: see ``bench/web_page.py``).

Run alone: ``.venv/bin/python bench/board_svg.py``.
"""

from __future__ import annotations

import random
import sys
import time

import common  # noqa: F401 - puts the repository on sys.path

import engines
from arbiter.playout import random_game


def players_for(engine) -> int:
    """Return 3 when the engine takes it, else its nearest count."""
    return min(max(3, engine.min_players), engine.max_players)


def main(argv: list[str] | None = None) -> None:
    report = common.Report("board_svg", argv)
    print(f"board_svg: each engine's picture, size and build time ({common.machine()})",
          flush=True)
    for engine in engines.all_engines():
        game = random_game(engine, players_for(engine), rng=random.Random(7),
                           keep_states=True)
        sizes, times = [], []
        for state in game.states:
            started = time.perf_counter()
            svg = engine.board_svg(engine.view(state, 0))
            times.append(time.perf_counter() - started)
            sizes.append(len(svg.encode()))
        case = f"{engine.id} x{players_for(engine)}"
        report.add(case, "SVG KB (median, max)",
                   f"{sorted(sizes)[len(sizes) // 2] / 1024:.1f}, {max(sizes) / 1024:.1f}")
        report.add(case, "build ms p50 / p95 (view + SVG)",
                   f"{common.ms(common.percentile(times, 50))} / "
                   f"{common.ms(common.percentile(times, 95))}")
        try:
            import cairosvg
        except ImportError:
            continue
        mid = engine.board_svg(engine.view(game.states[len(game.states) // 2], 0))
        started = time.perf_counter()
        cairosvg.svg2png(bytestring=mid.encode(), output_width=720)
        report.add(case, "PNG raster ms (cairosvg, 720 px)",
                   common.ms(time.perf_counter() - started))
    report.done()


if __name__ == "__main__":
    main(sys.argv[1:])
