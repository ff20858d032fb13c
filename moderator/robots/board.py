"""
The robot's masterboard decisions: splits, the mulligan, moves, which engagement
first, musters, summons after a battle, reinforcements and angels.

Each takes the seat's view and its legal commands and returns one of them.

- **Split** (4.x): a split is kept only when the two halves score better than the
  whole: a legion's score is its points plus twice its muster potential (the best
  muster averaged over the board's terrains; nothing for a legion of seven), so a
  full legion that could not muster splits off its weakest pair, and a Titan's
  legion is split only when full.
- **Moves** (7.x, 8.x): each destination of each unmoved legion is scored: a fight's
  expected gain if an enemy stands there, else what it musters there now, plus half
  of what it could muster next turn averaged over the six rolls, less the threat of
  the enemies' reach maps; against staying put (no muster, and a split that would
  recombine).  The best gain is played, one legion at a time; ``done`` once nothing
  gains.  The first turn's mulligan is taken when the roll's best musters fall short
  of their mean over the six rolls (expectimax over the roll).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from moderator.robots import values
from moderator.robots.assess import ROLLS, Board, best_muster, muster_potential, terrain_of
from moderator.robots.view import LegionSight, SeatView
from moderator.rules import commands as cmd
from moderator.rules.movement import normal_moves
from moderator.rules.variant import Variant

#: Points a recombined split wastes (the split was for nothing, 4.7).
RECOMBINE_PENALTY = 8.0
#: Worth of next turn's musters against this turn's.
NEXT_TURN = 0.5
#: Near ties between moves are broken by the caller's random source, up to this much.
JITTER = 0.5
#: A split must gain this much to be kept.
SPLIT_MARGIN = 2.0
#: The mulligan is taken when the roll's best falls this far below the mean.
MULLIGAN_MARGIN = 3.0


def legion_score(variant: Variant, contents: Sequence[str]) -> float:
    """A legion's worth for splitting: its points and its room to grow."""
    key = tuple(sorted(contents))
    return sum(values.points(variant, c) for c in key) + 2 * muster_potential(variant, key)


def _without(contents: tuple[str, ...], group: tuple[str, ...]) -> tuple[str, ...]:
    rest = list(contents)
    for c in group:
        rest.remove(c)
    return tuple(rest)


def choose_split(view: SeatView, splits: list[cmd.Split]) -> cmd.Split | None:
    """The best split that scores better than keeping the legion whole, if any."""
    best: tuple[float, cmd.Split] | None = None
    first = view.turn == 1 and all(lg.height == 8 for lg in view.mine())
    for s in splits:
        parent = view.legion(s.parent).known
        rest = _without(parent, s.characters)
        if not first and "Titan" in parent and len(parent) < 7:
            continue
        if not first and "Titan" in s.characters:
            continue
        v = view.variant
        gain = legion_score(v, rest) + legion_score(v, s.characters) - legion_score(v, parent)
        if first:  # the opening: both halves able to grow, the stronger kept with the Titan
            gain = min(
                muster_potential(v, tuple(sorted(rest))),
                muster_potential(v, tuple(sorted(s.characters))),
            )
            gain += 0.01 * legion_score(v, rest if "Titan" in rest else s.characters)
        elif gain < SPLIT_MARGIN:
            continue
        if best is None or gain > best[0]:
            best = (gain, s)
    return best[1] if best else None


def split_or_roll(view: SeatView) -> cmd.Command:
    splits = [c for c in view.legal if isinstance(c, cmd.Split)]
    chosen = choose_split(view, splits)
    if chosen is not None:
        return chosen
    rolls = [c for c in view.legal if isinstance(c, cmd.Roll)]
    return rolls[0] if rolls else splits[0]


# -- moves ----------------------------------------------------------------------------------


def _stay(board: Board, lg: LegionSight) -> float:
    contents = board.contents(lg)
    score = -board.threat(contents, lg.land)
    if any(o.land == lg.land and o.marker != lg.marker for o in board.view.mine()):
        score -= RECOMBINE_PENALTY
    return score


def destination_score(board: Board, lg: LegionSight, land: int) -> float:
    """The expected worth of moving ``lg`` to ``land`` (see the module note)."""
    v = board.view.variant
    contents = board.contents(lg)
    enemies = board.enemies_at(land)
    if enemies:
        enemy = enemies[0]
        gain = board.fight_gain(contents, board.contents(enemy), enemy.owner, land, attacking=True)
        o = board.attack(contents, board.view.seat, board.contents(enemy), enemy.owner, land)
        survivors = tuple(sorted(o.attacker_left))
        if survivors:
            gain += o.attacker_wins * best_muster(v, survivors, terrain_of(v, land))[1]
        return gain
    creature, now = best_muster(v, contents, terrain_of(v, land))
    grown = tuple(sorted((*contents, creature))) if creature else contents
    later = board.next_musters(lg, land, grown)
    return now + NEXT_TURN * later - board.threat(grown, land, moved=lg.marker)


