"""
Memory soak of ``titan-moderator serve``: prints figures, asserts nothing.

    TITAN_SOAK=1 python benchmarks/soak_serve.py [--minutes 120] [--sample 30]
                                                [--games 2] [--players 2] [--robot SPEC]

Without ``TITAN_SOAK=1`` it says how to run it and exits 0 (a run takes hours).

The real ``serve`` runs as a process of its own, from a configuration file as an
operator writes it (``runtime.config``: SQLite database, the moderator's GnuPG key, IMAP
and SMTP), on the embedded mail hub (``moderator.testing.hub``) that this process
holds.  Robot players (``testing.mailrobot``) sign on by signed mail and play
``--games`` games at once, each between ``--players`` robots, to their ends; when one
ends (its audit bundles go out: the dice are bound to a secret seed), the operator's
command starts the next on the same database (``runners.commands.start_game``).  The
hub's copies of mail already read are dropped as a mail program would, so that this
process stays small; ``serve`` moves what it processed to a folder the hub empties.

Every ``--sample`` seconds it prints ``serve``'s resident memory (``VmRSS`` of the
process, and of its children, the picture worker) with the games finished and the
orders mailed so far; at the end the verdict: the largest RSS after the first ten
minutes against the RSS at ten minutes (the target is at most +20%).  A run shorter
than twenty minutes takes its baseline at half its length, and says so.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import random
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from moderator.rules.legal import to_act
from moderator.rules.state import Step
from moderator.runners.commands import start_game
from moderator.runtime.config import Config
from moderator.store.eventstore import EventStore
from moderator.testing.hub import MailHub
from moderator.testing.mailgame import LIMITS, mail_robot, service_config
from moderator.testing.mailrobot import MailRobot, seat_kinds
from moderator.testing.player_keys import MODERATOR, PlayerKeys
from moderator.testing.stores import open_store
from moderator.usecases.games.robot_games import DEFAULT_NAMES

#: The line ``serve`` writes once it holds the mailbox and has polled.
SERVING = "titan-moderator: serving "
#: Where the moderator's processed mail goes on the hub (emptied as the soak runs).
PROCESSED = "Processed"
#: The baseline of the verdict, and the growth allowed after it.
SETTLED = 600.0
TARGET = 0.20
MB = 1024 * 1024


def usage() -> str:
    return (
        "soak_serve: a memory soak of `titan-moderator serve` (2 hours by default).\n"
        "Run it with TITAN_SOAK=1, e.g.\n"
        "  TITAN_SOAK=1 python benchmarks/soak_serve.py --minutes 30\n"
        "Options: --minutes, --sample SECONDS, --games AT_ONCE, --players, --robot SPEC."
    )


# -- the configuration as an operator writes it -------------------------------------------


def toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    raise TypeError(f"no TOML for {value!r}")


def config_text(config: Config) -> str:
    """``config`` as the TOML file ``serve --config`` reads (every key written)."""
    lines: list[str] = []
    for section in ("moderator", "database", "imap", "smtp", "gnupg", "service", "dkim"):
        lines.append(f"[{section}]")
        for item in dataclasses.fields(getattr(config, section)):
            lines.append(f"{item.name} = {toml_value(getattr(getattr(config, section), item.name))}")
        lines.append("")
    return "\n".join(lines)


# -- memory of a process -------------------------------------------------------------------


def rss_mb(pid: int) -> float:
    """A process's resident set (VmRSS) in MB; 0 if it is gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024 / MB
    return 0.0


