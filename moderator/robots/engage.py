"""
Engagement decisions (2.5.3-2.5.5): flee, concede, propose, accept, or fight.

The robot weighs each way out by what it expects the seat to gain: their losses less
ours in points, the Titan's legion weighed as the game it is, and the points the enemy
earns (angels, a stronger Titan) counted against us.

- A fight: ``Board.fight_gain`` (the battle estimate of ``values.battle``); a winner
  of a battle also earns a muster (a defender's reinforcement, 14.2) or a summons, so
  losing a fight hands the enemy those too.
- Fleeing (9.2) gives the attacker half the points and nothing else.
- Conceding gives him all the points but no battle, so no reinforcement or summons:
  taken when the battle is lost anyway and would cost the enemy less than what it
  earns him.  Never the Titan's legion: that is the game, and a fight may still win.
- An agreement is accepted when it is worth at least the fight; the robot proposes,
  once, that the enemy's legion goes when it is the clear favourite, then says no
  more proposals, and fights when the other side has said so.
"""

from __future__ import annotations

from moderator.robots import values
from moderator.robots.assess import POINT_WEIGHT, Board, best_muster, terrain_of
from moderator.robots.view import SeatView
from moderator.rules import commands as cmd
from moderator.rules.state import Proposal

#: A favourite proposes that the other side's legion goes with no loss on his own.
FAVOURITE = 0.85


def _sides(view: SeatView, board: Board) -> tuple[tuple[str, ...], tuple[str, ...], str, bool]:
    eng = view.engagement
    assert eng is not None
    attacking = eng.attacker_player == view.seat
    mine = view.legion(eng.attacker if attacking else eng.defender)
    theirs = view.legion(eng.defender if attacking else eng.attacker)
    return board.contents(mine), board.contents(theirs), theirs.owner, attacking


def agreement_gain(
    board: Board,
    proposal: Proposal,
    attacking: bool,
    mine: tuple[str, ...],
    theirs: tuple[str, ...],
    enemy: str,
) -> float:
    """What an agreement gives the seat: their losses less ours (a lost Titan is the game)."""
    my_loss, their_loss = proposal if attacking else proposal[::-1]
    gain = board.worth(their_loss, enemy) - board.worth(my_loss, board.view.seat)
    if len(my_loss) == len(mine):  # our legion gone: the enemy scores it (9.5)
        gain -= POINT_WEIGHT * sum(values.points(board.view.variant, c) for c in my_loss)
    if len(their_loss) == len(theirs):
        gain += POINT_WEIGHT * sum(values.points(board.view.variant, c) for c in their_loss)
    return gain


def negotiate(view: SeatView) -> cmd.Command:
    board = Board.of(view)
    eng = view.engagement
    assert eng is not None
    mine, theirs, enemy, attacking = _sides(view, board)
    fight = board.fight_gain(mine, theirs, enemy, eng.land, attacking=attacking)
    o = (
        board.attack(mine, view.seat, theirs, enemy, eng.land)
        if attacking
        else board.attack(theirs, enemy, mine, view.seat, eng.land)
    )
    my_win = o.attacker_wins if attacking else 1 - o.attacker_wins
    # A battle the enemy wins also earns him a reinforcement or a summons.
    bonus = best_muster(view.variant, tuple(sorted(theirs)), terrain_of(view.variant, eng.land))[1] if attacking else 6.0
    fight -= (1 - my_win) * bonus
    legal = view.legal
    by_kind = {type(c): c for c in reversed(legal)}
    lose_all = -board.worth(mine, view.seat)
    my_pts = sum(values.points(view.variant, c, board.titan_power(view.seat)) for c in mine)
    if cmd.Flee in by_kind and lose_all - 0.5 * POINT_WEIGHT * my_pts > fight:
        return by_kind[cmd.Flee]
    if cmd.Concede in by_kind and "Titan" not in mine and lose_all - POINT_WEIGHT * my_pts > fight:
        return by_kind[cmd.Concede]
    best_accept: tuple[float, cmd.Command] | None = None
    for c in legal:
        if isinstance(c, cmd.Accept):
            _, proposal = eng.proposals[c.number - 1]
            g = agreement_gain(board, proposal, attacking, mine, theirs, enemy)
            if best_accept is None or g > best_accept[0]:
                best_accept = (g, c)
    if best_accept is not None and best_accept[0] >= fight:
        return best_accept[1]
    if cmd.Fight in by_kind:
        return by_kind[cmd.Fight]
    if my_win >= FAVOURITE:
        for c in legal:
            if isinstance(c, cmd.Propose):
                my_loss, their_loss = c.proposals[0] if attacking else c.proposals[0][::-1]
                if not my_loss and their_loss:
                    return c
    if cmd.NoMore in by_kind:
        return by_kind[cmd.NoMore]
    return next(c for c in legal if not isinstance(c, cmd.Withdraw))
