"""
Whole games between robots, in memory and at full speed: the CLI's ``play``, the
tests' and benchmarks' source of long, legal games.
"""

from __future__ import annotations

import hashlib
import random
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from moderator import robot
from moderator.rules import events as ev
from moderator.rules import setup
from moderator.rules.decide import advance, decide
from moderator.rules.evolve import evolve, replay
from moderator.rules.legal import to_act
from moderator.rules.state import GameState, Step
from moderator.rules.variant import STANDARD
from moderator.schedule.record import GameRecord
from moderator.usecases.games.dice import BoundDice, CountingDice, seal_order, sealed_start

DEFAULT_NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")


@dataclass
class RobotGameSummary:
    players: list[str]
    seed: int
    winner: str | None
    turns: int
    actions: int
    scores: dict[str, int]
    eliminated: list[str]  # in the order they left the game
    seconds: float
    finished: bool
    events: list[ev.Event] = field(repr=False)
    state: GameState = field(repr=False)

    def text(self) -> str:
        lines = [
            f"Winner: {self.winner or 'nobody (a draw)'}"
            + ("" if self.finished else " - the game was stopped before its end"),
            f"Turns: {self.turns}, actions: {self.actions}, events: {len(self.events)}",
            "Final scores: "
            + ", ".join(
                f"{name} {score}"
                for name, score in sorted(self.scores.items(), key=lambda kv: -kv[1])
            ),
            "Eliminated, in order: " + (", ".join(self.eliminated) or "nobody"),
            f"Time taken: {self.seconds:.2f} s (dice seed {self.seed})",
        ]
        return "\n".join(lines)


def play_robot_game(
    players: int | Sequence[str] = 6,
    seed: int | None = None,
    progress: Callable[[GameState], None] | None = None,
    max_actions: int = 200_000,
    *,
    bound: str | None = None,
    variant: str = STANDARD,
) -> RobotGameSummary:
    """
    A whole game between robots, in memory.  ``progress(state)`` is called at the start
    of every turn (round) and once at the end.  ``bound`` names the game and plays it
    with dice bound as by mail (``play.dice``), each order as if from a mail of its own,
    with the audit's notes in the events, as a game by mail has them.  ``variant``
    names the game's variant (docs/variants.md).
    """
    names = list(DEFAULT_NAMES[:players]) if isinstance(players, int) else list(players)
    if seed is None:
        seed = secrets.randbelow(2**31)
    started = time.perf_counter()
    dice = CountingDice(seed=seed)
    record = GameRecord()
    if bound is not None:
        secret = int.from_bytes(hashlib.sha256(f"robot-seed:{seed}".encode()).digest(), "big")
        dice = BoundDice(seed=secret, game=bound, trigger="start")
        dice.at(1)
        record = GameRecord(dice=dice.record())
    rng = random.Random(f"robots:{seed}")
    events = setup.start_game(names, dice, variant=variant)
    events += advance(replay(events))
    events, record = sealed_start(events, dice, record)
    state = replay(events)
    eliminated: list[str] = []
    actions = 0
    shown_turn = 0
    while to_act(state) is not None and actions < max_actions:
        if progress is not None and state.turn != shown_turn and state.step is not Step.COLOUR:
            shown_turn = state.turn
            progress(state)
        line, command = robot.choose_order(state, rng)
        if isinstance(dice, BoundDice):  # as if each order came in a mail of its own
            dice.trigger = hashlib.sha256(f"{bound}:order:{actions}".encode()).hexdigest()
        dice.at(state.version + 1)
        new = decide(state, command, dice)
        actions += 1
        before = state
        for event in new:
            state = evolve(state, event)
            if isinstance(event, ev.PlayerEliminated | ev.PlayerWithdrew):
                eliminated.append(event.player)
        notes, state, record = seal_order(
            before, state, dice, record, player=command.player, order=line, events=new
        )
        events.extend((*new, *notes))
    if progress is not None:
        progress(state)
    return RobotGameSummary(
        players=names,
        seed=seed,
        winner=state.winner,
        turns=state.turn,
        actions=actions,
        scores={p.name: p.score for p in state.players},
        eliminated=eliminated,
        seconds=time.perf_counter() - started,
        finished=state.step is Step.OVER,
        events=events,
        state=state,
    )
