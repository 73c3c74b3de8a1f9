"""Run every benchmark and print a summary table (``make bench``).

Each benchmark runs as its own process (``bench/<name>.py --json FILE``), prints its
figures as it goes, and hands them back through the JSON file; this script then
prints one table of all figures, the notes (limits reached, anomalies), and the
machine's load before and after, since other work on the machine moves the figures.
A benchmark that runs past its time limit is interrupted (Ctrl-C, so it stops its
servers and drops its schema) and reported as such.

Usage: ``.venv/bin/python bench/run_all.py [name ...]`` (default: all, in the order
below). The whole run takes about three to four minutes.
"""

from __future__ import annotations

import json
import os
import platform
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import common

BENCHMARKS = [
    "playouts",
    "load_vs_log",
    "http_moves",
    "chance_delay",
    "clock_sweep",
    "bulk_games",
    "board_svg",
    "swiss_pairing",
    "web_page",
    "baseline",
    "mail_delay",
    "mail_drain",
    "webhook_delay",
    "auth_cost",
]
LIMIT_SECONDS = float(os.environ.get("ARBITER_BENCH_LIMIT", "200"))


def run(name: str) -> tuple[list[dict], list[str], float]:
    """Run one benchmark; return its rows, notes and duration."""
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="arbiter-bench-run-") as tmp:
        out = Path(tmp) / f"{name}.json"
        proc = subprocess.Popen(
            [sys.executable, str(common.BENCH / f"{name}.py"), "--json", str(out)],
            cwd=common.ROOT,
            start_new_session=True,
        )
        try:
            proc.wait(timeout=LIMIT_SECONDS)
        except KeyboardInterrupt:  # Ctrl-C does not reach its own session: pass it on
            interrupt(proc)
            raise
        except subprocess.TimeoutExpired:
            interrupt(proc)
            return (
                [
                    {
                        "bench": name,
                        "case": "-",
                        "figure": "error",
                        "value": f"interrupted after {LIMIT_SECONDS} s",
                    }
                ],
                [],
                time.monotonic() - started,
            )
        if not out.exists():
            return (
                [
                    {
                        "bench": name,
                        "case": "-",
                        "figure": "error",
                        "value": f"exited with status {proc.returncode}, no figures",
                    }
                ],
                [],
                time.monotonic() - started,
            )
        data = json.loads(out.read_text())
    return data["rows"], data["notes"], time.monotonic() - started


def interrupt(proc: subprocess.Popen) -> None:
    """Stop a benchmark: Ctrl-C first (it stops its servers and drops its schema),
    then SIGTERM to its own session (only processes it started) if it lingers."""
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=45)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)


def table(rows: list[dict]) -> str:
    """Return the rows as an aligned text table."""
    head = {"bench": "benchmark", "case": "case", "figure": "figure", "value": "value"}
    keys = ["bench", "case", "figure", "value"]
    widths = {k: max(len(str(r[k])) for r in [head, *rows]) for k in keys[:-1]}
    lines = []
    for i, row in enumerate([head, *rows]):
        bench = row["bench"] if i == 0 or row["bench"] != rows[i - 2]["bench"] or i == 1 else ""
        cells = [
            bench.ljust(widths["bench"]),
            str(row["case"]).ljust(widths["case"]),
            str(row["figure"]).ljust(widths["figure"]),
            str(row["value"]),
        ]
        lines.append("  ".join(cells).rstrip())
        if i == 0:
            lines.append("-" * min(120, len(lines[0]) + 20))
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    names = argv or BENCHMARKS
    unknown = [n for n in names if n not in BENCHMARKS]
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; known: {', '.join(BENCHMARKS)}")
        return 2
    before = common.machine()
    print(
        f"Arbiter benchmarks, {time.strftime('%Y-%m-%d %H:%M:%S')}, Python "
        f"{platform.python_version()}, {before}\n",
        flush=True,
    )
    rows, notes = [], []
    for name in names:
        print(f"== {name}", flush=True)
        got, remarks, seconds = run(name)
        print(f"   ({seconds:.0f} s)\n", flush=True)
        rows += got
        notes += [f"{name}: {n}" for n in remarks]
    print("== summary\n")
    print(table(rows))
    if notes:
        print("\nnotes:")
        for note in notes:
            print(f"- {note}")
    print(f"\nmachine before: {before}\nmachine after:  {common.machine()}")
    print("(other processes on the machine change these figures: compare runs on a quiet machine)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
