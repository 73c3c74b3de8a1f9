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

from arbiter.settings import environment

BIN = Path(sys.executable).parent
PROCFILE = Path(__file__).resolve().parent.parent / "Procfile"


SHELL_VARIABLE = re.compile(r"\$\{(\w+)(?::-([^}]*))?\}")
"""A ``${NAME}`` or ``${NAME:-default}`` in a Procfile argument (honcho runs each line
in a shell; the tests start the argv themselves)."""


def expand(argv: list, env: dict) -> list[str]:
    """Return ``argv`` as strings, each ``${NAME:-default}`` replaced as a shell would
    with ``env``."""

    def value(match: re.Match) -> str:
        return env.get(match.group(1)) or (match.group(2) or "")

    return [SHELL_VARIABLE.sub(value, str(arg)) for arg in argv]


def start(commands: dict[str, list], env: dict, logs: Path) -> list[subprocess.Popen]:
    """Start each named command with ``env``, its output in ``logs/<name>.log``."""
    logs.mkdir(parents=True, exist_ok=True)
    procs = []
    for name, cmd in commands.items():
        out = open(logs / f"{name}.log", "w")
        procs.append(
            subprocess.Popen([str(c) for c in cmd], env=env, stdout=out, stderr=subprocess.STDOUT)
        )
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


def procfile() -> dict[str, list[str]]:
    """Return the ``Procfile``'s processes as ``{name: argv}`` (unexpanded)."""
    out = {}
    for line in PROCFILE.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, command = line.split(":", 1)
            out[name.strip()] = shlex.split(command)
    return out


def web_command(port: int, env: dict | None = None) -> list:
    """Return the Procfile's ``web`` process as a command of this virtualenv, listening
    on 127.0.0.1:``port``, its ``${NAME:-default}`` arguments expanded from ``env``
    (default ``os.environ``) as honcho's shell would."""
    argv = procfile()["web"]
    out = [BIN / argv[0]]
    for arg in argv[1:]:
        if "PORT" in arg:
            arg = str(port)
        elif arg == "0.0.0.0" or "HOST" in arg:
            arg = "127.0.0.1"
        out.append(arg)
    return [out[0], *expand(out[1:], os.environ if env is None else env)]


def celery_commands(folder: Path) -> dict[str, list]:
    """Return the Procfile's Celery processes (the ``worker`` for dice and deadlines,
    the ``mailer`` for mail, ``hooks`` for web hooks, ``beat``) as commands of this
    virtualenv, beat's schedule file in ``folder``."""
    commands = {}
    for name, argv in procfile().items():
        if argv[0] != "celery":
            continue
        commands[name] = [BIN / "celery", *argv[1:]]
        if "beat" in argv:
            commands[name] += ["--schedule", str(folder / "beat-schedule")]
    return commands


def wait_until_up(url: str, procs: list[subprocess.Popen], seconds: float = 180) -> None:
    """Wait until ``url`` answers ``/v1/engines`` (the one wait of every test that starts
    the service; on a loaded 2-core machine uvicorn's workers can take over a minute).

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


def service_env(
    folder: Path,
    port: int,
    database_url: str | None = None,
    broker_url: str | None = None,
    **extra: str,
) -> dict:
    """Return the environment of a service whose instance folder is ``folder``
    (SQLite and the filesystem broker unless URLs are given)."""
    env = {
        **os.environ,
        "ARBITER_INSTANCE_PATH": str(folder / "instance"),
        "BASE_URL": f"http://127.0.0.1:{port}",
        "PATH": f"{BIN}:{os.environ['PATH']}",
        "SECRET_KEY": "test-only-secret-key",
        **extra,
    }
    for key, value in (("DATABASE_URL", database_url), ("CELERY_BROKER_URL", broker_url)):
        if value:
            env[key] = value
        else:
            env.pop(key, None)
    return environment(env)  # settings the environment does not set: ARBITER_OVERRIDES


def serve(folder: Path, port: int, env: dict, celery: bool = True) -> list[subprocess.Popen]:
    """Migrate the database, start web (and worker + beat) and wait until it answers;
    return the processes (stop them with :func:`stop`)."""
    subprocess.run([BIN / "arbiter", "db-upgrade"], env=env, check=True, capture_output=True)
    commands = {"web": web_command(port, env)}
    if celery:
        commands.update(celery_commands(folder))
    procs = start(commands, env, folder / "logs")
    try:
        wait_until_up(f"http://127.0.0.1:{port}", procs)
    except RuntimeError:
        stop(procs)
        raise
    return procs
