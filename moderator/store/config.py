"""
Where the database is and how it is kept: ``--db``, the environment, a config file.

The database URL is the first of: the ``--db`` option, ``$TITAN_MODERATOR_DB``, the
``[database] url`` of the configuration file, and ``sqlite:///titan-moderator.sqlite``
in the current folder.  The configuration file is ``$TITAN_MODERATOR_CONFIG`` if set,
else ``titan-moderator.toml`` in the current folder, else
``$XDG_CONFIG_HOME/titan-moderator/config.toml`` (``~/.config/...``)::

    [database]
    url = "postgresql+psycopg://moderator@db.example.org/titan"
    snapshot_every = 500
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

#: Where the database lives when neither ``--db``, the environment nor a config file says.
DEFAULT_URL = "sqlite:///titan-moderator.sqlite"
#: The environment variable naming the database URL.
ENV_VAR = "TITAN_MODERATOR_DB"
#: The environment variable naming the configuration file.
CONFIG_ENV_VAR = "TITAN_MODERATOR_CONFIG"
#: A snapshot of the game state is stored every this many events unless configured.
DEFAULT_SNAPSHOT_EVERY = 500
#: How long a SQLite connection waits for another one's lock, in seconds.
SQLITE_BUSY_TIMEOUT = 30.0


def config_path() -> Path | None:
    """The configuration file in force, or None when there is none."""
    named = os.environ.get(CONFIG_ENV_VAR)
    if named:
        return Path(named)
    local = Path("titan-moderator.toml")
    if local.is_file():
        return local
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    user = Path(base) / "titan-moderator" / "config.toml"
    return user if user.is_file() else None


def database_settings() -> dict[str, Any]:
    """The ``[database]`` table of the configuration file ({} without a file)."""
    path = config_path()
    if path is None:
        return {}
    import tomllib  # here: a command given --db reads no configuration (issue 28)

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        msg = f"cannot read the configuration file {str(path)!r}: {exc}"
        raise ValueError(msg) from exc
    section = data.get("database", {})
    if not isinstance(section, dict):
        msg = f"{str(path)!r}: [database] must be a table"
        raise TypeError(msg)
    return section


def database_url(url: str | None = None) -> str:
    """``url`` if given, else ``$TITAN_MODERATOR_DB``, else the config file, else the default."""
    if url:
        return url
    env = os.environ.get(ENV_VAR)
    if env:
        return env
    configured = database_settings().get("url")
    return str(configured) if configured else DEFAULT_URL


def snapshot_every(value: int | None = None) -> int:
    """How many events between snapshots: ``value``, else the config file, else 500."""
    if value is None:
        value = int(database_settings().get("snapshot_every", DEFAULT_SNAPSHOT_EVERY))
    if value < 1:
        msg = f"snapshot_every must be at least 1 (got {value!r})"
        raise ValueError(msg)
    return value
