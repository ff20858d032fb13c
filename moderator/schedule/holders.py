"""
A seat's former holders: who held it, from which of the game's events to which, kept
in the game's record when the seat is handed to another player (``usecases.games.handover``).

Two things need them.  A player's correspondence through the moderator (``tell``, Wolff
4.5) was his, not the seat's: the seat's new holder reads the game's history without the
messages passed before he took it (``relayed_hidden_before``).  And a former holder is
sent the game's public audit bundle at its end, so he can check the moderator played fair
while the seat was his (``usecases.games.audits``).  Pure.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from moderator.records import record


@record
class FormerHolder:
    """``address`` held ``seat`` from the game's version ``since`` to ``until`` (events
    counted from the game's start; ``until`` is the version it was handed over at)."""

    seat: str
    address: str
    since: int
    until: int


def handed_over(
    former: Sequence[FormerHolder], seat: str, address: str, at: int
) -> tuple[FormerHolder, ...]:
    """``former`` with ``address``'s hold of ``seat`` ended at version ``at``."""
    return (*former, FormerHolder(seat, address, held_since(former, seat), at))


def held_since(former: Sequence[FormerHolder], seat: str | None) -> int:
    """The version from which ``seat``'s present holder holds it (0: from the start)."""
    return max((h.until for h in former if h.seat == seat), default=0)


def to_json(former: Sequence[FormerHolder]) -> list[dict[str, Any]]:
    """As the record stores them."""
    return [
        {"seat": h.seat, "address": h.address, "since": h.since, "until": h.until}
        for h in former
    ]


def from_json(stored: Any) -> tuple[FormerHolder, ...]:
    """The stored list (none in records written before there were any)."""
    return tuple(_parsed(stored or ()))


def _parsed(stored: Any) -> Iterator[FormerHolder]:
    for raw in stored:
        yield FormerHolder(
            str(raw["seat"]), str(raw["address"]), int(raw["since"]), int(raw["until"])
        )


__all__ = ["FormerHolder", "from_json", "handed_over", "held_since", "to_json"]
