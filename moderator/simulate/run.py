"""
One simulated game by mail, from the robots' sign-ons to the end, on a clock of its own.

Each robot answers a log-normal delay after the moderator's mail that made it the one
to act (median ``reply_hours``, sigma ``REPLY_SIGMA`` of the logarithm, so about two
replies in three take between 0.37 and 2.7 times the median): after every
mail of the player to act (carried out or refused) and every timeout, whoever is to act
then is given such a delay.  Setting mails (``notify``, standing orders) go out a delay
after the game starts and hold nobody up.  The robots' mails wait in a queue by the
moment they are sent; before each is delivered the deadline job runs at every moment
it has something due, and its reminders and timeouts are counted.  By default the
games have time limits so generous (``GENEROUS_REPLIES`` median replies a step) that
none fires: a timeout is a withdrawal (Wolff 20.4), and a game thinned out by them
would say little about mail.  ``service_limits`` plays under the service's default
limits instead; a timeout then moves the game on under a robot, whose mail is not
sent (it answers the newer report instead).

The figures of a game are counted as it goes: the mails the players send, the outbox
rows the moderator writes, the changes of the player the game waits on, and the rows
written to players other than the one whose turn it is.
"""

from __future__ import annotations

import heapq
import math
import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from moderator.records import record
from moderator.rules import events as ev
from moderator.rules.legal import to_act
from moderator.rules.state import GameState, Step
from moderator.rules.variant import STANDARD
from moderator.runtime.bootstrap import App
from moderator.runtime.config import Config
from moderator.schedule.limits import TimeLimits
from moderator.simulate.answers import refusals
from moderator.simulate.composer import COMPETENT, DEFAULT, STRICT, Composer
from moderator.simulate.inprocess import (
    EPOCH,
    InProcess,
    Written,
    robot_address,
    secret_of,
    simulation_config,
)

#: Builds the App a game runs on from its configuration: the command line's gives it a
#: hand-moved clock starting at ``EPOCH``.
AppBuilder = Callable[[Config], App]

NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")
#: The spread of reply times: sigma of their natural logarithm.
REPLY_SIGMA = 1.0
#: A game stops after this many player mails unless told otherwise (a guard against a
#: game that never ends).
MAX_MAILS = 20_000
#: Under generous time limits a step may take this many median reply times (at sigma 1
#: a reply that late comes about twice in a million), and never less than 30 days.
GENEROUS_REPLIES = 100
#: Order mails in a row that change nothing before the run stops (a robot that cannot
#: read its answers, or a service that refuses what the rules allow: a bug either way).
MAX_STALLED = 8
#: Kinds of queued mail: orders of the player to act, or settings.
ORDER, SETUP = "order", "setup"


@record
class Options:
    """What ``titan-moderator simulate`` was asked for."""

    players: int = 2
    games: int = 1
    seed: int = 1
    strict: bool = False
    reply_hours: float = 8.0
    max_mails: int = MAX_MAILS
    #: Play under the service's default time limits (else generous ones).
    service_limits: bool = False
    #: The robot every seat plays with (``composer.KINDS``).
    robot: str = COMPETENT
    #: The variant every game is created in, as ``game new --variant`` creates it.
    variant: str = STANDARD

    @property
    def mode(self) -> str:
        return STRICT if self.strict else DEFAULT

    @property
    def time_limits(self) -> TimeLimits:
        """The games' time limits (see the module's text)."""
        if self.service_limits:
            return TimeLimits()
        hours = max(30 * 24.0, GENEROUS_REPLIES * self.reply_hours)
        return TimeLimits(
            setup_hours=hours,
            turn_hours=hours,
            engagement_hours=hours,
            battle_hours=hours,
            muster_hours=hours,
        )


