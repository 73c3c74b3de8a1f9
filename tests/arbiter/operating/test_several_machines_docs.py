"""The docs' "Several machines" commands (``docs/operating/several-machines.md``) run
what the Procfile runs (issue 30, item 4): every Celery worker names its queues, and
between them they consume every queue the Procfile's workers do; web, beat and mailin
are there too, and the section says what a multi-machine deployment must share and do."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from arbiter import settings
from tests import processes

PAGE = Path(__file__).resolve().parents[3] / "docs" / "operating" / "several-machines.md"
ASSIGNMENT = re.compile(r"^\w+=")


def section(title: str) -> str:
    """Return the page ``# title`` of the docs (its whole text)."""
    text = PAGE.read_text()
    assert text.startswith(f"# {title}\n")
    return text


def commands(text: str) -> list[tuple[dict, list[str]]]:
    """Return the commands of the shell block marked ``<!-- several-machines -->``:
    ``(environment assignments, argv)`` per line that is not a comment."""
    block = re.search(r"<!-- several-machines -->\n```sh\n(.*?)```", text, flags=re.S)
    assert block, "the Several machines section has no <!-- several-machines --> sh block"
    out = []
    for line in block.group(1).splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        words = shlex.split(line)
        env = {}
        while words and ASSIGNMENT.match(words[0]):
            name, value = words.pop(0).split("=", 1)
            env[name] = value
        out.append((env, words))
    return out


def option(argv: list[str], name: str) -> str | None:
    """Return the value of ``--name=value`` or ``--name value`` in ``argv``."""
    for i, word in enumerate(argv):
        if word.startswith(f"{name}="):
            return word.split("=", 1)[1]
        if word == name and i + 1 < len(argv):
            return argv[i + 1]
    return None


def queues(argv: list[str]) -> frozenset[str] | None:
    """Return the queues a ``celery worker`` command names (None: none named)."""
    value = option(argv, "--queues") or option(argv, "-Q")
    return None if value is None else frozenset(value.split(","))


def is_worker(argv: list[str]) -> bool:
    return argv[:1] == ["celery"] and "worker" in argv


def test_every_procfile_process_has_its_command_in_several_machines():
    """Given the Procfile, each of its processes has a command in the section: each
    Celery worker with the same queues (and pool), beat, the web process with its
    protocol, loop and factory, and ``mailin`` on an address other machines reach."""
    docs = commands(section("Several machines"))
    procfile = processes.procfile()
    for name, argv in procfile.items():
        if is_worker(argv):
            match = [d for _, d in docs if is_worker(d) and queues(d) == queues(argv)]
            assert match, f"no worker command for the Procfile's {name} ({queues(argv)})"
            assert option(match[0], "--pool") == option(argv, "--pool"), name
            assert option(match[0], "--hostname") == option(argv, "--hostname"), name
        elif argv[:1] == ["celery"]:
            assert any(d[:1] == ["celery"] and "beat" in d for _, d in docs), name
        elif argv[:1] == ["uvicorn"]:
            web = [d for _, d in docs if d[:1] == ["uvicorn"]]
            assert web, name
            for flag in ("--factory", "--http", "--loop"):
                assert option(web[0], flag) == option(argv, flag), flag
            assert "--forwarded-allow-ips" in web[0]
            assert option(web[0], "--host") == "0.0.0.0"
        else:
            found = [(env, d) for env, d in docs if d == argv]
            assert found, f"no command for the Procfile's {name}: {argv}"
            if name == "mailin":
                assert "127.0.0.1" not in found[0][0].get("MAILIN_URL", "127.0.0.1")


def test_every_worker_command_names_its_queues_and_all_are_consumed():
    """A worker started without ``--queues`` listens only on ``celery``: every worker
    command of the section names its queues, and together they consume exactly the
    queues of the Procfile's workers."""
    docs = [d for _, d in commands(section("Several machines")) if is_worker(d)]
    assert docs and all(queues(d) for d in docs), "a worker command names no --queues"
    wanted = set().union(*(queues(a) for a in processes.procfile().values() if is_worker(a)))
    assert set().union(*(queues(d) for d in docs)) == wanted
    assert {"chance", "clock", "celery", "mail", "webhooks"} <= wanted


def test_the_section_names_the_shared_settings_beat_failover_and_health_checks():
    text = section("Several machines")
    shared = text[text.index("Same settings everywhere") :].split("\n- **", 1)[0]
    for name in settings.environment_names():  # what a deployment sets
        assert f"`{name}`" in shared, name
    assert "When beat's machine dies" in text
    assert "GET /readyz" in text and "option httpchk GET /readyz" in text
    assert "MAILIN_URL" in text
