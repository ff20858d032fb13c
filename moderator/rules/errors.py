"""The one error type of the rules core."""

from __future__ import annotations


class RuleError(ValueError):
    """
    Raised when a command is not allowed in the current state.

    ``code`` is stable (tests and tools match on it); ``str(error)`` is the
    sentence a player reads, which says what is wrong and, where it can,
    what to do instead.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
