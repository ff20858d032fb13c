"""
An order decided again, as the verifier does it: from what the order's seal says it was
(``OrderSealed.player`` and ``order``), the game before it and the dice the seed gives
for it, the rules core must give exactly the events the log holds.  So an invented
reveal, a muster's recruiters, a strike's target, a score, an elimination or a message's
text that the order did not produce is found, not only a die.  Pure.

What an order can be:

- ``start`` (``start lateness=21.2`` in a game under rulebook 21.2): the setup (1.3): the players of ``game-created`` roll for towers with the
  start's dice, or a restored position (``position-loaded``, the order's own input);
  then whatever follows by itself until somebody must act;
- ``time-called`` (Wolff 21.1) and ``director:end`` (a tournament game stopped and
  scored by rulebook 20.5): the moderator's own steps, which take no order line;
- ``operator: LINE``: the moderator's operator's line on a game with no director
  (``audit.seal.operator_order``): exactly one ``operator-acted`` event saying LINE,
  seen by all, while the game is not over;
- ``21.2:random-move``: rulebook 21.2's move drawn by the dice for the late mover
  (``moderator.rules.lateness``), only after a timeout under 21.2;
- a player's order line (as ``render_order`` writes it): read with the order parser and
  decided by the rules.  After a timeout it must be the default of the game's lateness
  policy, which the timeout's trigger names (Wolff 20.4's refusal, or rulebook 21.2's);
  after a standing order's note, the order that standing order gives (Wolff 9.4);
  with a robot's trigger (``seal.ROBOT``, issue 26) and no such note, an order for the
  seat the trigger names, given while that seat was to act.
"""

from __future__ import annotations

from collections.abc import Sequence

from moderator.audit.dice import bound_die
from moderator.audit.seal import (
    DIRECTOR_END,
    TIME_CALLED,
    lateness_of_start,
    operator_line,
    robot_seat_of,
)
from moderator.orders import OrderError, Query, parse_order, render_order
from moderator.orders import standing as standing_orders
from moderator.records import record
from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules import lateness, setup, timelimit
from moderator.rules.decide import advance, decide
from moderator.rules.errors import RuleError
from moderator.rules.evolve import replay
from moderator.rules.legal import to_act
from moderator.rules.refusal import refusal_command
from moderator.rules.state import GameState, Step
from moderator.tournament.scoring import stop_events


class NotDecided(Exception):
    """The order cannot be decided again as its seal says (why, for the discrepancy)."""


class SealDice:
    """The dice of one order, derived from the seed as ``play.dice.BoundDice`` made them."""

    def __init__(self, seed: int, game: str, trigger: str, first: int) -> None:
        self.seed, self.game, self.trigger, self.first = seed, game, trigger, first
        self.used = 0

    def roll(self, count: int = 1) -> tuple[int, ...]:
        values = tuple(
            bound_die(self.seed, self.game, self.trigger, self.first, self.used + i)
            for i in range(count)
        )
        self.used += count
        return values


@record
class Redecided:
    """The events the rules give for the order, and how many dice they rolled."""

    events: tuple[ev.Event, ...]
    dice: int


def redecide(
    state: GameState,
    seal: ev.OrderSealed,
    logged: Sequence[ev.Event],
    *,
    seed: int,
    game: str,
    standing: ev.StandingOrderUsed | None = None,
) -> Redecided:
    """
    The events order ``seal`` gives from ``state`` (the game just before its first
    event; ``logged`` are the events the log holds for it, whose first is the input of a
    restored position).

    Raises:
        NotDecided: the order cannot be read, is not what its kind requires, or the
            rules refuse it.
    """
    dice = SealDice(seed, game, seal.trigger, seal.first)
    events: Sequence[ev.Event]
    try:
        if lateness_of_start(seal.order) is not None:
            events = _start(logged, dice)
        elif seal.order == TIME_CALLED:
            events = timelimit.time_called(state)
        elif seal.order == DIRECTOR_END:
            events = stop_events(state)
        elif operator_line(seal.order) is not None:
            events = _operator(state, seal)
        elif seal.order == lateness.RANDOM_MOVE:
            events = _random_move(state, seal, dice)
        else:
            command = player_order(state, seal, standing)
            events = decide(state, command, dice)
    except RuleError as exc:
        raise NotDecided(f"the rules refuse it: {exc}") from exc
    except IndexError as exc:
        raise NotDecided(f"it cannot be decided ({exc})") from exc
    return Redecided(tuple(events), dice.used)


