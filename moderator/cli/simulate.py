"""``simulate``: robot games through the mail service in one process, and their figures."""

from __future__ import annotations

import json
import secrets
from typing import Annotated

import typer

from moderator.cli.common import VariantOption, _fail, checked_variant
from moderator.rules.variant import STANDARD


def simulate(
    players: Annotated[int, typer.Option("--players", min=2, max=6, help="2 to 6 robots.")] = 4,
    games: Annotated[int, typer.Option("--games", min=1, help="Games to play.")] = 1,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed for dice, robots and reply times.")
    ] = None,
    strict: Annotated[
        bool,
        typer.Option(
            "--strict",
            help="Play the plain way: every robot asks for every report ('notify all') "
            "and sends one order a mail (default: standing orders, every order known "
            "before a die in one mail, orders for each roll).",
        ),
    ] = False,
    reply_hours: Annotated[
        float,
        typer.Option(
            "--reply-hours",
            min=0.01,
            help="Median reply time in hours (log-normal, sigma 1.0 of its logarithm).",
        ),
    ] = 8.0,
    service_limits: Annotated[
        bool,
        typer.Option(
            "--service-limits",
            help="Play under the service's default time limits: late robots are reminded "
            "and timed out (a timeout withdraws them, Wolff 20.4).  Default: limits so "
            "generous that no deadline fires.",
        ),
    ] = False,
    max_mails: Annotated[
        int | None,
        typer.Option("--max-mails", min=1, help="Stop a game after this many player mails."),
    ] = None,
    robot: Annotated[
        str,
        typer.Option(
            "--robot",
            help="The robot every seat plays with: competent (decides from what its seat "
            "may see) or random (random legal orders).",
        ),
    ] = "competent",
    variant: VariantOption = STANDARD,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """
    Robot games by mail through the service's own path (a temporary SQLite store, no mail
    servers), counting mails, hand-offs and simulated days.
    """
    from moderator.simulate import GameTally, Options, simulate
    from moderator.simulate.inprocess import EPOCH
    from moderator.simulate.run import MAX_MAILS
    from moderator.testing.apps import on_test_clock

    checked_variant(variant)
    if seed is None:
        seed = secrets.randbelow(2**31)
    options = Options(
        players=players,
        games=games,
        seed=seed,
        strict=strict,
        reply_hours=reply_hours,
        max_mails=max_mails or MAX_MAILS,
        service_limits=service_limits,
        robot=robot,
        variant=variant,
    )

    def progress(game: GameTally) -> None:
        if not as_json:
            end = f"won by {game.winner or 'nobody'}" if game.finished else "stopped"
            typer.echo(
                f"{game.game_id}: {game.turns} turns, {game.player_mails} player mails, "
                f"{game.days:.1f} days, {end} ({game.seconds:.1f} s)"
            )

    try:
        report = simulate(options, on_test_clock(EPOCH), progress)
    except ValueError as exc:
        raise _fail(f"error: {exc}") from None
    if as_json:
        typer.echo(json.dumps(report.to_json(), indent=2))
    else:
        typer.echo("")
        typer.echo(report.text())
