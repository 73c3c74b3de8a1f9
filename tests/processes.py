"""Starting and stopping the service's real processes (web, celery worker, beat)
for integration tests, with their output in log files."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import requests

BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parents[1]


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


def web_command(port: int) -> list:
    """Return the Procfile's ``web`` command as written, listening on
    127.0.0.1:``port`` (``$HOST`` and ``$PORT`` filled in)."""
    line = next(line for line in (ROOT / "Procfile").read_text().splitlines()
                if line.startswith("web:"))
    words = shlex.split(line.removeprefix("web:"))
    filled = [re.sub(r"\$\{HOST(:-[^}]*)?\}", "127.0.0.1",
                     re.sub(r"\$\{PORT(:-[^}]*)?\}", str(port), w)) for w in words]
    return [BIN / filled[0], *filled[1:]]


def celery_commands(folder: Path) -> dict[str, list]:
    """Return the ``worker`` and ``beat`` commands of the Procfile, beat's schedule file
    in ``folder``."""
    return {
        "worker": [BIN / "celery", "-A", "workers.worker", "worker", "--loglevel=INFO",
                   "--concurrency=2"],
        "beat": [BIN / "celery", "-A", "workers.worker", "beat", "--loglevel=INFO",
                 "--schedule", str(folder / "beat-schedule")],
    }


def wait_until_up(url: str, procs: list[subprocess.Popen], seconds: float = 60) -> None:
    """Wait until ``url`` answers ``/v1/engines``.

    :raises RuntimeError: a process exited, or nothing answered within ``seconds``.
    """
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for proc in procs:
            if proc.poll() is not None:
                raise RuntimeError(f"{proc.args} exited with {proc.returncode}")
        try:
            if requests.get(f"{url}/v1/engines", timeout=10).ok:
                return
        except requests.RequestException:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not come up")


def service_env(folder: Path, port: int, database_url: str | None = None,
                broker_url: str | None = None, **extra: str) -> dict:
    """Return the environment of a service whose instance folder is ``folder``
    (SQLite and the filesystem broker unless URLs are given)."""
    env = {**os.environ, "ARBITER_INSTANCE_PATH": str(folder / "instance"),
           "BASE_URL": f"http://127.0.0.1:{port}", "PATH": f"{BIN}:{os.environ['PATH']}",
           "SECRET_KEY": "test-only-secret-key", **extra}
    for key, value in (("DATABASE_URL", database_url), ("CELERY_BROKER_URL", broker_url)):
        if value:
            env[key] = value
        else:
            env.pop(key, None)
    return env


def serve(folder: Path, port: int, env: dict, celery: bool = True) -> list[subprocess.Popen]:
    """Migrate the database, start web (and worker + beat) and wait until it answers;
    return the processes (stop them with :func:`stop`)."""
    subprocess.run([BIN / "arbiter", "db-upgrade"], env=env, check=True, capture_output=True)
    commands = {"web": web_command(port)}
    if celery:
        commands.update(celery_commands(folder))
    procs = start(commands, env, folder / "logs")
    try:
        wait_until_up(f"http://127.0.0.1:{port}", procs)
    except RuntimeError:
        stop(procs)
        raise
    return procs