def children_of(pid: int) -> list[int]:
    """Every process below ``pid`` (its picture worker, multiprocessing's tracker)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat[stat.rindex(")") + 2 :].split()[1])
    found, frontier = [], {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier}
        found += sorted(frontier)
    return found


# -- the run -------------------------------------------------------------------------------


@dataclass
class Sample:
    seconds: float
    serve_mb: float
    children_mb: float
    games: int
    orders: int


@dataclass
class Soak:
    """What the run saw."""

    samples: list[Sample] = field(default_factory=list)
    games_finished: int = 0
    games_started: int = 0
    robots: list[MailRobot] = field(default_factory=list)
    #: the game each seat group plays now (None between games), for the stall report
    games: list[str | None] = field(default_factory=list)

    @property
    def orders(self) -> int:
        return sum(bot.tally.orders_sent for bot in self.robots)


def robot_names(args: argparse.Namespace) -> list[str]:
    """The robots: one a seat, up to the six with shipped keys (then a robot plays in
    several games at once, as a player by mail may)."""
    return list(DEFAULT_NAMES[: min(len(DEFAULT_NAMES), args.games * args.players)])


async def play(
    store: EventStore,
    hub: MailHub,
    seats: list[list[MailRobot]],
    kinds: list[str],
    soak: Soak,
    until: float,
) -> None:
    """
    Keep a game going for each seat group until ``until``, a finished one followed by a
    new one; ``kinds`` are the robots of the seats, seat by seat.
    """
    games: list[str | None] = [None] * len(seats)
    soak.games = games
    while time.monotonic() < until:
        acted = False
        for slot, group in enumerate(seats):
            game = games[slot]
            if game is not None:
                state = await asyncio.to_thread(lambda g=game: store.load_state(g).state)
                if state.step is Step.OVER:
                    soak.games_finished += 1
                    games[slot] = game = None
            if game is None:
                game = f"soak{soak.games_started:03d}"
                soak.games_started += 1
                for bot in group:  # only a game's mail: its disk stays small
                    bot.start_mailbox()
                await asyncio.to_thread(
                    start_game, store, game, [bot.address for bot in group],
                    sender=MODERATOR, time_limits=LIMITS,
                )
                games[slot] = game
                acted = True
            for bot, kind in zip(group, kinds):
                bot.kind = kind  # a robot in several games may sit in different seats
                acted |= await bot.play_once(store, game)
        await asyncio.gather(*(bot.read_mail(0.0 if acted else 0.5) for bot in soak.robots))
        for bot in soak.robots:
            if bot.read_upto is not None:
                await hub.discard(bot.address, upto=bot.read_upto)
        await hub.discard(MODERATOR, PROCESSED)


#: No order mailed for this long is a stall: the run says who waits on what.
STALL = 90.0


def stall_report(store: EventStore, soak: Soak) -> str:
    """
    Who each game waits on, and what its robots heard and ordered on: a soak whose
    orders stop says why (serve not answering, a robot waiting for mail it will not
    get, a game no robot may act in).
    """
    lines = []
    for game in soak.games:
        if game is None:
            continue
        loaded = store.load_state(game)
        state = loaded.state
        actor = to_act(state)
        seen = None if actor is None else state.steps_seen(actor)
        lines.append(f"  {game}: version {loaded.seq}, turn {state.turn}, step "
                     f"{state.step.name}, to act {actor} (his reference {seen})")
        for bot in soak.robots:
            if game in bot.heard or game in bot.ordered_on:
                lines.append(f"    {bot.name}: heard {bot.heard.get(game)}, ordered on "
                             f"{bot.ordered_on.get(game)}, mails read {bot.tally.mails_read}, "
                             f"orders {bot.tally.orders_sent}")
    return "\n".join(lines)


async def sample(
    pid: int, soak: Soak, every: float, started: float, store: EventStore | None = None
) -> None:
    """Every ``every`` seconds: ``serve``'s RSS and its children's, printed as it goes;
    after ``STALL`` seconds without an order, who waits on what (once a stall)."""
    print(f"{'min':>7} {'serve MB':>9} {'children MB':>12} {'games':>6} {'orders':>7}", flush=True)
    last_orders, moved, told = -1, time.monotonic(), False
    while True:
        if soak.orders != last_orders:
            last_orders, moved, told = soak.orders, time.monotonic(), False
        elif store is not None and not told and time.monotonic() - moved >= STALL:
            told = True
            report = await asyncio.to_thread(stall_report, store, soak)
            print(f"no order for {time.monotonic() - moved:.0f} s:\n{report}", flush=True)
        children = sum(rss_mb(child) for child in children_of(pid))
        row = Sample(time.monotonic() - started, rss_mb(pid), children, soak.games_finished,
                     soak.orders)
        soak.samples.append(row)
        print(f"{row.seconds / 60:7.1f} {row.serve_mb:9.1f} {row.children_mb:12.1f} "
              f"{row.games:6d} {row.orders:7d}", flush=True)
        await asyncio.sleep(every)


def verdict(samples: list[Sample]) -> str:
    """The largest RSS after the baseline against the RSS at the baseline."""
    if len(samples) < 3:
        return "too few samples for a verdict"
    length = samples[-1].seconds
    settled = SETTLED if length >= 2 * SETTLED else length / 2
    base = next(s for s in samples if s.seconds >= settled)
    after = [s for s in samples if s.seconds >= base.seconds]
    worst = max(after, key=lambda s: s.serve_mb)
    growth = worst.serve_mb / base.serve_mb - 1
    whole = max(after, key=lambda s: s.serve_mb + s.children_mb)
    whole_growth = (whole.serve_mb + whole.children_mb) / (base.serve_mb + base.children_mb) - 1
    where = "10 minutes" if settled == SETTLED else f"{settled / 60:.1f} minutes (half the run)"
    ok = "within" if growth <= TARGET else "OVER"
    return (
        f"serve RSS at {where}: {base.serve_mb:.1f} MB; max after: {worst.serve_mb:.1f} MB "
        f"at {worst.seconds / 60:.1f} min ({growth:+.1%}, {ok} the +{TARGET:.0%} target)\n"
        f"serve and its children: {base.serve_mb + base.children_mb:.1f} MB -> max "
        f"{whole.serve_mb + whole.children_mb:.1f} MB ({whole_growth:+.1%})\n"
        f"run: {length / 60:.1f} min, {samples[-1].games} games finished, "
        f"{samples[-1].orders} orders mailed"
    )


async def soak_run(args: argparse.Namespace, folder: Path) -> None:
    if not 2 <= args.players <= len(DEFAULT_NAMES) or args.games < 1:
        raise SystemExit(f"--players from 2 to {len(DEFAULT_NAMES)}, --games at least 1")
    keys = await PlayerKeys.make(robot_names(args))
    try:
        async with MailHub() as hub:
            config = service_config(hub, folder, keys, source=str(folder / "config.toml"))
            config = dataclasses.replace(
                config,
                imap=dataclasses.replace(config.imap, processed_folder=PROCESSED),
                service=dataclasses.replace(config.service, deadline_seconds=30.0),
            )
            (folder / "config.toml").write_text(config_text(config), encoding="utf-8")
            env = {k: v for k, v in os.environ.items() if not k.startswith("TITAN_")}
            upgrade = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "moderator", "db", "upgrade", "--db", config.database.url,
                env=env,
            )
            if await upgrade.wait() != 0:
                raise SystemExit("db upgrade failed")
            await run_serve(args, folder, hub, keys, env, config)
    finally:
        keys.drop()


async def run_serve(
    args: argparse.Namespace,
    folder: Path,
    hub: MailHub,
    keys: PlayerKeys,
    env: dict[str, str],
    config: Config,
) -> None:
    log = folder / "serve.log"
    with log.open("wb") as out:
        serve = await asyncio.create_subprocess_exec(
            *serve_command(args, folder),
            stdin=asyncio.subprocess.DEVNULL, stdout=out, stderr=asyncio.subprocess.STDOUT,
            cwd=folder, env=env,
        )
    soak = Soak()
    sampler: asyncio.Task[None] | None = None
    try:
        while SERVING not in log.read_text(errors="replace"):
            if serve.returncode is not None:
                raise SystemExit(f"serve stopped:\n{log.read_text(errors='replace')}")
            await asyncio.sleep(0.2)
        rng = random.Random(args.seed)
        soak.robots = [
            mail_robot(name, hub, keys, folder, random.Random(rng.random()), pgp_mime=i % 2 == 0)
            for i, name in enumerate(robot_names(args))
        ]
        store = open_store(config.database.url, create=False)
        for bot in soak.robots:
            await bot.sign_on()
        while not all(bot.tally.mails_read for bot in soak.robots):  # each robot's welcome
            await asyncio.gather(*(bot.read_mail(0.5) for bot in soak.robots))
        started = time.monotonic()
        print(f"serve pid {serve.pid}; {args.games} games at once of {args.players} robots "
              f"({args.robot}); sampling every {args.sample:g} s for {args.minutes:g} min; "
              f"folder {folder}", flush=True)
        sampler = asyncio.create_task(sample(serve.pid, soak, args.sample, started, store))
        robots = len(soak.robots)
        seats = [
            [soak.robots[(game * args.players + seat) % robots] for seat in range(args.players)]
            for game in range(args.games)
        ]
        await play(store, hub, seats, seat_kinds(args.robot, args.players), soak,
                   started + args.minutes * 60)
        sampler.cancel()
        print(verdict(soak.samples), flush=True)
        if args.trace is not None:
            print(heap_growth(folder), flush=True)
    finally:
        if sampler is not None:
            sampler.cancel()
        if serve.returncode is None:
            serve.send_signal(signal.SIGTERM)
            await asyncio.wait_for(serve.wait(), 120)
        for bot in soak.robots:
            await bot.close()
        text = log.read_text(errors="replace")
        print(f"serve exited {serve.returncode}; tracebacks in its log: "
              f"{text.count('Traceback')}", flush=True)


#: ``serve`` under tracemalloc (``--trace``): a snapshot of its Python heap every so often.
#: Tracing starts one period in, once the imports are done (traced, they take minutes).
TRACED_SERVE = """
import runpy, sys, threading, time, tracemalloc
folder, every = sys.argv[1], float(sys.argv[2])
def dump():
    time.sleep(every)
    tracemalloc.start(8)
    number = 0
    while True:
        time.sleep(every)
        number += 1
        tracemalloc.take_snapshot().dump(f"{folder}/heap-{number:03d}.snapshot")
