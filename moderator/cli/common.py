"""
What the command groups share: the common options and the error, store and config helpers.

Every command-line module is imported to build ``--help``, so none imports at module level
more than typer and what its options name: the store, the composition root and the
adapters are imported inside the commands that use them (``tests/cli/test_quick_imports.py``).
"""

from __future__ import annotations

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
    """``plain.opened`` for typer's commands: a fault prints and exits through typer."""
    from moderator.cli.plain import Failed, opened

    try:
        with opened(db, create=create, config=config) as app:
            yield app
    except Failed as failed:
        raise _fail(failed.message, failed.code) from None


@contextmanager
def _store(db: str | None, *, create: bool = True) -> Iterator[EventStore]:
    """The store of ``_app(db, create=create)``: for the commands that need only it."""
    with _app(db, create=create) as app:
        yield app.store


def _config(path: Path | None) -> Any:
    from moderator.cli.plain import Failed, configured

    try:
        return configured(path)
    except Failed as failed:
        raise _fail(failed.message, failed.code) from None
