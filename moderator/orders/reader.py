"""The word reader every order parser is built on, and the syntax errors it raises.

An order line is split into words; ``Reader`` walks the words after the order word left to
right, reads values (markers, numbers, hexes, characters) and, when the line does not fit,
raises an ``OrderError`` that quotes the line and the order's usage.
"""

from __future__ import annotations

import re
from typing import NoReturn

from moderator.orders.errors import E_MARKER, E_NUMBER, E_SYNTAX, OrderError, OrderSyntaxError
from moderator.orders.names import (
    CODE_SHAPE,
    HEX_SHAPE,
    creature_name,
    exact_creature,
    hex_label,
    marker_code,
    marker_colour_codes,
)
from moderator.orders.queries import Query
from moderator.rules import commands as cmd
from moderator.rules.state import GameState
from moderator.rules.variant import SIDES, Variant

#: What one order line reads into.
Result = cmd.Command | Query

_NUMBER = re.compile(r"[0-9]{1,6}")
_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
#: A legion holds at most seven characters (rule 4.3), so no count in an order exceeds it.
_MAX_COUNT = 7
_FILLERS = ("and",)
#: Words that may separate the hexes of a carry or a rangestrike's path.
HEX_SEPARATORS = ("then", "and")


#: A token of an order line: a clause separator, or a word (commas and colons separate).
TOKEN = re.compile(r"[;|]|[^\s;|:,]+")


def _a_number(what: str) -> str:
    """'a land number', 'a strike number'; 'a number of dice', 'a number of hits'."""
    return f"a number of {what}" if what in ("dice", "hits") else f"a {what} number"


class Reader:
    """The tokens after the order word, read left to right."""

    def __init__(
        self,
        line: str,
        tokens: list[str],
        player: str,
        state: GameState | None,
        usage: str,
        variant: Variant,
    ) -> None:
        self.line = line
        self.tokens = tokens
        self.pos = 0
        self.player = player
        self.state = state
        self.usage = usage
        #: The game's variant: the markers, characters and colours a line may name.
        self.variant = variant

    # -- primitives ------------------------------------------------------

    def peek(self) -> str | None:
        return self.tokens[self.pos].casefold() if self.pos < len(self.tokens) else None

    def at_end(self) -> bool:
        return self.pos >= len(self.tokens)

    def take(self) -> str:
        if self.at_end():
            self.fail()
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def accept(self, *words: str) -> bool:
        if self.peek() in words:
            self.pos += 1
            return True
        return False

    def expect(self, *words: str) -> None:
        if not self.accept(*words):
            self.fail()

    def end(self) -> None:
        if not self.at_end():
            self.fail()

    def fail(self, why: str = "") -> NoReturn:
        reason = f" ({why})" if why else ""
        raise OrderSyntaxError(
            E_SYNTAX, f"cannot read {self.line.strip()!r}{reason}: write {self.usage}", self.line
        )

    def error(self, code: str, message: str) -> NoReturn:
        raise OrderError(code, f"cannot read {self.line.strip()!r}: {message}", self.line)

    # -- values ----------------------------------------------------------

    def marker(self) -> str:
        token = self.take()
        code = marker_code(token, self.variant)
        if code is not None:
            return code
        if CODE_SHAPE.fullmatch(token):
            self.error(
                E_MARKER,
                f"there is no legion marker {token!r}; a marker code is a colour code "
                f"({', '.join(marker_colour_codes(self.variant))}) and a number from 01 to 12",
            )
        self.error(
            E_MARKER,
            f"{token!r} is not a legion marker (write a code such as Rd01 or a marker name "
            f"such as Cross); write {self.usage}",
        )

    def next_is_marker(self) -> bool:
        """Whether the next token is a marker (and not also a character name)."""
        if self.at_end():
            return False
        raw = self.tokens[self.pos]
        return exact_creature(raw, self.variant) is None and marker_code(raw, self.variant) is not None

    def next_is_number(self) -> bool:
        """Whether the next token is a decimal number."""
        return not self.at_end() and _NUMBER.fullmatch(self.tokens[self.pos]) is not None

    def number(self, what: str) -> int:
        """A decimal number; ``what`` names it in the error ("land" -> "a land number")."""
        token = self.take()
        if not _NUMBER.fullmatch(token):
            raise OrderSyntaxError(
                E_NUMBER,
                f"cannot read {self.line.strip()!r}: {token!r} is not {_a_number(what)}; "
                f"write {self.usage}",
                self.line,
            )
        return int(token)

    def hex(self) -> str:
        """A battleland hex label, canonical ("C1")."""
        return hex_label(self.take(), self.line)

    def next_is_hex(self) -> bool:
        """Whether the next token has the shape of a hex label (valid or not)."""
        return not self.at_end() and HEX_SHAPE.fullmatch(self.tokens[self.pos]) is not None

    def hexes(self, stop: tuple[str, ...] = ()) -> list[str]:
        """Hex labels up to a stop word or the end; 'then' and 'and' may separate them."""
        found: list[str] = []
        while not self.at_end() and self.peek() not in stop:
            if not (found and self.accept(*HEX_SEPARATORS)):
                found.append(self.hex())
        return found

    def bounded(self, what: str, low: int, high: int | None = None) -> int:
        """A number from ``low`` to ``high`` (no limit if None); E-NUMBER otherwise."""
        n = self.number(what)
        if n < low or (high is not None and n > high):
            span = f"runs from {low} to {high}" if high is not None else f"is at least {low}"
            raise OrderSyntaxError(
                E_NUMBER,
                f"cannot read {self.line.strip()!r}: {_a_number(what)} {span}, not {n}",
                self.line,
            )
        return n

    def land(self) -> int:
        self.accept("land")
        return self.number("land")

    def entry(self) -> str:
        self.accept("the")
        side = self.peek()
        if side is None or side not in SIDES:
            self.fail(f"a legion enters from {', '.join(SIDES)}")
        self.pos += 1
        return side

    def creature(self) -> str:
        return creature_name(self.take(), self.variant, self.line)

    def count(self) -> int | None:
        """A count before a character name ("2 centaurs", "two centaurs"), if any."""
        token = self.peek()
        if token is None:
            return None
        if _NUMBER.fullmatch(token):
            n = int(token)
        elif token in _NUMBER_WORDS:
            n = _NUMBER_WORDS[token]
        else:
            return None
        if not 1 <= n <= _MAX_COUNT:
            raise OrderSyntaxError(
                E_NUMBER,
                f"cannot read {self.line.strip()!r}: a count of characters runs from 1 to "
                f"{_MAX_COUNT}, not {token}",
                self.line,
            )
        self.pos += 1
        return n

    def creatures(self, stop: tuple[str, ...] = (), stop_at_marker: bool = False) -> list[str]:
        """Characters up to a stop word or the end; counts and 'and' allowed."""
        found: list[str] = []
        while not self.at_end():
            token = self.peek()
            if token in stop:
                break
            if token in _FILLERS:
                self.pos += 1
                continue
            if stop_at_marker and self.next_is_marker():
                break
            n = self.count()
            found.extend([self.creature()] * (n or 1))
        return found

    def showing(self) -> tuple[str, ...]:
        """The characters shown at the end of a muster or reinforcement, if any; then the end."""
        if self.accept("showing", "show", "revealing"):
            shown = self.creatures()
            if not shown:
                self.fail("name the characters you show")
            return tuple(shown)
        self.end()
        return ()
