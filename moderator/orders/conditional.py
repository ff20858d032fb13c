"""
Conditional orders for the movement roll: ``on roll 3: move Rd01 to 6; move Rd02 to 9``.

A player may give, in the mail that rolls, the moves he would make for each roll; the
moderator rolls when it reaches the ``roll`` line (never before: Wolff 1.3) and then
carries out the orders given for the roll that came.  Here only the reading: the lines
of a mail split into the plain ones and the blocks, by roll.  Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import field

from moderator.orders.errors import OrderError
from moderator.records import record

_BLOCK = re.compile(
    r"^\s*on\s+rolls?\s+(?P<rolls>[1-6](?:\s*(?:,|or)\s*[1-6])*)\s*:\s*(?P<orders>.*)$",
    re.IGNORECASE,
)
_STARTS = re.compile(r"^\s*on\s+rolls?\b", re.IGNORECASE)
CODE = "E-ON-ROLL"


@record
class Block:
    """One ``on roll`` line: the rolls it is for and its orders, in order."""

    line: str
    rolls: frozenset[int]
    orders: tuple[str, ...]


@record
class Conditional:
    """A mail's lines: the plain ones, and the ``on roll`` blocks."""

    lines: tuple[str, ...]
    blocks: tuple[Block, ...] = field(default=())

    def for_roll(self, roll: int) -> Block | None:
        """The block for ``roll`` (the first that names it), if any."""
        return next((b for b in self.blocks if roll in b.rolls), None)


def is_conditional(line: str) -> bool:
    """Whether ``line`` is meant as an ``on roll`` line (well written or not)."""
    return _STARTS.match(line) is not None


def read_block(line: str) -> Block:
    """
    One ``on roll`` line.

    Raises:
        OrderError: it does not say for which rolls, or gives no order.
    """
    found = _BLOCK.match(line)
    if found is None:
        raise OrderError(
            CODE,
            "write the rolls, a colon and the orders: 'on roll 3: move Rd01 to 6; "
            "move Rd02 to 9' (or 'on roll 1, 2: ...')",
            line.strip(),
        )
    rolls = frozenset(int(r) for r in re.findall(r"[1-6]", found.group("rolls")))
    orders = tuple(o.strip() for o in found.group("orders").split(";") if o.strip())
    if not orders:
        raise OrderError(CODE, "an 'on roll' line needs at least one order after the colon", line)
    return Block(line.strip(), rolls, orders)


def split(lines: Sequence[str]) -> tuple[Conditional, list[tuple[str, OrderError]]]:
    """A mail's lines as plain lines and blocks, and the ``on roll`` lines that are not
    readable (with why)."""
    plain: list[str] = []
    blocks: list[Block] = []
    bad: list[tuple[str, OrderError]] = []
    for line in lines:
        if not is_conditional(line):
            plain.append(line)
            continue
        try:
            blocks.append(read_block(line))
        except OrderError as exc:
            bad.append((line, exc))
    return Conditional(tuple(plain), tuple(blocks)), bad
