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

    def __init__(
        self, message: str, *, operation: str, status: str | None = None, signing: bool = False
    ) -> None:
        super().__init__(message)
        self.operation = operation
        self.status = status
        #: the signer's secret key could not be used (not a recipient's key missing):
        #: the keyring's own trouble, which may pass (an agent restarted)
        self.signing = signing


class MailTransportError(MailError, ConnectionError):
    """
    Raised when a mail server cannot be reached or refuses what was asked.

    ``permanent`` says whether trying again can help: a 5xx answer to a mail
    (``permanent=True``) will be refused again, while a 4xx answer, a dropped
    connection or a timeout (``permanent=False``) may pass later.  ``code`` is
    the server's reply code when it gave one.
    """

    def __init__(self, message: str, *, permanent: bool = False, code: int | None = None) -> None:
        super().__init__(message)
        self.permanent = permanent
        self.code = code
