"""What can go wrong in the mail adapters (composing, signing, encrypting, checking)."""

from __future__ import annotations


class MailError(Exception):
    """Root of the mail adapters' errors."""


class GpgError(MailError):
    """
    Raised when GnuPG cannot do what was asked.

    ``operation`` names what was attempted (``"sign"``, ``"encrypt"``, ...) and
    ``status`` is GnuPG's own status word when it gave one; ``str(error)`` is a
    sentence for the moderator that says what to do about it.
    """

    def __init__(self, message: str, *, operation: str, status: str | None = None) -> None:
        super().__init__(message)
        self.operation = operation
        self.status = status
