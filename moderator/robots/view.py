"""
What a seat's player may see: the robot's only input.

``seat_view`` is the one place that reads a ``GameState``: it keeps what is public
(players, scores, markers, the caretaker's stacks, where every legion stands and how
tall it is, the engagement, the battle, the moves and the roll), the seat's own
legions in full, and of every other legion only the characters the seat knows for
certain (all of them when the rules say so, ``Legion.known_by``; more may be passed
in ``certain``, e.g. the report fold of ``reporting.knowledge``).  It adds the rules
core's answer of what the seat may order now, which names nothing hidden.

Every decision takes a ``SeatView`` and nothing else, so a decision cannot depend on
what the seat cannot know.  ``sketch`` turns a view back into a ``GameState`` for the
rules core's queries (moves, musters, battle reach): the characters the seat does not
know are filled in by a guess from the public record (the turn), the same whatever
they truly are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field

from moderator.records import record
from moderator.rules import commands as cmd
from moderator.rules.legal import legal_commands, to_act
from moderator.rules.state import Battle, Engagement, GameState, Legion, Move, Player, Step
from moderator.rules.variant import Variant


@record(kw_only=True)
class LegionSight:
    """One legion as the seat sees it: ``known`` is all of it for his own legions."""

    marker: str
    owner: str
    land: int
    height: int
    known: tuple[str, ...]
    moved: bool = False
    mustered: bool = False
    took_angel: bool = False
    split_from: str | None = None

    @property
    def complete(self) -> bool:
        return len(self.known) == self.height


@record(kw_only=True)
class SeatView:
    """The game as one seat's player may see it, with the orders he may give now."""

    seat: str
    players: tuple[Player, ...]
    legions: tuple[LegionSight, ...]
    caretaker: Mapping[str, int] = field(default_factory=dict)
    dead: Mapping[str, int] = field(default_factory=dict)
    step: Step = Step.COLOUR
    turn: int = 1
    active: str | None = None
    roll: int | None = None
    mulligan_used: bool = False
    moves: tuple[Move, ...] = ()
    engagement: Engagement | None = None
    battle: Battle | None = None
    summoned_this_phase: bool = False
    acquisitions: tuple[int, ...] = ()
    acquiring: str | None = None
    #: the rules core's legal commands for the seat (empty when another is to act).
    legal: tuple[cmd.Command, ...] = ()
    #: the game's variant: its creatures, lands and musters are what the robot weighs.
    variant: Variant

    def legion(self, marker: str) -> LegionSight:
        for lg in self.legions:
            if lg.marker == marker:
                return lg
        raise KeyError(marker)

    def mine(self) -> list[LegionSight]:
        return [lg for lg in self.legions if lg.owner == self.seat]

    def others(self) -> list[LegionSight]:
        return [lg for lg in self.legions if lg.owner != self.seat]

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)


def seat_view(
    state: GameState, seat: str, certain: Mapping[str, tuple[str, ...]] | None = None
) -> SeatView:
    """The view of ``seat``; ``certain`` adds characters known for certain, by marker."""
    certain = certain or {}
    sights = []
    for lg in sorted(state.legions.values(), key=lambda x: x.marker):
        known = lg.contents if lg.known_by(seat) else tuple(sorted(certain.get(lg.marker, ())))
        sights.append(
            LegionSight(
                marker=lg.marker,
                owner=lg.owner,
                land=lg.land,
                height=lg.height,
                known=known,
                moved=lg.moved,
                mustered=lg.mustered,
                took_angel=lg.took_angel,
                split_from=lg.split_from,
            )
        )
    legal = tuple(legal_commands(state)) if to_act(state) == seat else ()
    return SeatView(
        seat=seat,
        players=state.players,
        legions=tuple(sights),
        caretaker=dict(state.caretaker),
        dead=dict(state.dead),
        step=state.step,
        turn=state.turn,
        active=state.active,
        roll=state.roll,
        mulligan_used=state.mulligan_used,
        moves=state.moves,
        engagement=state.engagement,
        battle=state.battle,
        summoned_this_phase=state.summoned_this_phase,
        acquisitions=state.acquisitions,
        acquiring=state.acquiring,
        legal=legal,
        variant=state.variant,
    )


#: The guess for a character the seat does not know, by game turn: a typical creature
#: of that stage of the game (the commonest musters), from the public record only.
_GUESSES = ((4, "Ogre"), (9, "Troll"), (15, "Warbear"), (10_000, "Griffon"))


def guess(turn: int, variant: Variant) -> str:
    """The creature assumed for an unknown character on ``turn``.

    A variant without that creature (TITANplus has no Ogres) gets its first tower
    creature, the commonest muster of any game.
    """
    name = next(name for last, name in _GUESSES if turn <= last)
    return name if name in variant.creatures else variant.tower_creatures[0]


def guessed_contents(view: SeatView, lg: LegionSight) -> tuple[str, ...]:
    """A legion's contents as the robot assumes them: what is known, then guesses."""
    return tuple(sorted(lg.known + (guess(view.turn, view.variant),) * (lg.height - len(lg.known))))


def sketch(view: SeatView) -> GameState:
    """A ``GameState`` built from ``view`` alone, for the rules core's queries."""
    legions = {
        lg.marker: Legion(
            marker=lg.marker,
            owner=lg.owner,
            land=lg.land,
            contents=guessed_contents(view, lg),
            moved=lg.moved,
            mustered=lg.mustered,
            took_angel=lg.took_angel,
            split_from=lg.split_from,
            known_to=None,
        )
        for lg in view.legions
    }
    return GameState(
        players=view.players,
        legions=legions,
        caretaker=view.caretaker,
        dead=view.dead,
        step=view.step,
        turn=view.turn,
        active=view.active,
        roll=view.roll,
        mulligan_used=view.mulligan_used,
        moves=view.moves,
        engagement=view.engagement,
        battle=view.battle,
        summoned_this_phase=view.summoned_this_phase,
        acquisitions=view.acquisitions,
        acquiring=view.acquiring,
        variant_name=view.variant.name,
    )
