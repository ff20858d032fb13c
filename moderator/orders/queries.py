"""Queries: requests for information, which change nothing in the game."""

from __future__ import annotations

from moderator.records import record

#: Every kind of query, in the order the help lists them.
QUERY_KINDS = (
    "status",
    "moves",
    "legion",
    "battle",
    "reach",
    "strikes",
    "help",
    "history",
    "report",
    "legal",
)


@record
class Query:
    """A question a player asks in an order mail.

    ``args`` by kind: ``moves`` and ``legion``: ``(marker,)``; ``reach``: ``(hex,)`` (a
    battleland hex label such as ``"C1"``); ``help``: ``()`` or
    ``(topic,)``; ``history``: ``()``, ``(from_turn,)`` or ``(from_turn, to_turn)`` as
    decimal strings; the others: ``()``.
    """

    player: str
    kind: str
    args: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in QUERY_KINDS:
            raise ValueError(f"unknown query kind {self.kind!r}; kinds: {', '.join(QUERY_KINDS)}")

    @property
    def marker(self) -> str | None:
        """The legion asked about (``moves``, ``legion``)."""
        return self.args[0] if self.kind in ("moves", "legion") and self.args else None

    @property
    def hex_label(self) -> str | None:
        """The battleland hex asked about (``reach``)."""
        return self.args[0] if self.kind == "reach" and self.args else None

    @property
    def topic(self) -> str | None:
        """The help topic, if one was named."""
        return self.args[0] if self.kind == "help" and self.args else None

    @property
    def from_turn(self) -> int | None:
        """The first turn of a ``history`` query, if given."""
        return int(self.args[0]) if self.kind == "history" and self.args else None

    @property
    def to_turn(self) -> int | None:
        """The last turn of a ``history`` query, if given."""
        return int(self.args[1]) if self.kind == "history" and len(self.args) > 1 else None
