"""
One game by mail between robot players, against the whole service: the moderator's
``Service`` (the same poller, sender and deadline jobs as ``serve``) on a mail system
(the embedded hub, or a real server such as the tests' Dovecot), robots
(``mailrobot``) that sign on by mail with their keys (``player_keys``), a game the
moderator starts for them, and every order and report by signed mail until it ends.
``titan-moderator demo`` plays one; the tests play them on other mail servers.

The game does not depend on which mail is read first: only the player to act mails,
and no deadline passes by the machine's time.  A silent robot's reminders and timeouts
come when the game moves the demo clock to them, once the moderator is idle
(``stamps.next_deadline_time``), so with ``stamps`` the same seed plays the same game.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from moderator.clock import SystemClock
from moderator.mail.imap import DONE_KEYWORD
from moderator.records import record
from moderator.rules.legal import to_act
from moderator.rules.state import GameState, Step
from moderator.rules.variant import STANDARD
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
from moderator.store import deadlines, inbox, players
from moderator.store.eventstore import EventStore
from moderator.testing.clocks import DemoClock
from moderator.testing.connections import imap_source_at, smtp_sink_at
from moderator.testing.hub import MailHub
from moderator.testing.mailrobot import COMPETENT, MailRobot, seat_kinds
from moderator.testing.player_keys import MODERATOR, PlayerKeys, robot_address
from moderator.testing.stamps import MailStamps, next_deadline_time

#: The game's time limits (the defaults: days, which the demo clock never reaches but
#: for a silent robot).
LIMITS = TimeLimits()
#: The longest a robot waits for mail before the game is looked at again (seconds).
ROBOT_WAIT = 0.5
#: The flags the moderator's poller marks its processed mail with (``ImapSource.done_flag``).
PROCESSED_FLAGS = frozenset({DONE_KEYWORD, "\\Seen"})


class MailSystem(Protocol):
    """Where the mail goes: SMTP and IMAP on one host, with users it can add."""

    host: str

    @property
    def smtp_port(self) -> int: ...

    @property
    def imap_port(self) -> int: ...

    def add_user(self, address: str, password: str) -> None: ...


def service_config(mail: MailSystem, folder: Path, keys: PlayerKeys, source: str = "demo") -> Config:
    """The service's configuration for ``mail``, a SQLite database in ``folder`` and the key."""
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
        source=source,
    )


def mail_robot(
    name: str,
    mail: MailSystem,
    keys: PlayerKeys,
    folder: Path,
    rng: random.Random,
    *,
    silent: bool = False,
    pgp_mime: bool = True,
    stamps: MailStamps | None = None,
    kind: str = COMPETENT,
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
        kind=kind,
        stamps=stamps,
        clock=keys.clock or SystemClock(),
    )


@record(kw_only=True)
class MailGame:
    """What to play: the robots, the game, the seed, and how long to wait at most."""

    game_id: str
    names: Sequence[str]
    seed: int
    #: Robots that never order (the deadlines time them out).
    silent: Sequence[str] = ()
    #: The robot each player plays with: a kind or a comma list (``mailrobot.seat_kinds``).
    robot: str = COMPETENT
    #: Give up after this many real seconds (counted from ``started``).
    timeout: float = 1800.0
    started: float = 0.0
    #: The variant the game is created in (``game new --variant``).
    variant: str = STANDARD
    #: Stop once this many turns are played (as turn ``turns + 1`` begins), the game
    #: not over: a long game's first turns measured (``demo --turns``).  None: play on
    #: to its end.
    turns: int | None = None
    #: Every player's ``pictures`` choice from the start (``schedule.pictures``; None:
    #: the default).  The pictures are drawn from the game and never change it.
    pictures: str | None = None

    def played_enough(self, state: GameState) -> bool:
        """Whether the turns asked for are played (never, without ``turns``)."""
        return self.turns is not None and state.turn > self.turns


