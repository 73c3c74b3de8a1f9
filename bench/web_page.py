"""A game page in a real browser: time to first byte, full load, page weight.

What it measures: the embedded default (SQLite, filesystem broker; uvicorn and the
Celery workers as in the Procfile, ``common.Stack``) serving one mid-game page of each
engine (a 3-player game, or 2 for Worms, with a few random moves made over REST), opened
``ARBITER_BENCH_PAGE_LOADS`` times (default 30) as the seat to move in headless Chromium
(Debian's ``/usr/bin/chromium`` through Playwright). Each time, a fresh browser context
(empty cache) follows the seat's signed link (the first visit: redirect, page, CSS,
JS), then opens the page again (a repeat visit, CSS and JS cached); the Navigation
Timing API of the repeat visit gives the time to first byte (``responseStart -
requestStart``) and the full load (``loadEventEnd - startTime``), p50 and p95. The
page's weight is that of the first visit: the HTML, and the HTML plus the stylesheet
and the script, as transferred (``transferSize``; the service adds no compression), in
KB. The first of the loads only warms the server and is not counted. The figures are
noisy on a shared machine.

Run alone: ``.venv/bin/python bench/web_page.py``.
"""

from __future__ import annotations

import os
import random
import sys

import common
import requests

from engines import ENGINE_MODULES

LOADS = int(os.environ.get("ARBITER_BENCH_PAGE_LOADS", "30"))
CHROMIUM = os.environ.get("ARBITER_CHROMIUM", "/usr/bin/chromium")
TIMING = """() => {
  const n = performance.getEntriesByType("navigation")[0];
  const r = performance.getEntriesByType("resource");
  return {ttfb: n.responseStart - n.requestStart, load: n.loadEventEnd - n.startTime,
          bytes: n.transferSize + r.reduce((a, e) => a + e.transferSize, 0),
          html: n.transferSize};
}"""


def mid_game(url: str, engine: str, rng: random.Random) -> tuple[str, str]:
    """Create a game, make a few random moves over REST; return the game id and the
    signed link of a seat to move."""
    import time

    players = 2 if engine == "worms" else 3
    game = requests.post(
        f"{url}/v1/games",
        timeout=30,
        json={"engine": engine, "players": [{"name": f"P{i}"} for i in range(players)]},
    ).json()
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    moves = 0
    while moves < 6:
        s = requests.get(f"{url}/v1/games/{game['id']}", timeout=30).json()
        if not s["to_act"]:
            time.sleep(0.1)
            continue
        seat = s["to_act"][0]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        legal = requests.get(
            f"{url}/v1/games/{game['id']}/legal-moves", headers=auth, timeout=30
        ).json()
        requests.post(
            f"{url}/v1/games/{game['id']}/moves",
            headers=auth,
            timeout=30,
            json={"move": rng.choice(legal["moves"])},
        )
        moves += 1
    while True:
        s = requests.get(f"{url}/v1/games/{game['id']}", timeout=30).json()
        if s["to_act"] or s["status"] == "over":
            break
        time.sleep(0.1)
    seat = (s["to_act"] or [0])[0]
    return game["id"], game["seats"][seat]["link"]


def main(argv: list[str] | None = None) -> None:
    report = common.Report("web_page", argv)
    if not os.access(CHROMIUM, os.X_OK):
        report.skip("all", f"no Chromium at {CHROMIUM}")
        report.done()
        return
    from playwright.sync_api import sync_playwright

    print(
        f"web_page: a game page in Chromium, {LOADS} loads per engine ({common.machine()})",
        flush=True,
    )
    with (
        common.instance_dir("web") as folder,
        common.Stack(folder) as stack,
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        rng = random.Random(1)
        for engine in ENGINE_MODULES:
            game_id, link = mid_game(stack.url, engine, rng)
            rows = []
            for _ in range(LOADS + 1):
                context = browser.new_context()
                page = context.new_page()
                page.goto(link, wait_until="load")  # sets the seat's cookie: first visit
                first = page.evaluate(TIMING)
                page.goto(f"{stack.url}/games/{game_id}", wait_until="load")
                rows.append({**page.evaluate(TIMING), "first": first})
                context.close()
            rows = rows[1:]  # the first load warms the server
            ttfb = [r["ttfb"] / 1000 for r in rows]
            load = [r["load"] / 1000 for r in rows]
            report.add(
                engine,
                "TTFB p50 / p95",
                f"{common.ms(common.percentile(ttfb, 50))} / "
                f"{common.ms(common.percentile(ttfb, 95))}",
            )
            report.add(
                engine,
                "full load p50 / p95",
                f"{common.ms(common.percentile(load, 50))} / "
                f"{common.ms(common.percentile(load, 95))}",
            )
            first = rows[-1]["first"]
            report.add(
                engine,
                "page weight: HTML; first visit with CSS + JS",
                f"{first['html'] / 1024:.1f} KB; {first['bytes'] / 1024:.1f} KB",
            )
        browser.close()
    report.done()


if __name__ == "__main__":
    main(sys.argv[1:])
