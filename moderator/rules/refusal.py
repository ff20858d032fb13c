"""
Refusal to play (Wolff 20.4): the action a player who will not go on takes.

The first legal action of: withdraw from the game, flee, concede, refuse a
muster (reinforcement or summons), refuse an angel, engage in the lowest
numbered land, refuse carry-over, refuse the mulligan (never reached: a
refusing player withdraws before he would roll again).  A player part way
through his movement withdraws; the withdrawal removes his legions, so the
partial movement needs no separate undo.  Deadlines (Wolff 21.0) use this.
"""

from __future__ import annotations

from moderator.rules import commands as cmd
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.state import GameState

_ORDER: tuple[type[cmd.Command], ...] = (
    cmd.Withdraw,
    cmd.Flee,
    cmd.Concede,
    cmd.Decline,
    cmd.Engage,
)


def refusal_command(state: GameState) -> cmd.Command | None:
    """The command a refusing player to act would take now, or None if nobody is to act."""
    if to_act(state) is None:
        return None
    legal = legal_commands(state)
    for kind in _ORDER:
        matching = [c for c in legal if isinstance(c, kind)]
        if matching:
            if kind is cmd.Engage:
                return min(matching, key=lambda c: c.land if isinstance(c, cmd.Engage) else 0)
            return matching[0]
    if any(isinstance(c, cmd.Carry) for c in legal):
        return cmd.Carry(player=legal[0].player, targets=())  # refuse to carry over
    msg = f"no refusal action in step {state.step.value}"
    raise RuntimeError(msg)
