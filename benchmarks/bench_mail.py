"""
Mail-service benchmark: orders end to end through loopback IMAP and SMTP, every mail
signed; prints figures, asserts nothing.

    python benchmarks/bench_mail.py [--games N] [--seconds S] [--warmup S]
        [--send-concurrency N] [--reports N]

Sets up what ``titan-moderator demo`` does, with the same mail robots
(``moderator.testing.mailrobot``, playing random legal orders here): the embedded
mail hub (aiosmtpd and pymap on 127.0.0.1), throw-away GnuPG homes under /tmp (one for
the moderator, one holding every robot's key), a SQLite database in a temporary
folder, and the real ``Service`` (poller, sender, deadline jobs, IMAP IDLE).  The hub
and the robots run in a child process of their own, as a mail server and players
would, so that they do not share the moderator's event loop and interpreter lock.  N games
(8 by default) of two mail robots each are started with ``start_game`` and played at
once for S seconds (60 by default; a game that ends is followed by a new one).  Every
order is signed by its robot (PGP/MIME or clearsigned), sent by SMTP, fetched,
verified and carried out by the moderator, whose replies and reports are signed (the
private parts encrypted to their readers) and read back by the robots over IMAP.

It prints:

- the machine (CPU count, load average, gpg version);
- orders per minute (sent, and answered: the ordering robot read a mail carrying a
  newer step reference), the median and 95th-percentile latency from an order sent to
  that mail read, refused orders, and mails sent by the moderator per minute;
- where the time goes: wall time in the poller (of which processing mail, of which
  checking signatures) and in the sender (rendering, of which gpg, and SMTP), the CPU
  used by this process (service, hub and robots share it) and by gpg processes;
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

from moderator.clock import SystemClock
from moderator.mail import compose
from moderator.mail.gpg import Keyring
from moderator.mail.smtp import SmtpSession
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
from moderator.runtime.service import Service
from moderator.store import outbox, players
from moderator.store.eventstore import EventStore
from moderator.testing.clocks import DemoClock
from moderator.testing.connections import imap_source_at, smtp_sink_at
from moderator.testing.gnupg import gnupg_home as temporary_gnupg_home
from moderator.testing.gnupg import keyring
from moderator.testing.hub import MailHub
from moderator.testing.mailrobot import RANDOM, MailRobot
from moderator.testing.stores import open_store

MODERATOR = "moderator@titan.invalid"
DOMAIN = "robots.titan.invalid"




class Meter:
    """Wall time summed per label; wraps callables (sync or async) to feed it."""

    def __init__(self) -> None:
        self.on = False
        self.totals: dict[str, float] = {}
        self.counts: dict[str, int] = {}
        self.labels: list[str] = []
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

        @wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.add(label, time.perf_counter() - started)
        return timed

    def line(self, label: str, window: float, orders: int) -> str:
        total, count = self.totals.get(label, 0.0), self.counts.get(label, 0)
        return (f"{label:<34} {total:7.1f} s wall ({100 * total / window:5.1f}% of the run), "
                f"{count:6d} calls, {1e3 * total / max(count, 1):6.1f} ms each, "
                f"{1e3 * total / max(orders, 1):6.1f} ms per order")


def instrument(service: Service, meter: Meter) -> None:
    """Time the service's parts (instance attributes, and the sender's render_outgoing)."""
    poller, sender, ring = service.poller, service.sender, service.keyring
    assert ring is not None
    poller.poll = meter.wrap("poller: poll (fetch, process, mark)", poller.poll)  # type: ignore[method-assign]
    poller._process_waiting = meter.wrap("  processing mail (thread)", poller._process_waiting)  # type: ignore[method-assign]
    for name in ("verify_detached", "verify_clearsigned"):
        setattr(ring, name, meter.wrap("    checking signatures (gpg)", getattr(ring, name)))
    sender.send_due = meter.wrap("sender: send rounds", sender.send_due)  # type: ignore[method-assign]
    sender_module.render_outgoing = meter.wrap(  # type: ignore[attr-defined]
        "  render_outgoing (summed over workers)", render_outgoing)
    for name in ("sign_detached", "encrypt"):
        setattr(ring, name, meter.wrap("    gpg sign, encrypt (summed)", getattr(ring, name)))
    SmtpSession.send = meter.wrap(  # type: ignore[method-assign]
        "  SMTP send (summed over workers)", SmtpSession.send)


@dataclass
class Tally:
    """What the robots saw in the counted window (sent back by the harness process)."""

    sent: int = 0
    latencies: list[float] = field(default_factory=list)
    refused: int = 0
    games_ended: int = 0
    cpu: float = 0.0
    seconds: float = 0.0


async def play(store: EventStore, bots: list[MailRobot], game_id: str, seed: int,
               end: float, window: float, tally: Tally) -> None:
    """Play ``game_id`` (and a new game after it ends) until ``end``."""
    addresses = [bot.address for bot in bots]
    pending: tuple[MailRobot, int, float] | None = None
    rounds = 0
    while time.monotonic() < end:
        state = (await asyncio.to_thread(store.load_state, game_id)).state
        if state.step is Step.OVER:
            tally.games_ended += 1
            rounds += 1
            game_id = f"{game_id.split('r')[0]}r{rounds}"
            await asyncio.to_thread(start_game, store, game_id, addresses, sender=MODERATOR,
                                    seed=seed + rounds, insecure_seed=True)
            pending = None
            continue
        acted = False
        for bot in bots:
            line = bot.choose(game_id, state)
            if line is not None:
                await bot.order(game_id, state.version, line)
                now = time.monotonic()
                pending = (bot, state.version, now)
                tally.sent += now >= window
                acted = True
                break
        await asyncio.gather(*(bot.read_mail(0.0 if acted else 0.5) for bot in bots))
        if pending is not None:
            bot, version, sent_at = pending
            if bot.heard.get(game_id, -1) > version:
                if sent_at >= window:
                    tally.latencies.append(time.monotonic() - sent_at)
                pending = None
            elif bot.ordered_on.get(game_id) != version:
                tally.refused += sent_at >= window
                pending = None


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


def harness(conn: Connection, args: argparse.Namespace, folder: Path, robot_ring: Keyring,
            keys: dict[str, str]) -> None:
    """The child process: the mail hub and the robots (the players and their mail server)."""
    asyncio.run(play_all(conn, args, folder, robot_ring, keys))


async def play_all(conn: Connection, args: argparse.Namespace, folder: Path,
                   robot_ring: Keyring, keys: dict[str, str]) -> None:
    async def told() -> object:
        return await asyncio.to_thread(conn.recv)

    async with MailHub() as hub:
        hub.add_user(MODERATOR, "mod-pw")
        games: list[list[MailRobot]] = []
        for g in range(args.games):
            bots = []
            for i, name in enumerate(("Ann", "Bob")):
                address = f"{name.lower()}{g}@{DOMAIN}"
                hub.add_user(address, "pw")
                bots.append(MailRobot(
                    name=f"{name}{g}", address=address, keyring=robot_ring,
                    fingerprint=keys[address],
                    source=imap_source_at(hub.host, hub.imap_port, address, "pw", tls=False),
                    sink=smtp_sink_at(hub.host, hub.smtp_port), moderator=MODERATOR,
                    mbox_path=folder / f"{address}.mbox", rng=random.Random(f"{g}{name}"),
                    pgp_mime=i == 0,
                    # The random robot decides at once: the figures are the service's,
                    # not the time a competent robot takes to think.
                    kind=RANDOM,
                ))
            games.append(bots)
        every = [bot for bots in games for bot in bots]
        conn.send((hub.host, hub.smtp_port, hub.imap_port, [b.address for b in every]))
        await told()  # the service runs
        await asyncio.gather(*(bot.sign_on() for bot in every))
        await told()  # the games are started and their first reports sent
        await asyncio.gather(*(bot.read_mail(0) for bot in every))
        store = open_store(f"sqlite:///{folder / 'bench.sqlite'}")
        tally = Tally()
        window = time.monotonic() + args.warmup  # the warm-up is played, not counted
        end = window + args.seconds

        async def open_window() -> float:
            await asyncio.sleep(window - time.monotonic())
            conn.send("window")
            return cpu()

        opener = asyncio.create_task(open_window())
        await asyncio.gather(*(
            play(store, bots, f"g{g}r0", 1000 * g, end, window, tally)
            for g, bots in enumerate(games)
        ))
        tally.cpu = cpu() - await opener
        tally.seconds = time.monotonic() - window
        conn.send(tally)
        for bot in every:
            await bot.source.close()
        store.close()
        await told()  # the service has stopped


async def run(args: argparse.Namespace, folder: Path, mod_home: Path, mod_key: str,
              robot_ring: Keyring, keys: dict[str, str]) -> list[StoredMail]:
    conn, child_end = multiprocessing.get_context("fork").Pipe()
    child = multiprocessing.get_context("fork").Process(
        target=harness, args=(child_end, args, folder, robot_ring, keys), daemon=True)
    child.start()

    async def told() -> Any:
        if not await asyncio.to_thread(conn.poll, 600):
            raise TimeoutError("the hub and robots process did not answer")
        return conn.recv()

    try:
        host, smtp_port, imap_port, addresses = await told()
        config = Config(
            moderator=ModeratorSettings(address=MODERATOR, name="Titan moderator (bench)"),
            database=DatabaseSettings(url=f"sqlite:///{folder / 'bench.sqlite'}"),
            imap=ImapSettings(host=host, port=imap_port, tls="none", user=MODERATOR,
                              password="mod-pw", poll_seconds=2.0),
            smtp=SmtpSettings(host=host, port=smtp_port, tls="none", send_seconds=1.0),
            gnupg=GnupgSettings(home=str(mod_home), key=mod_key),
            service=ServiceSettings(deadline_seconds=0.5, reply_budget=10_000_000,
                                    send_concurrency=args.send_concurrency),
            source="bench",
        )
        service = Service(bootstrap(config, Overrides(clock=DemoClock.running(1.0, SystemClock().now()))))
        meter = Meter()
        instrument(service, meter)
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
            opened, used, agent = time.monotonic(), cpu(), agent_cpu(mod_home)
            sent_before = await asyncio.to_thread(sent_count, service)
            tally: Tally = await told()
            meter.on = False
            elapsed, used = time.monotonic() - opened, cpu() - used
            agent = agent_cpu(mod_home) - agent
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
    report(args, elapsed, tally, mails, meter, used, agent)
    return rows


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


def report(args: argparse.Namespace, elapsed: float, tally: Tally, mails: int, meter: Meter,
           used: float, agent: float) -> None:
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
    print(f"  CPU of {os.cpu_count()} cores: moderator process and its gpg runs {used:.1f} s "
          f"({100 * used / elapsed:.0f}% of one core, {1e3 * used / max(orders, 1):.0f} ms per "
          f"order); its gpg-agent {agent:.1f} s ({1e3 * agent / max(orders, 1):.0f} ms per order);"
          f" hub and robots process {tally.cpu:.1f} s ({100 * tally.cpu / seconds:.0f}%), their"
          f" gpg-agents not counted")
    whole = (used + agent) / max(orders, 1)
    cores = os.cpu_count() or 1
    print(f"  the moderator's own CPU per order: {1e3 * whole:.0f} ms; with these {cores} cores "
          f"to itself (mail server and players elsewhere) that is about "
          f"{60 * cores / whole if whole else float('nan'):,.0f} orders a minute (an estimate)")
    checks = meter.counts.get("    checking signatures (gpg)", 0)
    signs = meter.counts.get("    gpg sign, encrypt (summed)", 0)
    RESULTS["gpg_per_order"] = (checks + signs) / max(orders, 1)
    print(f"  GnuPG runs per order: {(checks + signs) / max(orders, 1):.2f} "
          f"({checks} signature checks, {signs} signatures and encryptions)")
    print("where the moderator's time goes (wall; threads overlap):")
    for label in meter.labels:
        print("  " + meter.line(label, elapsed, orders))


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
        action(items[0])  # warm up
        times = []
        for item in items:
            started = time.perf_counter()
            action(item)
            times.append(time.perf_counter() - started)
        median = statistics.median(times)
        print(f"  {label:<46} median {median * 1e3:5.1f} ms, 95th percentile "
              f"{pct(times, 0.95) * 1e3:5.1f} ms ({len(times)} runs)")
        return median

    print(f"\nsigning cost per mail (service idle; a report's public part is "
          f"{len(sample.body)} characters, its private part {len(sample.private_body or '')}):")
    timed("bare detached signature", [data] * count, lambda d: ring.sign_detached(d, key))
    bare = timed("report public part, PGP/MIME signed_mime", reports,
                 lambda r: compose.signed_mime([r.body], ring, key).as_bytes())
    if replies:
        timed("render_outgoing: reply (signed)", replies,
              lambda r: render_outgoing(r, ring, key, now).as_bytes())
    full = timed("render_outgoing: report (signed + encrypted)", reports,
                 lambda r: render_outgoing(r, ring, key, now).as_bytes())
    per_min = RESULTS.get("per_min", 0.0)
    if per_min > 0:
        per_order = 60 / per_min
        print(f"\nper-order wall time at {per_min:.0f} orders a minute: {per_order * 1e3:.1f} ms"
              f" = {per_order / bare:.1f} x the bare signing cost per mail ({bare * 1e3:.1f} ms),"
              f" {per_order / full:.1f} x a signed + encrypted report ({full * 1e3:.1f} ms);"
              f" {RESULTS['mails_per_order']:.2f} moderator mails per order")
        print(f"goal: 1,000 orders a minute (60.0 ms each) within 2 x the signing cost "
              f"({2 * bare * 1e3:.1f} ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--games", type=int, default=8, help="games played at once (2 robots each)")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds counted")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds played first, not counted")
    parser.add_argument("--send-concurrency", type=int, default=ServiceSettings().send_concurrency,
                        help="the sender's workers (the service's send_concurrency)")
    parser.add_argument("--reports", type=int, default=40, help="mails rendered per signing figure")
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
