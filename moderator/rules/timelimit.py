"""
A time limit on the whole game (Wolff 21.0/21.1, rulebook 20.5 and 21.1).

The core has no clock: the shell decides that a game's agreed end has come and
calls ``time_called(state)``, then stores and folds the events it returns (nothing
follows automatically; the player to act stays the same).  From then on:

* Wolff 21.1: the player whose turn it is finishes it, then play goes on until every
  remaining player has had one more full turn, that player included.  ``TimeCalled``
  names the last of those turns: ``last_player``'s turn in round ``last_turn``.
  A player eliminated (or withdrawn, 20.4) in the meantime simply drops out: his turn
  is skipped as always, and the game ends at the first turn that would come after
  the named one in the turn order.
* When that last turn ends, ``decide`` does not start the next turn but scores the
  game (``final_scores``): rulebook 20.5/21.1, each player still in the game adds
  the value of all his remaining legions to his score, each legion revealed as it is
  counted; the highest total wins.  The rulebook says nothing about ties: players
  tied for the highest total share the win (``GameState.winners``; ``winner`` is then
  None).
* If eliminations leave one player (or none) first, the game ends as always (19.0).

A legion's value is the sum of its characters' values (16.0: power times skill), a
Titan's power being its owner's at the end (19.1: 6 plus one per full 100 points),
angels and archangels counted like every other character.  Characters in the
caretaker's stacks, the dead and eliminated players count for nobody.
"""

from __future__ import annotations

from moderator.rules import events as ev
from moderator.rules.state import GameState, Step


def time_called(state: GameState) -> list[ev.Event]:
    """
    The events recording that the game's time limit was reached (Wolff 21.1).

    Returns ``[TimeCalled]``, or ``[]`` when the game is over or time was already
    called (so a shell may call it again safely).  Called before every player has
    chosen a colour, the limit gives every player one full turn: the game ends after
    the first round.
    """
    if state.step is Step.OVER or state.final_turn is not None or not state.live_players:
        return []
    if state.active is None:  # still setting up: everybody gets his first turn (5.1 order)
        return [ev.TimeCalled(last_player=state.players[-1].name, last_turn=1)]
    return [ev.TimeCalled(last_player=state.active, last_turn=state.turn + 1)]


def in_final_round(state: GameState) -> bool:
    """Whether time has been called and the game is not over yet."""
    return state.final_turn is not None and state.step is not Step.OVER


def time_is_up(state: GameState, upcoming: ev.TurnStarted) -> bool:
    """Whether the turn ``upcoming`` comes after the last turn time allows (Wolff 21.1)."""
    if state.final_turn is None or state.final_player is None:
        return False
    names = [p.name for p in state.players]
    return (upcoming.turn, names.index(upcoming.player)) > (
        state.final_turn,
        names.index(state.final_player),
    )


def final_scores(state: GameState) -> ev.GameScored:
    """Rulebook 20.5/21.1: score plus the value of all remaining legions; the best total wins."""
    legions = tuple(
        (lg.marker, lg.owner, lg.contents, state.legion_value(lg.contents, lg.owner))
        for p in state.live_players
        for lg in state.legions_of(p.name)
    )
    scores = []
    for p in state.live_players:
        value = sum(v for _, owner, _, v in legions if owner == p.name)
        scores.append((p.name, p.score, value, p.score + value))
    best = max(total for *_, total in scores)
    winners = tuple(name for name, *_, total in scores if total == best)
    return ev.GameScored(scores=tuple(scores), legions=legions, winners=winners)
