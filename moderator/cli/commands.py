"""
The ``titan-moderator`` command line as typer builds it: ``app``, from one module per
command group, in the order ``--help`` lists them (the package's text says which).
Help is click's plain text (``rich_markup_mode=None``): flags without a ``<bool>``, and
text wrapped at the terminal's width, never cut.
"""

from __future__ import annotations

import inspect

import typer

from moderator.cli import (
    db,
    demo,
    local,
    mail_queue,
    operator,
    robot_play,
    service,
    simulate,
    status,
    tournament,
    variants,
    verify,
)

app = typer.Typer(
    help="A play-by-email moderator for the board game Titan.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)
service.game_app.command("list")(operator.game_list)
service.game_app.command("show")(operator.game_show)
service.game_app.command("pause")(operator.game_pause)
service.game_app.command("resume")(operator.game_resume)
service.game_app.command("extend")(operator.game_extend)
service.game_app.command("replace")(operator.game_replace)
tournament.player_app.command("list")(operator.player_list)
app.add_typer(local.app, name="local")
app.add_typer(db.app, name="db")
app.command("play")(robot_play.play)
app.command("serve")(service.serve)
app.command("worker")(service.worker)
app.command("check-config")(service.check_config)
app.add_typer(operator.config_app, name="config")
app.add_typer(service.game_app, name="game")
app.add_typer(mail_queue.app, name="mail")
app.command("status")(status.status)
app.command("demo")(demo.demo)
app.command("simulate")(simulate.simulate)
app.command("verify")(verify.verify)
app.add_typer(variants.app, name="variant")
app.add_typer(tournament.player_app, name="player")
app.add_typer(tournament.tournament_app, name="tournament")


def _plain_help(group: typer.Typer) -> None:
    """
    Plain help for ``group`` and its commands, each listed with its docstring's first
    paragraph whole (click would cut it to fit a line and end it with "...").
    """
    group.rich_markup_mode = None
    for command in group.registered_commands:
        if command.short_help is None and command.callback is not None:
            command.short_help = _first_paragraph(command.callback.__doc__)
    for sub in group.registered_groups:
        if sub.typer_instance is not None:
            if sub.short_help is None:
                sub.short_help = sub.typer_instance.info.help
            _plain_help(sub.typer_instance)


def _first_paragraph(doc: str | None) -> str | None:
    return " ".join(inspect.cleandoc(doc).split("\n\n")[0].split()) if doc else None


_plain_help(app)

__all__ = ["app"]
