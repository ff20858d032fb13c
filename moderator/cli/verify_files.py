"""
The check ``verify BUNDLE [--report MAIL ...]`` makes, without typer (issue 28).

A player runs ``verify`` once a game is over, and a script for each of its mails: the
check reads files only, and typer with the pydantic validators it builds for the
options cost it more than the check itself.  ``cli.quick`` calls ``verified`` for the
plain command line, typer's ``verify`` command for any other (``--help``, a misspelt
option); both print the same lines and end with the same exit code.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path


def verified(bundle: Path, reports: Sequence[Path] = ()) -> int:
    """
    Print what holds of the bundle (and of each report mail against it) and return the
    exit code: 0 all hold, 1 a check failed, 2 a file cannot be read.
    """
    from moderator.audit.report_check import check_report
    from moderator.audit.verify import verify as verify_bundle

    try:
        data = json.loads(bundle.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        print(f"FAILED: cannot read {bundle}: {exc}")
        return 2
    verdict = verify_bundle(data)
    for line in verdict.checked:
        print(f"ok  {line}")
    if verdict.problem is not None:
        print(f"FAILED  {verdict.problem}")
        print("Nothing after this discrepancy was checked.")
        return 1
    for path in reports:
        try:
            raw = path.read_bytes()
        except OSError as exc:
            print(f"FAILED: cannot read {path}: {exc}")
            return 2
        if not holds_audit_lines(raw):
            print(
                f"--  {path.name}: nothing to check: it holds no line of an audit (no seed "
                "hash, commitment, opening, salt or order seal), as a sign-on's welcome or "
                "an answer outside a game"
            )
            continue
        held = check_report(data, raw)
        for line in held.checked:
            print(f"ok  {path.name}: {line}")
        if held.problem is not None:
            print(f"FAILED  {path.name}: {held.problem}")
            return 1
    print(f"All checks hold for game {data.get('game')}.")
    return 0


def holds_audit_lines(raw: bytes) -> bool:
    """Whether the mail ``raw`` holds any line ``check_report`` reads."""
    from moderator.audit import report_check

    text = report_check.mail_text(raw)
    patterns = (
        report_check.SEED, report_check.COMMITMENT, report_check.OPENING, report_check.SALT,
        report_check.SEAL,
    )
    return any(pattern.search(text) for pattern in patterns)


__all__ = ["holds_audit_lines", "verified"]
