"""
The database URL as the operator wrote it, checked before SQLAlchemy sees it, and
SQLAlchemy's failures said in the operator's words.

A mistyped ``--db`` should not be answered with "Can't load plugin" or "URL string",
nor, on a command that only reads, by a new empty SQLite file where the typo points.
"""

from __future__ import annotations

import re
from pathlib import Path

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

#: What a URL looks like, for the messages.
FORMS = (
    "sqlite:///FILE (a file in this folder), sqlite:////PATH (a full path) or "
    "postgresql+psycopg://USER@HOST/NAME"
)
_BACKGROUND = re.compile(r"\s*\(Background on this error at: [^)]*\)\s*$")


class DatabaseUrlError(ValueError):
    """The URL names no database this program can open; says what to write."""


def checked_url(url: str, *, must_exist: bool = False) -> str:
    """
    ``url`` when it names a SQLite or PostgreSQL database this program can open;
    with ``must_exist``, a SQLite file must be there already.

    Raises:
        DatabaseUrlError: it does not, with the forms to write.
    """
    try:
        parsed = make_url(url)
    except ArgumentError:
        msg = f"{url!r} is not a database URL: write {FORMS}"
        raise DatabaseUrlError(msg) from None
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        msg = f"{shown(url)} names a {backend!r} database; the moderator keeps its games in {FORMS}"
        raise DatabaseUrlError(msg)
    try:
        parsed.get_dialect().import_dbapi()
    except (NoSuchModuleError, ImportError):
        msg = (
            f"{shown(url)}: no driver {parsed.get_driver_name()!r} is installed for "
            f"{backend}; write {FORMS}"
        )
        raise DatabaseUrlError(msg) from None
    if must_exist and backend == "sqlite":
        path = sqlite_path(parsed)
        if path is not None and not path.is_file():
            msg = (
                f"there is no database at {path.resolve()} ({url}): check the path (four "
                "slashes for a full one), or create it with 'titan-moderator db upgrade'"
            )
            raise DatabaseUrlError(msg)
    return url


def sqlite_path(url: URL) -> Path | None:
    """The file of a SQLite URL; None for an in-memory database."""
    database = url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def shown(url: str) -> str:
    """The URL without its password, for messages and logs."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return repr(url)


def described(exc: SQLAlchemyError) -> str:
    """What the database said, without SQLAlchemy's wrapping and its web link."""
    cause = getattr(exc, "orig", None) or exc
    text = " ".join(line.strip() for line in str(cause).splitlines() if line.strip())
    return _BACKGROUND.sub("", text) or type(cause).__name__
