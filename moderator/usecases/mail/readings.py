"""
The handler's readings of mails kept between the read made ahead and the mail's
transaction (issue 28).

The poller reads the mails it fetched (parse, signature check: GnuPG's work) in one
thread while the mails before them are decided and committed in another, so that the
serial path of the intake is the decision alone.  A reading is of the mail's bytes
alone and kept by them: the same bytes read the same whatever row they were archived
in.  A reading made ahead is only as good as the keyring it was checked against: the
mail before it may sign a player on and import his key.  So every key imported through
the handler's keyring is counted
(``CountedKeyring``), and a reading is used only while that count is what it was when
the reading was made; a reading whose signature was refused for an unknown key is made
again in the transaction too (a key may have come by another process meanwhile).
Anything else is read afresh: the kept reading saves work, it never decides.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

from moderator.mail.signatures import SignatureStatus, Verification, Verifier
from moderator.usecases.mail.mail_reading import ReadMail

#: Readings kept at most (the poller reads a few mails ahead; the rest is slack).
KEPT = 32


class CountedKeyring:
    """A keyring that counts the keys imported through it (see the module's text)."""

    def __init__(self, keyring: Verifier) -> None:
        self.keyring = keyring
        self.imports = 0

    def verify_detached(self, data: bytes, signature: bytes) -> Verification:
        return self.keyring.verify_detached(data, signature)

    def verify_clearsigned(self, text: str | bytes) -> Verification:
        return self.keyring.verify_clearsigned(text)

    def import_key(self, armored: str | bytes) -> tuple[str, ...]:
        try:
            return self.keyring.import_key(armored)
        finally:
            self.imports += 1  # even a failed import may have changed the keyring


class KeptReadings:
    """
    Readings of mails by their bytes, each with the keyring's import count when it was
    made; safe to use from the poller's two threads.
    """

    def __init__(self, imports: Callable[[], int]) -> None:
        #: The keyring's imports so far (a reading notes it when it is made).
        self.imports = imports
        self._kept: OrderedDict[bytes, tuple[int, bool, ReadMail]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, raw: bytes) -> ReadMail | None:
        """The kept reading of the mail ``raw``, if it still holds (see the module's text)."""
        with self._lock:
            kept = self._kept.get(raw)
        if kept is None:
            return None
        imports, ahead, read = kept
        if imports != self.imports() or (ahead and _unknown_key(read)):
            return None
        return read

    def put(self, raw: bytes, imports: int, read: ReadMail, *, ahead: bool) -> None:
        """
        Keep ``read``, made when the keyring had seen ``imports`` imports; ``ahead``:
        made before the mail's transaction.
        """
        with self._lock:
            self._kept[raw] = (imports, ahead, read)
            self._kept.move_to_end(raw)
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)


def _unknown_key(read: ReadMail) -> bool:
    return read.signature.reason == SignatureStatus.UNKNOWN_KEY.value


__all__ = ["KEPT", "CountedKeyring", "KeptReadings"]
