"""
What the clock gives a player whose deadline passed, by the game's lateness policy
(``moderator.rules.lateness``): Wolff 20.4's refusal, or rulebook 21.2's timed moves
where 21.2 speaks.  Kept apart from ``clockwork``, which carries it out.
"""

from __future__ import annotations

from moderator.orders import render_order
from moderator.rules import commands as cmd
from moderator.rules import lateness
from moderator.rules.refusal import refusal_command
from moderator.rules.state import GameState
from moderator.schedule.record import GameRecord

#: The order lines of the commands 21.2 gives (its random move has none).
_LATE_LINES = ("roll", "done")


def policy(record: GameRecord) -> str:
    """The game's lateness policy: Wolff's unless its time limits chose 21.2."""
    limits = record.time_limits
    return limits.lateness if limits is not None else lateness.WOLFF


def command(state: GameState, policy: str) -> cmd.Command | None:
    """What the player to act is given when his time runs out, but a move the dice draw."""
    given = lateness.late_command(state) if policy == lateness.RULEBOOK_21_2 else None
    return given or refusal_command(state)


def timed_part_over(state: GameState, policy: str, given: str) -> bool:
    """
    Rulebook 21.2 times the movement and the maneuver only: once what was given ended
    them, the decision that follows (the strikes after a maneuver) has a deadline of its
    own instead of being refused at once.
    """
    if policy != lateness.RULEBOOK_21_2:
        return False
    return (
        lateness.late_command(state) is None
        and not lateness.random_move_due(state)
        and (given == lateness.RANDOM_MOVE or given in _LATE_LINES)
    )


def default_line(state: GameState, policy: str = lateness.WOLFF) -> str | None:
    """What a reminder says will be given at the deadline."""
    if policy == lateness.RULEBOOK_21_2 and lateness.random_move_due(state):
        return "a legion moved at random (rulebook 21.2)"
    given = command(state, policy)
    return None if given is None else render_order(given, state)


__all__ = ["command", "default_line", "policy", "timed_part_over"]
