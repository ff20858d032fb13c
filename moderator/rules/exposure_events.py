"""
What players choose to show and say through the moderator (Wolff 4.5): a legion shown
by its owner and a message passed on.  Both are seen by the owner (or the sender) and
those named only, so they are never in a report's signed part.
"""

from __future__ import annotations

from typing import ClassVar

from moderator.records import record
from moderator.rules.event_base import Event


@record(kw_only=True)
class LegionShown(Event):
    """
    ``owner`` showed ``characters`` of ``marker`` to the others in ``visible_to``: all it
    holds when ``whole`` (they then know the legion as after a look), else only those.
    """

    TYPE: ClassVar[str] = "legion-shown"
    owner: str
    marker: str
    characters: tuple[str, ...]
    whole: bool


@record(kw_only=True)
class MessageRelayed(Event):
    """``sender``'s words to the others in ``visible_to``, passed on as written."""

    TYPE: ClassVar[str] = "message-relayed"
    sender: str
    text: str


#: Events beside the sequence of play: they change nothing in the game, so a step
#: reference stays good across them (with the audit's notes that follow them).
ASIDE_EVENT_TYPES: tuple[type[Event], ...] = (LegionShown, MessageRelayed)


def author(event: Event) -> str | None:
    """Who showed or said ``event`` (an aside); None for any other event."""
    if isinstance(event, LegionShown):
        return event.owner
    if isinstance(event, MessageRelayed):
        return event.sender
    return None
