"""Finding the order lines in the text of a mail."""

from __future__ import annotations

#: A line holding only one of these ends the orders; the rest of the mail is not read.
#: ``--`` is the usual start of a mail signature ("-- " once stripped).
STOP_WORDS = ("signoff", "end", "--")


def _is_stop(line: str) -> bool:
    return line.rstrip(".").strip().casefold() in STOP_WORDS


def split_lines(text: str, max_lines: int = 100) -> tuple[list[str], list[str]]:
    """Split a mail body into (order lines, ignored remainder).

    Each line is stripped.  Blank lines, comments (``#``) and quoted lines (``>``) are
    skipped and appear in neither list.  A line ``signoff`` or ``end`` (any case), or a
    signature line ``--``, stops the reading: the non-blank lines after it form the
    ignored remainder (the stop line itself is in neither list).  At most ``max_lines``
    order lines are read; the non-blank lines from the first one beyond that limit on
    are ignored too.
    """
    orders: list[str] = []
    lines = [raw.strip() for raw in text.splitlines()]
    for i, line in enumerate(lines):
        if not line or line.startswith(("#", ">")):
            continue
        if _is_stop(line):
            return orders, [rest for rest in lines[i + 1 :] if rest]
        if len(orders) >= max_lines:
            return orders, [rest for rest in lines[i:] if rest]
        orders.append(line)
    return orders, []
