"""
Golden tests: a mail (``golden/NAME.eml``) in, the mails it causes out
(``golden/NAME.expected.txt``: the reply and any reports, public and private parts).

The game is Ann's and Bob's (dice seed 5) after both chose colours: turn 1, Ann's split
step, at ``ref g1-6``; both players authenticate with a secret line.  Rewrite the
expected files after a deliberate change with ``TITAN_GOLDEN=update``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from moderator.runners.commands import order
from tests.linebreaks import OPEN, marked, prose_breaks

from .conftest import Sent, Table, full_text

GOLDEN = Path(__file__).with_name("golden")
CASES = sorted(path.stem for path in GOLDEN.glob("*.eml"))


def rendered(sent: Sent) -> str:
    out = [f"status: {sent.status}", f"note: {sent.note or '-'}"]
    for mail in sent.mails:
        out.append(f"=== {mail.kind} to {mail.recipient}: {mail.subject}")
        out.append(full_text(mail))
    return "\n".join(out).rstrip() + "\n"


@pytest.fixture
def golden_table(make_table: Callable[..., Table]) -> Table:
    table = make_table(("Ann", "Bob"), seed=5)
    assert order(table.store, "g1", "Bob", "colour black")[1]
    assert order(table.store, "g1", "Ann", "colour blue")[1]
    assert table.state.version == 6
    table.set_record(reported={"Ann": 6, "Bob": 6})
    return table


def test_every_case_has_its_expected_answer() -> None:
    assert len(CASES) >= 11
    if os.environ.get("TITAN_GOLDEN") != "update":
        missing = [c for c in CASES if not (GOLDEN / f"{c}.expected.txt").exists()]
        assert missing == []


@pytest.mark.parametrize("case", CASES)
def test_golden(golden_table: Table, case: str) -> None:
    raw = (GOLDEN / f"{case}.eml").read_bytes()
    got = rendered(golden_table.send(raw))
    expected_path = GOLDEN / f"{case}.expected.txt"
    if os.environ.get("TITAN_GOLDEN") == "update":
        expected_path.write_text(got, encoding="utf-8")
    assert got == expected_path.read_text(encoding="utf-8")


def test_a_games_reply_and_report_have_none_of_their_prose_broken_by_the_shell(
    golden_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The answer to an order mail and the report after it, from the game itself: the
    shell breaks their lines only next to a value (tests/linebreaks.py)."""
    with marked(monkeypatch):
        sent = golden_table.send((GOLDEN / "good.eml").read_bytes())
    texts = [text for mail in sent.mails for text in (mail.body, mail.private_body or "")]
    assert any(OPEN in text for text in texts)  # rendered through the bracketed letters
    assert [b for text in texts for b in prose_breaks(text)] == []
