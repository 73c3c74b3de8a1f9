"""Scale-out on one machine: the same load with 1 and with 3 web processes.

What it measures: on PostgreSQL (a fresh schema) + Redis, two stacks run at once,
each a web process as the Procfile runs it (uvicorn) and a Celery worker of
concurrency 2 (two worker processes): one with ``--workers 1``, one with
``--workers 3``. The closed-loop client of ``bench/baseline.py`` (its own Dark Horse
game per client thread; ``ARBITER_BENCH_CLIENTS``, default 6) drives 1, 3, 1, 3 for
``ARBITER_BENCH_SECONDS`` (default 10) seconds each. Printed: accepted moves/s and
server CPU per accepted move of each, and the ratio 3/1. On two cores shared with
PostgreSQL and the client itself the ratio stays near 1: the bottleneck is the CPU
(see the README's "Several machines"), and other developers' work makes the figures
noisy.

Run alone: ``.venv/bin/python bench/scale_out.py``.
"""

from __future__ import annotations

import os

import baseline
import common

baseline.CLIENTS = int(os.environ.get("ARBITER_BENCH_CLIENTS", "6"))


def main() -> None:
    report = common.Report("scale_out")
    common.raise_fd_limit()
    print(
        f"scale out: {common.machine()}; {baseline.CLIENTS} clients, 2 x (1, 3 web "
        f"processes) of {baseline.SECONDS:.0f} s",
        flush=True,
    )
    try:
        with (
            common.postgres_schema() as pg,
            common.redis_database() as broker,
            common.instance_dir("scale") as folder,
            common.Stack(folder / "one", pg, broker, web_workers=1, threads=8) as one,
            common.Stack(folder / "three", pg, broker, web_workers=3, threads=8) as three,
        ):
            rows = {1: [], 3: []}
            for _ in range(baseline.ROUNDS):
                for count, stack in ((1, one), (3, three)):
                    rows[count].append(
                        baseline.phase(
                            str(count),
                            stack.url,
                            [p.pid for p in stack.procs],
                            baseline.product_client,
                        )
                    )
                    row = rows[count][-1]
                    print(
                        f"  {count} web: {row['moves']} moves in {row['seconds']:.1f} s, "
                        f"CPU {row['cpu']:.2f} s",
                        flush=True,
                    )
            case = "postgres + redis"
            rate = {
                n: sum(r["moves"] for r in v) / sum(r["seconds"] for r in v)
                for n, v in rows.items()
            }
            cpu = {
                n: 1000 * sum(r["cpu"] for r in v) / max(1, sum(r["moves"] for r in v))
                for n, v in rows.items()
            }
            for n in (1, 3):
                report.add(case, f"{n} web: moves/s", f"{rate[n]:.1f}")
                report.add(case, f"{n} web: CPU ms/move", f"{cpu[n]:.2f}")
            report.add(case, "moves/s ratio 3/1", f"{rate[3] / rate[1]:.2f}")
            report.note(f"load average after: {common.machine()}")
    except common.Skip as why:
        report.skip("postgres + redis", str(why))
    report.done()


if __name__ == "__main__":
    main()
