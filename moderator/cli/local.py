"""
``local ...``: play a game kept in the event store, one order at a time.

Each command imports what it uses when it runs (a script plays hundreds of orders, each
a new process): ``show`` and ``legal`` need the views and, on a SQLite file, only the
quick reader (``cli.quick``, which answers them before typer loads when it can), not
the order runner; only ``board`` imports the raster.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from moderator.cli.common import ConfigOption, DbOption, GameArg, _fail, _store
from moderator.rules.variant import STANDARD, shipped_variants

app = typer.Typer(
    help="Play a game kept in a local event store, order by order.", no_args_is_help=True
)

AsOption = Annotated[str, typer.Option("--as", help="The player whose view or orders these are.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]


@app.command("new")
def local_new(
    game_id: GameArg,
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            help="Comma-separated names, e.g. Ann,Bob,Cy. With --from-position the file "
            "names the players; --players may then be left out, and if given must name "
            "the same players (in any order), else the game is not created.",
        ),
    ] = None,
    dice_seed: Annotated[
        int | None, typer.Option("--dice-seed", help="Seed of the game's dice.")
    ] = None,
    dice_script: Annotated[
        Path | None,
        typer.Option("--dice-script", help="File of die values 1..6 to roll, in order (tests)."),
    ] = None,
    from_position: Annotated[
        Path | None,
        typer.Option(
            "--from-position",
            help="Start from a position file (JSON, docs/positions.md); its players, with "
            "their colours and towers, are the game's.",
        ),
    ] = None,
    variant: Annotated[
        str,
        typer.Option(
            "--variant",
            help=f"The game's variant: {', '.join(shipped_variants())}, or your group's own "
            "under $TITAN_VARIANTS_DIRECTORY ('variant list'; docs/variants.md); "
            "a position file names its own.",
        ),
    ] = STANDARD,
    db: DbOption = None,
) -> None:
    """Create a game: roll for towers, or restore a position (whose file names the players)."""
    from moderator.runners.commands import new_game
    from moderator.usecases.games.dice import read_dice_script
    from moderator.usecases.games.errors import GameError
    from moderator.usecases.games.queries import waiting_line

    if dice_seed is not None and dice_script is not None:
        raise _fail("error: give --dice-seed or --dice-script, not both")
    names = [n.strip() for n in players.split(",")] if players else None
    script = read_dice_script(dice_script.read_text()) if dice_script else None
    position = None
    if from_position is not None:
        try:
            position = json.loads(from_position.read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise _fail(f"error: cannot read {from_position}: {exc}") from None
    if names is None and position is None:
        raise _fail("error: give --players (e.g. --players Ann,Bob,Cy) or --from-position")
    with _store(db) as store:
        try:
            state = new_game(store, game_id, names, dice_seed, script, position, variant=variant)
        except GameError as exc:
            raise _fail(f"error: {exc}") from None
        typer.echo(f"Game {game_id} created for {', '.join(p.name for p in state.players)}.")
        if position is not None:
            seated = (f"{p.name} ({p.colour}, tower {p.tower})" for p in state.players)
            typer.echo(f"Players from the position file: {', '.join(seated)}.")
        typer.echo(waiting_line(state))


@app.command("order")
def local_order(
    game_id: GameArg,
    text: Annotated[str, typer.Argument(help="The orders, one per line.")],
    as_: AsOption,
    db: DbOption = None,
    config: ConfigOption = None,
) -> None:
    """
    Give orders as a player; prints the reply. Exit status 1 if an order is rejected.
    The robots holding seats then act if it is their turn, as after a mail.
    """
    from moderator.cli.plain import Failed, ordered

    try:
        code = ordered(game_id, text, as_, db, config)
    except Failed as failed:
        raise _fail(failed.message, failed.code) from None
    if code:
        raise typer.Exit(code)


@app.command("show")
def local_show(
    game_id: GameArg, as_: AsOption, json_: JsonOption = False, db: DbOption = None
) -> None:
    """The game as one player sees it."""
    from moderator.cli.quick import printed, read_quickly
    from moderator.usecases.games.reads import show

    view = read_quickly(db, lambda reader: show(reader, game_id, as_))
    if view is None:
        from moderator.runners.unit import read

        with _store(db, create=False) as store:
            view = read(store, lambda lookup, _now: show(lookup, game_id, as_))
    printed("show", view, as_, json_)


@app.command("legal")
def local_legal(game_id: GameArg, json_: JsonOption = False, db: DbOption = None) -> None:
    """Who is to act and the orders they may give."""
    from moderator.cli.quick import printed, read_quickly
    from moderator.usecases.games.reads import legal

    actions = read_quickly(db, lambda reader: legal(reader, game_id))
    if actions is None:
        from moderator.runners.unit import read

        with _store(db, create=False) as store:
            actions = read(store, lambda lookup, _now: legal(lookup, game_id))
    printed("legal", actions, None, json_)


@app.command("history")
def local_history(
    game_id: GameArg,
    as_: AsOption,
    first: Annotated[int | None, typer.Option("--from", help="First turn to show.")] = None,
    last: Annotated[int | None, typer.Option("--to", help="Last turn to show.")] = None,
    db: DbOption = None,
) -> None:
    """The game record as one player may read it."""
    from moderator.runners.unit import read
    from moderator.usecases.games.reads import history

    with _store(db, create=False) as store:
        lines = read(store, lambda lookup, _now: history(lookup, game_id, as_, first, last))
    typer.echo("\n".join(lines) if lines else "Nothing to show.")


@app.command("board")
def local_board(
    game_id: GameArg,
    as_: AsOption,
    png: Annotated[Path, typer.Option("--png", help="Write the picture here, as PNG.")],
    svg: Annotated[
        Path | None, typer.Option("--svg", help="Also write the picture here, as SVG.")
    ] = None,
    battle: Annotated[
        bool, typer.Option("--battle", help="Draw the battle being fought, not the masterboard.")
    ] = False,
    db: DbOption = None,
) -> None:
    """Draw the masterboard (or the battle) as one player sees it, as PNG (and SVG)."""
    from moderator.pictures.raster import svg_to_png
    from moderator.runners.unit import read
    from moderator.usecases.games.pictures import board_svg

    with _store(db, create=False) as store:
        text = read(store, lambda lookup, _now: board_svg(lookup, game_id, as_, battle=battle))
    try:
        if svg is not None:
            svg.write_text(text, encoding="utf-8")
        png.write_bytes(svg_to_png(text))
    except OSError as exc:
        raise _fail(f"error: cannot write the picture: {exc}") from None
    typer.echo(f"Wrote {png}" + (f" and {svg}" if svg is not None else "") + ".")


@app.command("games")
def local_games(db: DbOption = None) -> None:
    """List the games in the store."""
    with _store(db, create=False) as store:
        for name in store.games():
            typer.echo(name)
