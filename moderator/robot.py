"""
A robot player: a random legal action, given through the order language.

The robot first picks a kind of action at random, then one action of that kind, so
that the many possible splits or moves do not crowd out ``roll`` or ``done``.  It
never withdraws, undoes a move or asks for a battle, and while any other action is
open it will not concede, accept or propose terms that cost its Titan's legion.

Every choice goes through the order language: the command is rendered as the line a
player would write, parsed back, and the two must agree.
"""

from __future__ import annotations

import random

from moderator.orders import parse_order, render_order
from moderator.rules import commands as cmd
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.state import GameState

#: Never chosen by a robot.
EXCLUDED: tuple[type[cmd.Command], ...] = (cmd.Withdraw, cmd.UndoMove, cmd.Fight)


def loses_titan(state: GameState, command: cmd.Command) -> bool:
    """Whether ``command`` gives up (or offers to give up) its player's Titan legion."""
    eng = state.engagement
    if eng is None or command.player not in (eng.attacker_player, eng.defender_player):
        return False
    attacking = command.player == eng.attacker_player
    mine = state.legions.get(eng.attacker if attacking else eng.defender)
    if mine is None or "Titan" not in mine.contents:
        return False

    def costly(proposal: tuple[tuple[str, ...], tuple[str, ...]]) -> bool:
        return "Titan" in (proposal[0] if attacking else proposal[1])

    match command:
        case cmd.Concede():
            return True
        case cmd.Accept(number=number):
            return 1 <= number <= len(eng.proposals) and costly(eng.proposals[number - 1][1])
        case cmd.Propose(proposals=proposals):
            return any(costly(p) for p in proposals)
    return False


def candidates(state: GameState) -> list[cmd.Command]:
    """The commands the robot may pick from now (safe ones first, see the module note)."""
    legal = legal_commands(state)
    usable = [c for c in legal if not isinstance(c, EXCLUDED)] or legal
    return [c for c in usable if not loses_titan(state, c)] or usable


def pick(state: GameState, rng: random.Random) -> cmd.Command:
    """A random candidate: a random kind first, then a random command of that kind."""
    options = candidates(state)
    if not options:
        raise RuntimeError(f"nothing to do in step {state.step.value}")
    kinds = sorted({type(c).__name__ for c in options})
    kind = rng.choice(kinds)
    return rng.choice([c for c in options if type(c).__name__ == kind])


def choose_order(state: GameState, rng: random.Random) -> tuple[str, cmd.Command]:
    """The robot's order line and the command it parses to (checked to be the one chosen)."""
    player = to_act(state)
    if player is None:
        raise RuntimeError("nobody is to act: the game is over")
    command = pick(state, rng)
    line = render_order(command, state)
    parsed = parse_order(line, player, state)
    if parsed != command:
        raise AssertionError(f"order {line!r} parses to {parsed!r}, not {command!r}")
    return line, parsed


def choose(state: GameState, rng: random.Random) -> cmd.Command:
    """The robot's next command for whoever is to act."""
    return choose_order(state, rng)[1]
