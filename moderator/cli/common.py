"""What the command groups share: the common options and the error, store and config helpers."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from sqlalchemy.exc import SQLAlchemyError

from moderator.play.errors import GameError
from moderator.ports import StoreError
from moderator.runtime.bootstrap import open_store
from moderator.runtime.database import described
from moderator.store import ENV_VAR, EventStore, database_url

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        envvar=ENV_VAR,
        help=f"Database URL (default: ${ENV_VAR}, else the configuration file, "
        "else sqlite:///titan-moderator.sqlite).",
        show_default=False,
    ),
]
GameArg = Annotated[str, typer.Argument(help="The game's name.")]
ConfigOption = Annotated[
    Path | None,
    typer.Option(
        "--config",
        "-c",
        envvar="TITAN_MODERATOR_CONFIG",
        help="The configuration file (TOML; 'titan-moderator config example' prints one "
        "with every key). Every key can be overridden as TITAN_<SECTION>_<KEY>.",
        show_default=False,
    ),
]


def _fail(message: str, code: int = 2) -> typer.Exit:
    typer.echo(message, err=True)
    return typer.Exit(code)


@contextmanager
def _store(db: str | None, *, create: bool = True) -> Iterator[EventStore]:
    """
    The store at ``db`` (or where the environment and configuration say); a command
    that only reads passes ``create=False``, so that a mistyped path creates nothing.
    """
    try:
        store = open_store(database_url(db), create=create)
    except SQLAlchemyError as exc:
        raise _fail(f"error: cannot open the database: {described(exc)}") from None
    except (StoreError, ValueError) as exc:
        raise _fail(f"error: {exc}") from None
    try:
        yield store
    except (StoreError, GameError) as exc:
        raise _fail(f"error: {exc}") from None
    except SQLAlchemyError as exc:
        raise _fail(f"error: the database failed: {described(exc)}") from None
    finally:
        store.close()


def _config(path: Path | None) -> Any:
    from moderator.runtime.config import ConfigError, load_config

    try:
        return load_config(path)
    except ConfigError as exc:
        raise _fail(f"configuration: {exc}") from None
