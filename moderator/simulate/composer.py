"""
What a simulated robot writes in one mail: the lines, in the two modes of
``titan-moderator simulate``.

*Strict* is play by mail as it was before issue 15: a mail of ``notify all`` once, and
then one order a mail.

*Default* is a player who knows the new orders and wants few round trips:

1. his first mail gives his standing orders (``STANDING``);
2. each mail carries every order he can decide before a die is needed: he plans on a
   copy of the game with the pure rules (``decide`` with dice that refuse to roll),
   and ends the mail with the order that rolls
   (that order is decided already; only what follows depends on the dice).  He also
   stops before a step one of his acknowledged standing orders would answer, so that a
   line of his never collides with what the moderator did for him;
3. his ``roll`` is followed by ``on roll N: move ...; move ...; done`` for each of the
   six results, each planned on a copy of the game with that roll (``done`` inside the
   line where he would end his movement after those moves: the moderator stops at a
   roll no line names, and a ``done`` after the lines would fall on the next step).

Each order is decided by a robot of the composer's ``kind``: ``competent``
(``moderator.robots``, the default) from the seat's view of the game (or of the planned
copy) alone, so what the player cannot see never changes it; ``random``
(``moderator.robot``) a random legal order.

The composer learns from the answers like a player (``heard``): a setting or an ``on
roll`` line the moderator cannot read as any order it knows is not written again in
the game, and after a refused order the next mail carries one order (as in strict
mode), so a plan that went wrong costs a mail, not a loop.  Every choice comes from
the robot's own ``random.Random``, so a seed gives the same mails.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from moderator import robot, robots
from moderator.orders import parse_order, render_order
from moderator.rules import commands as cmd
from moderator.rules.battle import WINDOWS
from moderator.rules.decide import decide
from moderator.rules.dice import ScriptedDice
from moderator.rules.evolve import replay
from moderator.rules.legal import to_act
from moderator.rules.state import GameState, Step
from moderator.usecases.games.robot_kinds import KINDS

STRICT, DEFAULT = "strict", "default"
#: The robots (``robot_match.KINDS``): the default first.
COMPETENT, RANDOM = KINDS
#: The standing orders a default robot gives in its first mail.
STANDING = (
    "standing strikes: auto",
    "standing no concede",
    "standing when attacked: fight",
    "standing muster best",
    "standing summon best",
)
#: What a strict robot sends first: every report, as before issue 15.
NOTIFY_ALL = "notify all"
#: The codes of a line the moderator could not read as any order it knows.
UNKNOWN = ("E-UNKNOWN-ORDER", "E-SYNTAX")
#: Picks a robot makes to find an order other than a mulligan after a planned roll.
REPICKS = 20
#: The features a robot may find unsupported, by the start of their lines.
FEATURES = ("standing", "on roll", "notify")


class DiceNeededError(Exception):
    """Planning reached a command that rolls: the plan stops there."""


class _NoRolling:
    """Dice for planning: any roll stops the plan (``DiceNeededError``)."""

    def roll(self, count: int = 1) -> tuple[int, ...]:
        raise DiceNeededError


def feature_of(line: str) -> str | None:
    """The new-order feature a line uses (``FEATURES``), or None for a plain order."""
    low = line.strip().lower()
    return next((f for f in FEATURES if low.startswith(f)), None)


def checked_line(command: cmd.Command, state: GameState) -> str:
    """The order line for ``command``, checked to parse back to it (as the robot does)."""
    line = render_order(command, state)
    parsed = parse_order(line, command.player, state)
    if parsed != command:
        raise AssertionError(f"order {line!r} parses to {parsed!r}, not {command!r}")
    return line


@dataclass
class Composer:
    """One robot's mails in one game (see the module's text)."""

    player: str
    mode: str
    rng: random.Random
    #: Setup lines (standing orders, ``notify all``) not yet answered.
    setup: list[str] = field(default_factory=list)
    #: Standing orders the moderator carried out (they answer steps for the robot).
    standing: set[str] = field(default_factory=set)
    #: Features the moderator answered as unknown orders.
    unsupported: set[str] = field(default_factory=set)
    #: After a refused line: the next mail carries one order.
    one_order_next: bool = False
    #: The robot that decides the orders (``KINDS``).
    kind: str = COMPETENT

    def __post_init__(self) -> None:
        if self.mode not in (STRICT, DEFAULT):
            raise ValueError(f"mode is {STRICT!r} or {DEFAULT!r}, not {self.mode!r}")
        if self.kind not in KINDS:
            raise ValueError(f"unknown robot {self.kind!r}: use one of {', '.join(KINDS)}")
        if not self.setup:
            self.setup = [NOTIFY_ALL] if self.mode == STRICT else list(STANDING)

    @property
    def strict(self) -> bool:
        return self.mode == STRICT

    # -- the mails -------------------------------------------------------------------------

    def setup_mail(self) -> list[str]:
        """The lines of a mail of settings only (empty: nothing left to say)."""
        return list(self.setup)

    def order_mail(self, state: GameState) -> list[str]:
        """The lines of the robot's mail now that the game waits on it."""
        if to_act(state) != self.player:
            raise ValueError(f"{self.player} is not to act")
        if self.strict or self.one_order_next:
            self.one_order_next = False
            if self.kind == RANDOM:
                return [robot.choose_order(state, self.rng)[0]]
            return [checked_line(self._pick(state), state)]
        return [*self.setup, *self._plan(state)]

    def heard(self, sent: Sequence[str], refused: Sequence[tuple[str, str]]) -> None:
        """
        What the answer to ``sent`` said: the refused lines with their codes.  The lines
        after the first refused one were not processed: settings among them stay to be
        given again.  A refused setting is dropped (with its whole feature if the
        moderator knows no such order); a refused order makes the next mail one order.
        """
        first = next((i for i, line in enumerate(sent) if _refused(line, refused)), len(sent))
        for line in sent[: first + 1]:
            if line not in self.setup:
                continue
            self.setup.remove(line)
            code = _refused(line, refused)
            if code is None:
                if line in STANDING:
                    self.standing.add(line)
            elif code == "E-UNKNOWN-ORDER" and (feature := feature_of(line)) is not None:
                self.unsupported.add(feature)
                self.setup = [s for s in self.setup if feature_of(s) != feature]
        on_roll = first < len(sent) and feature_of(sent[first]) == "on roll"
        if on_roll and _refused(sent[first], refused) in UNKNOWN:
            self.unsupported.add("on roll")
        if refused and refused[0][0] not in (*STANDING, NOTIFY_ALL):
            self.one_order_next = True

    def _pick(self, state: GameState) -> cmd.Command:
        """The robot's command for the player, who is to act in ``state``."""
        if self.kind == RANDOM:
            return robot.pick(state, self.rng)
        return robots.decide(robots.seat_view(state, self.player), self.rng)

    # -- planning (default mode) ------------------------------------------------------------

    def _plan(self, state: GameState) -> list[str]:
        """Every order decidable before a die is needed (see the module's text)."""
        lines: list[str] = []
        while to_act(state) == self.player:
            if lines and answered_by_standing(state, self.player, self.standing):
                break
            command = self._pick(state)
            lines.append(checked_line(command, state))
            if isinstance(command, cmd.Roll) and "on roll" not in self.unsupported:
                lines.extend(self._on_rolls(state, command))
                break
            try:
                state = replay(decide(state, command, _NoRolling()), state)
            except DiceNeededError:
                break
        return lines

    def _on_rolls(self, state: GameState, roll: cmd.Roll) -> list[str]:
        """
        ``on roll N: ...`` for every result, each planned on the game with that roll:
        the moves, then ``done`` where the robot would end its movement.  Rolls given
        the same orders share a line.
        """
        blocks: dict[tuple[str, ...], list[int]] = {}
        for value in range(1, 7):
            rolled = replay(decide(state, roll, ScriptedDice([value])), state)
            blocks.setdefault(tuple(self._after_roll(rolled)), []).append(value)
        return [
            f"on roll {', '.join(map(str, values))}: " + "; ".join(orders)
            for orders, values in blocks.items()
            if orders
        ]

    def _after_roll(self, state: GameState) -> list[str]:
        """
        What the robot orders after a roll, up to ending its movement.  Never a
        mulligan: the moderator would take the line of the new roll too, and a second
        mulligan is not allowed, so the random robot picks again; the competent one
        would pick the same, so for it (as when no other pick comes) the line ends
        there and the game waits for the robot after the roll.
        """
        orders: list[str] = []
        while to_act(state) == self.player and state.step is Step.MOVE:
            command = self._pick(state)
            for _ in range(REPICKS if self.kind == RANDOM else 0):
                if not isinstance(command, cmd.Mulligan):
                    break
                command = self._pick(state)
            if isinstance(command, cmd.Mulligan):
                break
            orders.append(checked_line(command, state))
            if isinstance(command, cmd.Done):
                break
            try:
                state = replay(decide(state, command, _NoRolling()), state)
            except DiceNeededError:
                break
        return orders


def answered_by_standing(state: GameState, player: str, standing: Collection[str]) -> bool:
    """Whether one of ``player``'s ``standing`` orders answers the step the game is at."""
    step, eng, battle = state.step, state.engagement, state.battle
    if step is Step.BATTLE and battle is not None:
        return ("standing no concede" in standing and battle.step in WINDOWS) or (
            "standing strikes: auto" in standing
            and battle.step in ("strike", "counterstrike", "carry")
        )
    if step is Step.NEGOTIATE and eng is not None:
        return "standing when attacked: fight" in standing and eng.defender_player == player
    return (step is Step.MUSTER and "standing muster best" in standing) or (
        step is Step.SUMMON and "standing summon best" in standing
    )


def _refused(line: str, refused: Sequence[tuple[str, str]]) -> str | None:
    """The code ``line`` was refused with, or None."""
    return next((code for text, code in refused if text.strip() == line.strip()), None)
