"""Parsers for the query words (status, moves, legion, reach, help, history, ...).

A query asks the moderator something and changes nothing, so these read into a ``Query``
rather than a command; the words themselves are listed in ``help.QUERY_WORDS``.
"""

from __future__ import annotations

from collections.abc import Callable

from moderator.orders.errors import E_NUMBER, OrderSyntaxError
from moderator.orders.help import canonical_topic
from moderator.orders.queries import Query
from moderator.orders.reader import Reader, Result


def plain_query(kind: str) -> Callable[[Reader], Result]:
    """A query that takes nothing after its word."""

    def parse(r: Reader) -> Result:
        r.end()
        return Query(r.player, kind)

    return parse


def query_about(kind: str, read: Callable[[Reader], str]) -> Callable[[Reader], Result]:
    """A query about one thing (a legion by its marker, a hex), read by ``read``."""

    def parse(r: Reader) -> Result:
        value = read(r)
        r.end()
        return Query(r.player, kind, (value,))

    return parse


def parse_help(r: Reader) -> Result:
    topic = " ".join(r.tokens)
    return Query(r.player, "help", (canonical_topic(topic),) if topic.strip() else ())


def parse_history(r: Reader) -> Result:
    first: int | None = None
    last: int | None = None
    if not r.at_end() and r.peek() != "to":
        r.accept("from")
        r.accept("turn")
        first = r.number("turn")
    if r.accept("to"):
        r.accept("turn")
        last = r.number("turn")
    r.end()
    if first is None and last is None:
        return Query(r.player, "history")
    first = 1 if first is None else first
    if last is None:
        return Query(r.player, "history", (str(first),))
    if last < first:
        raise OrderSyntaxError(
            E_NUMBER,
            f"cannot read {r.line.strip()!r}: turn {last} comes before turn {first}",
            r.line,
        )
    return Query(r.player, "history", (str(first), str(last)))
