"""
The masterboard assessments the robot's decisions share: what a legion is worth, what
it could muster, where each enemy legion could reach on each roll, and how much a
legion standing on a land risks before its owner's next turn.

Everything is computed from a ``SeatView`` and the ``sketch`` made of it, so an
unknown enemy character counts as the view's guess, never as what it truly is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from moderator.robots import values
from moderator.robots.view import LegionSight, SeatView, guessed_contents, sketch
from moderator.rules.movement import TITAN_TELEPORT_SCORE, normal_moves
from moderator.rules.muster import MAX_HEIGHT, qualifications
from moderator.rules.state import GameState
from moderator.rules.variant import Variant

#: What the loss of the Titan's legion costs beyond its points: the game (19.3).
TITAN_WEIGHT = 400.0
#: Points the enemy earns count against us at this rate (angels, Titan power: 17.x, 19.1).
POINT_WEIGHT = 0.3
ROLLS = range(1, 7)
#: The dice can upset any estimate: a legion in reach is never quite safe.
UPSET = 0.02


def terrain_of(variant: Variant, land: int) -> str:
    return variant.lands[land].terrain


@lru_cache(maxsize=20_000)
def best_muster(
    variant: Variant, contents: tuple[str, ...], terrain: str
) -> tuple[str | None, float]:
    """The most valuable creature ``contents`` could muster on ``terrain`` (18.x), and its worth."""
    if len(contents) >= MAX_HEIGHT:
        return None, 0.0
    options = {c for c, _ in qualifications(variant, contents, terrain)}
    if not options:
        return None, 0.0
    best = max(options, key=lambda c: (values.points(variant, c), c))
    return best, float(values.points(variant, best))


@lru_cache(maxsize=4096)
def muster_potential(variant: Variant, contents: tuple[str, ...]) -> float:
    """How well a legion can grow: its best muster averaged over the terrains of the board."""
    if len(contents) >= MAX_HEIGHT:
        return 0.0
    terrains = sorted({land.terrain for land in variant.lands.values()})
    return sum(best_muster(variant, contents, t)[1] for t in terrains) / len(terrains)


@dataclass(slots=True)
class Board:
    """One decision's assessments, computed once: the view, its sketch, the reach maps."""

    view: SeatView
    state: GameState
    #: enemy marker -> roll -> lands it could stop on (entering an enemy's land stops it).
    reach: dict[str, list[set[int]]] = field(default_factory=dict)

    @classmethod
    def of(cls, view: SeatView) -> Board:
        board = cls(view, sketch(view))
        for lg in view.others():
            board.reach[lg.marker] = board._reach(lg)
        return board

    def _reach(self, lg: LegionSight) -> list[set[int]]:
        legion = self.state.legions[lg.marker]
        owner = self.view.player(lg.owner)
        by_roll: list[set[int]] = [set()]
        seen: set[int] = set()
        for roll in ROLLS:
            seen |= set(normal_moves(self.state, legion, roll))
            lands = set(seen)
            if roll == 6 and owner.score >= TITAN_TELEPORT_SCORE and "Titan" in legion.contents:
                lands |= {m.land for m in self.view.mine()}  # 8.2: the Titan may teleport
            by_roll.append(lands)
        return by_roll

    def contents(self, lg: LegionSight) -> tuple[str, ...]:
        return guessed_contents(self.view, lg)

    def titan_power(self, player: str) -> int:
        return self.view.player(player).titan_power

    def worth(self, contents: Sequence[str], owner: str) -> float:
        """What losing ``contents`` costs its owner: points, and the game with the Titan."""
        tp = self.titan_power(owner)
        total = float(sum(values.points(self.view.variant, c, tp) for c in contents))
        return total + (TITAN_WEIGHT if "Titan" in contents else 0.0)

    def attack(
        self,
        attacker: tuple[str, ...],
        att_owner: str,
        defender: tuple[str, ...],
        def_owner: str,
        land: int,
    ) -> values.Outcome:
        variant = self.view.variant
        return values.expected(
            [
                (
                    values.battle(
                        variant,
                        tuple(sorted(attacker)),
                        tuple(sorted(defender)),
                        terrain_of(variant, land),
                        attacker_titan=self.titan_power(att_owner),
                        defender_titan=self.titan_power(def_owner),
                        battleland=battleland,
                    ),
                    chance,
                )
                for battleland, chance in values.battlelands_of(variant, variant.lands[land])
            ]
        )

    def fight_gain(
        self,
        mine: tuple[str, ...],
        theirs: tuple[str, ...],
        enemy: str,
        land: int,
        *,
        attacking: bool,
    ) -> float:
        """The expected gain for the seat of a battle (their losses less ours, points counted)."""
        me = self.view.seat
        if attacking:
            o = self.attack(mine, me, theirs, enemy, land)
            win = o.attacker_wins
            my_loss, their_loss = o.attacker_lost, o.defender_lost
        else:
            o = self.attack(theirs, enemy, mine, me, land)
            win = 1 - o.attacker_wins
            my_loss, their_loss = o.defender_lost, o.attacker_lost
        mine_all, theirs_all = self.worth(mine, me), self.worth(theirs, enemy)
        variant = self.view.variant
        their_pts = sum(values.points(variant, c, self.titan_power(enemy)) for c in theirs)
        my_pts = sum(values.points(variant, c, self.titan_power(me)) for c in mine)
        if_win = theirs_all + POINT_WEIGHT * their_pts - min(my_loss, mine_all)
        if_lose = min(their_loss, theirs_all) - mine_all - POINT_WEIGHT * my_pts
        return win * if_win + (1 - win) * if_lose

    def threat(self, contents: tuple[str, ...], land: int, moved: str | None = None) -> float:
        """
        Expected loss of a legion of the seat holding ``contents`` on ``land`` before the
        seat's next turn: for each enemy player, the mean over his six rolls of the worst
        attack one of his legions could make there and expect to win.
        """
        me = self.view.seat
        mine = self.worth(contents, me)
        total = 0.0
        by_player: dict[str, list[LegionSight]] = {}
        for lg in self.view.others():
            by_player.setdefault(lg.owner, []).append(lg)
        for owner, legions in by_player.items():
            worst = [0.0] * 7
            for lg in legions:
                reach = self.reach[lg.marker]
                rolls = [r for r in ROLLS if land in reach[r]]
                if lg.land == land and lg.marker != moved:
                    rolls = list(ROLLS)
                if not rolls:
                    continue
                o = self.attack(self.contents(lg), owner, contents, me, land)
                loss = max(UPSET, o.attacker_wins) * mine
                for r in rolls:
                    worst[r] = max(worst[r], loss)
            total += sum(worst) / 6
        return total

    def enemies_at(self, land: int) -> list[LegionSight]:
        return [lg for lg in self.view.others() if lg.land == land]

    def moved_to(self, lg: LegionSight, land: int) -> GameState:
        legion = replace(self.state.legions[lg.marker], land=land, moved=False)
        return replace(self.state, legions={**self.state.legions, lg.marker: legion})

    def next_musters(self, lg: LegionSight, land: int, contents: tuple[str, ...]) -> float:
        """The best muster reachable from ``land`` next turn, averaged over the six rolls."""
        state = self.moved_to(lg, land)
        legion = replace(state.legions[lg.marker], contents=contents)
        total = 0.0
        for roll in ROLLS:
            best = 0.0
            for dest in normal_moves(state, legion, roll):
                if any(e.land == dest for e in self.view.others()):
                    continue
                variant = self.view.variant
                best = max(best, best_muster(variant, contents, terrain_of(variant, dest))[1])
            total += best
        return total / 6
