"""The order parser: one line a player typed in a mail -> a ``Command`` or a ``Query``.

This module is the entry point (``parse_order``) and the table from order word to the
parser that reads the rest of the line; names are read in ``names``, words in ``reader``,
and the orders themselves in ``masterboard_orders``, ``engagement_orders``,
``battle_orders`` and ``query_orders``.

The language is line oriented, case-insensitive and whitespace-insensitive.  Commas and
colons are optional separators; ``;`` separates the clauses of a proposal and ``or`` (or
``|``) separates proposals; anything from ``#`` on is a comment.  Legion markers may be
written as codes (``Rd01``, ``rd1``) or by their names (``Cross``); characters by their
names in the singular or plural, or by an unambiguous beginning of at least three letters
(``cent`` for Centaur); battleland hexes by their labels (``C1``, ``c1``; Wolff 2.2).

``move`` has two forms: a legion marker after it (``move Rd01 to 6``) makes it a move on
the masterboard, a hex label or a character name (``move C1 to C2``, ``move centaur to
C1``) a maneuver in a battle.

The parser checks form only.  Whether an order is allowed now is for the rules
(``decide``) to say; the one exception is ``propose``, whose clauses can only be sorted
into attacker's and defender's losses with the current engagement at hand.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable

from moderator.orders.battle_orders import (
    parse_carry,
    parse_go,
    parse_maneuver,
    parse_rangestrike,
    parse_reset,
    parse_strike,
)
from moderator.orders.engagement_orders import (
    parse_accept,
    parse_engage,
    parse_no,
    parse_propose,
    parse_reinforce,
    parse_summon,
    parse_take,
)
from moderator.orders.errors import (
    E_EMPTY,
    E_UNKNOWN_ORDER,
    AmbiguousOrderError,
    OrderError,
    OrderSyntaxError,
)
from moderator.orders.exposure_orders import is_tell, parse_show, parse_tell
from moderator.orders.help import ORDER_WORDS, QUERY_WORDS, USAGE, canonical_topic
from moderator.orders.masterboard_orders import (
    parse_colour,
    parse_done,
    parse_move,
    parse_muster,
    parse_split,
    parse_teleport,
    parse_undo,
)
from moderator.orders.names import (
    CODE_SHAPE,
    HEX_SHAPE,
    colour_name,
    creature_name,
    exact_creature,
    hex_label,
    marker_code,
)
from moderator.orders.queries import Query
from moderator.orders.query_orders import parse_help, parse_history, plain_query, query_about
from moderator.orders.reader import TOKEN, Reader, Result
from moderator.rules import commands as cmd
from moderator.rules.state import GameState
from moderator.rules.variant import Variant

__all__ = [
    "Result",
    "colour_name",
    "creature_name",
    "hex_label",
    "marker_code",
    "parse_order",
]



def parse_order(
    line: str, player: str, state: GameState | None = None, *, variant: Variant | None = None
) -> cmd.Command | Query:
    """Read one order line for ``player``, in the game ``state`` (its variant names the
    markers, characters and colours a line may name).

    ``state`` is needed too for ``propose`` (to tell the attacker from the defender and
    to know what an eliminated legion holds) and for a bare ``engage`` (when exactly one
    engagement is waiting).  Without a state, the lines are read in ``variant``, or, if
    none is given either, in a game not yet set up (the standard game's names).  Raises
    ``OrderError`` (or a subclass) when the line cannot be read; never anything else.
    """
    if is_tell(line):
        return parse_tell(line, player, state)  # a message keeps its '#' and its full stop
    text = line.split("#", 1)[0].strip().rstrip(".").strip()
    tokens = TOKEN.findall(text)
    if not tokens:
        raise OrderSyntaxError(
            E_EMPTY, "there is no order on this line; write one order per line", line
        )
    word = tokens[0].casefold()
    handler = _HANDLERS.get(word)
    if handler is None:
        raise _unknown_order(tokens[0], line)
    if state is not None:
        variant = state.variant
    elif variant is None:
        variant = GameState().variant
    reader = Reader(line, tokens[1:], player, state, _USAGE_OF.get(word, word), variant)
    return handler(reader)


def _unknown_order(word: str, line: str) -> OrderSyntaxError:
    words = [*ORDER_WORDS, *QUERY_WORDS]
    close = difflib.get_close_matches(word.casefold(), words, n=1)
    hint = f" Did you mean {close[0]!r}?" if close else ""
    return OrderSyntaxError(
        E_UNKNOWN_ORDER,
        f"cannot read {line.strip()!r}: {word!r} is not an order.{hint} "
        f"Orders are: {', '.join(ORDER_WORDS)}; queries are: {', '.join(QUERY_WORDS)}.",
        line,
    )


def _simple(kind: Callable[..., cmd.Command]) -> Callable[[Reader], Result]:
    """An order that takes nothing after its word."""

    def parse(r: Reader) -> Result:
        r.end()
        return kind(player=r.player)

    return parse


def _move_or_maneuver(r: Reader) -> Result:
    """``move``: a legion marker first means the masterboard, a hex or character a battle."""
    if r.at_end() or r.next_is_marker():
        return parse_move(r, teleport=False)
    raw = r.tokens[r.pos]
    if r.next_is_hex() or r.peek() == "from":
        return parse_maneuver(r)
    if CODE_SHAPE.fullmatch(raw):  # shaped like a marker code: the marker error says more
        return parse_move(r, teleport=False)
    if exact_creature(raw, r.variant) is not None or _to_a_hex(r):
        return parse_maneuver(r)
    try:
        creature_name(raw, r.variant, r.line)
    except AmbiguousOrderError:
        raise
    except OrderError:
        return parse_move(r, teleport=False)  # neither marker nor character: say "marker"
    return parse_maneuver(r)


def _to_a_hex(r: Reader) -> bool:
    """Whether the word after a later 'to' has the shape of a hex label."""
    rest = [t.casefold() for t in r.tokens[r.pos :]]
    return any(
        word == "to" and i + 1 < len(rest) and HEX_SHAPE.fullmatch(rest[i + 1]) is not None
        for i, word in enumerate(rest)
    )


_HANDLERS: dict[str, Callable[[Reader], Result]] = {
    "colour": parse_colour,
    "color": parse_colour,
    "withdraw": _simple(cmd.Withdraw),
    "split": parse_split,
    "roll": _simple(cmd.Roll),
    "mulligan": _simple(cmd.Mulligan),
    "move": _move_or_maneuver,
    "teleport": parse_teleport,
    "undo": parse_undo,
    "done": parse_done,
    "engage": parse_engage,
    "flee": _simple(cmd.Flee),
    "concede": _simple(cmd.Concede),
    "fight": _simple(cmd.Fight),
    "proceed": _simple(cmd.Proceed),
    "continue": _simple(cmd.Proceed),
    "go": parse_go,
    "reset": parse_reset,
    "strike": parse_strike,
    "rangestrike": parse_rangestrike,
    "carry": parse_carry,
    "propose": parse_propose,
    "accept": parse_accept,
    "no": parse_no,
    "summon": parse_summon,
    "reinforce": parse_reinforce,
    "take": parse_take,
    "decline": _simple(cmd.Decline),
    "pass": _simple(cmd.Decline),
    "refuse": _simple(cmd.Decline),
    "muster": parse_muster,
    "show": parse_show,
    "status": plain_query("status"),
    "moves": query_about("moves", Reader.marker),
    "legion": query_about("legion", Reader.marker),
    "battle": plain_query("battle"),
    "reach": query_about("reach", Reader.hex),
    "strikes": plain_query("strikes"),
    "help": parse_help,
    "history": parse_history,
    "report": plain_query("report"),
    "legal": plain_query("legal"),
}

_USAGE_OF = {word: USAGE[canonical_topic(word)] for word in _HANDLERS}
