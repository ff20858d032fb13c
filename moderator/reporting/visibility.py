"""
Which events a reader is shown: those he may see, less the battle's bookkeeping steps.
Its own module because the history (``narrate``), the battle narration and the
service's replies all ask it.
"""

from __future__ import annotations

from moderator.audit.seal import robot_seat_of
from moderator.rules import events as ev


def may_see(event: ev.Event, viewer: str | None) -> bool:
    """Whether ``viewer`` (None: the public) may see ``event``."""
    return event.visible_to is None or (viewer is not None and viewer in event.visible_to)


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
