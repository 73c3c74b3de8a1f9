"""What of the multi-host testbed (issue 29, items 2 and 3) can be checked without root
or network namespaces: the balancer's configuration in the docs answers problem+json
(not haproxy's HTML) when a web host is gone, and the testbed's hosts run the Procfile's
processes, word for word but for the address, port and number of web processes."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.multihost import topology

HTTP_ERROR = re.compile(
    r"^\s*http-error status (\d+) content-type (\S+) string '([^']*)'((?: hdr \S+ \S+)*)\s*$"
)


def http_errors(config: str) -> dict[int, tuple[str, dict, dict]]:
    """Return ``{status: (content type, body, headers)}`` of the config's ``http-error``
    lines."""
    out = {}
    for line in config.splitlines():
        if line.strip().startswith("http-error"):
            match = HTTP_ERROR.match(line)
            assert match, f"an http-error line the test cannot read: {line}"
            status, media, body, hdrs = match.groups()
            words = hdrs.split()
            headers = {words[i + 1]: words[i + 2] for i in range(0, len(words), 3)}
            out[int(status)] = (media, json.loads(body), headers)
    return out


def test_the_balancer_answers_problem_json_while_a_web_host_is_gone():
    """Given the docs' haproxy configuration, its 502, 503 and 504 answers are
    problem+json with the members every problem of the service has (``status`` the
    answer's, a stable ``code``, ``type`` ending in it) and a ``Retry-After``."""
    errors = http_errors(topology.haproxy_config())
    assert set(errors) >= {502, 503, 504}
    for status, (media, body, headers) in errors.items():
        assert media == "application/problem+json", status
        assert {"type", "title", "status", "detail", "code"} <= set(body), status
        assert body["status"] == status
        assert body["type"].endswith("/" + body["code"])
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", body["code"])
        assert headers.get("Retry-After", "").isdigit(), status


def test_the_balancer_checks_readyz_and_sends_a_refused_request_elsewhere():
    config = topology.haproxy_config()
    for line in (
        "option httpchk GET /readyz",
        "http-check expect status 200",
        "default-server inter 3s fall 2 rise 2",
        "option redispatch",
        "option forwardfor",
    ):
        assert line in config, line
    server = re.search(r"timeout server (\d+)s", config)
    assert server and int(server.group(1)) > 15  # STREAM_KEEPALIVE_SECONDS


@pytest.mark.skipif(shutil.which("haproxy") is None, reason="haproxy is not installed")
def test_haproxy_accepts_the_testbeds_configuration(tmp_path):
    """haproxy itself reads the configuration the testbed writes (``haproxy -c``)."""
    config = tmp_path / "haproxy.cfg"
    config.write_text(
        topology.haproxy_config({"web1": "10.77.0.21:8000", "web2": "10.77.0.22:8000"})
    )
    checked = subprocess.run(
        ["haproxy", "-c", "-f", str(config)], capture_output=True, text=True, timeout=30
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "server web1 10.77.0.21:8000 check" in config.read_text()


def test_every_procfile_process_runs_on_a_testbed_host_as_the_procfile_says(tmp_path):
    """Each Procfile process runs on some host; each host's command is the Procfile's
    line with ``${HOST}`` 0.0.0.0 (every interface, as the docs say), ``${PORT}`` the
    web port, the balancer's address as ``--forwarded-allow-ips``, and only uvicorn's
    ``--workers`` changed (and beat's schedule file added)."""
    env = topology.service_env(tmp_path)
    hosts = topology.host_commands(env, web_workers=1)
    placed = {name for commands in hosts.values() for name in commands}
    procfile = topology.procfile()
    assert placed == set(procfile)
    assert sum("beat" in commands for commands in hosts.values()) == 1
    assert len([h for h, c in hosts.items() if "web" in c]) == 2
    assert len([h for h, c in hosts.items() if "worker" in c]) == 2
    for host, commands in hosts.items():
        for name, argv in commands.items():
            words = procfile[name]
            assert len(argv) >= len(words), (host, name)
            for i, (ours, theirs) in enumerate(zip(argv, words)):
                if "${HOST" in theirs:
                    assert ours == "0.0.0.0"
                elif "${PORT" in theirs:
                    assert ours == str(topology.WEB_PORT)
                elif "${FORWARDED_ALLOW_IPS" in theirs:
                    assert ours == topology.address("lb")
                elif words[i - 1] == "--workers":
                    assert ours == "1"
                else:
                    assert ours == theirs, (host, name, ours, theirs)
            extra = argv[len(words) :]
            assert extra in ([], ["--schedule", str(tmp_path / "instance" / "beat-schedule")])


def test_the_database_host_takes_the_docs_server_settings():
    """The testbed's PostgreSQL runs with the keep-alive and timeout settings the docs
    tell operators to put in postgresql.conf."""
    settings = topology.server_settings()
    assert {
        "tcp_keepalives_idle",
        "tcp_keepalives_interval",
        "tcp_keepalives_count",
        "tcp_user_timeout",
        "idle_in_transaction_session_timeout",
    } <= set(settings)
    assert all(value.isdigit() for value in settings.values())


def test_every_host_has_an_address_of_its_own_off_loopback():
    addresses = [topology.address(h) for h in topology.HOSTS]
    assert len(set(addresses)) == len(addresses)
    assert not any(a.startswith("127.") for a in addresses)
    assert topology.GATEWAY not in addresses
    env = topology.service_env(Path("/tmp/x"))
    for name in ("DATABASE_URL", "CELERY_BROKER_URL", "SMTP_URL", "BASE_URL"):
        assert "127.0.0.1" not in env[name] and "localhost" not in env[name], name
