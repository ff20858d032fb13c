"""
``titan-moderator demo``: the whole service on one machine, with nothing to set up.

An embedded mail hub (SMTP and IMAP on loopback, ``moderator.testing.hub``), GnuPG keys
made in temporary homes for the moderator and each robot, a SQLite database, and the
service itself (``Service``: the same poller, sender and deadline jobs as ``serve``).
Robot players (``mailrobot``) sign on by mail with their keys, the moderator starts a
game for them (as ``game new`` does), and they play it to the end by mail, each order
signed, each report signed and its private part encrypted to its reader.

Everything lands in one folder: every robot's mailbox as an mbox file, the moderator's
incoming mail, and the database (``titan-moderator local history demo --as Ann --db
sqlite:///FOLDER/demo.sqlite`` replays the game as Ann read it).

The same seed plays the same game again: the dice come from the seed (an insecure test
seed, which the reports say), the robots choose with a generator seeded from it, and
their mails are the same bytes in every run (``clock``: the demo's clock and the mails'
stamps; ``keys``: the robots' shipped key pairs), so the dice bound to each mail's
digest repeat.  The game does not depend on which mail is read first: only the player
to act mails, and no deadline passes by the machine's time (a silent robot's reminders
and timeouts come when the demo moves its clock to them, once the moderator is idle).
"""

from __future__ import annotations

import asyncio
import mailbox
import random
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from moderator.clock import SystemClock
from moderator.demo.clock import MailStamps, next_deadline_time
from moderator.demo.keys import (
    MODERATOR,
    DemoKeys,
    lf_line_ends,
    robot_address,
)
from moderator.demo.mailrobot import MailRobot
from moderator.ports.mail import PENDING
from moderator.rules.legal import to_act
from moderator.rules.state import GameState, Step
from moderator.runners.commands import start_game
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
from moderator.runtime.service import Service
from moderator.schedule.timing import TimeLimits
from moderator.store import deadlines, inbox, outbox, players
from moderator.store.eventstore import EventStore
from moderator.testing.clocks import DemoClock
from moderator.testing.connections import imap_source_at, smtp_sink_at
from moderator.testing.hub import MailHub
from moderator.usecases.games.robot_games import DEFAULT_NAMES

GAME_ID = "demo"
#: The demo game's time limits (the defaults: days, which the demo clock never reaches
#: but for a silent robot).
LIMITS = TimeLimits()


@dataclass
class DemoOptions:
    players: int = 3
    seed: int | None = None
    #: Where to keep the mailboxes and the database (default: a new temporary folder).
    folder: Path | None = None
    #: Robots that never order (the deadlines time them out).
    silent: tuple[str, ...] = ()
    #: Give up after this many real seconds.
    timeout: float = 1800.0


@dataclass
class DemoSummary:
    folder: Path
    state: GameState
    orders: int
    mails_sent: int
    mails_read: int
    seconds: float
    mailboxes: dict[str, Path] = field(default_factory=dict)
    seed: int = 0
    #: The options it was played with (``again`` repeats them).
    options: DemoOptions = field(default_factory=DemoOptions)
    #: The player whose view the replay command shows (the first robot).
    viewer: str = DEFAULT_NAMES[0]

    @property
    def finished(self) -> bool:
        return self.state.step is Step.OVER

    def text(self) -> str:
        scores = ", ".join(f"{p.name} {p.score}" for p in self.state.players)
        winner = self.state.winner or "nobody (a draw)"
        lines = [
            f"Game over after {self.state.turn} turns: winner {winner}; scores: {scores}."
            if self.finished
            else f"The game did not finish (turn {self.state.turn}).",
            (
                f"{self.orders} orders by mail, {self.mails_sent} mails from the moderator "
                f"(all signed), {self.mails_read} read by the robots, in {self.seconds:.0f} s "
                f"({60 * self.orders / max(self.seconds, 1e-9):.0f} orders a minute); "
                f"dice seed {self.seed}."
            ),
            "",
            *where_lines(self.folder, self.mailboxes, GAME_ID, self.viewer),
            "Play the same game again (the same turns, dice and orders):",
            f"  {self.again()}",
        ]
        return "\n".join(lines)

    def again(self) -> str:
        """The command that plays this game again."""
        silent = "".join(f" --silent {name}" for name in self.options.silent)
        return f"titan-moderator demo --seed {self.seed} --players {self.options.players}{silent}"


def where_lines(
    folder: Path, mailboxes: Mapping[str, Path], replay: str, viewer: str
) -> list[str]:
    """
    The end of a demo's summary: where every mailbox and the database are, and how to
    read game ``replay`` as ``viewer`` (one of its players) read it.
    """
    db = folder / "demo.sqlite"
    return [
        f"Everything is in {folder}:",
        *(f"  {who:<10} {path}" for who, path in mailboxes.items()),
        f"  database   {db}",
        "",
        f"  keys       {folder / 'players'} (GnuPG homes), {folder / 'moderator.asc'}",
        "",
        f"How to read a mailbox with mutt or gpg: {folder / 'README.txt'}.",
        f"Replay game {replay} move by move as {viewer} read it:",
        f"  titan-moderator local history {replay} --as {viewer} --db sqlite:///{db}",
    ]


