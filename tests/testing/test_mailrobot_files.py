"""
A mail robot reads its mail as a player's program does, for less: its mailbox file
takes each mail at once but syncs to the disk only when closed, and only a mail's
header block is parsed for the step reference (``moderator.testing.mailrobot``).
"""

from __future__ import annotations

import mailbox
from email import policy
from email.parser import BytesHeaderParser
from pathlib import Path

import pytest

from moderator.testing.mailrobot import ReadersMbox, header_block

REPORT = (b"From: moderator@titan.invalid\r\nSubject: [titan g1-12] Ann to move\r\n"
          b"In-Reply-To: <o1@robots.invalid>\r\n\r\nturn 3\r\n"
          + b"iVBORw0KGgoAAAANSUhEUgAAA\r\n" * 2000)


def _mail(n: int) -> bytes:
    return (b"From MAILER-DAEMON Thu Nov 26 10:00:00 2026\nSubject: mail %d\n\n"
            b"From here on\nbody %d\n" % (n, n))


def test_a_robots_mailbox_shows_each_mail_read_before_it_is_closed(tmp_path: Path) -> None:
    box = ReadersMbox(tmp_path / "ann.mbox")
    box.add(_mail(1))
    box.add(_mail(2))
    box.flush()
    seen = mailbox.mbox(tmp_path / "ann.mbox")  # a mail program reading meanwhile
    assert [m["Subject"] for m in seen] == ["mail 1", "mail 2"]
    seen.close()
    box.add(_mail(3))
    box.close()
    again = mailbox.mbox(tmp_path / "ann.mbox")
    assert [m["Subject"] for m in again] == ["mail 1", "mail 2", "mail 3"]
    again.close()


def test_a_robots_mailbox_is_byte_for_byte_what_mailbox_mbox_writes(tmp_path: Path) -> None:
    ours, theirs = ReadersMbox(tmp_path / "ours"), mailbox.mbox(tmp_path / "theirs")
    for box in (ours, theirs):
        for n in range(3):
            box.add(_mail(n))
        box.flush()
        box.remove(next(iter(box.keys())))  # a rewrite is mailbox.mbox's own
        box.add(_mail(9))
        box.close()
    assert (tmp_path / "ours").read_bytes() == (tmp_path / "theirs").read_bytes()


@pytest.mark.parametrize("raw", [
    REPORT,
    REPORT.replace(b"\r\n", b"\n"),
    b"Subject: [titan g2-3] no body\r\n",
    b"Subject: [titan g2-4] folded\r\n and on\r\nTo: x@y\r\n\r\n\r\nbody\r\n",
])
def test_the_reference_is_read_from_the_header_block_alone(raw: bytes) -> None:
    parser = BytesHeaderParser(policy=policy.default)
    assert parser.parsebytes(header_block(raw)).items() == parser.parsebytes(raw).items()
    assert len(header_block(REPORT)) < 200