threading.Thread(target=dump, daemon=True).start()
sys.argv = ["moderator", *sys.argv[3:]]
runpy.run_module("moderator", run_name="__main__")
"""


def serve_command(args: argparse.Namespace, folder: Path) -> list[str]:
    """How ``serve`` is started: as an operator starts it, or under tracemalloc."""
    serve = ["serve", "--config", str(folder / "config.toml")]
    if args.trace is None:
        return [sys.executable, "-m", "moderator", *serve]
    return [sys.executable, "-c", TRACED_SERVE, str(folder), str(args.trace * 60), *serve]


def heap_growth(folder: Path, top: int = 20) -> str:
    """Where ``serve``'s Python heap grew between its second snapshot and its last."""
    import tracemalloc

    snapshots = sorted(folder.glob("heap-*.snapshot"))
    if len(snapshots) < 3:
        return "fewer than three heap snapshots: no comparison"
    keep = [tracemalloc.Filter(False, "<frozen importlib._bootstrap>"),
            tracemalloc.Filter(False, tracemalloc.__file__)]
    first = tracemalloc.Snapshot.load(str(snapshots[1])).filter_traces(keep)
    last = tracemalloc.Snapshot.load(str(snapshots[-1])).filter_traces(keep)
    title = (f"serve's Python heap, {snapshots[1].name} -> {snapshots[-1].name}: "
             f"{sum(t.size for t in first.traces) / MB:.1f} -> "
             f"{sum(t.size for t in last.traces) / MB:.1f} MB; grown most:")
    lines = [title]
    for stat in last.compare_to(first, "traceback")[:top]:
        ours = [f for f in stat.traceback if "/moderator/" in f.filename]
        where = (ours or list(stat.traceback))[-1]
        inner = stat.traceback[-1]
        lines.append(f"  {stat.size_diff / 1024:+9.0f} KB {stat.count_diff:+7d} blocks  "
                     f"{where.filename.split('/moderator/')[-1]}:{where.lineno}  "
                     f"(in {inner.filename.rsplit('/', 2)[-1]}:{inner.lineno})")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=120.0)
    parser.add_argument("--sample", type=float, default=30.0, help="seconds between samples")
    parser.add_argument("--games", type=int, default=2, help="games played at once")
    parser.add_argument("--players", type=int, default=2, help="robots a game")
    parser.add_argument("--robot", default="competent,random", help="robot kinds, seat by seat")
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--keep", type=Path, help="keep the folder (database, log) here")
    parser.add_argument(
        "--trace", type=float, metavar="MINUTES",
        help="run serve under tracemalloc, a heap snapshot every MINUTES, and print where "
        "its heap grew (slower: for finding growth, not for the RSS curve)",
    )
    args = parser.parse_args()
    if not os.environ.get("TITAN_SOAK"):
        print(usage())
        return
    folder = args.keep or Path(tempfile.mkdtemp(prefix="titan-soak-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        asyncio.run(soak_run(args, folder))
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