class MailSystem(Protocol):
    """Where the demo's mail goes: SMTP and IMAP on one host, with users it can add."""

    host: str

    @property
    def smtp_port(self) -> int: ...

    @property
    def imap_port(self) -> int: ...

    def add_user(self, address: str, password: str) -> None: ...


def demo_config(mail: MailSystem, folder: Path, keys: DemoKeys) -> Config:
    """The service's configuration for the demo's mail system, database and key."""
    mail.add_user(MODERATOR, "moderator-password")
    return Config(
        moderator=ModeratorSettings(address=MODERATOR, name="Titan moderator (demo)"),
        database=DatabaseSettings(url=f"sqlite:///{folder / 'demo.sqlite'}"),
        imap=ImapSettings(
            host=mail.host,
            port=mail.imap_port,
            tls="none",
            user=MODERATOR,
            password="moderator-password",
            poll_seconds=2.0,
        ),
        smtp=SmtpSettings(host=mail.host, port=mail.smtp_port, tls="none", send_seconds=1.0),
        gnupg=GnupgSettings(home=str(keys.moderator_home), key=keys.moderator_key),
        # The demo's clocks jump (a silent robot's deadlines) or run fast (the
        # tournament): a long time between two deadline checks is not an outage.
        service=ServiceSettings(
            deadline_seconds=0.5, reply_budget=100_000, max_outage_hours=24 * 365 * 10
        ),
        source="demo",
    )


def demo_robot(
    name: str,
    mail: MailSystem,
    keys: DemoKeys,
    folder: Path,
    rng: random.Random,
    *,
    silent: bool = False,
    pgp_mime: bool = True,
    stamps: MailStamps | None = None,
) -> MailRobot:
    """A robot with a mailbox on ``mail`` and its mbox file in ``folder/mail``."""
    address = robot_address(name)
    mail.add_user(address, f"{name}-password")
    ring, key = keys.robots[name]
    (folder / "mail").mkdir(parents=True, exist_ok=True)
    return MailRobot(
        name=name,
        address=address,
        keyring=ring,
        fingerprint=key,
        source=imap_source_at(mail.host, mail.imap_port, address, f"{name}-password", tls=False),
        sink=smtp_sink_at(mail.host, mail.smtp_port),
        moderator=MODERATOR,
        mbox_path=folder / "mail" / f"{name.lower()}.mbox",
        rng=rng,
        silent=silent,
        pgp_mime=pgp_mime,
        stamps=stamps,
        clock=keys.clock or SystemClock(),
    )


async def run_demo(
    options: DemoOptions,
    progress: Callable[[str], None] = lambda _line: None,
    *,
    mail: MailSystem | None = None,
) -> DemoSummary:
    """
    Play one game by mail on the embedded hub (or on ``mail``, e.g. a real mail
    server); see the module's text.
    """
    started = time.monotonic()
    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(2**31)
    folder = options.folder or Path(tempfile.mkdtemp(prefix="titan-demo-"))
    folder.mkdir(parents=True, exist_ok=True)
    names = list(DEFAULT_NAMES[: options.players])
    unknown = [n for n in options.silent if n not in names]
    if unknown:
        msg = f"--silent names no robot of this game: {', '.join(unknown)} (robots: {names})"
        raise ValueError(msg)
    progress(f"Making the moderator's GnuPG key; the {len(names)} robots' are shipped ...")
    clock = DemoClock()
    keys = await DemoKeys.make(names, clock)
    try:
        if mail is not None:
            return await _play(options, progress, folder, seed, names, mail, keys, clock, started)
        async with MailHub() as hub:
            return await _play(options, progress, folder, seed, names, hub, keys, clock, started)
    finally:
        keys.keep(folder, GAME_ID)
        keys.drop()


