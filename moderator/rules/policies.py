"""
The lateness policies' names (``lateness`` says what each does) and the timeouts'
triggers that name them.

Apart from ``lateness`` because a game's time limits (``schedule.limits``) and the
audit's seal check a policy's name and read a trigger, and importing ``lateness`` would
load every decision of the rules with them (issue 28: a command that reads one game).
"""

from __future__ import annotations

WOLFF = "wolff"
RULEBOOK_21_2 = "21.2"
#: The lateness policies a game may choose, the default first.
POLICIES = (WOLFF, RULEBOOK_21_2)
#: What the audit's seal says of a move the dice drew (it has no order line).
RANDOM_MOVE = "21.2:random-move"


def timeout_trigger(policy: str) -> str:
    """
    How a timeout's dice and seal begin their trigger under ``policy``: the audit reads
    from it which default the timeout must have given (``timeout:`` Wolff 20.4's,
    ``timeout-21.2:`` rulebook 21.2's).
    """
    return "timeout:" if policy == WOLFF else f"timeout-{policy}:"


def policy_of_trigger(trigger: str) -> str | None:
    """The lateness policy a timeout's trigger names (None: the trigger is no timeout)."""
    for policy in POLICIES:
        if trigger.startswith(timeout_trigger(policy)):
            return policy
    return None


__all__ = [
    "POLICIES",
    "RANDOM_MOVE",
    "RULEBOOK_21_2",
    "WOLFF",
    "policy_of_trigger",
    "timeout_trigger",
]
