"""Board pictures of each engine: SVG size and render time.

What it measures: for every engine in the registry, the states of one seeded random
game (``arbiter.playout.random_game``, seed 7, 3 players where the engine allows it,
else its largest count below) at every input, each drawn for seat 0 through the
engine's own ``view`` + ``board_svg`` (no database, no HTTP). Reported: the SVG's size
in KB at mid-game (median over the states) and the largest, and the time to build one
picture (view + SVG text), p50 and p95 over every state; when cairosvg is installed,
the time to rasterise the mid-game picture to a 720-pixel-wide PNG (what a turn mail
attaches), p50 of ``RASTERS``; and when Chromium is at ``ARBITER_CHROMIUM`` (default
``/usr/bin/chromium``), the time a browser takes to draw the mid-game picture: a page
holding only the inline SVG, served from memory (Playwright's ``route``) to headless
Chromium at phone width, from the end of its response to its first contentful paint
(Paint Timing; parse, style, layout and paint), p50 and p95 of ``ARBITER_BENCH_SVG_PAINTS``
loads (default 20; the first, a warm-up, not counted), next to the same figure for a
page with one line of text instead (the browser's fixed cost). The whole game page in a browser
is ``bench/web_page.py``.

Run alone: ``.venv/bin/python bench/board_svg.py``.
"""

from __future__ import annotations

import os
import random
import sys
import time

import common  # noqa: F401 - puts the repository on sys.path

import engines
from arbiter.playout import random_game

CHROMIUM = os.environ.get("ARBITER_CHROMIUM", "/usr/bin/chromium")
PAINTS = int(os.environ.get("ARBITER_BENCH_SVG_PAINTS", "20"))
RASTERS = 5
PAINTED = """() => {
  const n = performance.getEntriesByType("navigation")[0];
  const f = performance.getEntriesByName("first-contentful-paint")[0];
  return f.startTime - n.responseEnd;
}"""


def players_for(engine) -> int:
    """Return 3 when the engine takes it, else its nearest count."""
    return min(max(3, engine.min_players), engine.max_players)


def paint_times(browser, svg: str) -> list[float]:
    """Return the seconds from response to first contentful paint of a page holding
    only ``svg``, over ``PAINTS`` loads (after one warm-up) in a fresh page each."""
    doc = f"<!doctype html><html lang=en><title>board</title><body>{svg}</body></html>"
    times = []
    for _ in range(PAINTS + 1):
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.route(
            "http://bench.invalid/board",
            lambda route: route.fulfill(body=doc, content_type="text/html"),
        )
        page.goto("http://bench.invalid/board", wait_until="load")
        page.wait_for_function("performance.getEntriesByName('first-contentful-paint').length > 0")
        times.append(page.evaluate(PAINTED) / 1000)
        page.close()
    return times[1:]


def raster_times(svg: str) -> list[float] | None:
    """Return the seconds cairosvg takes to make a 720-pixel-wide PNG of ``svg``,
    ``RASTERS`` times; None without cairosvg."""
    try:
        import cairosvg
    except ImportError:
        return None
    times = []
    for _ in range(RASTERS):
        started = time.perf_counter()
        cairosvg.svg2png(bytestring=svg.encode(), output_width=720)
        times.append(time.perf_counter() - started)
    return times


def main(argv: list[str] | None = None) -> None:
    report = common.Report("board_svg", argv)
    browser = playwright = None
    if os.access(CHROMIUM, os.X_OK):
        from playwright.sync_api import sync_playwright

        playwright = sync_playwright().start()
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        paints = paint_times(browser, "<p>No picture.</p>")  # the fixed cost of a page
        report.add(
            "(a page without picture)",
            "browser paint ms p50 / p95 (Chromium)",
            f"{common.ms(common.percentile(paints, 50))} / "
            f"{common.ms(common.percentile(paints, 95))}",
        )
    else:
        report.skip("browser paint", f"no Chromium at {CHROMIUM}")
    print(f"board_svg: each engine's picture, size and build time ({common.machine()})", flush=True)
    for engine in engines.all_engines():
        game = random_game(engine, players_for(engine), rng=random.Random(7), keep_states=True)
        sizes, times = [], []
        for state in game.states:
            started = time.perf_counter()
            svg = engine.board_svg(engine.view(state, 0))
            times.append(time.perf_counter() - started)
            sizes.append(len(svg.encode()))
        case = f"{engine.id} x{players_for(engine)}"
        report.add(
            case,
            "SVG KB (median, max)",
            f"{sorted(sizes)[len(sizes) // 2] / 1024:.1f}, {max(sizes) / 1024:.1f}",
        )
        report.add(
            case,
            "build ms p50 / p95 (view + SVG)",
            f"{common.ms(common.percentile(times, 50))} / "
            f"{common.ms(common.percentile(times, 95))}",
        )
        mid = engine.board_svg(engine.view(game.states[len(game.states) // 2], 0))
        rasters = raster_times(mid)
        if rasters:
            report.add(
                case,
                "PNG raster ms p50 (cairosvg, 720 px)",
                common.ms(common.percentile(rasters, 50)),
            )
        if browser:
            paints = paint_times(browser, mid)
            report.add(
                case,
                "browser paint ms p50 / p95 (Chromium)",
                f"{common.ms(common.percentile(paints, 50))} / "
                f"{common.ms(common.percentile(paints, 95))}",
            )
    if browser:
        browser.close()
        playwright.stop()
    report.done()


if __name__ == "__main__":
    main(sys.argv[1:])
