"""Starting and stopping the service's real processes (gunicorn, celery worker, beat)
for integration tests, with their output in log files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent


def start(commands: dict[str, list], env: dict, logs: Path) -> list[subprocess.Popen]:
    """Start each named command with ``env``, its output in ``logs/<name>.log``."""
    logs.mkdir(parents=True, exist_ok=True)
    procs = []
    for name, cmd in commands.items():
        out = open(logs / f"{name}.log", "w")
        procs.append(subprocess.Popen([str(c) for c in cmd], env=env, stdout=out,
                                      stderr=subprocess.STDOUT))
    return procs


def stop(procs: list[subprocess.Popen], grace_seconds: float = 20) -> None:
    """Terminate the processes; kill any that outlive ``grace_seconds``."""
    for proc in procs:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=grace_seconds)
        except subprocess.TimeoutExpired:
            proc.kill()


def celery_commands(folder: Path) -> dict[str, list]:
    """Return the ``worker`` and ``beat`` commands of the Procfile, beat's schedule file
    in ``folder``."""
    return {
        "worker": [BIN / "celery", "-A", "workers.worker", "worker", "--loglevel=INFO",
                   "--concurrency=2"],
        "beat": [BIN / "celery", "-A", "workers.worker", "beat", "--loglevel=INFO",
                 "--schedule", str(folder / "beat-schedule")],
    }