@dataclass
class GameTally:
    """What one game cost (see the module's text)."""

    game_id: str
    dice_seed: int
    player_mails: int = 0
    order_lines: int = 0
    most_lines: int = 0
    refused_mails: int = 0
    handoffs: int = 0
    signed_mails: int = 0
    reminders: int = 0
    timeouts: int = 0
    player_turns: int = 0
    #: Per player turn (game turn, active player): rows to bystanders, and how many.
    bystander_rows: dict[tuple[int, str], int] = field(default_factory=dict)
    bystanders: dict[tuple[int, str], int] = field(default_factory=dict)
    hours: float = 0.0
    turns: int = 0
    finished: bool = False
    winner: str | None = None
    seconds: float = 0.0

    @property
    def bystander_mails_per_player_turn(self) -> float:
        """Mails to each player not on his turn, per player turn (0 without turns)."""
        if not self.player_turns:
            return 0.0
        shares = (n / max(self.bystanders[key], 1) for key, n in self.bystander_rows.items())
        return sum(shares) / self.player_turns

    @property
    def signed_mails_per_order(self) -> float:
        return self.signed_mails / self.player_mails if self.player_mails else 0.0

    @property
    def days(self) -> float:
        return self.hours / 24


def lognormal_hours(rng: random.Random, median: float) -> float:
    """A reply time: log-normal with the given median and ``REPLY_SIGMA``."""
    return median * math.exp(REPLY_SIGMA * rng.gauss(0.0, 1.0))


def game_seed(seed: int, index: int) -> int:
    """The dice seed of game ``index`` of a run (the same in both modes)."""
    return random.Random(f"simulate-dice:{seed}:{index}").randrange(2**31)


def play_game(options: Options, index: int, build: AppBuilder) -> GameTally:
    """Game ``index`` of the run, in a store of its own in a temporary folder."""
    with tempfile.TemporaryDirectory(prefix="titan-simulate-") as folder:
        world = InProcess(build(simulation_config(Path(folder))))
        try:
            return play_in(world, options, index)
        finally:
            world.close()


def play_in(world: InProcess, options: Options, index: int) -> GameTally:
    """Game ``index`` of the run in ``world``, which the caller keeps: what the game left
    in its store (the outbox's reports and audits) can be read after it."""
    return _Game(options, index, world).play()


