"""The several-machines deployment (docs/operating/several-machines.md) built on one
machine out of Linux network namespaces, as root: each host a namespace with an address
of its own on one bridge, its processes the Procfile's lines.

::

    10.77.0.1   this machine (the soak's clients and checks), on bridge arb-br0
    10.77.0.5   lb      haproxy, the docs' configuration, port 8080
    10.77.0.10  db      PostgreSQL (its own cluster, initdb in a temporary folder, run
                        as the postgres user, the docs' server settings) and redis-server
    10.77.0.21  web1    the Procfile's web      10.77.0.22  web2
    10.77.0.31  work1   worker, mailer, hooks   10.77.0.32  work2
    10.77.0.40  beat    beat, mailin
    10.77.0.50  smtp    an SMTP sink (aiosmtpd) that keeps every mail it accepts

Every process runs in its host's namespace (``ip netns exec``) and UTS namespace (its
own host name, so Celery's ``%h`` names differ), so a host can be frozen (SIGSTOP to
every process in it), cut (its link on the bridge set down: its peers see no FIN and no
RST, as when a machine loses power), killed and started again. The machine's own
PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379) are never touched: the database
host's servers listen on 10.77.0.10 inside their namespace, with their socket files in
the temporary folder.

``python -m tests.multihost.topology commands`` prints each host's commands (no root
needed); ``... down`` removes what a run that was killed left behind.
"""

from __future__ import annotations

import glob
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from arbiter.settings import environment

ROOT = Path(__file__).resolve().parents[2]
PROCFILE = ROOT / "Procfile"
DOCS = ROOT / "docs" / "operating" / "several-machines.md"
BIN = Path(sys.executable).parent

BRIDGE = "arb-br0"
PREFIX = "arb-"
NETWORK = "10.77.0"
GATEWAY = f"{NETWORK}.1"

HOSTS = {
    "lb": 5,
    "db": 10,
    "web1": 21,
    "web2": 22,
    "work1": 31,
    "work2": 32,
    "beat": 40,
    "smtp": 50,
}
"""Host name -> last byte of its address."""

ROLES = {
    "web1": ("web",),
    "web2": ("web",),
    "work1": ("worker", "mailer", "hooks"),
    "work2": ("worker", "mailer", "hooks"),
    "beat": ("beat", "mailin"),
}
"""Which Procfile processes each application host runs (every Procfile process runs
somewhere; ``test_topology.py`` holds it)."""

WEB_PORT = 8000
LB_PORT = 8080
SMTP_PORT = 2525
MAILIN_PORT = 8025


def address(host: str) -> str:
    """Return ``host``'s address on the bridge."""
    return f"{NETWORK}.{HOSTS[host]}"


def namespace(host: str) -> str:
    return PREFIX + host


def veth(host: str) -> str:
    """The bridge side of ``host``'s link (set it down to cut the host off)."""
    return f"arbv-{host}"


# ------------------------------------------------------------------ the commands


def procfile() -> dict[str, list[str]]:
    """Return the Procfile's processes as ``{name: argv}`` (unexpanded)."""
    out = {}
    for line in PROCFILE.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, command = line.split(":", 1)
            out[name.strip()] = shlex.split(command)
    return out


SHELL_VARIABLE = re.compile(r"\$\{(\w+)(?::-([^}]*))?\}")


def expand(arg: str, env: dict) -> str:
    """Return ``arg`` with each ``${NAME:-default}`` replaced as a shell would."""
    return SHELL_VARIABLE.sub(lambda m: env.get(m.group(1)) or (m.group(2) or ""), arg)


def command(name: str, host: str, env: dict, web_workers: int | None = None) -> list[str]:
    """Return the Procfile's process ``name`` as ``host`` runs it: ``${HOST}`` is
    0.0.0.0 and ``${PORT}`` :data:`WEB_PORT` (as the docs' commands say), uvicorn's
    ``--workers`` is ``web_workers`` when given (the docs' "N about the machine's
    cores"), beat keeps its schedule in ``env['ARBITER_INSTANCE_PATH']``; everything
    else is the Procfile's word for word."""
    argv = procfile()[name]
    env = {**env, "HOST": "0.0.0.0", "PORT": str(WEB_PORT)}
    out = [expand(a, env) for a in argv]
    if web_workers is not None and "--workers" in out:
        out[out.index("--workers") + 1] = str(web_workers)
    if out[0] == "celery" and "beat" in out:
        out += ["--schedule", str(Path(env["ARBITER_INSTANCE_PATH"]) / "beat-schedule")]
    return out


