"""
Which events a reader is shown: those he may see, less the battle's bookkeeping steps.
Its own module because the history (``narrate``), the battle narration and the
service's replies all ask it.
"""

from __future__ import annotations

from moderator.audit.seal import robot_seat_of
from moderator.orders.render import names_characters, without_characters
from moderator.rules import events as ev


def may_see(event: ev.Event, viewer: str | None) -> bool:
    """Whether ``viewer`` (None: the public) may see ``event``."""
    return event.visible_to is None or (viewer is not None and viewer in event.visible_to)


def before_his_hold(event: ev.Event, version: int, held_since: int) -> bool:
    """
    Whether ``event`` (the game's ``version``-th) is a message relayed to named players
    (``tell``, Wolff 4.5) before the reader's seat became his at version ``held_since``
    (``schedule.holders``): it was the former holder's correspondence, not the seat's
    knowledge of the game, so its new holder does not read it.  What the seat saw of the
    game (shown legions, reveals) stays his.
    """
    return (
        version <= held_since
        and isinstance(event, ev.MessageRelayed)
        and event.visible_to is not None
    )


def is_bookkeeping(event: ev.Event) -> bool:
    """
    Whether ``event`` only records the battle passing through a step nobody acts in
    ("after-maneuver", "end-check", ...) or is one of the moderator's audit notes: left
    out of histories and replies.
    """
    if isinstance(event, ev.AUDIT_EVENT_TYPES):  # reports list them apart
        return True
    return isinstance(event, ev.BattleStepBegan) and (
        event.step.startswith("after-") or event.step == "end-check"
    )


def robot_mark(event: ev.Event) -> str | None:
    """
    The line that marks an order as the robot's (issue 26): its seal names the seat the
    robot held; None for any other event.  Shown in reports and histories after the
    order's own events, to those who may see the seal.
    """
    if not isinstance(event, ev.OrderSealed) or event.player is None:
        return None
    if robot_seat_of(event.trigger) != event.player:
        return None
    return f"{event.player}'s seat (played by the robot): {event.order}"


def robot_order_names_characters(event: ev.Event) -> bool:
    """
    Whether the robot's order that ``event`` seals names a character of a legion (a
    split's contents, a muster, a summon, a lord shown...): its ``robot_mark`` line then
    goes in the private part, never the signed one (Wolff 4.5), like the events that
    name contents.
    """
    return isinstance(event, ev.OrderSealed) and names_characters(event.order)


def robot_marks(event: ev.Event, saw_all: bool) -> tuple[str | None, str | None]:
    """
    (the line for the signed part, the line for the private part) marking the robot's
    order that ``event`` seals, for a reader who may see its seal; ``saw_all``: he may
    see every event of the order too.  A line naming no character is signed.  One that
    names some is private, and whole only for a reader who saw all it did: another
    player's robot split, or an engagement's proposals between two others, would tell
    him what he may not know; he gets the line without its characters, which names
    nothing and is signed.
    """
    mark = robot_mark(event)
    if mark is None or not robot_order_names_characters(event):
        return mark, None
    assert isinstance(event, ev.OrderSealed)
    if saw_all:
        return None, mark
    return f"{event.player}'s seat (played by the robot): {without_characters(event.order)}", None


def order_unseen(event: ev.Event, viewer: str | None, unseen: bool) -> bool:
    """
    Whether ``viewer`` missed an event of the order being read, once ``event`` is read
    (``unseen``: he had missed one before it); an order's seal ends it.
    """
    if isinstance(event, ev.OrderSealed):
        return False
    if isinstance(event, ev.AUDIT_EVENT_TYPES):
        return unseen
    return unseen or not may_see(event, viewer)


#: Events whose every telling names characters a legion holds (or held): a reveal, a
#: muster with its recruiter shown, a proposal's or a fight's losses, an angel taken, a
#: battle's characters, the legions of a player who left or lost.
_CONTENTS_EVENTS: tuple[type[ev.Event], ...] = (
    ev.LegionRevealed, ev.CreatureMustered, ev.ProposalsMade, ev.EngagementResolved,
    ev.AngelSummoned, ev.AngelAcquired, ev.SplitContents, ev.LegionShown,
    ev.FighterMoved, ev.FightersLeftOff, ev.JoinUndone, ev.DriftDamaged, ev.StrikeRolled,
    ev.CarryAllocated, ev.SlainRemoved, ev.CommitmentOpened,
)


def names_contents(event: ev.Event) -> bool:
    """
    Whether the telling of ``event`` names what a legion holds.  Such a line never goes
    in a signed part, not even when every player saw it (Wolff 4.5: a signed line would
    let a player prove what a legion held, which he may tell but never prove); reports
    put it in each reader's private part instead.
    """
    if isinstance(event, _CONTENTS_EVENTS):
        return True
    if isinstance(event, ev.LegionMoved):
        return event.lord_shown is not None  # a teleport shows the lord it needs
    if isinstance(event, ev.PlayerWithdrew | ev.PlayerEliminated | ev.GameOver | ev.GameScored):
        return bool(event.legions)
    return False