async def play_by_mail(
    game: MailGame,
    config: Config,
    mail: MailSystem,
    keys: PlayerKeys,
    clock: DemoClock,
    folder: Path,
    progress: Callable[[str], None] = lambda _line: None,
) -> list[MailRobot]:
    """
    Play ``game`` by mail on ``mail`` (see the module's text); the robots, their mail
    read, once it is over (or its ``turns`` are played).  Raises TimeoutError if it is
    not over in time.
    """
    started = game.started or time.monotonic()
    rng = random.Random(f"demo-robots:{game.seed}")
    stamps = MailStamps(game.seed, clock)
    kinds = seat_kinds(game.robot, len(game.names))
    robots = [
        mail_robot(
            name,
            mail,
            keys,
            folder,
            random.Random(rng.random()),
            silent=name in game.silent,
            pgp_mime=index % 2 == 0,
            stamps=stamps,
            kind=kinds[index],
        )
        for index, name in enumerate(game.names)
    ]
    service = Service(bootstrap(config, Overrides(clock=clock)))
    await service.start()
    try:
        progress(f"Mail on {mail.host} (SMTP {mail.smtp_port}, IMAP {mail.imap_port}).")
        progress("Robots sign on by mail with their public keys ...")
        for bot in robots:
            await bot.sign_on()
        await _until(lambda: _registered(service.store, robots), game, started)
        for bot in robots:
            await bot.read_mail(0)  # the welcome
        names = ", ".join(game.names)
        progress(f"Signed on: {names}. The moderator starts game {game.game_id!r}.")
        await asyncio.to_thread(
            start_game,
            service.store,
            game.game_id,
            [bot.address for bot in robots],
            sender=MODERATOR,
            seed=game.seed,
            insecure_seed=True,  # the game replays from its seed: its reports say so
            time_limits=LIMITS,
            variant=game.variant,
            pictures=game.pictures,
        )
        await service.send_now()
        await _play_to_the_end(service, robots, clock, game, progress, started, mail)
        await service.send_now()
        for bot in robots:
            await bot.read_mail(0)
    finally:
        await service.stop()
        for bot in robots:
            await bot.close()
    return robots


async def _play_to_the_end(
    service: Service,
    robots: list[MailRobot],
    clock: DemoClock,
    game: MailGame,
    progress: Callable[[str], None],
    started: float,
    mail: MailSystem,
) -> None:
    shown_turn = 0
    playing = {bot.name for bot in robots}
    read = _GameReader(service.store, game.game_id)
    while True:
        state = await asyncio.to_thread(read.state)
        for gone in sorted(playing - {p.name for p in state.live_players}):
            playing.discard(gone)
            why = "timed out (a silent robot)" if gone in game.silent else "was eliminated"
            progress(f"Turn {state.turn:>3}: {gone} {why}; out of the game.")
        if state.step is Step.OVER:
            progress(f"Turn {state.turn}: the game is over; winner {state.winner or 'nobody'}.")
            return
        if game.played_enough(state):
            progress(f"Turn {state.turn}: stopping after turn {game.turns}, as asked.")
            return
        shown_turn = _show_turn(state, shown_turn, robots, progress)
        if time.monotonic() - started > game.timeout:
            msg = f"the game did not finish in {game.timeout:.0f} s (turn {state.turn})"
            raise TimeoutError(msg)
        acted = False
        for bot in robots:  # only the robot to act orders: the others need no new read
            acted |= await bot.play_on(game.game_id, state)
        if not acted and to_act(state) in game.silent:
            acted = await asyncio.to_thread(_move_clock_on, service.store, clock, game.game_id)
        waits = [bot.read_mail(wait) for bot, wait in zip(robots, _waits(state, robots, acted))]
        await asyncio.gather(*waits)
        if isinstance(mail, MailHub):
            await forget_read_mail(mail, robots)


