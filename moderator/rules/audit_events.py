"""
The moderator's audit notes in a game's log: what binds the dice to the mail that asked
for them and what commits the moderator to hidden legions' contents (issue "audit and
fair dice"; Wolff 1.3 and 4.5).  The shell writes them after the events of an order
(``moderator.audit.seal``); the rules never do.  They change nothing in the game: the
fold only counts them, and reports show them apart from the game's events.
"""

from __future__ import annotations

from typing import ClassVar

from moderator.records import record
from moderator.rules.event_base import Event


@record(kw_only=True)
class SeedCommitted(Event):
    """The SHA-256 of the game's secret dice seed, fixed at the start (the seed comes after)."""

    TYPE: ClassVar[str] = "seed-committed"
    sha256: str


@record(kw_only=True)
class OrderSealed(Event):
    """
    The first of an order's notes, after its events (those from ``first`` on): the order
    was asked for by ``trigger``, the SHA-256 of the mail (or the name of the timeout),
    and its ``count`` dice (maybe none) were derived from the seed, the game, ``first``
    and ``trigger``.  Every order of a game with bound dice leaves one, so the audit
    knows where each order ends, which mail gave it and what it said.  Seen by all,
    but for an aside (Wolff 4.5), whose seal only its audience sees.
    """

    TYPE: ClassVar[str] = "order-sealed"
    VERSION: ClassVar[int] = 2
    trigger: str
    first: int
    count: int
    #: Whose order it was (None: the moderator's own, e.g. the setup or time called)
    #: and what it said: the order line as ``render_order`` writes it, or the name of
    #: the moderator's step (``start``, ``time-called``, ``director:end``).  The audit
    #: decides it again from these and wants the very events the log holds.
    player: str | None = None
    order: str = ""
    #: HMAC of the seed over this seal and the one before it (``moderator.audit.chain``):
    #: the reports print it, so the log cannot be rewritten after them.  Empty in the
    #: logs of games sealed before orders were recorded (version 1).
    mac: str = ""


@record(kw_only=True)
class LegionCommitted(Event):
    """
    A salted SHA-256 of what ``marker`` holds now (its contents changed out of sight):
    public, it certifies nothing until opened; the owner gets the salt privately.
    """

    TYPE: ClassVar[str] = "legion-committed"
    marker: str
    commitment: str


@record(kw_only=True)
class CommitmentOpened(Event):
    """
    ``marker``'s commitment of event ``seq`` opened for those its contents were shown:
    it held ``contents``, and ``salt`` lets them recompute the commitment.
    """

    TYPE: ClassVar[str] = "commitment-opened"
    marker: str
    seq: int
    contents: tuple[str, ...]
    salt: str


#: The audit notes, which reports list apart from the game's events.
AUDIT_EVENT_TYPES: tuple[type[Event], ...] = (
    SeedCommitted, OrderSealed, LegionCommitted, CommitmentOpened,
)