def host_commands(env: dict, web_workers: int | None = None) -> dict[str, dict[str, list]]:
    """Return ``{host: {process name: argv}}`` for every application host."""
    return {
        host: {name: command(name, host, env, web_workers) for name in names}
        for host, names in ROLES.items()
    }


def server_settings() -> dict[str, str]:
    """Return the PostgreSQL server settings the docs tell operators to set (the
    ``postgresql.conf`` block of several-machines.md), as ``{name: value}``."""
    text = DOCS.read_text()
    block = re.search(r"in `postgresql\.conf`:\n+```\n(.*?)```", text, flags=re.S)
    assert block, "several-machines.md has no postgresql.conf block"
    out = {}
    for line in block.group(1).splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, value = (part.strip() for part in line.split("=", 1))
            out[name] = value
    return out


def haproxy_config(servers: dict[str, str] | None = None, port: int = LB_PORT) -> str:
    """Return the docs' haproxy configuration (the block marked ``<!-- haproxy -->``),
    its ``server`` lines replaced by ``servers`` (``{name: "addr:port"}``) and its
    ``bind`` by ``port`` when given."""
    text = DOCS.read_text()
    block = re.search(r"<!-- haproxy -->\n```\n(.*?)```", text, flags=re.S)
    assert block, "several-machines.md has no <!-- haproxy --> block"
    config = block.group(1)
    if servers is not None:
        lines, placed = [], False
        for line in config.splitlines():
            if line.strip().startswith("server "):
                if not placed:
                    lines += [f"    server {n} {a} check" for n, a in servers.items()]
                    placed = True
                continue
            if line.strip().startswith("bind "):
                line = f"    bind :{port}"
            lines.append(line)
        config = "\n".join(lines) + "\n"
    return config


def service_env(folder: Path, **extra: str) -> dict:
    """Return the settings every application host shares (the docs' "Same settings
    everywhere"); the DB_* limits are the defaults."""
    db = address("db")
    return environment(
        {
            "PATH": f"{BIN}:{os.environ.get('PATH', '/usr/bin:/bin')}",
            "HOME": os.environ.get("HOME", "/root"),
            "LANG": "C.UTF-8",
            "ARBITER_INSTANCE_PATH": str(folder / "instance"),
            "DATABASE_URL": f"postgresql://postgres@{db}:5432/arbiter",
            "CELERY_BROKER_URL": f"redis://{db}:6379/0",
            "SMTP_URL": f"smtp://{address('smtp')}:{SMTP_PORT}",
            "MAIL_FROM": "arbiter@arbiter.test",
            "MAIL_DOMAIN": "arbiter.test",
            "BASE_URL": f"http://{address('lb')}:{LB_PORT}",
            "SECRET_KEY": uuid.uuid4().hex,
            "FORWARDED_ALLOW_IPS": address("lb"),
            "MAILIN_URL": f"smtp://0.0.0.0:{MAILIN_PORT}",
            "STREAM_CHANNEL": "multihost",
            **extra,
        }
    )


# ------------------------------------------------------------------ the machine


