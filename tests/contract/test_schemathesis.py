"""Schemathesis, the OpenAPI fuzzer, run against the live service with every check:
its examples, coverage, fuzzing and stateful phases (following the contract's links
create -> read -> legal moves -> move), reaching real games with real tokens through
``tests/contract/hooks.py`` (a signed-in account's personal token on ``/v1/me/...``
and on creations: the sign-in mail goes to a real SMTP server on loopback). Any finding
fails the test.

On SQLite with the filesystem broker always; on PostgreSQL with Redis when
``ARBITER_TEST_POSTGRES_URL`` and ``ARBITER_TEST_REDIS_URL`` are set. The budget is
``ARBITER_FUZZ_EXAMPLES`` generated cases per operation and phase (default 15, about a
minute and a half; ``make soak`` runs 300) with seed ``ARBITER_FUZZ_SEED`` (default 16, so a
failure replays). Each run prints its figures: operations tested, cases generated,
findings (``pytest -s`` shows them; the JSON report is kept in the test's folder).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests import processes
from tests.conftest import REDIS_URL, free_port, need
from tests.contract.seed import seed
from tests.smtp_server import BreakableSmtp

HERE = Path(__file__).parent
NEVER_ENDS = ["/v1/games/{game_id}/stream"]
"""Operations whose answer never ends (Server-Sent Events: a request/response fuzzer
would wait forever on a real game); their own tests are tests/arbiter/streams/test_streams.py and
test_stream_hub.py."""
EXAMPLES = os.environ.get("ARBITER_FUZZ_EXAMPLES", "15")
SEED = os.environ.get("ARBITER_FUZZ_SEED", "16")


def run_schemathesis(url: str, fixtures: Path, folder: Path) -> dict:
    """Run ``st run`` with every check against ``url``; return its JSON report."""
    env = {
        **os.environ,
        "SCHEMATHESIS_HOOKS": "tests.contract.hooks",
        "ARBITER_FUZZ_FIXTURES": str(fixtures),
    }
    command = [
        processes.BIN / "st",
        "--config-file",
        HERE / "schemathesis.toml",
        "--no-color",
        "run",
        f"{url}/openapi.json",
        "--checks",
        "all",
        "--max-examples",
        EXAMPLES,
        "--seed",
        SEED,
        "--workers",
        "1",
        "--request-timeout",
        "40",
        # generating a 500-game bulk body is slow on a loaded machine: that is
        # hypothesis's own health check, not a finding about the API
        "--suppress-health-check",
        "too_slow",
        "--report",
        "json",
        "--report-json-path",
        folder / "report.json",
    ]
    for path in NEVER_ENDS:
        command += ["--exclude-path", path]
    done = subprocess.run(
        [str(c) for c in command], env=env, cwd=HERE.parents[1], capture_output=True, text=True
    )
    (folder / "schemathesis.log").write_text(done.stdout + done.stderr)
    report = json.loads((folder / "report.json").read_text())
    report["output"] = done.stdout[-20000:] + done.stderr[-5000:]
    return report


def figures(backend: str, report: dict) -> str:
    """Return the run's figures as one line."""
    ops, cases = report["operations"], report["test_cases"]
    return (
        f"schemathesis on {backend}: {ops['tested']}/{ops['total']} operations, "
        f"{cases['generated']} cases, {len(report['failures'])} findings, "
        f"{len(report['errors'])} errors, {report['running_time']:.0f} s"
    )


def fuzz(
    tmp_path: Path, backend: str, database_url: str | None = None, broker_url: str | None = None
) -> None:
    """Start the service, seed games, fuzz it; fail on any finding."""
    port = free_port()
    smtp = BreakableSmtp()  # the sign-in links of the seeded accounts come by mail
    smtp.start()
    env = processes.service_env(tmp_path, port, database_url, broker_url, SMTP_URL=smtp.url)
    # /metrics is off (404) without a token; fuzz it as production runs it: token-protected.
    env["METRICS_TOKEN"] = "fuzz-metrics-token-not-given-to-schemathesis"
    procs = processes.serve(tmp_path, port, env)
    try:
        url = f"http://127.0.0.1:{port}"
        report = run_schemathesis(url, seed(url, tmp_path, smtp.inbox), tmp_path)
    finally:
        processes.stop(procs)
        smtp.stop()
    line = figures(backend, report)
    print(line)
    ops = report["operations"]
    assert ops["tested"] == ops["selected"] == ops["total"] - len(NEVER_ENDS) > 0, line
    assert report["test_cases"]["generated"] > 0, line
    assert not report["failures"] and not report["errors"] and report["exit_code"] == 0, (
        f"{line}\n{report['output']}"
    )


@pytest.mark.soak  # make test runs the other backend; make soak both
def test_schemathesis_finds_nothing_on_sqlite(tmp_path):
    """Given SQLite and the filesystem broker, every check passes on every case."""
    fuzz(tmp_path, "sqlite")


@pytest.mark.postgres
@pytest.mark.redis
def test_schemathesis_finds_nothing_on_postgres(tmp_path, postgres_url):
    """Given PostgreSQL and Redis, every check passes on every case."""
    import redis

    broker = need(REDIS_URL, "Redis", "ARBITER_TEST_REDIS_URL")
    redis.Redis.from_url(broker).flushdb()
    fuzz(tmp_path, "postgres", postgres_url, broker)
