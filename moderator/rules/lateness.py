"""
What the moderator does for a player whose time ran out: the lateness policies.

A game (or a tournament, for its games) chooses one when its time limits are set
(``TimeLimits.lateness``):

- ``wolff`` (the default): Wolff 21.0, a player who misses a deadline is refusing to
  continue, and Wolff 20.4's list says what he does (``refusal``): in his movement he
  withdraws from the game, in a battle he attempts to concede.
- ``21.2``: rulebook 21.2's timed moves.  In his movement phase, a player who has not
  moved a legion in time has one moved for him: the dice draw one of his legions that
  can move, then one of its legal moves (``random_move``; the draw is a
  ``LateMoveDrawn`` event that records the dice); then his movement ends, keeping the
  moves he made.  Split-offs that still share a land and could part (4.3: one of them
  must move) have one of them drawn and moved the same way, so that the movement may end.  If he had not yet rolled, the moderator rolls for him first.  In a
  battle, his maneuver phase ends as it stands, so characters not yet on the battleland
  at the end of his first maneuver phase are eliminated (10.1); an angel summoned in
  it and not entered goes back to its legion (Wolff 15.1: it was never summoned).
  21.2 speaks of nothing else, so every other decision (an engagement, a strike, a
  muster) falls back to Wolff 20.4, and so does the first turn's initial split: 21.2
  times the movement phase, the split comes before it (1982 6.1, and 5.2 has the two
  first legions formed before play), and the text gives no random split to make.

Pure: the dice are the shell's, as for every other roll.  The policies' names and the
timeouts' triggers that name them live in ``policies`` (what a game's time limits and
the audit's seal read without the rules' decisions), and are named here too.
"""

from __future__ import annotations

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.decide import decide
from moderator.rules.dice import Dice
from moderator.rules.errors import RuleError
from moderator.rules.evolve import evolve
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.policies import (
    POLICIES,
    RANDOM_MOVE,
    RULEBOOK_21_2,
    WOLFF,
    policy_of_trigger,
    timeout_trigger,
)
from moderator.rules.state import GameState, Step


def draw(dice: Dice, choices: int) -> tuple[int, tuple[int, ...]]:
    """
    One of ``choices`` (0-based), each as likely, from six-sided dice, and every die
    rolled: enough dice to read a number of base six at least as large, read again
    while it falls in the leftover that would favour the first choices.
    """
    if choices < 1:
        msg = "there is nothing to draw from"
        raise ValueError(msg)
    count, span = 1, 6
    while span < choices:
        count, span = count + 1, span * 6
    fair = span - span % choices
    rolled: list[int] = []
    while True:
        rolls = dice.roll(count)
        rolled.extend(rolls)
        value = 0
        for r in rolls:
            value = value * 6 + (r - 1)
        if value < fair:
            return value % choices, tuple(rolled)


def _moves(state: GameState) -> list[cmd.MoveLegion]:
    return [c for c in legal_commands(state) if isinstance(c, cmd.MoveLegion)]


def _split_offs(state: GameState) -> set[str]:
    """4.3: unmoved legions of the mover that share a land with another and could leave it."""
    player = state.active or ""
    by_land: dict[int, list[str]] = {}
    for lg in state.legions_of(player):
        if not lg.moved:
            by_land.setdefault(lg.land, []).append(lg.marker)
    sharing = {m for markers in by_land.values() if len(markers) > 1 for m in markers}
    return sharing & {m.marker for m in _moves(state)}


def random_move_due(state: GameState) -> bool:
    """
    21.2: the mover has not moved a legion yet and one of them can move; or (4.3) his
    movement cannot end because split-offs that could separate still share a land.
    """
    if state.step is not Step.MOVE or not _moves(state):
        return False
    return not state.moves or bool(_split_offs(state))


def late_command(state: GameState) -> cmd.Command | None:
    """
    The command 21.2 gives the player to act, where it speaks (his movement, his battle
    maneuver) and no random move is due; None elsewhere, where Wolff 20.4 applies.
    """
    player = to_act(state)
    if player is None:
        return None
    legal = legal_commands(state)
    if state.step is Step.SPLIT:
        roll = cmd.Roll(player=player)
        return roll if roll in legal else None  # first turn, not split yet: Wolff 20.4
    if state.step is Step.MOVE and not random_move_due(state):
        return next((c for c in legal if isinstance(c, cmd.Done)), None)
    if state.step is Step.BATTLE and state.battle is not None and state.battle.step == "maneuver":
        return cmd.Done(player=player)
    return None


def random_move(state: GameState, player: str, dice: Dice) -> tuple[cmd.MoveLegion, list[ev.Event]]:
    """
    21.2: the move the dice draw for ``player`` (a legion, then one of its legal moves)
    and its events, the draw first.  The legion is any that can move if he has moved
    none, else one of the split-offs that must part (4.3).

    Raises:
        RuleError: no random move is due for ``player`` now.
    """
    if to_act(state) != player or not random_move_due(state):
        raise RuleError("E-LATE", f"no move is to be drawn for {player} now (rulebook 21.2)")
    moves = _moves(state)
    markers = sorted({m.marker for m in moves} if not state.moves else _split_offs(state))
    which, legion_rolls = draw(dice, len(markers))
    options = [m for m in moves if m.marker == markers[which]]
    where, move_rolls = draw(dice, len(options))
    move = options[where]
    drawn = ev.LateMoveDrawn(
        player=player, rolls=legion_rolls + move_rolls, marker=move.marker, land=move.land
    )
    return move, [drawn, *decide(evolve(state, drawn), move, dice)]


__all__ = [
    "POLICIES",
    "RANDOM_MOVE",
    "RULEBOOK_21_2",
    "WOLFF",
    "draw",
    "late_command",
    "policy_of_trigger",
    "random_move",
    "random_move_due",
    "timeout_trigger",
]
