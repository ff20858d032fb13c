"""``db ...``: create, upgrade and check the database; look after shunted mail."""

from __future__ import annotations

from typing import Annotated

import typer

from moderator.cli.common import DbOption, _fail, _store

app = typer.Typer(help="Create, upgrade and check the database.", no_args_is_help=True)


@app.command("upgrade")
def db_upgrade(db: DbOption = None) -> None:
    """Create the database, or upgrade it to this program's schema (back it up first)."""
    from sqlalchemy.exc import SQLAlchemyError

    from moderator.ports.errors import StoreError
    from moderator.runtime.database import checked_url, described
    from moderator.store import migrate
    from moderator.store.config import database_url

    try:
        before, after = migrate.upgrade(checked_url(database_url(db)))
    except SQLAlchemyError as exc:
        raise _fail(f"error: cannot upgrade the database: {described(exc)}") from None
    except (StoreError, ValueError) as exc:
        raise _fail(f"error: {exc}") from None
    if before == after:
        typer.echo(f"The database is up to date (schema revision {after}).")
    else:
        typer.echo(f"The database was upgraded from revision {before or 'none'} to {after}.")


@app.command("check")
def db_check(
    game_id: Annotated[str | None, typer.Argument(help="The game (default: every game).")] = None,
    db: DbOption = None,
) -> None:
    """Replay games from their first event and compare with their snapshots."""
    from moderator.store.check import check_store

    with _store(db, create=False) as store:
        results = [check_store(store, g) for g in ([game_id] if game_id else store.games())]
    for result in results:
        typer.echo(result.line())
    if not all(r.ok for r in results):
        raise typer.Exit(1)


@app.command("shunted")
def db_shunted(db: DbOption = None) -> None:
    """List the inbound messages that failed and wait for a person."""
    from moderator.ports.mail import SHUNTED
    from moderator.store import inbox

    with _store(db, create=False) as store, store.reading() as tx:
        shunted = inbox.messages(tx, SHUNTED)
    for message in shunted:
        typer.echo(
            f"{message.id}\t{message.received_at:%Y-%m-%d %H:%M}\t{message.message_id or '-'}"
            f"\t{message.error}"
        )
    if not shunted:
        typer.echo("No message is shunted.")


@app.command("requeue")
def db_requeue(
    message_id: Annotated[int, typer.Argument(help="The inbound message's number.")],
    db: DbOption = None,
) -> None:
    """Put a shunted message back in the queue, to be processed again."""
    from moderator.store import inbox

    with _store(db, create=False) as store:
        if not inbox.requeue(store, message_id):
            raise _fail(f"error: message {message_id} is not shunted")
    typer.echo(f"Message {message_id} will be processed again.")
