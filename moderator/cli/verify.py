"""
``verify BUNDLE [--report MAIL ...]``: a player's check of a finished game's audit
(docs/audit.md).  No database and no network: the bundle and the mails are read from
files and every check is made by ``moderator.audit``.  Exit 0 only when all hold.

The check itself is ``verify_files.verified``, which ``cli.quick`` also runs for the
plain command line without loading typer (issue 28).

A mail that holds no line of any audit (a sign-on's welcome, an answer outside a game)
has nothing to hold against the bundle: it is named as such, not FAILED.  Every report
of a game by mail holds some (its seed's hash or an order seal, at least).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from moderator.cli.verify_files import verified


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
    code = verified(bundle, report or [])
    if code:
        raise typer.Exit(code)
