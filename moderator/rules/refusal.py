"""
Refusal to play (Wolff 20.4): the action a player who will not go on takes.

Wolff 20.4: a refusing player attempts the first legal action of: withdraw from the
game, flee, concede the engagement, refuse a muster (here: a reinforcement or a
summons), refuse an angel or archangel earned by points, choose the engagement in the
lowest numbered land, refuse to carry over damage, refuse the mulligan (never reached:
withdrawal is legal whenever the mulligan is).

Part way through his movement, the withdrawal itself undoes all of the partial
movement first (``MoveUndone`` events before ``PlayerWithdrew``).  Part way through a
battle maneuver, his attempt to concede resets the maneuver first (``ManeuverReset``
before ``ConcessionAttempted``), and an angel summoned or a reinforcement mustered in
it, not having entered, goes back (``JoinUndone``, Wolff 14.1/15.1).  In every other
battle decision he concedes or attempts to concede (at the windows, in his strikes,
and in answer to the opponent's attempt: conceding instead is on the list, accepting
is not); the only decision without a concession is carry-over, which he refuses.

Every state in which somebody is to act has a refusal command, and it is legal there.
Applying refusal commands always makes progress: a withdrawal removes the player, a
flight or concession ends the engagement or the battle (an attempt to concede hands
the decision to the opponent, whose answer ends it), a refusal to take something moves
the engagement on, and a choice of engagement starts one.  Deadlines (Wolff 21.0:
missing one is refusing to play) use this; ``refuse`` applies it for as long as the
refusing player is to act.

A refusing player's withdrawal removes him from the game like any other (20.4: his
characters are set aside with the slain, nobody scores).  Under a time limit (Wolff
21.1) he is then one of the players who is eliminated before his last turn: his turns
are skipped, and he is not counted when the game is scored (20.5 totals only the
players still in the game).
"""

from __future__ import annotations

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.decide import apply
from moderator.rules.dice import NoDice
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.state import GameState

_ORDER: tuple[type[cmd.Command], ...] = (
    cmd.Withdraw,
    cmd.Flee,
    cmd.Concede,
    cmd.Decline,
    cmd.Engage,
)

#: More refusal commands in a row by one player than this means a rules bug.
MAX_REFUSALS = 100


def refusal_command(state: GameState) -> cmd.Command | None:
    """The command a refusing player to act would take now, or None if nobody is to act."""
    player = to_act(state)
    if player is None:
        return None
    legal = legal_commands(state)
    for kind in _ORDER:
        matching = [c for c in legal if isinstance(c, kind)]
        if matching:
            if kind is cmd.Engage:
                return min(matching, key=lambda c: c.land if isinstance(c, cmd.Engage) else 0)
            return matching[0]
    if any(isinstance(c, cmd.Carry) for c in legal):
        return cmd.Carry(player=player, targets=())  # refuse to carry over
    msg = f"no refusal action in step {state.step.value}"
    raise RuntimeError(msg)


def refuse(state: GameState, player: str) -> tuple[GameState, tuple[ev.Event, ...]]:
    """
    ``player`` refuses to play for as long as he is to act (Wolff 20.4/21.0): the
    refusal commands applied one after another until somebody else is to act or the
    game is over.  Returns the new state and the events; none if he is not to act.
    Refusals never roll dice.
    """
    events: list[ev.Event] = []
    for _ in range(MAX_REFUSALS):
        if to_act(state) != player:
            return state, tuple(events)
        command = refusal_command(state)
        assert command is not None
        state, new = apply(state, command, NoDice())
        events.extend(new)
    msg = f"{player} is still to act after {MAX_REFUSALS} refusals in step {state.step.value}"
    raise RuntimeError(msg)
