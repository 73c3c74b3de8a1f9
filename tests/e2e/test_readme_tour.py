"""The README's and the docs' tour runs as written: every shell block marked
``<!-- tour -->`` in README.md, then in the docs' pages in the order of their navigation
(``mkdocs.yml``), is run, in order, by bash against a live service (the Procfile's
processes on the embedded default), as a new user pasting them would; then the game it
played is checked, and what the Streams section's two streams sent."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import requests
import yaml

from tests import processes
from tests.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]
README_URL = "http://127.0.0.1:${PORT:-8000}"
"""The tour's address of the service, replaced by the live one."""


def tour_blocks(text: str) -> list[str]:
    """Return the shell blocks that follow a ``<!-- tour -->`` line, in order."""
    return re.findall(r"<!-- tour -->\n```sh\n(.*?)```", text, flags=re.S)


def pages() -> list[Path]:
    """Return README.md, then the docs' pages in the order of the navigation (the
    generated rulebook pages left out)."""

    def walk(nav) -> list[str]:
        if isinstance(nav, str):
            return [nav]
        if isinstance(nav, dict):
            return [p for value in nav.values() for p in walk(value)]
        return [p for item in nav for p in walk(item)]

    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text())["nav"]
    docs = [ROOT / "docs" / p for p in walk(nav) if (ROOT / "docs" / p).exists()]
    return [ROOT / "README.md", *docs]


def tour() -> list[str]:
    """Return every tour block of :func:`pages`, in order."""
    return [block for page in pages() for block in tour_blocks(page.read_text())]


def test_the_readme_has_a_tour():
    blocks = tour()
    assert len(blocks) >= 3 and any("/moves" in b for b in blocks)
    assert tour_blocks((ROOT / "README.md").read_text())


def test_every_shell_block_is_run_or_says_why_not():
    """A shell block of the README or the docs is run by the tour (``<!-- tour -->``
    above it) or says why it is not (``<!-- not run: why -->``: a second service,
    another machine, root, weeks of play); a new one that says neither fails here."""
    silent = []
    for page in pages():
        lines = page.read_text().splitlines()
        for number, line in enumerate(lines):
            if re.fullmatch(r" *```(sh|bash|shell|console)", line):
                if not said_of_block(lines[:number]):
                    silent.append(f"{page.relative_to(ROOT)}:{number + 1}")
    assert not silent, silent


def said_of_block(before: list[str]) -> bool:
    """True when the comment lines just above a block (past one blank line: a marker
    inside a list item) hold ``<!-- tour -->`` or ``<!-- not run: why -->``."""
    above = [text.strip() for text in before]
    while above and not above[-1]:
        above.pop()
    while above and above[-1].startswith("<!--"):
        marker = above.pop()
        if marker == "<!-- tour -->" or re.fullmatch(r"<!-- not run: .+ -->", marker):
            return True
    return False


def test_the_readme_is_a_front_door():
    # issue 27, item 4: under 150 lines, and every file it links to is in the checkout
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) < 150
    links = re.findall(r"\]\(([^)#]+)\)", text)
    assert links, "the README links to the docs"
    missing = [link for link in links if "://" not in link and not (ROOT / link).exists()]
    assert not missing, missing


@pytest.fixture
def live(tmp_path):
    """The service on its own port, in its own folder; yields its URL."""
    port = free_port()
    env = processes.service_env(tmp_path, port)
    procs = processes.serve(tmp_path, port, env)
    yield f"http://127.0.0.1:{port}", env
    processes.stop(procs)


def test_the_tour_runs_as_pasted(live, tmp_path):
    # the reader's shell is the one `make run` was started from (so `arbiter outbox`
    # reads the service's database): here, the service's environment
    live, env = live
    if shutil.which("curl") is None:
        pytest.fail("curl is not installed (.ci/run installs it)")
    user = tmp_path / "user"
    user.mkdir()
    (user / ".venv").symlink_to(ROOT / ".venv")
    script = "\n".join(tour())
    script = script.replace(README_URL, live) + '\necho "TOUR-GAME=$ID TOUR-DIR=$TOUR"\n'
    done = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", script],
        cwd=user,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert output.count("OK: seed matches its commitment") == 2, output
    assert '"code"' not in done.stdout, output  # no problem+json answer on the way
    game_id = re.search(r"TOUR-GAME=(\w+)", output).group(1)
    files = Path(re.search(r"TOUR-DIR=(\S+)", output).group(1))
    # the tour leaves in the reader's folder only what git ignores (issue 27, item 4)
    assert {p.name for p in user.iterdir()} <= {".venv", "records"}, list(user.iterdir())
    record = requests.get(f"{live}/v1/games/{game_id}/record", timeout=30).json()
    moves = [e for e in record["events"] if e["kind"] == "move"]
    assert [m["seat"] for m in moves[:2]] == [0, 1]
    assert any(e["kind"] == "resigned" and e["seat"] == 1 for e in record["events"])
    # Accounts: signed in by the mailed link read with `arbiter outbox`, a token made and revoked
    session = json.loads((files / "session.json").read_text())
    assert session["account"]["email"] == "ann@example.org", output
    assert session["token"]["token"].startswith("arb_"), output
    assert (files / "record.json").exists() and list((user / "records").glob("space-worm-*.json"))
    # Streams: the first stream sends the whole log, the resumed one only after event 3
    last = len(record["events"])
    assert output.count("\nevent: game-over\n") == 2, output
    assert output.count("\nid: 3\n") == 1 and output.count(f"\nid: {last}\n") == 2, output
    # the account's stream saw Ann resign her game within its window, each line with
    # a cursor (the reconnection then sent it, with nothing new)
    lines = [
        json.loads(line) for line in (files / "me.ndjson").read_text().splitlines() if line.strip()
    ]
    kinds = [line["kind"] for line in lines]
    assert "resigned" in kinds and "game-over" in kinds, lines
    assert all(line["cursor"] for line in lines)
    assert "JSONDecodeError" not in output and "Traceback" not in output, output
