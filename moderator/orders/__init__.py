"""
The order language: what players write in their mails, read into commands and queries.

The names below are imported when first asked for (``moderator.lazy``): a view that
lists the legal orders needs ``render`` and not the parser.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from moderator.lazy import lazy_names

if TYPE_CHECKING:
    from moderator.orders.errors import (
        CODES,
        AmbiguousOrderError,
        OrderError,
        OrderSyntaxError,
    )
    from moderator.orders.finder import STOP_WORDS, split_lines
    from moderator.orders.help import HELP, ORDER_WORDS, QUERY_WORDS, help_text
    from moderator.orders.parser import (
        colour_name,
        creature_name,
        hex_label,
        marker_code,
        parse_order,
    )
    from moderator.orders.queries import QUERY_KINDS, Query
    from moderator.orders.render import render_order, render_query

#: Where each name of the package lives.
_HOMES = {
    "CODES": "moderator.orders.errors",
    "AmbiguousOrderError": "moderator.orders.errors",
    "OrderError": "moderator.orders.errors",
    "OrderSyntaxError": "moderator.orders.errors",
    "STOP_WORDS": "moderator.orders.finder",
    "split_lines": "moderator.orders.finder",
    "HELP": "moderator.orders.help",
    "ORDER_WORDS": "moderator.orders.help",
    "QUERY_WORDS": "moderator.orders.help",
    "help_text": "moderator.orders.help",
    "colour_name": "moderator.orders.parser",
    "creature_name": "moderator.orders.parser",
    "hex_label": "moderator.orders.parser",
    "marker_code": "moderator.orders.parser",
    "parse_order": "moderator.orders.parser",
    "QUERY_KINDS": "moderator.orders.queries",
    "Query": "moderator.orders.queries",
    "render_order": "moderator.orders.render",
    "render_query": "moderator.orders.render",
}

__getattr__ = lazy_names(__name__, _HOMES)

__all__ = [
    "CODES",
    "HELP",
    "ORDER_WORDS",
    "QUERY_KINDS",
    "QUERY_WORDS",
    "STOP_WORDS",
    "AmbiguousOrderError",
    "OrderError",
    "OrderSyntaxError",
    "Query",
    "colour_name",
    "creature_name",
    "help_text",
    "hex_label",
    "marker_code",
    "parse_order",
    "render_order",
    "render_query",
    "split_lines",
]
