"""The order language: what players write in their mails, read into commands and queries."""

from __future__ import annotations

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
