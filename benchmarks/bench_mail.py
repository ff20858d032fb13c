"""
Mail-service benchmark: orders end to end through loopback IMAP and SMTP, every mail
signed; prints figures, asserts nothing.

    python benchmarks/bench_mail.py [--games N] [--seconds S] [--warmup S]
        [--send-concurrency N] [--reports N] [--deadline-seconds S]

Sets up what ``titan-moderator demo`` does, with the same mail robots
(``moderator.testing.mailrobot``, playing random legal orders here): the embedded
mail hub (aiosmtpd and pymap on 127.0.0.1), throw-away GnuPG homes under /tmp (one for
the moderator, one holding every robot's key), a SQLite database in a temporary
folder, and the real ``Service`` (poller, sender, deadline jobs, IMAP IDLE).  The hub
and the robots run in two child processes of their own (the mail server, and the
players), so that they share neither the moderator's event loop and interpreter lock
nor each other's, and each one's CPU is counted apart.  N games
(8 by default) of two mail robots each are started with ``start_game`` and played at
once for S seconds (60 by default; a game that ends is followed by a new one).  Every
order is signed by its robot (PGP/MIME or clearsigned), sent by SMTP, fetched,
verified and carried out by the moderator, whose replies and reports are signed (the
private parts encrypted to their readers) and read back by the robots over IMAP.  Each
robot keeps one SMTP connection and waits for its mail in IDLE on its own IMAP
connection; its game wakes when either robot's mail comes, and reads the game from the
database only when that mail told its robots something new.  The hub drops the mail the
moderator has processed every second, as the demo does (its IMAP server walks a whole
folder at each SELECT).  The robots and the hub are the benchmark's load, not the
product: they cost as little as a mail program's user would.  The service runs with its configuration's defaults but for the poll and send
intervals (IDLE and the processed mails bring those forward anyway).

It prints:

- the machine (CPU count, load average, gpg version);
- orders per minute (sent, and answered: the ordering robot read a mail carrying a
  newer step reference), the median and 95th-percentile latency from an order sent to
  that mail read, refused orders, and mails sent by the moderator per minute;
- the CPU per order of the moderator (its process, its gpg runs and gpg-agent, its
  picture worker), of the mail hub and of the robots (their process, gpg runs and
  gpg-agent; with the hub, the harness's share), the cores the three used and the
  whole machine's (the others' work skews every wall time), and what the moderator's
  alone would allow on this machine's cores: with ``--games`` 8, 16, 32 it shows
  whether more orders in flight still raise the rate (latency-bound) or the cores are
  spent (CPU-bound);
- ``render_outgoing`` per report and per reply as the sender ran it (median, 95th
  percentile), beside the GnuPG work inside it (sign, encrypt) and the wait for its
  pictures: the goal is a report's rendering within twice its GnuPG cost;
- where the time goes: wall time in the poller (processing mail, and checking
  signatures, which the poller does for the next mail while one is processed) and in the sender (rendering, of which gpg, and SMTP);
- signing cost per report, measured afterwards on real outbox rows with the service
  idle: a bare detached signature, the report's public part as PGP/MIME
  (``signed_mime``), and ``render_outgoing`` as the sender does it (a reply: signed;
  a report: signed, private part encrypted to the player);
- the ratio of the per-order wall time at the measured rate to the bare signing cost
  per mail (the goal: 1,000 orders a minute, within twice that cost).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import multiprocessing
import os
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from functools import wraps
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from sqlalchemy import event

from moderator.clock import SystemClock
from moderator.mail import compose
from moderator.mail.gpg import Keyring
from moderator.mail.smtp import SmtpSession
from moderator.pictures.spec import Picture
from moderator.ports import StoredMail
from moderator.rules.state import Step
from moderator.runners.commands import start_game
from moderator.runtime import sender as sender_module
from moderator.runtime.bootstrap import Overrides, bootstrap
from moderator.runtime.config import (
    Config,
    DatabaseSettings,
    GnupgSettings,
    ImapSettings,
    ModeratorSettings,
    ServiceSettings,
    SmtpSettings,
)
from moderator.runtime.outgoing import render_outgoing
from moderator.runtime.picture_worker import draw_here
from moderator.runtime.service import Service
from moderator.store import outbox, players
from moderator.store.eventstore import EventStore
from moderator.testing.clocks import DemoClock
from moderator.testing.connections import imap_source_at, smtp_sink_at
from moderator.testing.gnupg import gnupg_home as temporary_gnupg_home
from moderator.testing.gnupg import keyring
from moderator.testing.hub import MailHub
from moderator.testing.mailgame import PROCESSED_FLAGS
from moderator.testing.mailrobot import RANDOM, MailRobot
from moderator.testing.stores import open_store

MODERATOR = "moderator@titan.invalid"
DOMAIN = "robots.titan.invalid"




def timed(fn: Callable[..., Any], record: Callable[[float], None]) -> Callable[..., Any]:
    """``fn``, the wall time of each of its calls handed to ``record``."""
    @wraps(fn)
    def timing(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            record(time.perf_counter() - started)
    return timing


class Meter:
    """Wall time summed per label; wraps callables (sync or async) to feed it."""

    def __init__(self) -> None:
        self.on = False
        self.totals: dict[str, float] = {}
        self.counts: dict[str, int] = {}
        self.labels: list[str] = []
        #: The moderator's SQL in the window, by kind (``count_sql``).
        self.sql: dict[str, int] = {}
        #: The store's game loads in the window: from the kept fold, from a kept state
        #: and the events after it, or from the tables (``store.folds``).
        self.folds: dict[str, int] = {}
        self._lock = threading.Lock()

    def add(self, label: str, seconds: float) -> None:
        if self.on:
            with self._lock:
                self.totals[label] = self.totals.get(label, 0.0) + seconds
                self.counts[label] = self.counts.get(label, 0) + 1

    def wrap(self, label: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        if label not in self.labels:
            self.labels.append(label)
        if asyncio.iscoroutinefunction(fn):
            @wraps(fn)
            async def timed_async(*args: Any, **kwargs: Any) -> Any:
                started = time.perf_counter()
                try:
                    return await fn(*args, **kwargs)
                finally:
                    self.add(label, time.perf_counter() - started)
            return timed_async

        return timed(fn, lambda seconds: self.add(label, seconds))

    def line(self, label: str, window: float, orders: int) -> str:
        total, count = self.totals.get(label, 0.0), self.counts.get(label, 0)
        return (f"{label:<34} {total:7.1f} s wall ({100 * total / window:5.1f}% of the run), "
                f"{count:6d} calls, {1e3 * total / max(count, 1):6.1f} ms each, "
                f"{1e3 * total / max(orders, 1):6.1f} ms per order")


@dataclass
class Rendered:
    """One ``render_outgoing`` call of the sender: its wall time and what it waited on."""

    report: bool
    seconds: float
    gpg: float
    pictures: float


class Renders:
    """The sender's ``render_outgoing`` calls, one record each (per thread: gpg, pictures)."""

    def __init__(self, meter: Meter) -> None:
        self.meter = meter
        self.calls: list[Rendered] = []
        self._local = threading.local()
        self._lock = threading.Lock()

    def part(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        """``fn`` timed into the render call under way in this thread (``gpg``, ``pictures``)."""
        def add(seconds: float) -> None:
            parts = getattr(self._local, "parts", None)
            if parts is not None:
                parts[name] += seconds
        return timed(fn, add)

    def render(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(fn)
        def timed(mail: StoredMail, *args: Any, **kwargs: Any) -> Any:
            self._local.parts = {"gpg": 0.0, "pictures": 0.0}
            started = time.perf_counter()
            try:
                return fn(mail, *args, **kwargs)
            finally:
                took = time.perf_counter() - started
                parts, self._local.parts = self._local.parts, None
                if self.meter.on:
                    with self._lock:
                        self.calls.append(Rendered(
                            mail.private_body is not None, took, parts["gpg"], parts["pictures"]))
        return timed


#: The signature checks: made ahead, in a thread of their own, while the mail before is
#: processed (so they overlap the processing line rather than being part of it).
CHECKS = "  checking signatures (gpg; read ahead, overlapping)"


def instrument(service: Service, meter: Meter) -> Renders:
    """Time the service's parts (instance attributes, and the sender's render_outgoing)."""
    poller, sender, ring = service.poller, service.sender, service.keyring
    assert ring is not None
    renders = Renders(meter)
    poller.poll = meter.wrap("poller: poll (fetch, process, mark)", poller.poll)  # type: ignore[method-assign]
    poller._process_one = meter.wrap("  processing mail (thread)", poller._process_one)  # type: ignore[method-assign]
    for name in ("verify_detached", "verify_clearsigned"):
        setattr(ring, name, meter.wrap(CHECKS, getattr(ring, name)))
    # The rest of the poll's serial path: the IMAP fetch and mark, and the service's
    # work after each mail (what is left of a poll is the store's archive and reads).
    # The fetches made while a poll's mails are processed (the mail taken in meanwhile)
    # are counted too: they overlap the processing, so this line is more than the
    # fetch's share of the poll.
    poller.source.fetch_new = meter.wrap(  # type: ignore[method-assign]
        "  fetch (IMAP; with those during processing)", poller.source.fetch_new)
    poller._mark = meter.wrap("  mark (IMAP)", poller._mark)  # type: ignore[method-assign]
    poller._archive = meter.wrap("  archive (store, thread)", poller._archive)  # type: ignore[method-assign]
    poller._read = meter.wrap("  reading mail (thread)", poller._read)  # type: ignore[method-assign]
    poller._process = meter.wrap(  # type: ignore[method-assign]
        "  a poll's mails (reads, processing, the mail taken in meanwhile)", poller._process)
    if poller.after_each is not None:
        poller.after_each = meter.wrap("  after each mail (service)", poller.after_each)
    sender.send_due = meter.wrap("sender: send rounds", sender.send_due)  # type: ignore[method-assign]
    sender_module.render_outgoing = meter.wrap(  # type: ignore[attr-defined]
        "  render_outgoing (summed over workers)", renders.render(render_outgoing))
    sender.draw = renders.part("pictures", meter.wrap(
        "    waiting for pictures (summed)", sender.draw))
    for name in ("sign_detached", "encrypt"):
        setattr(ring, name, renders.part("gpg", meter.wrap(
            "    gpg sign, encrypt (summed)", getattr(ring, name))))
    SmtpSession.send = meter.wrap(  # type: ignore[method-assign]
        "  SMTP send (summed over workers)", SmtpSession.send)
    count_sql(service, meter)
    return renders


def count_sql(service: Service, meter: Meter) -> None:
    """Count the moderator's SQL statements, write transactions (BEGIN IMMEDIATE) and commits."""
    def statement(_conn: Any, _cursor: Any, sql: str, *_args: Any) -> None:
        if not meter.on:
            return
        word = sql.lstrip().split(None, 2)
        kind = ("write transactions" if word[:2] == ["BEGIN", "IMMEDIATE"]
                else "read transactions" if word[:1] == ["BEGIN"] else "SQL statements")
        with meter._lock:
            meter.sql[kind] = meter.sql.get(kind, 0) + 1

    def commit(_conn: Any) -> None:
        if meter.on:
            with meter._lock:
                meter.sql["commits"] = meter.sql.get("commits", 0) + 1

    event.listen(service.store.engine, "before_cursor_execute", statement)
    event.listen(service.store.engine, "commit", commit)


@dataclass
class Tally:
    """What the robots saw in the counted window (sent back by the harness process)."""

    sent: int = 0
    latencies: list[float] = field(default_factory=list)
    refused: int = 0
    games_ended: int = 0
    cpu: float = 0.0
    gpg: float = 0.0  # of ``cpu``: the robots' finished gpg runs
    seconds: float = 0.0


#: How often the hub drops the mail the moderator has processed (``tidy``).
TIDY_SECONDS = 1.0
#: How long a robot's reader waits in IDLE before it looks again anyway.
IDLE_WAIT = 5.0
#: How long a game waits for its robots' news before it reads the game anyway.
READ_WAIT = 2.0


async def keep_reading(bot: MailRobot, news: asyncio.Event, end: float) -> None:
    """
    Read ``bot``'s mail until ``end``, waking its game (``news``) when mail came: each
    robot waits in IDLE on its own connection, so its game hears of the answer as soon
    as it is delivered, whichever of its players it went to.
    """
    while time.monotonic() < end:
        if await bot.read_mail(min(IDLE_WAIT, max(end - time.monotonic(), 0.0))):
            news.set()


def told_of(game_id: str, bots: list[MailRobot]) -> tuple[object, ...]:
    """What ``bots`` know of ``game_id`` from their mail: what their next move depends on."""
    return (game_id, *(bot.heard.get(game_id) for bot in bots),
            *(bot.ordered_on.get(game_id) for bot in bots))


async def play(store: EventStore, bots: list[MailRobot], game_id: str, seed: int,
               end: float, window: float, tally: Tally,
               readers: list[asyncio.Task[None]]) -> None:
    """
    Play ``game_id`` (and a new game after it ends) until ``end``.  The game is read
    from the database only when its robots' mail told them something new (a newer
    reference, a refusal), or after ``READ_WAIT`` without news: the robots are the
    benchmark's load, and reading the game after every mail cost them most of theirs.
    """
    addresses = [bot.address for bot in bots]
    news = asyncio.Event()
    readers += [asyncio.create_task(keep_reading(bot, news, end)) for bot in bots]
    pending: tuple[MailRobot, int, float] | None = None
    rounds = 0
    known: tuple[object, ...] | None = None
    while time.monotonic() < end:
        news.clear()
        told = told_of(game_id, bots)
        if pending is not None:
            bot, version, sent_at = pending
            if bot.heard.get(game_id, -1) > version:
                if sent_at >= window:
                    tally.latencies.append(time.monotonic() - sent_at)
                pending = None
            elif bot.ordered_on.get(game_id) != version:
                tally.refused += sent_at >= window
                pending = None
        if told == known:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(news.wait(), READ_WAIT)
            known = None if not news.is_set() else known  # no news for long: read anyway
            continue
        known = told
        state = (await asyncio.to_thread(store.load_state, game_id)).state
        if state.step is Step.OVER:
            tally.games_ended += 1
            rounds += 1
            game_id = f"{game_id.split('r')[0]}r{rounds}"
            await asyncio.to_thread(start_game, store, game_id, addresses, sender=MODERATOR,
                                    seed=seed + rounds, insecure_seed=True)
            pending = known = None
            continue
        for bot in bots:
            line = bot.choose(game_id, state)
            if line is not None:
                ref = state.steps_seen(bot.name)  # his own reference: what he was told of
                await bot.order(game_id, ref, line)
                now = time.monotonic()
                pending = (bot, ref, now)
                tally.sent += now >= window
                known = told_of(game_id, bots)  # nothing new until the answer comes
                break


def registered(service: Service, addresses: list[str]) -> int:
    with service.store.reading() as tx:
        return sum(players.player_by_address(tx, a) is not None for a in addresses)


def agent_cpu(home: Path) -> float:
    """CPU seconds of the gpg-agent serving ``home`` (it does the secret-key work)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().split(b"\0")
            if not cmdline or not cmdline[0].endswith(b"gpg-agent"):
                continue
            if str(home).encode() not in cmdline:
                continue
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


def cpu() -> float:
    """CPU seconds of this process and of its finished child processes (gpg)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def robot_address(name: str, game: int) -> str:
    return f"{name.lower()}{game}@{DOMAIN}"


def hub_process(conn: Connection, addresses: list[str]) -> None:
    """A child process: the mail hub, with the moderator's and the robots' mailboxes."""
    asyncio.run(serve_hub(conn, addresses))


async def serve_hub(conn: Connection, addresses: list[str]) -> None:
    async with MailHub() as hub:
        hub.add_user(MODERATOR, "mod-pw")
        for address in addresses:
            hub.add_user(address, "pw")
        conn.send((hub.host, hub.smtp_port, hub.imap_port))
        tidying = asyncio.create_task(tidy(hub))
        try:
            while True:
                said = await asyncio.to_thread(conn.recv)
                if said == "cpu":
                    conn.send(cpu())
                else:
                    return
        finally:
            tidying.cancel()


async def tidy(hub: MailHub) -> None:
    """
    Every ``TIDY_SECONDS``, drop from the hub the mail the moderator has processed, as
    the demo and the soak do (``mailgame.forget_read_mail``): it is archived in the
    moderator's database, and the hub's IMAP server (pymap) walks every message of a
    folder at each SELECT, so an INBOX of all the run's orders made each poll dearer as
    the run went on (at 1,000 messages a SELECT cost 6 ms more than at 10).
    """
    while True:
        await asyncio.sleep(TIDY_SECONDS)
        await hub.discard(MODERATOR, flagged=PROCESSED_FLAGS)


def harness(conn: Connection, args: argparse.Namespace, folder: Path, robot_ring: Keyring,
            keys: dict[str, str], hub: tuple[str, int, int]) -> None:
    """A child process: the robots (the players), mailing through the hub at ``hub``."""
    asyncio.run(play_all(conn, args, folder, robot_ring, keys, hub))


async def play_all(conn: Connection, args: argparse.Namespace, folder: Path,
                   robot_ring: Keyring, keys: dict[str, str], hub: tuple[str, int, int]) -> None:
    async def told() -> object:
        return await asyncio.to_thread(conn.recv)

    host, smtp_port, imap_port = hub
    games: list[list[MailRobot]] = []
    for g in range(args.games):
        bots = []
        for i, name in enumerate(("Ann", "Bob")):
            address = robot_address(name, g)
            bots.append(MailRobot(
                name=f"{name}{g}", address=address, keyring=robot_ring,
                fingerprint=keys[address],
                source=imap_source_at(host, imap_port, address, "pw", tls=False),
                sink=smtp_sink_at(host, smtp_port), moderator=MODERATOR,
                mbox_path=folder / f"{address}.mbox", rng=random.Random(f"{g}{name}"),
                pgp_mime=i == 0,
                # The random robot decides at once: the figures are the service's,
                # not the time a competent robot takes to think.
                kind=RANDOM,
            ))
        games.append(bots)
    every = [bot for bots in games for bot in bots]
    conn.send([b.address for b in every])
    await told()  # the service runs
    await asyncio.gather(*(bot.sign_on() for bot in every))
    await told()  # the games are started and their first reports sent
    await asyncio.gather(*(bot.read_mail(0) for bot in every))
    store = open_store(f"sqlite:///{folder / 'bench.sqlite'}")
    tally = Tally()
    window = time.monotonic() + args.warmup  # the warm-up is played, not counted
    end = window + args.seconds

    async def open_window() -> tuple[float, float]:
        await asyncio.sleep(window - time.monotonic())
        conn.send("window")
        return cpu(), gpg_runs_cpu()

    opener = asyncio.create_task(open_window())
    readers: list[asyncio.Task[None]] = []
    await asyncio.gather(*(
        play(store, bots, f"g{g}r0", 1000 * g, end, window, tally, readers)
        for g, bots in enumerate(games)
    ))
    used, ran = await opener
    tally.cpu, tally.gpg = cpu() - used, gpg_runs_cpu() - ran
    tally.seconds = time.monotonic() - window
    await asyncio.gather(*readers)  # each ends within IDLE_WAIT of the end
    conn.send(tally)
    for bot in every:
        await bot.close()
    store.close()
    await told()  # the service has stopped


async def run(args: argparse.Namespace, folder: Path, mod_home: Path, mod_key: str,
               robot_ring: Keyring, keys: dict[str, str]) -> list[StoredMail]:
    fork = multiprocessing.get_context("fork")
    addresses = [robot_address(n, g) for g in range(args.games) for n in ("Ann", "Bob")]
    hub_conn, hub_end = fork.Pipe()
    hub = fork.Process(target=hub_process, args=(hub_end, addresses), daemon=True)
    hub.start()
    if not hub_conn.poll(60):
        raise TimeoutError("the mail hub's process did not start")
    host, smtp_port, imap_port = hub_conn.recv()
    conn, child_end = fork.Pipe()
    child = fork.Process(
        target=harness, args=(child_end, args, folder, robot_ring, keys,
                              (host, smtp_port, imap_port)), daemon=True)
    child.start()

    async def told() -> Any:
        if not await asyncio.to_thread(conn.poll, 600):
            raise TimeoutError("the robots' process did not answer")
        return conn.recv()

    def hub_cpu() -> float:
        hub_conn.send("cpu")
        return float(hub_conn.recv())

    try:
        addresses = await told()
        config = Config(
            moderator=ModeratorSettings(address=MODERATOR, name="Titan moderator (bench)"),
            database=DatabaseSettings(url=f"sqlite:///{folder / 'bench.sqlite'}"),
            imap=ImapSettings(host=host, port=imap_port, tls="none", user=MODERATOR,
                              password="mod-pw", poll_seconds=2.0),
            smtp=SmtpSettings(host=host, port=smtp_port, tls="none", send_seconds=1.0),
            gnupg=GnupgSettings(home=str(mod_home), key=mod_key),
            service=ServiceSettings(deadline_seconds=args.deadline_seconds,
                                    reply_budget=10_000_000,
                                    send_concurrency=args.send_concurrency),
            source="bench",
        )
        service = Service(bootstrap(config, Overrides(clock=DemoClock.running(1.0, SystemClock().now()))))
        meter = Meter()
        renders = instrument(service, meter)
        await service.start()
        try:
            conn.send("go")
            while await asyncio.to_thread(registered, service, addresses) < len(addresses):
                await asyncio.sleep(0.1)
            for g in range(args.games):
                await asyncio.to_thread(start_game, service.store, f"g{g}r0",
                                        addresses[2 * g:2 * g + 2], sender=MODERATOR, seed=g,
                                        insecure_seed=True)
            await service.send_now()
            conn.send("go")
            await told()  # the window opens
            meter.on = True
            folds = dict(service.store.folds.counts)
            opened, used, agent = time.monotonic(), cpu(), agent_cpu(mod_home)
            robots_agent = agent_cpu(robot_ring.home)
            ran = gpg_runs_cpu()
            drawn, hub_used, machine = worker_cpu(), hub_cpu(), machine_cpu()
            sent_before = await asyncio.to_thread(sent_count, service)
            tally: Tally = await told()
            meter.on = False
            meter.folds = {k: v - folds.get(k, 0) for k, v in service.store.folds.counts.items()}
            elapsed, used = time.monotonic() - opened, cpu() - used
            ran = gpg_runs_cpu() - ran
            agent = agent_cpu(mod_home) - agent
            robots_agent = agent_cpu(robot_ring.home) - robots_agent
            drawn, hub_used = worker_cpu() - drawn, hub_cpu() - hub_used
            machine = machine_cpu() - machine
            mails = await asyncio.to_thread(sent_count, service) - sent_before
            # Let the rounds under way finish, so that stopping cancels none of them.
            assert service.scheduler is not None
            service.scheduler.pause()
            await service.poller.poll()
            await service.send_now()
            rows = await asyncio.to_thread(all_rows, service)
        finally:
            await service.stop()
        conn.send("stop")
    finally:
        child.join(30)
        if child.is_alive():
            child.terminate()
        hub_conn.send("stop")
        hub.join(30)
        if hub.is_alive():
            hub.terminate()
    report(args, elapsed, tally, mails, meter,
           Cpu(used=used, agent=agent, pictures=drawn, hub=hub_used, robots=tally.cpu,
               robots_agent=robots_agent, robots_gpg=tally.gpg,
               machine=machine, gpg=ran))
    renders_report(renders.calls)
    return rows


def gpg_runs_cpu() -> float:
    """CPU seconds of this process's finished child processes (its gpg runs)."""
    t = os.times()
    return t.children_user + t.children_system


def machine_cpu() -> float:
    """CPU seconds the whole machine has spent busy (every process, /proc/stat)."""
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    ticks = [int(f) for f in fields]
    idle = ticks[3] + ticks[4]  # idle, iowait
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def worker_cpu() -> float:
    """CPU seconds of this process's picture worker (a spawned child, alive the whole run)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    me = str(os.getpid())
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
            if fields[1] != me:  # the parent's pid
                continue
            if b"spawn_main" not in (proc / "cmdline").read_bytes():
                continue
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


def sent_count(service: Service) -> int:
    with service.store.reading() as tx:
        return len(outbox.mails(tx, status="sent"))


def all_rows(service: Service) -> list[StoredMail]:
    with service.store.reading() as tx:
        return outbox.mails(tx)


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


RESULTS: dict[str, float] = {}


@dataclass
class Cpu:
    """CPU seconds in the counted window, by whom."""

    used: float  # the moderator's process and its finished gpg runs
    agent: float  # the moderator's gpg-agent
    pictures: float  # the moderator's picture worker
    hub: float  # the mail hub's process
    robots: float  # the robots' process and their gpg runs
    robots_agent: float  # the robots' gpg-agent (it signs their orders)
    robots_gpg: float  # of ``robots``: their finished gpg runs
    machine: float  # every process on the machine, ours and others'
    gpg: float  # of ``used``: the moderator's finished gpg runs

    @property
    def moderator(self) -> float:
        return self.used + self.agent + self.pictures

    @property
    def harness(self) -> float:
        """The benchmark's load: the mail hub and the robots, all of them."""
        return self.hub + self.robots + self.robots_agent


def report(args: argparse.Namespace, elapsed: float, tally: Tally, mails: int, meter: Meter,
           spent: Cpu) -> None:
    orders, seconds = tally.sent, tally.seconds
    per_min = 60 * orders / seconds
    RESULTS["per_min"] = per_min
    RESULTS["mails_per_order"] = mails / max(orders, 1)
    lat = tally.latencies
    print(f"\nend to end, {args.games} games of 2 robots, {seconds:.1f} s counted "
          f"(after {args.warmup:.0f} s warm-up):")
    print(f"  orders sent:      {orders} ({per_min:.0f} a minute)")
    print(f"  orders answered:  {len(lat)} ({60 * len(lat) / seconds:.0f} a minute); "
          f"refused {tally.refused}; games ended {tally.games_ended}")
    print(f"  latency (order sent -> newer reference read): median "
          f"{1e3 * statistics.median(lat) if lat else float('nan'):.0f} ms, "
          f"95th percentile {1e3 * pct(lat, 0.95):.0f} ms, max "
          f"{1e3 * max(lat, default=float('nan')):.0f} ms")
    print(f"  moderator mails sent: {mails} ({60 * mails / elapsed:.0f} a minute, "
          f"{RESULTS['mails_per_order']:.2f} per order)")
    print(f"  machine load average now {os.getloadavg()[0]:.2f} (other work on it skews all this)")
    n = max(orders, 1)

    def each(label: str, used: float) -> None:
        print(f"    {label:<44} {used:6.1f} s ({100 * used / elapsed:4.0f}% of one core), "
              f"{1e3 * used / n:5.0f} ms per order")

    print(f"  CPU per order ({os.cpu_count()} cores):")
    each("moderator: process and its gpg runs", spent.used)
    each("  of which its gpg runs", spent.gpg)
    each("moderator: its gpg-agent", spent.agent)
    each("moderator: its picture worker", spent.pictures)
    each("moderator, all of it", spent.moderator)
    each("mail hub (its own process)", spent.hub)
    each("robots: process and their gpg runs", spent.robots)
    each("  of which their gpg runs", spent.robots_gpg)
    each("robots: their gpg-agent", spent.robots_agent)
    each("hub and robots, all of it (the harness)", spent.harness)
    parties = spent.moderator + spent.harness
    each("the three parties together", parties)
    cores = os.cpu_count() or 1
    RESULTS["harness_cpu_per_order"] = spent.harness / n
    RESULTS["cores_used"] = parties / elapsed
    print(f"  cores used: the three parties {parties / elapsed:.2f}, the whole machine "
          f"{spent.machine / elapsed:.2f} of {cores} (others' work "
          f"{max(spent.machine - parties, 0.0) / elapsed:.2f}); at {1e3 * parties / n:.0f} ms "
          f"of CPU per order the {cores} cores could carry at most "
          f"{60 * cores * n / parties if parties else float('nan'):,.0f} orders a minute")
    whole = spent.moderator / n
    RESULTS["moderator_cpu_per_order"] = whole
    print(f"  with these {cores} cores to the moderator alone (mail server and players "
          f"elsewhere) that is about {60 * cores / whole if whole else float('nan'):,.0f} orders "
          f"a minute (an estimate from its CPU per order)")
    checks = meter.counts.get(CHECKS, 0)
    signs = meter.counts.get("    gpg sign, encrypt (summed)", 0)
    RESULTS["gpg_per_order"] = (checks + signs) / n
    print(f"  GnuPG runs per order: {(checks + signs) / n:.2f} "
          f"({checks} signature checks, {signs} signatures and encryptions)")
    print("  the moderator's database work per order: " + ", ".join(
        f"{count / n:.1f} {kind}" for kind, count in sorted(meter.sql.items())))
    print("  game loads in the window: " + ", ".join(
        f"{meter.folds.get(kind, 0)} {label}" for kind, label in (
            ("hit", "from the fold kept for their version"),
            ("partial", "from a kept fold and the events after it"),
            ("miss", "from the tables"))))
    print("where the moderator's time goes (wall; threads overlap):")
    for label in meter.labels:
        print("  " + meter.line(label, elapsed, orders))


def renders_report(calls: list[Rendered]) -> None:
    """render_outgoing as the sender ran it, per report and per reply, beside its GnuPG work."""
    print("\nrender_outgoing as the sender ran it in the window (wall; median, 95th percentile):")
    for label, kind in (("report (signed + encrypted)", True), ("reply (signed)", False)):
        these = [c for c in calls if c.report is kind]
        if not these:
            print(f"  {label}: none")
            continue

        def figures(values: list[float]) -> str:
            return f"{1e3 * statistics.median(values):6.1f} ms, {1e3 * pct(values, 0.95):6.1f} ms"

        whole = [c.seconds for c in these]
        gpg = [c.gpg for c in these]
        print(f"  {label:<28} {len(these):4d} mails: render_outgoing {figures(whole)}; "
              f"its GnuPG {figures(gpg)}; its pictures {figures([c.pictures for c in these])}")
        if kind:
            ratio = statistics.median(whole) / max(statistics.median(gpg), 1e-9)
            RESULTS["render_over_gpg"] = ratio
            print(f"  a report's render_outgoing is {ratio:.1f} x its GnuPG cost (median; "
                  f"goal: 2 x at most)")


def signing_costs(rows: list[StoredMail], ring: Keyring, key: str, count: int) -> None:
    """Time rendering real outbox rows, as the sender does, with the service idle."""
    reports = [r for r in rows if r.private_body is not None and r.recipient_key][-count:]
    replies = [r for r in rows if r.private_body is None][-count:]
    if not reports:
        print("no report with a player key in the outbox: signing costs skipped")
        return
    now = SystemClock().now()
    sample = reports[len(reports) // 2]
    data = compose.canonical_crlf(sample.body.encode())

    def timed(label: str, items: list[Any], action: Callable[[Any], object]) -> float:
        action(items[0])  # warm up (and not timed again: a picture drawn is then kept)
        times = []
        for item in items[1:] or items:
            started = time.perf_counter()
            action(item)
            times.append(time.perf_counter() - started)
        median = statistics.median(times)
        print(f"  {label:<52} median {median * 1e3:5.1f} ms, 95th percentile "
              f"{pct(times, 0.95) * 1e3:5.1f} ms ({len(times)} runs)")
        return median

    def gpg_of(mail: StoredMail) -> None:
        ring.sign_detached(compose.canonical_crlf(mail.body.encode()), key)
        assert mail.private_body is not None and mail.recipient_key is not None
        ring.encrypt(mail.private_body.encode(), [mail.recipient_key])

    specs = {json.dumps(Picture.from_json(p).to_json(), sort_keys=True)  # as the sender draws
             for r in reports for p in r.pictures}
    drawn: dict[str, bytes] = {}

    def draw(spec: str) -> None:
        drawn[spec] = draw_here(spec)

    print(f"\nsigning cost per mail (service idle; a report's public part is "
          f"{len(sample.body)} characters, its private part {len(sample.private_body or '')}; "
          f"{len(specs)} distinct pictures in {len(reports)} reports):")
    timed("bare detached signature", [data] * count, lambda d: ring.sign_detached(d, key))
    bare = timed("report public part, PGP/MIME signed_mime", reports,
                 lambda r: compose.signed_mime([r.body], ring, key).as_bytes())
    gpg = timed("report's GnuPG work (sign public, encrypt private)", reports, gpg_of)
    if specs:
        # As the worker draws them: each distinct picture once, the lands and tiles of the
        # ones before it kept (``pictures.raster``), as they are in a worker that has run.
        timed("a picture drawn (each distinct one once, tiles kept)", sorted(specs), draw)
    if replies:
        timed("render_outgoing: reply (signed)", replies,
              lambda r: render_outgoing(r, ring, key, now).as_bytes())
    full = timed("render_outgoing: report, pictures drawn ahead", reports,
                 lambda r: render_outgoing(r, ring, key, now, draw=drawn.__getitem__).as_bytes())
    print(f"  a report's render_outgoing (pictures drawn ahead) is {full / gpg:.1f} x its GnuPG "
          f"work (goal: 2 x at most)")
    per_min = RESULTS.get("per_min", 0.0)
    if per_min > 0:
        per_order = 60 / per_min
        print(f"\nper-order wall time at {per_min:.0f} orders a minute: {per_order * 1e3:.1f} ms"
              f" = {per_order / bare:.1f} x the bare signing cost per mail ({bare * 1e3:.1f} ms),"
              f" {per_order / full:.1f} x a signed + encrypted report ({full * 1e3:.1f} ms);"
              f" {RESULTS['mails_per_order']:.2f} moderator mails per order")
        print("goal: 1,000 orders a minute (60.0 ms each) end to end with pictures on")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--games", type=int, default=8, help="games played at once (2 robots each)")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds counted")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds played first, not counted")
    parser.add_argument("--send-concurrency", type=int, default=ServiceSettings().send_concurrency,
                        help="the sender's workers (the service's send_concurrency)")
    parser.add_argument("--reports", type=int, default=40, help="mails rendered per signing figure")
    parser.add_argument("--deadline-seconds", type=float,
                        default=ServiceSettings().deadline_seconds,
                        help="the deadline job's interval (the service's; each check writes "
                             "the heartbeat, a transaction of its own)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("gnupg").setLevel(logging.ERROR)

    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-mail-")))
        mod_ring = keyring(stack.enter_context(temporary_gnupg_home("m")))
        robot_ring = keyring(stack.enter_context(temporary_gnupg_home("r")))
        print(f"{os.cpu_count()} CPUs (load average {os.getloadavg()[0]:.2f}), "
              f"gpg {mod_ring.gpg_version}; "
              f"making keys for the moderator and {2 * args.games} robots ...")
        mod_key = mod_ring.generate_key("Titan moderator", MODERATOR)
        keys = {f"{n}{g}@{DOMAIN}": robot_ring.generate_key(f"{n}{g}", f"{n}{g}@{DOMAIN}")
                for g in range(args.games) for n in ("ann", "bob")}
        robot_ring.import_key(mod_ring.export_public(mod_key))
        rows = asyncio.run(run(args, folder, mod_ring.home, mod_key, robot_ring, keys))
        signing_costs(rows, mod_ring, mod_key, args.reports)


if __name__ == "__main__":
    main()