def _move_gains(
    board: Board, moves: list[cmd.MoveLegion]
) -> list[tuple[float, int, cmd.MoveLegion]]:
    stays: dict[str, float] = {}
    scores: dict[tuple[str, int], float] = {}
    out = []
    for i, m in enumerate(moves):
        lg = board.view.legion(m.marker)
        if m.marker not in stays:
            stays[m.marker] = _stay(board, lg)
        key = (m.marker, m.land)
        if key not in scores:
            scores[key] = destination_score(board, lg, m.land)
        out.append((scores[key] - stays[m.marker], -i, m))
    return out


def move(view: SeatView, rng: random.Random) -> cmd.Command:
    """The next masterboard move, a mulligan, or ``done`` (see the module note)."""
    board = Board.of(view)
    mulligan = [c for c in view.legal if isinstance(c, cmd.Mulligan)]
    if mulligan and view.roll is not None and _mulligan_pays(board, view.roll):
        return mulligan[0]
    moves = [c for c in view.legal if isinstance(c, cmd.MoveLegion)]
    dones = [c for c in view.legal if isinstance(c, cmd.Done) and not c.keep]
    if moves:
        gains = [(g + rng.uniform(-JITTER, JITTER), i, m) for g, i, m in _move_gains(board, moves)]
        gain, _, best = max(gains, key=lambda t: (t[0], t[1]))
        if gain > 0 or not dones:
            return best
    if dones:
        return dones[0]
    return next(c for c in view.legal if not isinstance(c, cmd.Withdraw | cmd.UndoMove))


def _roll_value(board: Board, roll: int) -> float:
    """The best muster each of the seat's legions could reach on ``roll``, summed."""
    total = 0.0
    for lg in board.view.mine():
        legion = board.state.legions[lg.marker]
        best = 0.0
        for land in normal_moves(board.state, legion, roll):
            if not board.enemies_at(land):
                v = board.view.variant
                best = max(best, best_muster(v, board.contents(lg), terrain_of(v, land))[1])
        total += best
    return total


def _mulligan_pays(board: Board, roll: int) -> bool:
    mean = sum(_roll_value(board, r) for r in ROLLS) / 6
    return _roll_value(board, roll) < mean - MULLIGAN_MARGIN


# -- engagements, musters, angels ------------------------------------------------------------


def engage(view: SeatView) -> cmd.Command:
    """The engagement to resolve first: the one the seat expects to gain most from."""
    board = Board.of(view)
    engages = [c for c in view.legal if isinstance(c, cmd.Engage)]

    def gain(c: cmd.Engage) -> float:
        mine = [lg for lg in view.mine() if lg.land == c.land]
        theirs = board.enemies_at(c.land)
        if not mine or not theirs:
            return 0.0
        return board.fight_gain(
            board.contents(mine[0]),
            board.contents(theirs[0]),
            theirs[0].owner,
            c.land,
            attacking=view.active == view.seat,
        )

    return max(engages, key=lambda c: (gain(c), -c.land))


def muster(view: SeatView) -> cmd.Command:
    """The most valuable muster open (cheapest showing first), else ``done``."""
    musters = [c for c in view.legal if isinstance(c, cmd.Muster)]
    if musters:
        return max(musters, key=lambda c: (values.points(view.variant, c.creature), -len(c.showing)))
    return next(c for c in view.legal if isinstance(c, cmd.Done))


def reinforce(view: SeatView) -> cmd.Command:
    options = [c for c in view.legal if isinstance(c, cmd.Reinforce)]
    if options:
        return max(options, key=lambda c: (values.points(view.variant, c.creature), -len(c.showing)))
    return next(c for c in view.legal if isinstance(c, cmd.Decline))


def acquire(view: SeatView) -> cmd.Command:
    """An Archangel before an Angel (17.x); an angel is always worth taking."""
    takes = [c for c in view.legal if isinstance(c, cmd.TakeAngel)]
    if takes:
        return max(takes, key=lambda c: values.points(view.variant, c.lord))
    return next(c for c in view.legal if isinstance(c, cmd.Decline))


def summon(view: SeatView) -> cmd.Command:
    """
    After a won battle (15.x): bring an angel to the winner when it is short and the
    legion giving it stays safe enough, the strongest lord from the tallest legion.
    """
    options = [c for c in view.legal if isinstance(c, cmd.Summon)]
    decline = next(c for c in view.legal if isinstance(c, cmd.Decline))
    eng = view.engagement
    if not options or eng is None:
        return decline
    board = Board.of(view)
    winner = view.legion(eng.attacker)
    if winner.height >= 6:
        return decline

    def cost(c: cmd.Summon) -> float:
        source = view.legion(c.source)
        contents = board.contents(source)
        left = list(contents)
        left.remove(c.lord)
        return board.threat(tuple(left), source.land) - board.threat(contents, source.land)

    best = min(options, key=lambda c: (cost(c), -values.points(view.variant, c.lord), c.source))
    if cost(best) > values.points(view.variant, best.lord) / 2 or view.legion(best.source).height <= 2:
        return decline
    return best