class _GameReader:
    """
    The game as its loop reads it each round: read again only when its stream has moved
    on (a state is the fold of the events, so the same last sequence number is the same
    state).  Most rounds find no new event, and a whole read decodes a snapshot.
    """

    def __init__(self, store: EventStore, game_id: str) -> None:
        self._store = store
        self._game_id = game_id
        self._last: tuple[int, GameState] | None = None

    def state(self) -> GameState:
        if self._last is None or self._store.last_seq(self._game_id) != self._last[0]:
            loaded = self._store.load_state(self._game_id)
            self._last = (loaded.seq, loaded.state)
        return self._last[1]


async def forget_read_mail(hub: MailHub, robots: Sequence[MailRobot]) -> None:
    """
    Drop from the hub the mail the robots have filed in their mailbox files and the mail
    the moderator has processed (it is archived in its database): the hub holds every
    message in memory, and a whole game's mail would otherwise stay there to its end.
    """
    for bot in robots:
        if bot.read_upto is not None:
            await hub.discard(bot.address, upto=bot.read_upto)
    await hub.discard(MODERATOR, flagged=PROCESSED_FLAGS)


def _waits(state: GameState, robots: Sequence[MailRobot], acted: bool) -> list[float]:
    """
    How long each robot waits for mail (by IDLE) before the game is looked at again.
    After an order, nobody waits: the moderator has it to answer.  Otherwise the mail
    the game waits on goes to the robot to act (the answer to his order, or the report
    that asks him to), so he waits and the others' mail is read as it stands; waiting
    on all of them would cost every order the full wait of a robot mailed nothing.  A
    silent robot to act gets no answer: then all wait, for the moderator's notices.
    """
    if acted:
        return [0.0] * len(robots)
    awaited = to_act(state)
    if not any(bot.name == awaited and not bot.silent for bot in robots):
        return [ROBOT_WAIT] * len(robots)
    return [ROBOT_WAIT if bot.name == awaited else 0.0 for bot in robots]


def _show_turn(
    state: GameState, shown: int, robots: list[MailRobot], progress: Callable[[str], None]
) -> int:
    """Say when a new turn begins; the turn said last."""
    if state.turn == shown or state.step is Step.COLOUR:
        return shown
    orders = sum(bot.tally.orders_sent for bot in robots)
    live = ", ".join(f"{p.name} {p.score}" for p in state.live_players)
    progress(f"Turn {state.turn:>3}: {orders} orders so far; scores {live}")
    return state.turn


def _move_clock_on(store: EventStore, clock: DemoClock, game_id: str) -> bool:
    """
    While the game waits on a silent robot: once the moderator has done all there is to
    do now (its deadline check has run at this moment, no mail waits to be read), move
    the clock to the next reminder or deadline; True if it moved.  The moderator then
    acts on it at exactly that time, in every run.
    """
    now = clock.now()
    with store.reading() as tx:
        checked = deadlines.heartbeat(tx)
        rows = deadlines.open_deadlines(tx, game_id)
    if checked is None or checked < now or inbox.pending_ids(store, limit=1):
        return False
    moment = next_deadline_time(rows, LIMITS, now)
    if moment is None:
        return False
    clock.advance_to(moment)
    return True


async def _until(check: Callable[[], bool], game: MailGame, started: float) -> None:
    while not await asyncio.to_thread(check):
        if time.monotonic() - started > game.timeout:
            raise TimeoutError("the game timed out waiting for the moderator")
        await asyncio.sleep(0.1)


def _registered(store: EventStore, robots: list[MailRobot]) -> bool:
    with store.reading() as tx:
        return all(players.player_by_address(tx, bot.address) is not None for bot in robots)


__all__ = [
    "LIMITS",
    "PROCESSED_FLAGS",
    "MailGame",
    "MailSystem",
    "forget_read_mail",
    "mail_robot",
    "play_by_mail",
    "service_config",
]
