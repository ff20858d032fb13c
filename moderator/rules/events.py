"""
Events: the facts the rules decided, in the past tense, all in one namespace.

The state folds every event; reports and histories show a player only the ones
they may see.  Dice results live in events, so a replay never rolls.  The classes
live in ``event_base`` (the root), ``board_events`` and ``battle_events``; this module
gathers them so callers say ``ev.LegionMoved`` whatever the kind, and keeps
``EVENT_TYPES``, the registry by stored type name that ``codec`` decodes with.
"""

from __future__ import annotations

from moderator.rules.audit_events import (
    AUDIT_EVENT_TYPES,
    CommitmentOpened,
    LegionCommitted,
    OrderSealed,
    SeedCommitted,
)
from moderator.rules.battle_events import (
    BattleEnded,
    BattleStarted,
    BattleStepBegan,
    CarryAllocated,
    ConcessionAttempted,
    DriftDamaged,
    FighterList,
    FighterMoved,
    FightersLeftOff,
    JoinUndone,
    ManeuverReset,
    SlainRemoved,
    StrikeRolled,
)
from moderator.rules.board_events import (
    AngelAcquired,
    AngelSummoned,
    ColourChosen,
    CreatureMustered,
    DecisionAwaited,
    Declined,
    EngagementEnded,
    EngagementResolved,
    EngagementStarted,
    GameCreated,
    GameOver,
    GameScored,
    LegionMoved,
    LegionRevealed,
    LegionsPlaced,
    LegionSplit,
    LegionsRecombined,
    MovementEnded,
    MovementRolled,
    MoveUndone,
    NoMoreProposals,
    PlayerEliminated,
    PlayerWithdrew,
    PointsScored,
    PositionLoaded,
    ProposalsMade,
    SplitContents,
    StandingOrderUsed,
    TimeCalled,
    TowersRolled,
    TurnEnded,
    TurnStarted,
)
from moderator.rules.event_base import Event, LegionList
from moderator.rules.exposure_events import (
    ASIDE_EVENT_TYPES,
    LegionShown,
    MessageRelayed,
    author,
)

EVENT_TYPES: dict[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (
        GameCreated,
        TowersRolled,
        ColourChosen,
        LegionsPlaced,
        PositionLoaded,
        TurnStarted,
        LegionSplit,
        SplitContents,
        MovementRolled,
        LegionMoved,
        MoveUndone,
        MovementEnded,
        LegionsRecombined,
        CreatureMustered,
        TurnEnded,
        PlayerWithdrew,
        EngagementStarted,
        LegionRevealed,
        ProposalsMade,
        NoMoreProposals,
        EngagementResolved,
        DecisionAwaited,
        AngelSummoned,
        Declined,
        PointsScored,
        AngelAcquired,
        PlayerEliminated,
        EngagementEnded,
        GameOver,
        TimeCalled,
        GameScored,
        StandingOrderUsed,
        LegionShown,
        MessageRelayed,
        SeedCommitted,
        OrderSealed,
        LegionCommitted,
        CommitmentOpened,
        BattleStarted,
        BattleStepBegan,
        FighterMoved,
        ManeuverReset,
        FightersLeftOff,
        JoinUndone,
        DriftDamaged,
        StrikeRolled,
        CarryAllocated,
        ConcessionAttempted,
        SlainRemoved,
        BattleEnded,
    )
}

def is_aside(event: Event) -> bool:
    """Whether ``event`` leaves the game where it was: a player's aside or an audit note."""
    return isinstance(event, ASIDE_EVENT_TYPES + AUDIT_EVENT_TYPES)


#: The events of a battle on its battleland (``battle_events``), in registry order.
BATTLE_EVENT_TYPES: tuple[type[Event], ...] = tuple(
    t for t in EVENT_TYPES.values() if t.__module__ == BattleStarted.__module__
)

__all__ = [
    "ASIDE_EVENT_TYPES",
    "AUDIT_EVENT_TYPES",
    "BATTLE_EVENT_TYPES",
    "EVENT_TYPES",
    "AngelAcquired",
    "AngelSummoned",
    "BattleEnded",
    "BattleStarted",
    "BattleStepBegan",
    "CarryAllocated",
    "ColourChosen",
    "CommitmentOpened",
    "ConcessionAttempted",
    "CreatureMustered",
    "DecisionAwaited",
    "Declined",
    "DriftDamaged",
    "EngagementEnded",
    "EngagementResolved",
    "EngagementStarted",
    "Event",
    "FighterList",
    "FighterMoved",
    "FightersLeftOff",
    "GameCreated",
    "GameOver",
    "GameScored",
    "JoinUndone",
    "LegionCommitted",
    "LegionList",
    "LegionMoved",
    "LegionRevealed",
    "LegionShown",
    "LegionSplit",
    "LegionsPlaced",
    "LegionsRecombined",
    "ManeuverReset",
    "MessageRelayed",
    "MoveUndone",
    "MovementEnded",
    "MovementRolled",
    "NoMoreProposals",
    "OrderSealed",
    "PlayerEliminated",
    "PlayerWithdrew",
    "PointsScored",
    "PositionLoaded",
    "ProposalsMade",
    "SeedCommitted",
    "SlainRemoved",
    "SplitContents",
    "StandingOrderUsed",
    "StrikeRolled",
    "TimeCalled",
    "TowersRolled",
    "TurnEnded",
    "TurnStarted",
    "author",
    "is_aside",
]
