"""
Restart after ``kill -9``: prints figures, asserts nothing.

    python benchmarks/bench_restart.py [--kills N] [--sqlite-only]

``titan-moderator serve`` on the embedded mail hub is killed with SIGKILL N times (20 by
default) at a random moment while an order mail is in flight, and started again at once
(the crash test's loop, ``tests/runtime/crashloop.py``).  For SQLite (a file in a
temporary folder) and PostgreSQL (a durable server of our own, fsync on) it prints:

- restart: seconds from the kill to the new service's "serving" line (the lock taken
  over, the first poll done), median and max;
- start: seconds from starting ``serve`` to that line (mostly Python importing the
  moderator), median and max;
- the processes the killed services had started (picture worker, resource tracker)
  and how many outlived them;
- the seconds until every order was answered after the last start (a mail the killed
  service was sending waits for its lease, ``outbox.LEASE``).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from moderator.store import migrate
from moderator.testing.hub import MailHub
from moderator.testing.pgtemp import PostgresUnavailableError, TemporaryPostgres
from moderator.testing.stores import open_store

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "runtime"))
import crashloop  # the crash test's loop


def figures(name: str, seconds: list[float]) -> str:
    return f"{name} median {statistics.median(seconds):.2f} s, max {max(seconds):.2f} s"


async def measure(url: str, kills: int) -> None:
    with tempfile.TemporaryDirectory(prefix="titan-restart-") as folder:
        async with MailHub() as hub:
            with open_store(url) as store:
                crashloop.seat_games(store, hub, 2 * kills)
                config = Path(folder) / "config.toml"
                crashloop.write_config(config, hub, url)
                started = time.monotonic()
                run = await crashloop.crash_cycles(hub, store, config, Path(folder), kills)
                total = time.monotonic() - started
    children = sum(len(c) for c in run.children)
    with_worker = sum(any("spawn_main" in p.command for p in c) for c in run.children)
    print(f"  {figures('restart after kill -9:', run.restart)} ({len(run.restart)} kills)")
    print(f"  {figures('start to serving:     ', run.serving)}")
    print(
        f"  processes of killed services: {children} ({with_worker} services had a "
        f"picture worker), {len(run.survivors)} outlived them"
    )
    print(f"  {len(run.orders)} orders, all answered; the loop took {total:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--sqlite-only", action="store_true")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="titan-restart-db-") as folder:
        url = f"sqlite:///{Path(folder) / 'restart.sqlite'}"
        migrate.upgrade(url)
        print("sqlite:")
        asyncio.run(measure(url, args.kills))
    if args.sqlite_only:
        return
    try:
        server = TemporaryPostgres(durable=True)
        url = server.start()
    except PostgresUnavailableError as exc:
        print(f"postgresql: not measured ({exc})")
        return
    try:
        migrate.upgrade(url)
        print("postgresql (durable):")
        asyncio.run(measure(url, args.kills))
    finally:
        server.stop()


if __name__ == "__main__":
    main()
