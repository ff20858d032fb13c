"""The errors of the order language.

Every error carries a stable ``code`` (tools and tests match on it), the order ``line``
it is about, and a message that tells the player what to write instead.
"""

from __future__ import annotations

#: Nothing to read: the line is empty once comments are removed.
E_EMPTY = "E-EMPTY"
#: The first word is not an order word.
E_UNKNOWN_ORDER = "E-UNKNOWN-ORDER"
#: The order word is known but the rest of the line does not fit its form.
E_SYNTAX = "E-SYNTAX"
#: A number (land, proposal, turn, count) is missing, malformed or out of range.
E_NUMBER = "E-NUMBER"
#: A word could mean several things (an abbreviated name, an engagement to pick).
E_AMBIGUOUS = "E-AMBIGUOUS"
#: Not a legion marker code or marker name.
E_MARKER = "E-MARKER"
#: Not a character (creature, demi-lord or lord) name.
E_CREATURE = "E-CREATURE"
#: Not a colour of the game.
E_COLOUR = "E-COLOUR"
#: A proposal that cannot be read against the current engagement.
E_PROPOSAL = "E-PROPOSAL"
#: Not a hex of a battleland (A1 to F4, Wolff 2.2).
E_HEX = "E-HEX"
#: Not a player of the game (a name in ``show`` or ``tell``).
E_PLAYER = "E-PLAYER"

CODES = (
    E_EMPTY,
    E_UNKNOWN_ORDER,
    E_SYNTAX,
    E_NUMBER,
    E_AMBIGUOUS,
    E_MARKER,
    E_CREATURE,
    E_COLOUR,
    E_PROPOSAL,
    E_HEX,
    E_PLAYER,
)


class OrderError(ValueError):
    """An order line that cannot be turned into a command or query.

    ``code`` is stable; ``line`` is the order line as the player wrote it; ``lineno`` is
    its line number in the mail, when the caller knows it (set it after catching).
    ``str(error)`` is the sentence shown to the player.
    """

    def __init__(self, code: str, message: str, line: str = "", lineno: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.line = line
        self.lineno = lineno

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r}, line={self.line!r})"


class OrderSyntaxError(OrderError):
    """The line does not have the shape of any order (codes E-SYNTAX, E-UNKNOWN-ORDER,
    E-EMPTY, E-NUMBER)."""


class AmbiguousOrderError(OrderError):
    """The line could mean more than one thing (code E-AMBIGUOUS)."""

    def __init__(self, message: str, line: str = "", lineno: int | None = None) -> None:
        super().__init__(E_AMBIGUOUS, message, line, lineno)
