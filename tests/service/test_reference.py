"""Step references: reading them from order lines and subjects, and checking them."""

from __future__ import annotations

from moderator.schedule import reference
from moderator.schedule.reference import StepRef


def test_ref_lines_are_taken_out_of_the_orders() -> None:
    refs, rest, unreadable = reference.split_refs(
        ["ref g7-123", "roll", "REF: g-2-5.", "ref nonsense", "move Rd01 to 6"]
    )
    assert refs == [StepRef("g7", 123), StepRef("g-2", 5)]
    assert rest == ["roll", "move Rd01 to 6"]
    assert unreadable == ["ref nonsense"]


def test_subject_references() -> None:
    subject = "Re: [titan g7] Your move: turn 3 (ref g7-123)"
    assert reference.subject_ref(subject) == StepRef("g7", 123)
    assert reference.subject_ref("Re: orders") is None
    assert reference.without_refs(subject) == "Re: [titan g7] Your move: turn 3"
    assert reference.without_refs("ref g1-2 ref g1-3 orders") == "orders"


def test_check_quotes_the_current_reference() -> None:
    now = StepRef("g7", 123)
    assert reference.check(StepRef("g7", 123), now) is None
    assert reference.check(StepRef("G7", 123), now) is None
    code, why = reference.check(StepRef("g7", 120), now)  # type: ignore[misc]
    assert code == reference.E_REF_STALE and "'ref g7-123'" in why and "ref g7-120" in why
    code, why = reference.check(StepRef("g8", 123), now)  # type: ignore[misc]
    assert code == reference.E_REF_GAME and "'ref g7-123'" in why
    code, why = reference.check(None, now)  # type: ignore[misc]
    assert code == reference.E_REF_MISSING and "'ref g7-123'" in why
    assert StepRef("g7", 123).line == "ref g7-123"
