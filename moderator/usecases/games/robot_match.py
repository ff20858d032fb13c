"""
Games between robots of chosen kinds, in memory: the ``play`` command's and the robot
benchmark's games.

Each seat has a kind (``KINDS``): ``random`` picks random legal orders from the game
state (``moderator.robot``), ``competent`` decides from the seat's view alone
(``moderator.robots``).  Every order goes through the order language and the rules
core's ``decide``, so an illegal one would stop the game with its ``RuleError``.  The
result says where each seat placed (winner first, then the last eliminated before
the first; players who died together share a place), the turns, the time taken and
how long each decision took.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from moderator import robot, robots
from moderator.rules import events as ev
from moderator.rules import setup
from moderator.rules.decide import advance, decide
from moderator.rules.evolve import evolve, replay
from moderator.rules.legal import to_act
from moderator.rules.state import GameState, Step
from moderator.rules.variant import STANDARD
from moderator.usecases.games.dice import CountingDice
from moderator.usecases.games.robot_games import DEFAULT_NAMES
from moderator.usecases.games.robot_kinds import KINDS

#: A game still going after this many orders is stopped (robots that cannot finish).
MAX_ACTIONS = 60_000


@dataclass
class MatchResult:
    """One game: seats in turn order with their kinds, and how it ended."""

    seed: int
    seats: list[str]
    kinds: dict[str, str]
    #: places, best first; players in one group tied (died together, or equal totals).
    placement: list[list[str]]
    winner: str | None
    finished: bool
    turns: int
    actions: int
    seconds: float
    #: processor seconds the game took (what it costs on one core, however busy the machine).
    cpu_seconds: float = 0.0
    #: processor seconds each decision took, by robot kind.
    decisions: dict[str, list[float]] = field(default_factory=dict, repr=False)
    state: GameState | None = field(default=None, repr=False)
    #: the game's variant (docs/variants.md).
    variant: str = STANDARD

    @property
    def draw(self) -> bool:
        return self.winner is None

    def to_json(self) -> dict[str, object]:
        return {
            "seed": self.seed,
            "variant": self.variant,
            "seats": [{"player": s, "robot": self.kinds[s]} for s in self.seats],
            "placement": self.placement,
            "winner": self.winner,
            "draw": self.draw,
            "finished": self.finished,
            "turns": self.turns,
            "actions": self.actions,
            "seconds": round(self.seconds, 3),
            "cpu_seconds": round(self.cpu_seconds, 3),
        }


def seat_kinds(players: int, kinds: Sequence[str]) -> list[str]:
    """One kind for every seat: a single kind fills them all."""
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        raise ValueError(f"unknown robot kind {unknown[0]!r}: use one of {', '.join(KINDS)}")
    if len(kinds) == 1:
        return [kinds[0]] * players
    if len(kinds) != players:
        raise ValueError(f"give one robot kind, or one for each of the {players} seats")
    return list(kinds)


def placement(state: GameState, eliminated: Sequence[list[str]]) -> list[list[str]]:
    """Winner(s) first, then groups in reverse order of elimination (last out placed best)."""
    out: list[list[str]] = []
    if state.winners:
        out.append(sorted(state.winners))
    elif state.winner is not None:
        out.append([state.winner])
    placed = {p for group in out for p in group}
    alive = [p.name for p in state.players if p.name not in placed and not p.eliminated]
    if alive:  # a game stopped early: the living by score
        for score in sorted({state.player(p).score for p in alive}, reverse=True):
            out.append(sorted(p for p in alive if state.player(p).score == score))
    for group in reversed(eliminated):
        rest = sorted(p for p in group if p not in placed)
        if rest:
            out.append(rest)
    return out


def play_match(
    kinds: Sequence[str],
    seed: int,
    *,
    names: Sequence[str] | None = None,
    max_actions: int = MAX_ACTIONS,
    variant: str = STANDARD,
) -> MatchResult:
    """A whole game, seat i played by a robot of ``kinds[i]`` (see the module note)."""
    seats = list(names or DEFAULT_NAMES[: len(kinds)])
    kind_of = dict(zip(seats, kinds, strict=True))
    started, cpu_started = time.perf_counter(), time.process_time()
    dice = CountingDice(seed=seed)
    rngs = {s: random.Random(f"robot:{seed}:{s}:{kind_of[s]}") for s in seats}
    events = setup.start_game(seats, dice, variant=variant)
    events += advance(replay(events))
    state = replay(events)
    eliminated: list[list[str]] = []
    decisions: dict[str, list[float]] = {k: [] for k in set(kinds)}
    actions = 0
    while (player := to_act(state)) is not None and actions < max_actions:
        kind = kind_of[player]
        tick = time.process_time()
        if kind == "random":
            _, command = robot.choose_order(state, rngs[player])
        else:
            _, command = robots.order(robots.seat_view(state, player), rngs[player])
        decisions[kind].append(time.process_time() - tick)
        dice.at(state.version + 1)
        out: list[str] = []
        for event in decide(state, command, dice):
            state = evolve(state, event)
            if isinstance(event, ev.PlayerEliminated | ev.PlayerWithdrew):
                out.append(event.player)
        if out:
            eliminated.append(out)
        actions += 1
    return MatchResult(
        seed=seed,
        seats=seats,
        kinds=kind_of,
        placement=placement(state, eliminated),
        winner=state.winner,
        finished=state.step is Step.OVER,
        turns=state.turn,
        actions=actions,
        seconds=time.perf_counter() - started,
        cpu_seconds=time.process_time() - cpu_started,
        decisions=decisions,
        state=state,
        variant=variant,
    )
