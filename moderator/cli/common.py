"""
What the command groups share: the common options and the error, store and config helpers.

Every command-line module is imported to build ``--help``, so none imports at module level
more than typer and what its options name: the store, the composition root and the
adapters are imported inside the commands that use them (``tests/cli/test_quick_imports.py``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from moderator.rules.variant import shipped_variants
from moderator.store.config import ENV_VAR

if TYPE_CHECKING:
    from moderator.runtime.bootstrap import App
    from moderator.store import EventStore

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

VariantOption = Annotated[
    str,
    typer.Option(
        "--variant",
        help=f"The game's variant: {', '.join(shipped_variants())}, or your group's own "
        "under $TITAN_VARIANTS_DIRECTORY or [variants] directory ('variant list'; docs/variants.md).",
    ),
]


def own_variants(config: Any = None) -> tuple[str, ...]:
    """Install the groups' own variants (``config``'s directory, else the environment's)."""
    from moderator.runtime.config import ConfigError
    from moderator.runtime.variants import install_configured

    try:
        return install_configured(config)
    except ConfigError as exc:
        raise _fail(f"configuration: {exc}") from None


def checked_variant(name: str, config: Any = None) -> str:
    """``name`` if it is a shipped or an installed own variant, else the error naming those there are."""
    from moderator.rules.variant import offered_variants

    own_variants(config)
    if name not in offered_variants():
        raise _fail(f"error: there is no variant {name!r}; variants: {', '.join(offered_variants())}")
    return name


def _fail(message: str, code: int = 2) -> typer.Exit:
    typer.echo(message, err=True)
    return typer.Exit(code)


@contextmanager
def _app(db: str | None, *, create: bool = True, config: Any = None) -> Iterator[App]:
    """
    The composition root's App on the store at ``db`` (or where the environment and
    configuration say), its store opened; a command that only reads passes
    ``create=False``, so that a mistyped path creates nothing.  ``config``: the
    configuration the command read (its handler, keyring and clock), else one that
    names only the database.
    """
    from sqlalchemy.exc import SQLAlchemyError

    from moderator.ports.errors import StoreError
    from moderator.rules.variant import UnknownVariantError
    from moderator.runtime.bootstrap import bootstrap, database_config
    from moderator.runtime.database import described
    from moderator.store.config import database_url
    from moderator.usecases.games.errors import GameError

    url = database_url(db)
    settings = database_config(url) if config is None else config
    if settings.database.url != url:
        settings = dataclasses.replace(
            settings, database=dataclasses.replace(settings.database, url=url)
        )
    try:
        app = bootstrap(settings, create=create)
    except ValueError as exc:  # ConfigError: an own variant's data are wrong
        raise _fail(f"configuration: {exc}") from None
    try:
        _ = app.store
    except SQLAlchemyError as exc:
        raise _fail(f"error: cannot open the database: {described(exc)}") from None
    except (StoreError, ValueError) as exc:
        raise _fail(f"error: {exc}") from None
    try:
        yield app
    except (StoreError, GameError, UnknownVariantError) as exc:
        # UnknownVariantError: a game of an own variant not installed, or changed since
        raise _fail(f"error: {exc}") from None
    except SQLAlchemyError as exc:
        raise _fail(f"error: the database failed: {described(exc)}") from None
    finally:
        app.close()


@contextmanager
def _store(db: str | None, *, create: bool = True) -> Iterator[EventStore]:
    """The store of ``_app(db, create=create)``: for the commands that need only it."""
    with _app(db, create=create) as app:
        yield app.store


def _config(path: Path | None) -> Any:
    from moderator.runtime.config import ConfigError, load_config

    try:
        return load_config(path)
    except ConfigError as exc:
        raise _fail(f"configuration: {exc}") from None
