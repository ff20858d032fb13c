"""
How quickly the command line answers: prints figures, asserts nothing.

    python benchmarks/bench_cli.py [--runs N] [--tree PATH ...]

Each command is run as its own process (``python -m moderator ...``, as a script or a
player's shell runs ``titan-moderator``) N times (10 by default) on a fresh SQLite store
in a temporary folder holding one two-player game, and the wall time of each run is
taken from starting the process to its exit, with the processor time (user and system)
it used.  Printed per command: min, median and max of each, and first ``python -c
pass``, the floor no command can go under on this machine.

``--tree`` (given more than once) runs the moderator of each checkout named, with its
own store, the trees taking turns run by run: an A/B comparison in the same conditions
(``git archive COMMIT | tar -x -C DIR`` makes a tree of an older commit).  Default: this
checkout.

- ``local show g1 --as Ann`` and ``local legal g1 --json``: the reads;
- ``local order g1 ORDER --as P``: one legal order each run (the order is the first one
  ``local legal --json`` offered just before, so the game moves on and every order is
  accepted);
- ``verify audit.json``: a finished robot game's audit bundle, checked from the file.

One ``local show`` is run before measuring: a first ``local show`` writes the status
template's compiled code to the user's cache folder (``letters.templates``), as Python
writes bytecode, and every later one reads it; the runs measured are those later ones.

The machine's load average is printed with the figures: the cores are shared, and
figures taken under load are only comparable with others taken in the same conditions.

Before measuring, each tree's ``moderator`` package is compiled to bytecode
(``compileall``), as ``pip install`` does for an installed wheel: a checkout run under
``PYTHONDONTWRITEBYTECODE`` (or from a folder Python may not write) never gets its
``.pyc`` files, and every start then compiles the program's source again, most of a
second on this machine.  ``--no-compile`` measures a tree as it is; the number of
modules still without current bytecode is printed either way.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

MODERATOR = [sys.executable, "-m", "moderator"]
HERE = Path(__file__).resolve().parents[1]
COMMANDS = ("python -c pass", "local show", "local legal --json", "local order", "verify")


def timed(
    argv: Sequence[str], tree: Path, taken: list[tuple[float, float]] | None = None
) -> str:
    """
    Run ``argv`` with the moderator of ``tree``; add its (wall, CPU) seconds to ``taken``.
    It runs in the temporary folder: ``-m`` puts the working folder first on the path,
    where another checkout would be found before ``tree``.
    """
    env = {**os.environ, "PYTHONPATH": str(tree)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        argv, capture_output=True, text=True, env=env, cwd=tempfile.gettempdir(), check=False
    )
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(argv)} exited {done.returncode}: {done.stderr or done.stdout}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if taken is not None:
        taken.append((seconds, cpu))
    return done.stdout


def figures(name: str, taken: list[tuple[float, float]]) -> str:
    wall = [w for w, _ in taken]
    cpu = [c for _, c in taken]
    return (
        f"  {name:<20} wall min {min(wall):.3f} median {statistics.median(wall):.3f} "
        f"max {max(wall):.3f} s; cpu min {min(cpu):.3f} median {statistics.median(cpu):.3f} "
        f"max {max(cpu):.3f} s"
    )


#: Writes a finished two-robot game's audit bundle to argv[1], with a checkout's own code
#: (the events' fields change between commits).
BUNDLE = """
import hashlib, sys
from moderator.audit.bundle import dumps, make_bundle
from moderator.usecases.games.robot_games import play_robot_game
summary = play_robot_game(2, seed=3, bound="bench")
secret = int.from_bytes(hashlib.sha256(b"robot-seed:3").digest(), "big")
bundle = make_bundle("bench", secret, summary.events, "2026-11-26T00:00:00Z", "Ann")
open(sys.argv[1], "w").write(dumps(bundle))
"""


def stale_modules(tree: Path) -> int:
    """How many of ``tree``'s moderator modules have no current ``.pyc`` (Python compiles those at each start)."""
    stale = 0
    for source in (tree / "moderator").rglob("*.py"):
        cached = Path(importlib.util.cache_from_source(str(source)))
        if not cached.exists() or cached.stat().st_mtime < source.stat().st_mtime:
            stale += 1
    return stale


def compiled(tree: Path) -> None:
    """Write ``tree``'s bytecode, as an installed wheel has it."""
    compileall.compile_dir(tree / "moderator", quiet=1)


class Subject:
    """One checkout's moderator, with its own store holding game g1."""

    def __init__(self, tree: Path, folder: Path) -> None:
        self.tree = tree
        self.db = ["--db", f"sqlite:///{folder / 'bench.sqlite'}"]
        self.taken: dict[str, list[tuple[float, float]]] = {name: [] for name in COMMANDS}
        new = ["local", "new", "g1", "--players", "Ann,Bob", "--dice-seed", "1"]
        timed([*MODERATOR, *new, *self.db], tree)
        timed([*MODERATOR, "local", "show", "g1", "--as", "Ann", *self.db], tree)  # see above
        self.bundle = folder / "audit-bench.json"
        timed([sys.executable, "-c", BUNDLE, str(self.bundle)], tree)

    def run_once(self) -> None:
        taken = self.taken
        timed([sys.executable, "-c", "pass"], self.tree, taken["python -c pass"])
        timed([*MODERATOR, "local", "show", "g1", "--as", "Ann", *self.db], self.tree, taken["local show"])
        out = timed([*MODERATOR, "local", "legal", "g1", "--json", *self.db], self.tree, taken["local legal --json"])
        legal = json.loads(out)
        if legal["player"] is not None:
            line = legal["actions"][0]["order"]
            argv = [*MODERATOR, "local", "order", "g1", line, "--as", legal["player"], *self.db]
            timed(argv, self.tree, taken["local order"])
        timed([*MODERATOR, "verify", str(self.bundle)], self.tree, taken["verify"])


def measure(runs: int, trees: list[Path], compile_first: bool) -> None:
    for tree in trees:
        if compile_first:
            compiled(tree)
        print(f"{tree}: {stale_modules(tree)} modules without current bytecode")
    with tempfile.TemporaryDirectory(prefix="titan-bench-cli-") as name:
        folder = Path(name)
        subjects = []
        for number, tree in enumerate(trees):
            (folder / str(number)).mkdir()
            subjects.append(Subject(tree, folder / str(number)))
        for _ in range(runs):
            for subject in subjects:
                subject.run_once()
    for subject in subjects:
        print(f"{subject.tree}:")
        for command, taken in subject.taken.items():
            if taken:
                print(figures(command, taken))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--tree", type=Path, action="append", help="a checkout to run")
    parser.add_argument(
        "--no-compile", action="store_true", help="do not write the trees' bytecode first"
    )
    args = parser.parse_args()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{args.runs} runs of each command, {os.cpu_count()} cores, load average {load}:")
    measure(args.runs, args.tree or [HERE], not args.no_compile)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average after: {load}")


if __name__ == "__main__":
    main()
