"""
``verify BUNDLE [--report MAIL ...]``: a player's check of a finished game's audit
(docs/audit.md).  No database and no network: the bundle and the mails are read from
files and every check is made by ``moderator.audit``.  Exit 0 only when all hold.

A mail that holds no line of any audit (a sign-on's welcome, an answer outside a game)
has nothing to hold against the bundle: it is named as such, not FAILED.  Every report
of a game by mail holds some (its seed's hash or an order seal, at least).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer


def verify(
    bundle: Annotated[Path, typer.Argument(help="The audit bundle (audit-GAME.json).")],
    report: Annotated[
        list[Path] | None,
        typer.Option(
            "--report",
            help="A report mail you received (.eml or a one-mail mbox; a decrypted copy "
            "checks its private part too). May be given more than once.",
        ),
    ] = None,
) -> None:
    """Check a finished game's audit: dice, commitments, salts, seed, final state."""
    from moderator.audit.report_check import check_report
    from moderator.audit.verify import verify as verify_bundle

    try:
        data = json.loads(bundle.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        typer.echo(f"FAILED: cannot read {bundle}: {exc}")
        raise typer.Exit(2) from exc
    verdict = verify_bundle(data)
    for line in verdict.checked:
        typer.echo(f"ok  {line}")
    if verdict.problem is not None:
        typer.echo(f"FAILED  {verdict.problem}")
        typer.echo("Nothing after this discrepancy was checked.")
        raise typer.Exit(1)
    for path in report or []:
        try:
            raw = path.read_bytes()
        except OSError as exc:
            typer.echo(f"FAILED: cannot read {path}: {exc}")
            raise typer.Exit(2) from exc
        if not holds_audit_lines(raw):
            typer.echo(
                f"--  {path.name}: nothing to check: it holds no line of an audit (no seed "
                "hash, commitment, opening, salt or order seal), as a sign-on's welcome or "
                "an answer outside a game"
            )
            continue
        held = check_report(data, raw)
        for line in held.checked:
            typer.echo(f"ok  {path.name}: {line}")
        if held.problem is not None:
            typer.echo(f"FAILED  {path.name}: {held.problem}")
            raise typer.Exit(1)
    typer.echo(f"All checks hold for game {data.get('game')}.")


def holds_audit_lines(raw: bytes) -> bool:
    """Whether the mail ``raw`` holds any line ``check_report`` reads."""
    from moderator.audit import report_check

    text = report_check.mail_text(raw)
    patterns = (
        report_check.SEED, report_check.COMMITMENT, report_check.OPENING, report_check.SALT,
        report_check.SEAL,
    )
    return any(pattern.search(text) for pattern in patterns)
