"""A game page outlives its web process (issue 30, item 3): in Debian's Chromium, an
open game page whose web process is stopped, and whose address then answers 502 as a
balancer does while its backend is gone (which closes an EventSource for good), says
that it is reconnecting, and once a web process answers again on the same address the
page follows the game again (a move made meanwhile and one made after) without being
reloaded.

The stack is the test's own (web, worker, mailer, hooks and beat on the embedded default):
its web process is stopped and started again, which the module-wide ``service`` of
``test_browser.py`` must not see."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import requests

from tests import processes
from tests.conftest import free_port
from tests.e2e.conftest import create
from tests.e2e.test_browser import fresh_page, settled

# no xdist_group: its stack is its own, so it runs beside test_browser.py's module


def wait_for(check, seconds: float = 60, what: str = "the condition"):
    """Poll ``check()`` every 0.2 s until it returns a true value; return it."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"{what} did not happen within {seconds} s")


def play_one(url: str, game: dict) -> int:
    """Play the first legal move of the seat on turn over REST; return the version the
    game settles at (after the worker's rolls)."""
    s = settled(url, game["id"])
    auth = {"Authorization": f"Bearer {game['seats'][s['to_act'][0]]['token']}"}
    legal = requests.get(
        f"{url}/v1/games/{game['id']}/legal-moves", headers=auth, timeout=30
    ).json()
    answer = requests.post(
        f"{url}/v1/games/{game['id']}/moves",
        headers=auth,
        timeout=30,
        json={"move": legal["moves"][0], "expected_version": legal["version"]},
    )
    assert answer.status_code == 201, answer.text
    return settled(url, game["id"])["version"]


class Balancer(BaseHTTPRequestHandler):
    """Answers every request 502 as a load balancer does while no backend is up, and
    counts the requests for game streams."""

    streams = 0

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if "/stream" in self.path:
            type(self).streams += 1
        body = b"<html><body>502 Bad Gateway</body></html>"
        self.send_response(502)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        """Quiet."""


def page_version(page) -> int:
    """Return the game version the page shows."""
    return int(page.locator("main").get_attribute("data-version"))


def test_the_page_reconnects_after_its_web_process_comes_back(
    tmp_path, new_context, screenshots
) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = processes.service_env(tmp_path, port, OPEN_CREATION="1")
    env.pop("SMTP_URL", None)
    workers = processes.serve(tmp_path, port, env)
    web, rest = workers[0], workers[1:]
    try:
        game = create(url, "dark-horse", 2)
        page = fresh_page(new_context)
        page.goto(f"{url}/games/{game['id']}")
        page.evaluate("window.notReloaded = true")
        notice = page.locator("p.reconnecting")
        assert notice.is_hidden()
        version = page_version(page)

        processes.stop([web])
        wait_for(notice.is_visible, what="the reconnecting notice")
        assert "reconnecting" in notice.inner_text()
        balancer = ThreadingHTTPServer(("127.0.0.1", port), Balancer)
        threading.Thread(target=balancer.serve_forever, daemon=True).start()
        try:
            wait_for(lambda: Balancer.streams >= 2, what="two streams answered 502")
            page.screenshot(path=str(screenshots / "reconnecting.png"))
            assert notice.is_visible()
        finally:
            balancer.shutdown()
            balancer.server_close()

        web = processes.start({"web": processes.web_command(port, env)}, env, tmp_path / "web2")[0]
        processes.wait_until_up(url, [web])
        moved = play_one(url, game)
        assert moved > version
        wait_for(lambda: page_version(page) >= moved, what="the page following the move")
        wait_for(notice.is_hidden, what="the notice going away")
        later = play_one(url, game)
        wait_for(lambda: page_version(page) >= later, what="the page following a later move")
        assert page.evaluate("window.notReloaded") is True
    finally:
        processes.stop([web, *rest])
