"""
What the commands do that needs no typer: open the composition root's App on a store,
read the configuration, give orders (issue 28).

``local order`` is the command a script that plays through the command line runs once
an order; typer, and the pydantic validators it builds for each option it reads, cost it
a fifth of its start.  ``cli.quick`` runs ``ordered`` for the plain command line, typer's
``local order`` for any other; ``common`` opens the App here for every typer command.
A fault is a ``Failed`` (the message for standard error and the exit code), which typer's
commands turn into its ``Exit`` and ``cli.quick`` prints itself, so that both say the same.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from moderator.runtime.bootstrap import App


class Failed(Exception):
    """A command cannot go on: ``message`` for standard error, then exit ``code``."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.message, self.code = message, code


@contextmanager
def opened(db: str | None, *, create: bool = True, config: Any = None) -> Iterator[App]:
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
        raise Failed(f"configuration: {exc}") from None
    try:
        _ = app.store
    except SQLAlchemyError as exc:
        raise Failed(f"error: cannot open the database: {described(exc)}") from None
    except (StoreError, ValueError) as exc:
        raise Failed(f"error: {exc}") from None
    try:
        yield app
    except (StoreError, GameError, UnknownVariantError) as exc:
        # UnknownVariantError: a game of an own variant not installed, or changed since
        raise Failed(f"error: {exc}") from None
    except SQLAlchemyError as exc:
        raise Failed(f"error: the database failed: {described(exc)}") from None
    finally:
        app.close()


def configured(path: Path | None) -> Any:
    """The configuration in the file ``path`` (None: the defaults)."""
    from moderator.runtime.config import ConfigError, load_config

    try:
        return load_config(path)
    except ConfigError as exc:
        raise Failed(f"configuration: {exc}") from None


def ordered(game_id: str, text: str, as_: str, db: str | None, config: Path | None) -> int:
    """
    ``local order``: give ``text``'s orders as ``as_``, print the reply, and return the
    exit code (1: an order was rejected).  The robots holding seats then act if it is
    their turn, as after a mail.
    """
    from moderator.runners.commands import order

    sender = configured(config).moderator.address  # the From of the robots' reports
    with opened(db, create=False) as app:
        reply, ok = order(app.store, game_id, as_, text, sender=sender)
    print(reply)
    return 0 if ok else 1


__all__ = ["Failed", "configured", "opened", "ordered"]
