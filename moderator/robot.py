"""
A robot player: a random legal action, given through the order language.

The robot first picks a kind of action at random, then one action of that kind, so
that the many possible splits or moves do not crowd out ``roll`` or ``done``.  It
never withdraws, undoes a move or resets a battle maneuver, and while any other
action is open it will not concede, accept or propose terms that cost its Titan's
legion.

On the masterboard a robot usually (``ATTACK_RATE``) takes a move that attacks an
enemy legion when it has one, so that games between robots come to an end.

Robots fight battles (they may answer ``no more proposals`` with ``fight``):

* at a window they proceed, and they accept an opponent's attempt to concede;
* they concede a battle only rarely (``BATTLE_CONCEDE_RATE``), and never their
  Titan's legion while anything else is legal;
* in a maneuver they enter every character that can still enter before they say
  ``done`` (so a legion is not left off the board, 10.1), and otherwise usually
  move a character towards the enemy;
* they strike with the characters that must strike, and usually rangestrike when
  they can, picking among the legal strikes (mostly the most effective ones).

Every choice goes through the order language: the command is rendered as the line a
player would write, parsed back, and the two must agree.
"""

from __future__ import annotations

import random

from moderator.orders import parse_order, render_order
from moderator.rules import commands as cmd
from moderator.rules.battle import entry_hexes
from moderator.rules.battlefield import ATTACKER
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.sightline import hex_distance
from moderator.rules.state import Battle, GameState, Step

#: Never chosen by a robot.
EXCLUDED: tuple[type[cmd.Command], ...] = (cmd.Withdraw, cmd.UndoMove, cmd.ResetManeuver)
#: The chance, at each battle decision where it may concede, that a robot does (about
#: 2% of battles end so); never its Titan's legion while other orders are open.
BATTLE_CONCEDE_RATE = 0.0015
#: In a maneuver with nothing left to enter: the chance of moving one more character.
MOVE_RATE = 0.8
#: The chance of taking the move that gets closest to the enemy (else a random one).
GREEDY_RATE = 0.75
#: The chance of summoning or reinforcing in a battle when offered.
JOIN_RATE = 0.6
#: The chance of taking a move into an enemy's land, when there is one.
ATTACK_RATE = 0.5


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
    if state.step is Step.BATTLE and state.battle is not None:
        return pick_in_battle(state, state.battle, options, rng)
    attacks = [c for c in options if isinstance(c, cmd.MoveLegion) and _attacks(state, c)]
    if attacks and rng.random() < ATTACK_RATE:
        return rng.choice(attacks)
    kinds = sorted({type(c).__name__ for c in options})
    kind = rng.choice(kinds)
    return rng.choice([c for c in options if type(c).__name__ == kind])


def _attacks(state: GameState, move: cmd.MoveLegion) -> bool:
    return any(legion.owner != move.player for legion in state.legions_at(move.land))


# -- battles ------------------------------------------------------------------------------


def pick_in_battle(
    state: GameState, battle: Battle, options: list[cmd.Command], rng: random.Random
) -> cmd.Command:
    """The robot's battle order (see the module note)."""
    concede = [c for c in options if isinstance(c, cmd.Concede)]
    rest = [c for c in options if not isinstance(c, cmd.Concede)]
    if not rest:
        return concede[0]
    if concede and rng.random() < BATTLE_CONCEDE_RATE:
        return concede[0]
    if battle.step == "maneuver":
        return _pick_maneuver(state, battle, rest, rng)
    if battle.step in ("strike", "counterstrike"):
        strikes = [c for c in rest if isinstance(c, cmd.Strike | cmd.Rangestrike)]
        done = [c for c in rest if isinstance(c, cmd.Done)]
        if strikes and (not done or rng.random() < 0.9):
            return _pick_strike(strikes, rng)
        return done[0] if done else rng.choice(rest)
    # Windows (proceed), an attempt to concede (accept it), carrying damage (any way).
    return rng.choice(rest)


def _pick_strike(strikes: list[cmd.Strike | cmd.Rangestrike], rng: random.Random) -> cmd.Command:
    """A random striker and target; its most effective strike (listed first) mostly."""
    pairs: dict[tuple[str, str], list[cmd.Strike | cmd.Rangestrike]] = {}
    for c in strikes:
        pairs.setdefault((c.striker, c.target), []).append(c)
    ways = pairs[rng.choice(sorted(pairs))]
    return ways[0] if rng.random() < 0.8 else rng.choice(ways)


def _pick_maneuver(
    state: GameState, battle: Battle, rest: list[cmd.Command], rng: random.Random
) -> cmd.Command:
    moves = [c for c in rest if isinstance(c, cmd.Maneuver)]
    joins = [c for c in rest if isinstance(c, cmd.Summon | cmd.Reinforce)]
    done = [c for c in rest if isinstance(c, cmd.Done)]
    if joins and rng.random() < JOIN_RATE:
        return rng.choice(joins)
    entering = [c for c in moves if c.from_hex is None]
    if entering:  # enter everything that can enter before anything else (10.1)
        creature = rng.choice(sorted({c.creature or "" for c in entering}))
        return _towards_enemy(battle, [c for c in entering if c.creature == creature], rng)
    waiting = any(
        f.hex is None and not f.slain and f.side == battle.phasing for f in battle.fighters
    )
    if moves and (waiting or not done or rng.random() < MOVE_RATE):
        mover = rng.choice(sorted({c.from_hex or "" for c in moves}))
        return _towards_enemy(battle, [c for c in moves if c.from_hex == mover], rng)
    return done[0] if done else rng.choice(rest)


def _towards_enemy(battle: Battle, moves: list[cmd.Maneuver], rng: random.Random) -> cmd.Command:
    """Mostly the move that ends nearest an enemy (or where the attacker enters)."""
    if rng.random() >= GREEDY_RATE:
        return rng.choice(moves)
    goals = [
        f.hex
        for f in battle.fighters
        if f.side != battle.phasing and f.hex is not None and not f.slain
    ]
    if not goals:
        goals = list(entry_hexes(battle, ATTACKER))

    def distance(c: cmd.Maneuver) -> int:
        return min(hex_distance(c.to_hex, goal) for goal in goals)

    nearest = min(distance(c) for c in moves)
    return rng.choice([c for c in moves if distance(c) == nearest])


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
