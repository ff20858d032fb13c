"""
The root of every game event: ``Event``, and the shapes events share.

Kept apart from the event classes so that the board's and the battle's events can
live in modules of their own and ``events`` can gather them without a cycle.  Each
event says who may see it (``visible_to``: ``None`` is everybody).
"""

from __future__ import annotations

from typing import ClassVar

from moderator.records import record
from moderator.rules.state import Audience

LegionList = tuple[tuple[str, tuple[str, ...]], ...]  # (marker, contents) pairs


@record(kw_only=True)
class Event:
    TYPE: ClassVar[str] = "event"
    VERSION: ClassVar[int] = 1
    visible_to: Audience = None
