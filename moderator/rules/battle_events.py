"""
The events of a battle (Complete Sequence 2.5.6): maneuvers, strikes, carries and its end.

Apart from the masterboard's events (``board_events``) because a battle is a game of
its own inside an engagement, folded and narrated by modules of its own.  Import them
through ``events``, which also registers them by type name for the codec.
"""

from __future__ import annotations

from typing import ClassVar

from moderator.records import record
from moderator.rules.event_base import Event

FighterList = tuple[tuple[int, str, str, int, int], ...]  # (id, side, creature, power, skill)


@record(kw_only=True)
class BattleStarted(Event):
    """2.5.6/2.5.6.1: the battle begins; both legions become public."""

    TYPE: ClassVar[str] = "battle-started"
    land: int
    terrain: str  # the battleland fought on (Badlands: maybe an alternate, "BrushAlt")
    entry: str
    fighters: FighterList
    #: the die rolled for the defender that chose the battleland (Badlands'
    #: battleland_choice "defender-roll": 1-3 the alternate); None when none was rolled.
    battleland_roll: int | None = None


@record(kw_only=True)
class BattleStepBegan(Event):
    """The battle moves on to the next step of Complete Sequence 2.5.6.4."""

    TYPE: ClassVar[str] = "battle-step-began"
    turn: int
    phasing: str
    step: str


@record(kw_only=True)
class FighterMoved(Event):
    TYPE: ClassVar[str] = "fighter-moved"
    fighter: int
    from_hex: str | None
    to_hex: str


@record(kw_only=True)
class ManeuverReset(Event):
    """Wolff 11.0: the maneuver is undone before any strike is rolled."""

    TYPE: ClassVar[str] = "maneuver-reset"
    side: str


@record(kw_only=True)
class FightersLeftOff(Event):
    """10.1: characters not entered on the first maneuver are slain (no summoning trigger)."""

    TYPE: ClassVar[str] = "fighters-left-off"
    fighters: tuple[int, ...]


@record(kw_only=True)
class JoinUndone(Event):
    """Wolff 10.1/14.1/15.1: a summoned angel or reinforcement that did not enter goes back."""

    TYPE: ClassVar[str] = "join-undone"
    fighter: int
    marker: str
    creature: str
    source: str | None  # the legion a summoned angel returns to; None: to the caretaker


@record(kw_only=True)
class DriftDamaged(Event):
    """Hazard chart: non-natives in drift take a hit at the start of each strike phase."""

    TYPE: ClassVar[str] = "drift-damaged"
    fighters: tuple[int, ...]


@record(kw_only=True)
class StrikeRolled(Event):
    TYPE: ClassVar[str] = "strike-rolled"
    striker: int
    target: int
    strike_number: int
    rolls: tuple[int, ...]
    hits: int
    rangestrike: bool = False
    via: tuple[str, ...] = ()
    carry: tuple[int, ...] = ()  # who excess damage may carry to (12.4)


@record(kw_only=True)
class CarryAllocated(Event):
    TYPE: ClassVar[str] = "carry-allocated"
    allocations: tuple[tuple[int, int], ...]  # (fighter, damage)


@record(kw_only=True)
class ConcessionAttempted(Event):
    TYPE: ClassVar[str] = "concession-attempted"
    side: str


@record(kw_only=True)
class SlainRemoved(Event):
    """12.6: the slain leave the battleland at the end of the strike phase."""

    TYPE: ClassVar[str] = "slain-removed"
    fighters: tuple[int, ...]


@record(kw_only=True)
class BattleEnded(Event):
    """
    The battle is over: ``how`` is "elimination", "titan", "time loss" or
    "concession"; ``conceded`` names the side that conceded, if any.
    """

    TYPE: ClassVar[str] = "battle-ended"
    how: str
    conceded: str | None = None
