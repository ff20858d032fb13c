"""
How quickly the command line answers: prints figures, asserts nothing.

    python benchmarks/bench_cli.py [--runs N]

Each command is run as its own process (``python -m moderator ...``, as a script or a
player's shell runs ``titan-moderator``) N times (10 by default) on a fresh SQLite store
in a temporary folder holding one two-player game, and the wall time of each run is
taken from starting the process to its exit.  Printed per command: min, median and max,
and first ``python -c pass``, the floor no command can go under on this machine.

- ``local show g1 --as Ann`` and ``local legal g1 --json``: the reads;
- ``local order g1 ORDER --as P``: one legal order each run (the order is the first one
  ``local legal --json`` offered just before, so the game moves on and every order is
  accepted);
- ``verify audit.json``: a finished robot game's audit bundle, checked from the file.

The machine's load average is printed with the figures: the cores are shared, and
figures taken under load are only comparable with others taken in the same conditions.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from moderator.audit.bundle import dumps, make_bundle
from moderator.usecases.games.robot_games import play_robot_game

MODERATOR = [sys.executable, "-m", "moderator"]


def timed(argv: Sequence[str], *, ok: Sequence[int] = (0,)) -> tuple[float, str]:
    """Seconds of wall time ``argv`` took as a process, and what it printed."""
    started = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode not in ok:
        sys.exit(f"{' '.join(argv)} exited {done.returncode}: {done.stderr or done.stdout}")
    return seconds, done.stdout


def figures(name: str, seconds: list[float]) -> str:
    return (
        f"  {name:<28} min {min(seconds):.3f} s   median {statistics.median(seconds):.3f} s"
        f"   max {max(seconds):.3f} s"
    )


def audit_bundle(folder: Path) -> Path:
    """A finished two-robot game's audit bundle, written to ``folder``."""
    summary = play_robot_game(2, seed=3, bound="bench")
    secret = int.from_bytes(hashlib.sha256(b"robot-seed:3").digest(), "big")
    path = folder / "audit-bench.json"
    path.write_text(dumps(make_bundle("bench", secret, summary.events, "2026-11-26T00:00:00Z", "Ann")))
    return path


def measure(runs: int) -> None:
    with tempfile.TemporaryDirectory(prefix="titan-bench-cli-") as name:
        folder = Path(name)
        db = ["--db", f"sqlite:///{folder / 'bench.sqlite'}"]
        timed([*MODERATOR, "local", "new", "g1", "--players", "Ann,Bob", "--dice-seed", "1", *db])
        bundle = audit_bundle(folder)
        taken: dict[str, list[float]] = {
            "python -c pass": [],
            "local show": [],
            "local legal --json": [],
            "local order": [],
            "verify": [],
        }
        for _ in range(runs):
            taken["python -c pass"].append(timed([sys.executable, "-c", "pass"])[0])
            show = [*MODERATOR, "local", "show", "g1", "--as", "Ann", *db]
            taken["local show"].append(timed(show)[0])
            seconds, out = timed([*MODERATOR, "local", "legal", "g1", "--json", *db])
            taken["local legal --json"].append(seconds)
            legal = json.loads(out)
            if legal["player"] is not None:
                line = legal["actions"][0]["order"]
                argv = [*MODERATOR, "local", "order", "g1", line, "--as", legal["player"], *db]
                taken["local order"].append(timed(argv)[0])
            taken["verify"].append(timed([*MODERATOR, "verify", str(bundle)])[0])
    for name, seconds in taken.items():
        if seconds:
            print(figures(name, seconds))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{args.runs} runs of each command, {os.cpu_count()} cores, load average {load}:")
    measure(args.runs)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average after: {load}")


if __name__ == "__main__":
    main()
