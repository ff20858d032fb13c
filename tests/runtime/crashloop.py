"""
``titan-moderator serve`` killed with SIGKILL and started again at once, as a real
process on the embedded mail hub (``moderator.testing.hub``), for the crash test and
``benchmarks/bench_restart.py``.

Ann and Bob play two games per cycle by mail, with secret lines (the service has no
GnuPG key: its mail goes out unsigned).  Each cycle mails one game's order and starts
``serve``, which plays it before it says it serves (its "serving ... stop with Ctrl-C"
line, written once it holds the mailbox's lock and has polled) and then sends the
answer, whose report carries a picture (the picture worker starts); it mails the other
game's order and kills ``serve`` soon after: while the first answer is drawn or sent,
while the second order is read or played.  Each kill's moment is drawn at random in a
slice of that window of its own (the slices in a shuffled order), so a few kills cover
the whole window as evenly as many random ones would.  The processes ``serve``
started are looked up in ``/proc`` just before the kill, and must be gone soon after.  A
last ``serve`` answers what is left and is stopped with SIGTERM.

Only the standard library and the moderator: the benchmark imports it too.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

from moderator.ports import LoadedGame
from moderator.ports.mail import SENT
from moderator.reporting.views import legal_orders
from moderator.rules.legal import to_act
from moderator.runners.commands import new_game
from moderator.store import EventStore, inbox, outbox, players
from moderator.testing.connections import smtp_sink_at
from moderator.testing.hub import MailHub
from moderator.usecases.games.messages import carry_out

MODERATOR = "moderator@titan.example"
PLAYERS = {"Ann": "ann@example.org", "Bob": "bob@example.org"}
#: A restart serves within this: far below the 2-minute heartbeat a takeover without
#: the PID check would wait, with room for a loaded machine (the suite runs on both cores,
#: and a restart imports the whole service: 30 s was once exceeded at a load of 15;
#: benchmarks/bench_restart.py measures the time itself, about 3 s).
SERVES_WITHIN = 60.0
#: How long a killed service's processes may take to go.
GONE_WITHIN = 10.0
#: The line ``serve`` writes once it runs (lock taken, first poll done).
SERVING = "titan-moderator: serving "


def secret_of(name: str) -> str:
    return f"{name.lower()}-secret-7"


def write_config(path: Path, hub: MailHub, db_url: str, *, lease: float | None = None) -> None:
    """
    A configuration for ``serve`` on ``hub``'s loopback SMTP and IMAP (with IDLE); with
    ``lease``, its senders' leases (``[smtp] lease_seconds``; default the service's).
    """
    leased = "" if lease is None else f"lease_seconds = {lease}\n"
    path.write_text(
        f"""
[moderator]
address = "{MODERATOR}"
name = "Titan moderator (crash test)"

[database]
url = "{db_url}"

[imap]
host = "{hub.host}"
port = {hub.imap_port}
tls = "none"
user = "{MODERATOR}"
password = "pw"
poll_seconds = 1

[smtp]
host = "{hub.host}"
port = {hub.smtp_port}
tls = "none"
send_seconds = 1
{leased}""",
        encoding="utf-8",
    )


def game_id(cycle: int) -> str:
    return f"g{cycle:02d}"


def seat_games(store: EventStore, hub: MailHub, count: int) -> None:
    """Mailboxes for everyone; ``count`` games for Ann and Bob (no time limits, secrets)."""
    hub.add_user(MODERATOR, "pw")
    for address in PLAYERS.values():
        hub.add_user(address, "pw")
    with store.transaction() as tx:
        for name, address in PLAYERS.items():
            players.add_player(tx, name, address, secret=secret_of(name))
    for cycle in range(count):
        game = game_id(cycle)
        new_game(store, game, list(PLAYERS), seed=11 + cycle, time_limits=None)
        with store.transaction() as tx:
            for name, address in PLAYERS.items():
                players.seat_player(tx, game, name, address)
            loaded = tx.load(game)
            tx.append(game, loaded.seq, [], record=loaded.record.but(allow_secrets=True))


def serve_env() -> dict[str, str]:
    """The environment of ``serve``: ours, less any TITAN_ setting."""
    return {k: v for k, v in os.environ.items() if not k.startswith("TITAN_")}


# -- processes --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Proc:
    """A process as ``/proc`` shows it: its id, start (clock ticks after boot), command."""

    pid: int
    ppid: int
    start: int
    command: str


def _proc(pid: int) -> tuple[Proc, str] | None:
    """(the process, its state letter), or None if there is no such process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = stat[stat.rindex(")") + 2 :].split()
    return Proc(pid, int(fields[1]), int(fields[19]), command.strip()), fields[0]


