"""
Robot players that play from a seat's view (issue 26): ``view`` (what the seat may
see), ``values`` and ``assess`` (what things are worth, battles estimated, threats),
``board``, ``engage`` and ``fight`` (the decisions), ``robot`` (one order), ``batch``
(the orders of one mail: those a step allows before a die or another player).  Pure: no
I/O, no clock, randomness only from the caller.  docs/robots.md says how it decides.
"""

from __future__ import annotations

from moderator.robots.batch import batch, orders
from moderator.robots.robot import NothingToDoError, decide, order
from moderator.robots.view import LegionSight, SeatView, seat_view

__all__ = [
    "LegionSight",
    "NothingToDoError",
    "SeatView",
    "batch",
    "decide",
    "order",
    "orders",
    "seat_view",
]