def run(*argv: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(argv, capture_output=True, text=True, check=check)


def postgres_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"))
    if not found:
        raise SystemExit("PostgreSQL's server is not installed (apt-get install postgresql)")
    return Path(found[-1]).parent


def in_host(host: str, argv: list[str]) -> list[str]:
    """Return ``argv`` run inside ``host``: its network namespace and a UTS namespace
    named after it."""
    return [
        "ip",
        "netns",
        "exec",
        namespace(host),
        "unshare",
        "--uts",
        "sh",
        "-c",
        f'hostname {host} && exec "$@"',
        host,
        *[str(a) for a in argv],
    ]


@dataclass
class Testbed:
    """The hosts, their processes (``procs[(host, name)]``) and their logs in
    ``folder/logs``. Use as a context manager: everything is removed on exit, a
    failure included."""

    folder: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="arbiter-mh-")))
    settings: dict = field(default_factory=dict)
    web_workers: int | None = 1
    procs: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.env = service_env(self.folder, **self.settings)
        self.url = f"http://{address('lb')}:{LB_PORT}"
        self.database_url = self.env["DATABASE_URL"]
        self.mail_folder = self.folder / "mail"
        self.logs = self.folder / "logs"

    def __enter__(self) -> Testbed:
        return self

    def __exit__(self, *exc) -> None:
        self.down()

    # -- network

    def network(self) -> None:
        """Create the bridge and one namespace per host, each with its link up."""
        if os.geteuid() != 0:
            raise SystemExit("the testbed needs root (network namespaces)")
        teardown_leftovers()
        run("ip", "link", "add", BRIDGE, "type", "bridge")
        run("ip", "addr", "add", f"{GATEWAY}/24", "dev", BRIDGE)
        run("ip", "link", "set", BRIDGE, "up")
        for host in HOSTS:
            ns = namespace(host)
            run("ip", "netns", "add", ns)
            run(
                "ip", "link", "add", veth(host), "type", "veth", "peer", "name", "eth0", "netns", ns
            )
            run("ip", "link", "set", veth(host), "master", BRIDGE, "up")
            run("ip", "-n", ns, "addr", "add", f"{address(host)}/24", "dev", "eth0")
            run("ip", "-n", ns, "link", "set", "eth0", "up")
            run("ip", "-n", ns, "link", "set", "lo", "up")

    # -- processes

    def spawn(self, host: str, name: str, argv: list, env: dict | None = None, user=None):
        """Start ``argv`` in ``host`` (as ``user`` when given), its output in
        ``logs/<host>-<name>.log``."""
        self.logs.mkdir(parents=True, exist_ok=True)
        if user:
            argv = ["runuser", "-u", user, "--", *argv]
        out = open(self.logs / f"{host}-{name}.log", "a")
        self.procs[(host, name)] = subprocess.Popen(
            in_host(host, argv),
            env=env if env is not None else self.env,
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        return self.procs[(host, name)]

    def database(self) -> None:
        """initdb a cluster of its own and start it and redis-server on the db host."""
        pg = postgres_bin()
        data = self.folder / "pg"
        data.mkdir()
        shutil.chown(data, "postgres")
        os.chmod(self.folder, 0o755)
        subprocess.run(
            [
                "runuser",
                "-u",
                "postgres",
                "--",
                pg / "initdb",
                "-D",
                data / "data",
                "-U",
                "postgres",
                "--auth=trust",
                "--no-sync",
                "-E",
                "UTF8",
            ],
            check=True,
            capture_output=True,
        )
        with open(data / "data" / "pg_hba.conf", "a") as hba:
            hba.write(f"host all all {NETWORK}.0/24 trust\n")
        settings = {
            "listen_addresses": address("db"),
            "port": "5432",
            "unix_socket_directories": str(data),
            "max_connections": "300",
            "fsync": "off",
            "synchronous_commit": "off",
            **server_settings(),
        }
        argv = [pg / "postgres", "-D", data / "data"]
        for name, value in settings.items():
            argv += ["-c", f"{name}={value}"]
        self.spawn(
            "db",
            "postgres",
            argv,
            env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"},
            user="postgres",
        )
        redis_dir = self.folder / "redis"
        redis_dir.mkdir()
        self.spawn(
            "db",
            "redis",
            [
                shutil.which("redis-server"),
                "--bind",
                address("db"),
                "--port",
                "6379",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                redis_dir,
                "--protected-mode",
                "no",
            ],
        )
        wait_for(
            lambda: (
                run(
                    "ip",
                    "netns",
                    "exec",
                    namespace("db"),
                    pg / "pg_isready",
                    "-h",
                    address("db"),
                    "-q",
                    check=False,
                ).returncode
                == 0
            ),
            60,
            "PostgreSQL",
        )
        import psycopg

        with psycopg.connect(
            f"postgresql://postgres@{address('db')}:5432/postgres", autocommit=True
        ) as conn:
            conn.execute("CREATE DATABASE arbiter")

    def smtp(self) -> None:
        """Start the SMTP sink; it keeps each mail in ``mail_folder``."""
        self.spawn(
            "smtp",
            "sink",
            [
                sys.executable,
                "-m",
                "tests.multihost.smtp_sink",
                "--host",
                address("smtp"),
                "--port",
                str(SMTP_PORT),
                self.mail_folder,
            ],
        )

    def balancer(self) -> None:
        """Write the docs' haproxy configuration with the two web hosts and start it."""
        config = self.folder / "haproxy.cfg"
        config.write_text(haproxy_config({h: f"{address(h)}:{WEB_PORT}" for h in ("web1", "web2")}))
        haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
        if not Path(haproxy).exists():
            raise SystemExit("haproxy is not installed (apt-get install -y haproxy)")
        run(haproxy, "-c", "-f", str(config))
        self.spawn("lb", "haproxy", [haproxy, "-W", "-db", "-f", config])

    def application(self) -> None:
        """Migrate the database once, then start every application host."""
        subprocess.run(
            [BIN / "arbiter", "db-upgrade"], env=self.env, check=True, capture_output=True, cwd=ROOT
        )
        for host in ROLES:
            self.start_host(host)

    def start_host(self, host: str) -> None:
        """Start ``host``'s Procfile processes (again, after :meth:`kill_host`)."""
        for name, argv in host_commands(self.env, self.web_workers)[host].items():
            self.spawn(host, name, argv)

    def up(self) -> None:
        """Build everything and wait until the balancer answers ``/readyz``."""
        self.network()
        self.database()
        self.smtp()
        self.application()
        self.balancer()
        import requests

        def ready() -> bool:
            try:
                return requests.get(f"{self.url}/readyz", timeout=5).status_code == 200
            except requests.RequestException:
                return False

        wait_for(ready, 240, "the balancer's /readyz")

    # -- faults

    def pids(self, host: str) -> list[int]:
        """Return the processes running in ``host``'s namespace."""
        found = run("ip", "netns", "pids", namespace(host), check=False).stdout.split()
        return [int(p) for p in found]

    def signal_host(self, host: str, sig: int) -> int:
        """Send ``sig`` to every process of ``host``; return how many got it."""
        count = 0
        for pid in self.pids(host):
            try:
                os.kill(pid, sig)
                count += 1
            except ProcessLookupError:
                pass
        return count

    def freeze(self, host: str) -> int:
        return self.signal_host(host, signal.SIGSTOP)

    def thaw(self, host: str) -> int:
        return self.signal_host(host, signal.SIGCONT)

    def cut(self, host: str) -> None:
        """Set ``host``'s link down: what it sends and what is sent to it is lost."""
        run("ip", "link", "set", veth(host), "down")

    def mend(self, host: str) -> None:
        run("ip", "link", "set", veth(host), "up")

    def kill_host(self, host: str) -> None:
        """SIGKILL every process of ``host`` and reap them."""
        self.signal_host(host, signal.SIGKILL)
        for (h, _), proc in list(self.procs.items()):
            if h == host:
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    pass

    # -- the end

    def down(self) -> None:
        """Kill every process of every host, remove the namespaces and the bridge, and
        the temporary folder unless ``ARBITER_MH_KEEP=1``."""
        for host in HOSTS:
            if Path(f"/run/netns/{namespace(host)}").exists():
                self.signal_host(host, signal.SIGCONT)
                self.signal_host(host, signal.SIGKILL)
        for proc in self.procs.values():
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                pass
        teardown_leftovers()
        if os.environ.get("ARBITER_MH_KEEP") != "1":
            shutil.rmtree(self.folder, ignore_errors=True)


def wait_for(ready, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if ready():
            return
        time.sleep(0.5)
    raise RuntimeError(f"{what} did not come up within {seconds} s")


def teardown_leftovers() -> None:
    """Remove the testbed's namespaces (killing what runs in them) and its bridge."""
    for host in HOSTS:
        ns = namespace(host)
        if Path(f"/run/netns/{ns}").exists():
            for pid in run("ip", "netns", "pids", ns, check=False).stdout.split():
                for sig in (signal.SIGCONT, signal.SIGKILL):
                    try:
                        os.kill(int(pid), sig)
                    except ProcessLookupError:
                        pass
            run("ip", "netns", "del", ns, check=False)
        run("ip", "link", "del", veth(host), check=False)
    run("ip", "link", "del", BRIDGE, check=False)


def main(args: list[str]) -> None:
    if args[:1] == ["down"]:
        teardown_leftovers()
    elif args[:1] == ["commands"]:
        env = service_env(Path("/tmp/arbiter-mh"))
        for host, commands in host_commands(env).items():
            for name, argv in commands.items():
                print(f"{host} ({address(host)}) {name}: {shlex.join(argv)}")
        print(haproxy_config({h: f"{address(h)}:{WEB_PORT}" for h in ("web1", "web2")}))
    else:
        raise SystemExit("usage: python -m tests.multihost.topology {commands|down}")


if __name__ == "__main__":
    main(sys.argv[1:])