def descendants(root: int) -> list[Proc]:
    """Every living process under ``root`` (children, their children...)."""
    table: list[Proc] = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            found = _proc(int(entry))
            if found is not None and found[1] not in "ZX":
                table.append(found[0])
    below: list[Proc] = []
    parents = {root}
    while True:
        new = [p for p in table if p.ppid in parents and p not in below]
        if not new:
            return below
        below += new
        parents |= {p.pid for p in new}


def alive(procs: Iterable[Proc]) -> list[Proc]:
    """Those of ``procs`` still running (the same pid and start; a zombie is gone)."""
    left = []
    for proc in procs:
        found = _proc(proc.pid)
        if found is not None and found[0].start == proc.start and found[1] not in "ZX":
            left.append(proc)
    return left


async def until_gone(procs: list[Proc], within: float = GONE_WITHIN) -> list[Proc]:
    """Wait until none of ``procs`` runs, or ``within`` seconds; returns those left."""
    deadline = time.monotonic() + within
    left = alive(procs)
    while left and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
        left = alive(left)
    return left


# -- serve --------------------------------------------------------------------------------


@dataclass
class Serve:
    """One ``serve`` process; its output goes to ``log``."""

    process: asyncio.subprocess.Process
    log: Path
    started: float

    @property
    def output(self) -> str:
        return self.log.read_text(errors="replace")


async def start_serve(config: Path, log: Path) -> Serve:
    with log.open("wb") as out:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "moderator", "serve", "--config", str(config),
            stdin=asyncio.subprocess.DEVNULL, stdout=out, stderr=asyncio.subprocess.STDOUT, cwd=log.parent,
            env=serve_env(),
        )
    return Serve(process, log, time.monotonic())


async def until_serving(serve: Serve, within: float | None = None) -> float:
    """
    Seconds until ``serve`` said it serves; raises AssertionError if not within ``within``
    (default ``SERVES_WITHIN``).
    """
    within = SERVES_WITHIN if within is None else within
    deadline = serve.started + within
    while time.monotonic() < deadline:
        if SERVING in serve.output:
            return time.monotonic() - serve.started
        if serve.process.returncode is not None:
            break
        await asyncio.sleep(0.02)
    msg = f"serve did not serve within {within:g} s:\n{serve.output}"
    raise AssertionError(msg)


async def kill(serve: Serve) -> None:
    serve.process.send_signal(signal.SIGKILL)
    await serve.process.wait()


# -- the game by mail ---------------------------------------------------------------------


@dataclass
class Order:
    """One order mail: its game, who sent it, its line, its Message-ID."""

    game: str
    player: str
    line: str
    message_id: str


def next_order(store: EventStore, game: str) -> tuple[str, str, int]:
    """(the player to act, a legal order line for him, his step reference's number)."""
    state = store.load_state(game).state
    player = to_act(state)
    assert player is not None, "the game is over"
    lines = [line for line in legal_orders(state, player) if not line.startswith("withdraw")]
    return player, lines[0], state.steps_seen(player)


def order_mail(game: str, player: str, line: str, version: int) -> tuple[bytes, str]:
    """The order as ``player`` mails it, with his secret and the step reference."""
    message = EmailMessage()
    message["From"] = f"{player} <{PLAYERS[player]}>"
    message["To"] = MODERATOR
    message["Subject"] = "orders"
    message["Message-ID"] = message_id = make_msgid(domain="example.org")
    message.set_content(
        f"game {game}\nref {game}-{version}\nsecret {secret_of(player)}\n{line}\n"
    )
    return message.as_bytes(), message_id


async def send_order(hub: MailHub, store: EventStore, game: str) -> Order:
    player, line, version = await asyncio.to_thread(next_order, store, game)
    raw, message_id = order_mail(game, player, line, version)
    await smtp_sink_at(hub.host, hub.smtp_port).send(raw, PLAYERS[player], [MODERATOR])
    return Order(game, player, line, message_id)


