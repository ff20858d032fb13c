"""
The ``titan-moderator`` command line.

``local ...`` plays a game kept in the event store, one order at a time; ``db ...``
creates, upgrades and checks the database; ``play`` runs a whole game between robot
players; ``serve``, ``game``, ``player`` and ``tournament`` run play by mail (the
director role, tournaments created and scored by hand); ``demo`` shows it all on an
embedded mail hub; ``simulate`` plays robot games through the mail service in one
process and counts what they cost; ``verify`` checks a finished game's audit bundle.  The work is done in ``moderator.play`` and ``moderator.store``; this package
only reads options and prints.

One module per command group: ``local``, ``db``, ``service`` (serve, worker,
check-config, game new), ``demo`` (play, demo), ``simulate`` and ``tournament`` (player
role, tournament ...);
``common`` holds the options and helpers they share.  This module builds ``app`` from
them, in the order ``--help`` lists them.
"""

from __future__ import annotations

import typer

from moderator.cli import db, demo, local, service, simulate, tournament, verify

app = typer.Typer(
    help="A play-by-email moderator for the board game Titan.",
    no_args_is_help=True,
    add_completion=False,
)
app.add_typer(local.app, name="local")
app.add_typer(db.app, name="db")
app.command("play")(demo.play)
app.command("serve")(service.serve)
app.command("worker")(service.worker)
app.command("check-config")(service.check_config)
app.add_typer(service.game_app, name="game")
app.command("demo")(demo.demo)
app.command("simulate")(simulate.simulate)
app.command("verify")(verify.verify)
app.add_typer(tournament.player_app, name="player")
app.add_typer(tournament.tournament_app, name="tournament")

__all__ = ["app"]