def _start(logged: Sequence[ev.Event], dice: SealDice) -> list[ev.Event]:
    """The setup: tower rolls for the players named, or the position restored."""
    first = logged[0] if logged else None
    if isinstance(first, ev.PositionLoaded):
        start: list[ev.Event] = [first]
    elif isinstance(first, ev.GameCreated):
        # dice bound to the seed are never a script: a start that says so is not the rules'
        # (the variant is the one the game names: a variant it does not have breaks the replay)
        start = setup.start_game(list(first.players), dice, variant=first.variant)
    else:
        raise NotDecided("the game's start is neither a new game nor a restored position")
    return start + advance(replay(start))


def _operator(state: GameState, seal: ev.OrderSealed) -> list[ev.Event]:
    """The operator's line: the event that says it, nothing else, the game not over."""
    if seal.player is not None:
        raise NotDecided(f"an operator's line is nobody's order, not {seal.player}'s")
    if state.step is Step.OVER:
        raise NotDecided("the game was over: the operator has no line to give on it")
    return [ev.OperatorActed(line=operator_line(seal.order) or "")]


def player_order(
    state: GameState, seal: ev.OrderSealed, standing: ev.StandingOrderUsed | None
) -> cmd.Command:
    """The command a player's order line gives, checked against how it came to be."""
    player = seal.player
    if not player or not seal.order:
        raise NotDecided("its seal names no player's order")
    try:
        command = parse_order(seal.order, player, state)
    except OrderError as exc:
        raise NotDecided(f"{player}'s order {seal.order!r} cannot be read: {exc}") from exc
    if isinstance(command, Query):
        raise NotDecided(f"{player}'s {seal.order!r} is a question, not an order")
    try:
        canonical = render_order(command, state)
    except ValueError:
        canonical = seal.order
    if canonical != seal.order:
        raise NotDecided(f"{player}'s order is written {seal.order!r}, not as {canonical!r}")
    policy = lateness.policy_of_trigger(seal.trigger)
    if policy is not None:
        given = lateness.late_command(state) if policy == lateness.RULEBOOK_21_2 else None
        default = given or refusal_command(state)
        if player != to_act(state) or command != default:
            raise NotDecided(
                f"a timeout gives {player} {_default_name(policy)}, not {seal.order!r}"
            )
    robot = robot_seat_of(seal.trigger)
    if robot is not None and standing is None and (robot != player or player != to_act(state)):
        raise NotDecided(
            f"the robot gave an order for {robot}'s seat as {player}, while "
            f"{to_act(state) or 'nobody'} was to act"
        )
    if standing is not None:
        _check_standing(state, seal, standing, command)
    return command


def _default_name(policy: str) -> str:
    if policy == lateness.RULEBOOK_21_2:
        return "rulebook 21.2's default (or, where 21.2 is silent, Wolff 20.4's)"
    return "the refusal default (Wolff 20.4)"


def _random_move(state: GameState, seal: ev.OrderSealed, dice: SealDice) -> list[ev.Event]:
    """Rulebook 21.2: the move the dice draw for the late mover, and only after his timeout."""
    if lateness.policy_of_trigger(seal.trigger) != lateness.RULEBOOK_21_2:
        raise NotDecided("only a timeout in a game under rulebook 21.2 draws a move by the dice")
    if not seal.player or seal.player != to_act(state):
        raise NotDecided(f"no move is to be drawn for {seal.player or 'nobody'} now")
    _, events = lateness.random_move(state, seal.player, dice)
    return events


def _check_standing(
    state: GameState, seal: ev.OrderSealed, used: ev.StandingOrderUsed, command: cmd.Command
) -> None:
    """The standing order noted gave this very order for this player (Wolff 9.4)."""
    if used.player != seal.player or used.order != seal.order:
        raise NotDecided(
            f"the standing order's note names {used.player}'s {used.order!r}, "
            f"the seal {seal.player}'s {seal.order!r}"
        )
    if used.visible_to != frozenset({used.player}):
        raise NotDecided("a standing order's note is seen by its owner alone")
    lines = [line for line in used.standing.split("; ") if line]
    try:
        read = standing_orders.read(lines, state.variant)
        given = standing_orders.decide_for(state, read)
    except OrderError as exc:
        raise NotDecided(f"the standing order {used.standing!r} cannot be read: {exc}") from exc
    if given != command:
        raise NotDecided(f"the standing order {used.standing!r} does not give {seal.order!r}")
    written = standing_orders.reason(state, read, command)
    if written != used.standing:  # the note names it as the moderator writes it
        raise NotDecided(f"the standing order is written {used.standing!r}, not as {written!r}")
