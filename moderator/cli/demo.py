"""``demo``: games between robots by mail, on an embedded hub."""

from __future__ import annotations

from collections.abc import Coroutine
from pathlib import Path
from typing import Annotated, Any

import typer

from moderator.cli.common import VariantOption, _fail, checked_variant
from moderator.rules.variant import STANDARD


def demo(
    players: Annotated[
        int | None,
        typer.Option(
            "--players", min=2, max=6, help="2 to 6 robots (default: 3; 4 with --tournament)."
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            help="The game's seed: dice, robots' choices and mails. The same seed (and "
            "--players, --silent) plays the same game again.",
        ),
    ] = None,
    keep: Annotated[
        Path | None, typer.Option("--keep", help="Folder for the mailboxes and the database.")
    ] = None,
    silent: Annotated[
        list[str] | None, typer.Option("--silent", help="A robot that never answers (repeatable).")
    ] = None,
    speed: Annotated[
        float | None,
        typer.Option(
            "--speed",
            help="With --tournament: game seconds per real second (default 2880). The one-game "
            "demo's clock moves a minute a mail and jumps to a silent robot's deadlines.",
        ),
    ] = None,
    rounds: Annotated[
        int | None,
        typer.Option(
            "--rounds", min=1, help="With --tournament: games each robot plays (default 2)."
        ),
    ] = None,
    robot: Annotated[
        str,
        typer.Option(
            "--robot",
            help="The robot each player plays with, seat by seat (the last named plays "
            "the seats left): competent (decides from what its seat may see; a game "
            "between competent robots takes thousands of orders, an hour or more) or "
            "random (random legal orders). Default: the first robot competent, the "
            "others random, a game of a few minutes.",
        ),
    ] = "competent,random",  # demo.mail_demo.DEMO_ROBOTS (a literal: the demo loads lazily)
    tournament: Annotated[
        bool,
        typer.Option(
            "--tournament",
            help="Run a small tournament instead: robots sign up by mail, the moderator forms "
            "and starts 2-player games, a seat is handed to a standby, games end by their "
            "end date (Wolff 21.1), standings are mailed (--players robots join, default 4; "
            "--speed default 2880: a game day in 30 s).",
        ),
    ] = False,
    variant: VariantOption = STANDARD,
    turns: Annotated[
        int | None,
        typer.Option(
            "--turns",
            min=1,
            help="Stop the one-game demo once this many turns are played, the game not "
            "over (to measure a long game's first turns: benchmarks/bench_mailbox.py).",
        ),
    ] = None,
    pictures: Annotated[
        str | None,
        typer.Option(
            "--pictures",
            help="Which pictures the robots' reports carry, as a player's 'pictures' line "
            "chooses: changes (the default: the masterboard when the board changed, a "
            "battle's when it asks the reader to act), always, or none (text only, a "
            "quicker game). The pictures never change the game: the same seed plays it "
            "the same whatever the choice.",
        ),
    ] = None,
) -> None:
    """Play a whole game (or a small tournament) by mail between robots on an embedded hub."""
    from moderator.demo.mail_demo import DemoOptions, run_demo

    checked_variant(variant)
    if tournament:
        if variant != STANDARD:
            raise _fail(
                "demo: --variant is for the one-game demo; a tournament's games take the "
                "variant of its 'variant' setting"
            )
        if silent:
            raise _fail("demo: --silent is for the one-game demo, not with --tournament")
        if turns is not None:
            raise _fail(
                "demo: --turns is for the one-game demo; a tournament's games end by play "
                "or by their end date"
            )
        if pictures is not None:
            raise _fail("demo: --pictures is for the one-game demo, not with --tournament")
        _tournament_demo(players, seed, keep, speed, rounds, robot)
        return
    if rounds is not None:
        raise _fail("demo: --rounds is for --tournament; the one-game demo plays one game")

    if speed is not None:
        raise _fail(
            "demo: --speed is for --tournament; the one-game demo's clock moves a minute "
            "for every robot mail and jumps to a silent robot's deadlines by itself"
        )
    if pictures is not None:
        pictures = _pictures_choice(pictures)
    options = DemoOptions(
        players=players if players is not None else 3,
        seed=seed,
        folder=keep,
        silent=tuple(silent or ()),
        robot=robot,
        variant=variant,
        turns=turns,
        pictures=pictures,
    )
    _run(run_demo(options, typer.echo))


def _pictures_choice(word: str) -> str:
    """``--pictures WORD`` as a ``pictures`` line reads it; refused with the choices."""
    from moderator.schedule.pictures import MODES, parse

    try:
        return parse(f"pictures {word}")
    except ValueError:
        raise _fail(f"demo: --pictures takes {', '.join(MODES)}, not {word!r}") from None


def _tournament_demo(
    players: int | None,
    seed: int | None,
    keep: Path | None,
    speed: float | None,
    rounds: int | None,
    robot: str,
) -> None:
    from moderator.demo.tournament_demo import run_tournament_demo
    from moderator.demo.tournament_run import TournamentDemoOptions

    options = TournamentDemoOptions(
        players=players if players is not None else TournamentDemoOptions.players,
        seed=seed,
        folder=keep,
        speed=speed if speed is not None else TournamentDemoOptions.speed,
        rounds=rounds if rounds is not None else TournamentDemoOptions.rounds,
        robot=robot,
    )
    _run(run_tournament_demo(options, typer.echo))


def _run(demo_run: Coroutine[Any, Any, Any]) -> None:
    """Run a demo; print its summary; exit with status 1 unless it did what was asked
    (its game or tournament finished, or the turns ``--turns`` asked for played)."""
    import asyncio

    try:
        summary = asyncio.run(demo_run)
    except (ValueError, TimeoutError) as exc:
        raise _fail(f"demo: {exc}") from None
    typer.echo("")
    typer.echo(summary.text())
    if not summary.done:
        raise typer.Exit(1)