class _Game:
    """The queue of robot mails and the tally of one game."""

    def __init__(self, options: Options, index: int, world: InProcess) -> None:
        self.options = options
        self.world = world
        self.names = list(NAMES[: options.players])
        self.game_id = f"sim{index + 1}"
        seed = options.seed
        self.tally = GameTally(self.game_id, game_seed(seed, index))
        self.delays = random.Random(f"simulate-delays:{seed}:{index}")
        self.robots = {
            name: Composer(
                name,
                options.mode,
                random.Random(f"simulate-robot:{seed}:{index}:{name}"),
                kind=options.robot,
            )
            for name in self.names
        }
        self.seats = {robot_address(name): name for name in self.names}
        self.queue: list[tuple[datetime, int, str, str, int]] = []
        self.queued = 0
        self.last_check = EPOCH
        self.waiting_on: str | None = None
        self.stalled = 0

    # -- the game ---------------------------------------------------------------------------

    def play(self) -> GameTally:
        started = time.perf_counter()
        for name in self.names:
            self.world.sign_on(name, self.game_id)
        self.world.new_mails()  # the welcomes come before the game
        seed = self.tally.dice_seed
        options = self.options
        state = self.world.start(
            self.game_id, self.names, seed, options.time_limits, variant=options.variant
        )
        self.tally.signed_mails += len(self.world.new_mails())
        self.waiting_on = to_act(state)
        self._schedule(state, EPOCH)
        for name in self.names:
            if self.options.strict or name != self.waiting_on:
                self._queue(EPOCH, SETUP, name, state.version)
        while self.queue and state.step is not Step.OVER:
            if self.tally.player_mails >= self.options.max_mails:
                break
            at, _, kind, name, version = heapq.heappop(self.queue)
            state = self._deadlines_until(at, state)
            if state.step is Step.OVER:
                break
            state = self._deliver(at, kind, name, version, state)
        self._finish(state, started)
        return self.tally

    def _deliver(
        self, at: datetime, kind: str, name: str, version: int, state: GameState
    ) -> GameState:
        """Send one queued mail if it is still to be sent; the game after it."""
        robot = self.robots[name]
        if kind == ORDER:
            if state.version != version or to_act(state) != name:
                return state  # a timeout moved the game on: the robot answers the newer report
            lines = robot.order_mail(state)
        else:
            if not any(p.name == name for p in state.live_players):
                return state
            lines = robot.setup_mail()
            if not lines:
                return state  # its first orders carried its settings
        self.world.clock.set(max(self.world.clock.now(), at))
        header = [f"game {self.game_id}", f"ref {self.game_id}-{state.steps_seen(name)}"]
        header.append(f"secret {secret_of(name, self.game_id)}")
        # A secret mail acts once (its seal): a comment keeps a mail said again its own.
        header.append(f"# mail {self.tally.player_mails + 1}")
        delivered = self.world.mail(name, [*header, *lines])
        if delivered.status != "processed":  # a robot's mail is always read: a bug
            raise RuntimeError(f"{name}'s mail was {delivered.status}: {delivered.note}")
        mine = [m for m in delivered.mails if m.recipient == robot_address(name)]
        refused = refusals(text for m in mine for text in (m.body, m.private_body))
        robot.heard(lines, refused)
        self._count_mail(lines, bool(refused))
        after = self.world.state(self.game_id)
        self._count_rows(state, delivered.mails)
        if kind == ORDER or after.version != state.version:
            self._moved(after)
            self._schedule(after, self.world.clock.now())
        self._stalls(kind, after.version == state.version, lines, mine)
        return after

    def _stalls(self, kind: str, stalled: bool, lines: list[str], answers: list[Written]) -> None:
        """Stop the run when order mails keep changing nothing (``MAX_STALLED``)."""
        if kind != ORDER:
            return
        self.stalled = self.stalled + 1 if stalled else 0
        if self.stalled >= MAX_STALLED:
            answer = "\n".join(a.private_body or a.body for a in answers)
            raise RuntimeError(
                f"{self.stalled} order mails in a row changed nothing in {self.game_id}; "
                f"the last said {lines!r}, and its answer:\n{answer}"
            )

    def _deadlines_until(self, until: datetime, state: GameState) -> GameState:
        """The deadline job at every moment it has work before ``until``."""
        while (due := self.world.next_due(self.game_id, self.last_check)) is not None:
            if due > until:
                return state
            self.last_check = due
            rows = self.world.run_deadlines(due)
            after = self.world.state(self.game_id)
            self._count_rows(state, rows)
            if after.version != state.version:
                self.tally.timeouts += 1
                self._moved(after)
                self._schedule(after, due)
            elif rows:
                self.tally.reminders += 1
            state = after
            if state.step is Step.OVER:
                return state
        return state

    def _finish(self, state: GameState, started: float) -> None:
        tally = self.tally
        events = self.world.store.load(self.game_id)
        tally.player_turns = sum(isinstance(e, ev.TurnStarted) for e in events)
        tally.hours = (self.world.clock.now() - EPOCH) / timedelta(hours=1)
        tally.turns = state.turn
        tally.finished = state.step is Step.OVER
        tally.winner = state.winner
        tally.seconds = time.perf_counter() - started

    # -- the queue and the tally ----------------------------------------------------------

    def _schedule(self, state: GameState, since: datetime) -> None:
        """The player to act answers a reply time after ``since``."""
        actor = to_act(state)
        if actor is not None:
            self._queue(since, ORDER, actor, state.version)

    def _queue(self, since: datetime, kind: str, name: str, version: int) -> None:
        hours = lognormal_hours(self.delays, self.options.reply_hours)
        self.queued += 1
        entry = (since + timedelta(hours=hours), self.queued, kind, name, version)
        heapq.heappush(self.queue, entry)

    def _moved(self, state: GameState) -> None:
        """A hand-off: the game waits on a different player than before."""
        actor = to_act(state)
        if actor is None:
            return
        if self.waiting_on is not None and actor != self.waiting_on:
            self.tally.handoffs += 1
        self.waiting_on = actor

    def _count_mail(self, lines: list[str], refused: bool) -> None:
        tally = self.tally
        tally.player_mails += 1
        tally.order_lines += len(lines)
        tally.most_lines = max(tally.most_lines, len(lines))
        tally.refused_mails += refused

    def _count_rows(self, before: GameState, rows: list[Written]) -> None:
        """Outbox rows written while ``before`` was the game: signed, and to bystanders."""
        tally = self.tally
        tally.signed_mails += len(rows)
        active = before.active
        if active is None or before.step is Step.COLOUR or before.turn < 1:
            return  # not a player's turn yet
        key = (before.turn, active)
        tally.bystanders[key] = len(before.live_players) - 1
        to_others = sum(1 for row in rows if self.seats.get(row.recipient, active) != active)
        if to_others:
            tally.bystander_rows[key] = tally.bystander_rows.get(key, 0) + to_others
