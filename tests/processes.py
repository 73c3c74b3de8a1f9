"""Starting and stopping the service's real processes (gunicorn, celery worker, beat)
for integration tests, with their output in log files."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent
PROCFILE = Path(__file__).resolve().parent.parent / "Procfile"


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


def procfile() -> dict[str, list[str]]:
    """Return the ``Procfile``'s processes as ``{name: argv}`` (unexpanded)."""
    out = {}
    for line in PROCFILE.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, command = line.split(":", 1)
            out[name.strip()] = shlex.split(command)
    return out


def web_command(port: int) -> list:
    """Return the Procfile's ``web`` process as a command of this virtualenv, listening
    on 127.0.0.1:``port``."""
    argv = procfile()["web"]
    out = [BIN / argv[0]]
    for arg in argv[1:]:
        if "PORT" in arg:
            arg = str(port)
        elif arg == "0.0.0.0" or "HOST" in arg:
            arg = "127.0.0.1"
        out.append(arg)
    return out


def celery_commands(folder: Path) -> dict[str, list]:
    """Return the Procfile's Celery processes (the ``worker`` for dice and deadlines,
    the ``mailer`` for mail and web hooks, ``beat``) as commands of this virtualenv,
    beat's schedule file in ``folder``."""
    commands = {}
    for name, argv in procfile().items():
        if argv[0] != "celery":
            continue
        commands[name] = [BIN / "celery", *argv[1:]]
        if "beat" in argv:
            commands[name] += ["--schedule", str(folder / "beat-schedule")]
    return commands