def unanswered(store: EventStore, orders: list[Order]) -> list[Order]:
    """The orders whose mail is not processed yet, or whose answer is not sent."""
    with store.reading() as tx:
        found = {m.message_id: m.id for m in inbox.messages(tx)}
        sent = {m.inbound_id for m in outbox.mails(tx, status=SENT)}
        waiting = {m.inbound_id for m in outbox.mails(tx) if m.status != SENT}
    return [
        order
        for order in orders
        if order.message_id not in found
        or found[order.message_id] not in sent
        or found[order.message_id] in waiting
    ]


async def until_answered(store: EventStore, orders: list[Order], within: float) -> None:
    deadline = time.monotonic() + within
    while left := await asyncio.to_thread(unanswered, store, orders):
        if time.monotonic() > deadline:
            msg = f"no answer to {left} within {within:g} s"
            raise AssertionError(msg)
        await asyncio.sleep(0.1)


def events_of(start: LoadedGame, order: Order) -> int:
    """How many events the order makes when carried out once on the game's start."""
    result = carry_out(start.game_id, start.state, start.record, order.player, order.line, list)
    assert result.ok, result.reply
    return len(result.events)


# -- the cycle ------------------------------------------------------------------------------


@dataclass
class CrashRun:
    """What the cycles saw."""

    #: Seconds from each start of ``serve`` to its "serving" line.
    serving: list[float] = field(default_factory=list)
    #: Seconds from each kill to the next "serving" line.
    restart: list[float] = field(default_factory=list)
    #: The processes each killed ``serve`` had started, and those still running after.
    children: list[list[Proc]] = field(default_factory=list)
    survivors: list[Proc] = field(default_factory=list)
    orders: list[Order] = field(default_factory=list)
    #: Each ``serve``'s output, the last one's (stopped with SIGTERM) last.
    logs: list[str] = field(default_factory=list)
    #: The last ``serve``'s exit status.
    last_code: int | None = None


#: Longest wait for the last answers: a mail the killed service was sending is held by
#: its lease (``outbox.LEASE``, 20 s, unless the configuration says ``lease_seconds``)
#: before another sender may take it; the rest is room for a loaded machine (45 s was
#: once too short at a load average of 18).
ANSWERS_WITHIN = 90.0


def kill_moments(rng: random.Random, kills: int, latest: float) -> list[float]:
    """
    Seconds after the second order to kill, one per cycle: the window ``[0, latest)`` cut
    into ``kills`` equal slices, a moment drawn in each, the slices in a random order.
    """
    width = latest / kills
    return [width * (index + rng.random()) for index in rng.sample(range(kills), kills)]


async def crash_cycles(
    hub: MailHub,
    store: EventStore,
    config: Path,
    folder: Path,
    kills: int,
    *,
    seed: int = 0,
    latest: float = 0.5,
) -> CrashRun:
    """
    ``kills`` times: mail an order, start ``serve`` (it plays the order before it says it
    serves, then sends the answer), wait until it serves, mail a second order, kill
    ``serve`` with SIGKILL up to ``latest`` seconds later (``kill_moments``); then a last
    ``serve`` answers every order left and is stopped with SIGTERM.  Needs
    ``seat_games(..., 2 * kills)``.
    """
    rng = random.Random(seed)
    moments = kill_moments(rng, kills, latest)
    run = CrashRun()
    killed_at: float | None = None
    killed: list[Proc] = []
    for cycle in range(kills + 1):
        if cycle < kills:
            run.orders.append(await send_order(hub, store, game_id(2 * cycle)))
        serve = await start_serve(config, folder / f"serve-{cycle:02d}.log")
        try:
            # While it starts: the killed one's processes must go.
            run.survivors += await until_gone(killed)
            run.serving.append(await until_serving(serve))
            if killed_at is not None:
                run.restart.append(time.monotonic() - killed_at)
            if cycle == kills:
                await until_answered(store, run.orders, within=ANSWERS_WITHIN)
                serve.process.send_signal(signal.SIGTERM)
                run.last_code = await asyncio.wait_for(serve.process.wait(), 60)
                break
            run.orders.append(await send_order(hub, store, game_id(2 * cycle + 1)))
            await asyncio.sleep(moments[cycle])
            killed = descendants(serve.process.pid)
            await kill(serve)
            killed_at = time.monotonic()
            run.children.append(killed)
        finally:
            if serve.process.returncode is None:
                serve.process.kill()
                await serve.process.wait()
            run.logs.append(serve.output)
    return run
