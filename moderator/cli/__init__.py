"""
The ``titan-moderator`` command line.

``local ...`` plays a game kept in the event store, one order at a time; ``db ...``
creates, upgrades and checks the database; ``play`` runs a whole game between robot
players; ``serve``, ``game``, ``player`` and ``tournament`` run play by mail (the
director role, tournaments created and scored by hand); ``demo`` shows it all on an
embedded mail hub; ``simulate`` plays robot games through the mail service in one
process and counts what they cost; ``verify`` checks a finished game's audit bundle;
``variant`` lists the shipped variants and checks a group's own.  The work is done in
``moderator.usecases`` and ``moderator.store``; this package only reads options and
prints.

One module per command group: ``local``, ``db``, ``service`` (serve, worker,
check-config, game new), ``operator`` (player list, game list, game show, config
example: what the operator looks at), ``demo`` (play, demo), ``simulate`` and
``tournament`` (player role, tournament ...); ``common`` holds the options and helpers
they share, and ``commands`` builds typer's ``app`` from them.

``main`` is the command: it lets ``quick`` answer ``local show`` and ``local legal``
first, without typer (issue 28: typer builds a pydantic validator for every option it
reads, and a script reading a game once an order pays it each time), and hands every
other command line, and those ``quick`` does not take, to ``app``.  This module imports
nothing at its top, so that ``quick`` starts with nothing loaded.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import typer

    app: typer.Typer


def main() -> None:
    """``titan-moderator``: ``quick``'s answer where it has one, else typer's ``app``."""
    from moderator.cli.quick import answered

    try:
        if answered(sys.argv[1:]):
            return
    except BrokenPipeError:
        # The reader went away (``| head``): exit 1 without a word, as click does for
        # typer's commands; what is still buffered goes nowhere rather than failing again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    from moderator.cli.commands import app

    app(prog_name="titan-moderator")


def __getattr__(name: str) -> Any:
    if name == "app":  # the typer app (tests invoke it), built when first asked for
        from moderator.cli.commands import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["app", "main"]