async def _play(
    options: DemoOptions,
    progress: Callable[[str], None],
    folder: Path,
    seed: int,
    names: list[str],
    hub: MailSystem,
    keys: DemoKeys,
    clock: DemoClock,
    started: float,
) -> DemoSummary:
    config = demo_config(hub, folder, keys)
    rng = random.Random(f"demo-robots:{seed}")
    stamps = MailStamps(seed, clock)
    robots = [
        demo_robot(
            name,
            hub,
            keys,
            folder,
            random.Random(rng.random()),
            silent=name in options.silent,
            pgp_mime=index % 2 == 0,
            stamps=stamps,
        )
        for index, name in enumerate(names)
    ]
    service = Service(bootstrap(config, Overrides(clock=clock)))
    await service.start()
    try:
        progress(f"Mail on {hub.host} (SMTP {hub.smtp_port}, IMAP {hub.imap_port}).")
        progress("Robots sign on by mail with their public keys ...")
        for bot in robots:
            await bot.sign_on()
        await _until(lambda: _registered(service.store) == len(robots), options, started)
        for bot in robots:
            await bot.read_mail(0)  # the welcome
        progress(f"Signed on: {', '.join(names)}. The moderator starts game {GAME_ID!r}.")
        await asyncio.to_thread(
            start_game,
            service.store,
            GAME_ID,
            [bot.address for bot in robots],
            sender=MODERATOR,
            seed=seed,
            insecure_seed=True,  # the demo replays from its seed: its reports say so
            time_limits=LIMITS,
        )
        await service.send_now()
        await _play_to_the_end(service, robots, clock, options, progress, started)
        await service.send_now()
        for bot in robots:
            await bot.read_mail(0)
    finally:
        await service.stop()
        for bot in robots:
            await bot.source.close()
    after = bootstrap(config, Overrides(clock=clock))
    try:
        store = after.store
        state = store.load_state(GAME_ID).state
        mailboxes = {bot.name: bot.mbox_path for bot in robots}
        mailboxes["moderator"] = dump_inbox(store, folder / "mail" / "moderator.mbox")
        with store.reading() as tx:
            sent = len(outbox.mails(tx)) - len(outbox.mails(tx, status=PENDING))
    finally:
        after.close()
    return DemoSummary(
        folder=folder,
        state=state,
        orders=sum(bot.tally.orders_sent for bot in robots),
        mails_sent=sent,
        mails_read=sum(bot.tally.mails_read for bot in robots),
        seconds=time.monotonic() - started,
        mailboxes=mailboxes,
        seed=seed,
        options=options,
        viewer=names[0],
    )


async def _play_to_the_end(
    service: Service,
    robots: list[MailRobot],
    clock: DemoClock,
    options: DemoOptions,
    progress: Callable[[str], None],
    started: float,
) -> None:
    shown_turn = 0
    playing = {bot.name for bot in robots}
    while True:
        state = await asyncio.to_thread(lambda: service.store.load_state(GAME_ID).state)
        for gone in sorted(playing - {p.name for p in state.live_players}):
            playing.discard(gone)
            why = "timed out (a silent robot)" if gone in options.silent else "was eliminated"
            progress(f"Turn {state.turn:>3}: {gone} {why}; out of the game.")
        if state.step is Step.OVER:
            progress(f"Turn {state.turn}: the game is over; winner {state.winner or 'nobody'}.")
            return
        if state.turn != shown_turn and state.step is not Step.COLOUR:
            shown_turn = state.turn
            orders = sum(bot.tally.orders_sent for bot in robots)
            live = ", ".join(f"{p.name} {p.score}" for p in state.live_players)
            progress(f"Turn {state.turn:>3}: {orders} orders so far; scores {live}")
        if time.monotonic() - started > options.timeout:
            msg = f"the demo game did not finish in {options.timeout:.0f} s (turn {state.turn})"
            raise TimeoutError(msg)
        acted = False
        for bot in robots:
            acted |= await bot.play_once(service.store, GAME_ID)
        if not acted and to_act(state) in options.silent:
            acted = await asyncio.to_thread(_move_clock_on, service.store, clock)
        # Wait for the answers: the robot to act hears by IDLE, the others are read too.
        waits = [bot.read_mail(0.0 if acted else 0.5) for bot in robots]
        await asyncio.gather(*waits)


def _move_clock_on(store: EventStore, clock: DemoClock) -> bool:
    """
    While the game waits on a silent robot: once the moderator has done all there is to
    do now (its deadline check has run at this moment, no mail waits to be read), move
    the clock to the next reminder or deadline; True if it moved.  The moderator then
    acts on it at exactly that time, in every run.
    """
    now = clock.now()
    with store.reading() as tx:
        checked = deadlines.heartbeat(tx)
        rows = deadlines.open_deadlines(tx, GAME_ID)
    if checked is None or checked < now or inbox.pending_ids(store, limit=1):
        return False
    moment = next_deadline_time(rows, LIMITS, now)
    if moment is None:
        return False
    clock.advance_to(moment)
    return True


async def _until(check: Callable[[], bool], options: DemoOptions, started: float) -> None:
    while not await asyncio.to_thread(check):
        if time.monotonic() - started > options.timeout:
            raise TimeoutError("the demo timed out waiting for the moderator")
        await asyncio.sleep(0.1)


def _registered(store: EventStore) -> int:
    with store.reading() as tx:
        return sum(
            1
            for name in DEFAULT_NAMES
            if players.player_by_address(tx, robot_address(name)) is not None
        )


def dump_inbox(store: EventStore, path: Path) -> Path:
    """The moderator's incoming mail, as archived, into an mbox file."""
    box = mailbox.mbox(path)
    try:
        with store.reading() as tx:
            for message in inbox.messages(tx):
                box.add(lf_line_ends(message.raw))
    finally:
        box.close()
    return path
