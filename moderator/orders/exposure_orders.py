"""
Parsers for what a player shows and says through the moderator (Wolff 4.5): ``show`` a
legion and ``tell`` other players.  Names and characters are told apart by the colon
(``show Rd01 to Ann Example, Cy: troll troll``); a message is the rest of the line after
it, as written.  Names are read against the game's players (``names.player_names``), as
they signed on, spaces and all.
"""

from __future__ import annotations

import re
import unicodedata

from moderator.orders.errors import E_SYNTAX, OrderSyntaxError
from moderator.orders.names import player_names
from moderator.orders.reader import TOKEN, Reader, Result
from moderator.rules import commands as cmd
from moderator.rules.state import GameState


def is_tell(line: str) -> bool:
    """Whether ``line`` is a ``tell``: read from the raw line, not from its tokens."""
    first = line.split(None, 1)[:1]
    return bool(first) and first[0].casefold() == "tell"


def parse_show(r: Reader) -> Result:
    """``show MARKER to NAMES[: CHARACTERS]``: all the legion holds when none are named."""
    marker = r.marker()
    r.expect("to")
    head, colon, tail = r.line.split("#", 1)[0].partition(":")
    before = head.split(None, 1)[1] if len(head.split(None, 1)) > 1 else ""
    names_text = re.split(r"\bto\b", before, maxsplit=1, flags=re.IGNORECASE)[-1]
    if not colon:  # the full stop that may end the line is no part of the last name
        names_text = names_text.strip().rstrip(".")
    to = player_names(names_text, r.state, r.player, r.line)
    if to == ():
        r.fail("name the players to show it to, or 'all'")
    characters: tuple[str, ...] | None = None
    if colon and tail.strip():
        r.pos = len(r.tokens) - len(TOKEN.findall(tail.strip().rstrip(".")))
        characters = tuple(r.creatures())
        r.end()
    return cmd.ShowLegion(player=r.player, marker=marker, to=to, characters=characters)


#: Characters that steer how a reader's screen shows text rather than being text: the
#: bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069).
_BIDI_CONTROLS = frozenset(map(chr, [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]))


def _steering(text: str) -> list[str]:
    """
    The characters of a message that would steer the addressee's screen: control
    characters (backspace, escape, bell...; a tab is text) and bidirectional overrides.
    In a terminal they can erase "the sender's words, not the moderator's" before the
    message, or paint text of the sender's choosing where the moderator's lines are.
    """
    return sorted(
        {c for c in text if c in _BIDI_CONTROLS or (c != "\t" and unicodedata.category(c) == "Cc")}
    )


def shown_plainly(text: str) -> str:
    """``text`` with each character that would steer the reader's screen written as its
    code (``<U+001B>``): for messages passed on before ``parse_tell`` refused them."""
    steering = set(_steering(text))
    return "".join(f"<U+{ord(c):04X}>" if c in steering else c for c in text)


def parse_tell(line: str, player: str, state: GameState | None = None) -> Result:
    """``tell NAMES: TEXT``: read from the raw line, so the message keeps every character,
    but none that would steer how the addressee's screen shows it (``_steering``)."""
    head, colon, text = line.partition(":")
    words = head.split(None, 1)
    usage = "write 'tell Bob: your message' (or 'tell Bob, Cy: ...', 'tell all: ...')"
    if not colon or len(words) < 2:
        raise OrderSyntaxError(E_SYNTAX, f"cannot read {line.strip()!r}: {usage}", line)
    to = player_names(words[1], state, player, line)
    if to == ():
        raise OrderSyntaxError(E_SYNTAX, f"cannot read {line.strip()!r}: {usage}", line)
    steering = _steering(text)
    if steering:
        named = ", ".join(f"U+{ord(c):04X}" for c in steering)
        raise OrderSyntaxError(
            E_SYNTAX,
            f"a message may hold no control characters ({named}): they would change how "
            "the others' mail shows it; write it as plain text",
            line,
        )
    return cmd.Tell(player=player, to=to, text=text.strip())
