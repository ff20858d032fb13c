"""``player ...`` and ``tournament ...``: roles, and tournaments created and scored by hand."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Annotated

import typer

from moderator.cli.common import ConfigOption, DbOption, _app, _config, _fail, _store

if TYPE_CHECKING:
    from moderator.ports import OutgoingMail

player_app = typer.Typer(help="Players who signed on by mail.", no_args_is_help=True)
tournament_app = typer.Typer(help="Tournaments run by mail.", no_args_is_help=True)


@player_app.command("role")
def player_role(
    address: Annotated[str, typer.Argument(help="The player's registered address.")],
    director: Annotated[
        bool | None,
        typer.Option(
            "--director/--no-director",
            help="Grant (or revoke) the tournament director role: create tournaments and "
            "direct their games by mail.",
        ),
    ] = None,
    config: ConfigOption = None,
    db: DbOption = None,
) -> None:
    """Show a player's roles, or grant or revoke the director role."""
    from moderator.ports.players import DIRECTOR
    from moderator.store import players

    url = db or _config(config).database.url
    with _store(url, create=False) as store, store.transaction() as tx:
        player = players.player_by_address(tx, address)
        if player is None:
            raise _fail(f"error: nobody is registered with {address}: he signs on by mail first")
        roles = set(player.roles)
        if director is True:
            roles.add(DIRECTOR)
        elif director is False:
            roles.discard(DIRECTOR)
        if director is not None:
            players.set_roles(tx, player.address, tuple(sorted(roles)))
    shown = ", ".join(sorted(roles)) or "none"
    typer.echo(f"{player.name} <{player.address}>: roles {shown}")


@tournament_app.command("create")
def tournament_create(
    name: Annotated[str, typer.Argument(help="The tournament's name (its games are NAME-1, ...).")],
    director: Annotated[
        str, typer.Option("--director", help="The director's registered address (a director).")
    ],
    settings: Annotated[
        list[str] | None,
        typer.Argument(
            help="Settings as in the mail line 'tournament create NAME ...': players N, "
            "rounds N, games N, days N or to-the-end, reliability PERCENT, scoring "
            "places|winner, secrets yes|no, timing KEY=VALUE..., absence KEY=VALUE...",
        ),
    ] = None,
    config: ConfigOption = None,
    db: DbOption = None,
) -> None:
    """Create a tournament, as its director's mail 'tournament create ...' would."""
    from moderator.runners import tournaments

    cfg = _config(config)
    line = " ".join(["tournament", "create", name, *(settings or [])])
    with _store(db or cfg.database.url, create=False) as store:
        try:
            out = tournaments.carry_out(
                store, director, [line], moderator_address=cfg.moderator.address
            )
        except tournaments.NotRegisteredError:
            raise _fail(f"error: nobody is registered with {director}") from None
    _answered(out.mails[0] if out.mails else None)


def _answered(answer: OutgoingMail | None) -> None:
    """Print the answer as mailed: its signed part counts the lines, its private part says
    what became of each (the operator's console shows both); exit 1 if one was refused."""
    text = "" if answer is None else "\n\n".join(
        part.rstrip() for part in (answer.body, answer.private_body or "") if part.strip()
    )
    typer.echo(text.rstrip())
    if "Refused (" in text:
        raise typer.Exit(1)


@tournament_app.command("direct")
def tournament_direct(
    name: Annotated[str, typer.Argument(help="The tournament's name.")],
    lines: Annotated[
        list[str],
        typer.Argument(
            help="Director's lines, each quoted: 'pause G', 'resume G', 'extend G HOURS', "
            "'replace SEAT in G [with ADDRESS]', 'end G', 'audit G'.",
        ),
    ],
    config: ConfigOption = None,
    db: DbOption = None,
) -> None:
    """
    Give a tournament's director lines as the operator: for any of its games, those its
    director plays in included (he may not direct them himself), or when he is away.
    The players are told the operator did it; the answer is printed and mailed to the
    director.
    """
    from moderator.runners import tournaments

    cfg = _config(config)
    with _store(db or cfg.database.url, create=False) as store:
        try:
            out = tournaments.direct(
                store, name, lines, moderator_address=cfg.moderator.address
            )
        except ValueError as exc:
            raise _fail(f"error: {exc}; give only a director's lines for a game") from None
        except LookupError as exc:
            raise _fail(f"error: {exc}") from None
    _answered(out.mails[0] if out.mails else None)


@tournament_app.command("standings")
def tournament_standings(
    name: Annotated[str, typer.Argument(help="The tournament's name.")],
    config: ConfigOption = None,
    db: DbOption = None,
) -> None:
    """Print a tournament's standings (as 'standings NAME' mails them)."""
    from moderator.letters.tournaments import standings
    from moderator.ports.errors import TournamentNotFoundError
    from moderator.store import tournaments as stored

    url = db or _config(config).database.url
    with _store(url, create=False) as store, store.reading() as tx:
        try:
            state = stored.load(tx, name.lower()).state
        except TournamentNotFoundError as exc:
            raise _fail(f"error: {exc}") from None
    typer.echo(standings(state))


@tournament_app.command("run")
def tournament_run(config: ConfigOption = None, db: DbOption = None) -> None:
    """Once, by hand: score finished games and form new ones (serve does it by itself)."""
    from moderator.runners import tournaments

    cfg = _config(config)
    with _app(db or cfg.database.url, create=False, config=cfg) as app:
        store = app.store
        address = cfg.moderator.address
        now = app.clock.now()
        lines = tournaments.finish_games(store, address)
        lines += tournaments.form_games(store, address, now, secrets.randbelow(2**31))
    typer.echo("\n".join(lines) if lines else "Nothing to do.")
