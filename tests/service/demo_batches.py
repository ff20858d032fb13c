"""
What the demo's robots mail (issue 28): a step's orders in one mail, each line answered
(read from the moderator's archived inbox and the robots' mailboxes with their keys).
"""

from __future__ import annotations

import mailbox
import re
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

from moderator.mail import compose
from moderator.testing.gnupg import keyring

_REF = re.compile(r"^ref \S+$")


def _messages(path: Path) -> list[EmailMessage]:
    box = mailbox.mbox(path)
    try:
        return [message_from_bytes(m.as_bytes(), policy=policy.default)  # type: ignore[misc]
                for m in box]
    finally:
        box.close()


def order_lines(mail: EmailMessage) -> list[str]:
    """The order lines of a robot's mail: what its signed text holds after its ``ref``."""
    text = next(p for p in mail.walk() if p.get_content_type() == "text/plain")
    lines = [line.strip() for line in str(text.get_content()).splitlines()]
    refs = [n for n, line in enumerate(lines) if _REF.match(line)]
    if not refs:
        return []  # a sign-on
    after = lines[refs[0] + 1:]
    ends = [n for n, line in enumerate(after) if line.startswith("-----BEGIN PGP SIGNATURE")]
    return [line for line in after[: ends[0] if ends else None] if line]


def check_batches_are_one_mail_each_line_answered(folder: Path, orders: int, mails: int) -> None:
    """
    The robots' order mails in the moderator's inbox number ``mails`` and hold ``orders``
    lines, some mails more than one; the answer to the first such mail of each robot
    gives every one of its lines with its result (its private part, read with the
    robot's kept key).
    """
    sent = [m for m in _messages(folder / "mail" / "moderator.mbox") if order_lines(m)]
    assert len(sent) == mails
    assert sum(len(order_lines(m)) for m in sent) == orders
    batches = [m for m in sent if len(order_lines(m)) > 1]
    assert batches, "no robot mailed more than one order at once"
    for who in sorted({str(m["From"]).split("<")[-1].split("@")[0] for m in batches}):
        batch = next(m for m in batches if f"<{who}@" in str(m["From"]))
        lines = order_lines(batch)
        answers = [m for m in _messages(folder / "mail" / f"{who}.mbox")
                   if str(m["In-Reply-To"]).strip() == str(batch["Message-ID"]).strip()]
        assert len(answers) == 1, (who, lines)
        ring = keyring(folder / "players" / who / "gnupg")
        private = compose.decrypt_mime(list(answers[0].iter_parts())[1], ring)
        text = str(next(p for p in private.walk()
                        if p.get_content_maintype() == "text").get_content()).replace("\r\n", "\n")
        for line in lines:
            assert f"    > {line}\n" in text, (line, text)
        assert f"{len(lines)} order(s) carried out, 0 refused" in text, text
