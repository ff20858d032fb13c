"""
A throw-away PostgreSQL server in a temporary folder, for tests and benchmarks.

It needs the server binaries (``initdb``, ``pg_ctl``, ``postgres``): on ``$PATH``, in
``$TITAN_PG_BINDIR``, or in ``/usr/lib/postgresql/<version>/bin``.  PostgreSQL refuses
to run as root, so under root the server runs as the ``postgres`` system user (made
if missing), with the folder handed to it.  The server listens on 127.0.0.1 on a free
port, trusts local connections and is removed, folder and all, by ``stop()``.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from typing import Self

#: Settings for a server whose data may be lost (tests): no waiting for the disk.
FAST = ("fsync=off", "synchronous_commit=off", "full_page_writes=off")
BINARIES = ("initdb", "pg_ctl", "postgres")


class PostgresUnavailableError(RuntimeError):
    """Raised when no PostgreSQL server binaries can be found or started."""


def find_bindir() -> Path | None:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres``, or None."""
    candidates: list[Path] = []
    if os.environ.get("TITAN_PG_BINDIR"):
        candidates.append(Path(os.environ["TITAN_PG_BINDIR"]))
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(Path(on_path).parent)
    versions = Path("/usr/lib/postgresql").glob("*/bin")
    candidates += sorted(versions, key=lambda p: _version(p.parent.name), reverse=True)
    for folder in candidates:
        if all((folder / name).is_file() for name in BINARIES):
            return folder
    return None


def _version(name: str) -> tuple[int, ...]:
    return tuple(int(part) for part in name.split(".") if part.isdigit())


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _server_user() -> str | None:
    """The unprivileged user to run the server as when we are root (None: ourselves)."""
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/bin/false", "postgres"],
            check=True,
            capture_output=True,
        )
    return "postgres"


class TemporaryPostgres:
    """
    A PostgreSQL server of our own: ``start()`` returns its SQLAlchemy URL (a database
    ``titan`` owned by the superuser ``titan``); ``stop()`` removes it.

    ``durable=False`` turns off fsync and friends: fast, fine for tests, wrong for
    measuring what a real server does.
    """

    def __init__(self, bindir: Path | None = None, *, durable: bool = False) -> None:
        found = bindir or find_bindir()
        if found is None:
            msg = "no PostgreSQL server binaries (initdb, pg_ctl, postgres) were found"
            raise PostgresUnavailableError(msg)
        self.bindir = found
        self.durable = durable
        self.user = _server_user()
        self.folder: Path | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://titan@127.0.0.1:{self.port}/titan"

    def _run(self, *args: str) -> None:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            msg = f"{args[0]} failed ({result.returncode}): {result.stderr or result.stdout}"
            raise PostgresUnavailableError(msg)

    def start(self) -> str:
        folder = Path(tempfile.mkdtemp(prefix="titan-pg-"))
        self.folder = folder
        try:
            self._start(folder)
        except BaseException:
            self.stop()
            raise
        return self.url

    def _start(self, folder: Path) -> None:
        if self.user is not None:
            shutil.chown(folder, self.user)
        data, log = folder / "data", folder / "server.log"
        self._run(
            "initdb", "-D", str(data), "-U", "titan", "--auth=trust", "-E", "UTF8",
            "--no-locale", "--no-sync",
        )  # fmt: skip
        self.port = _free_port()
        settings = [
            f"port={self.port}",
            "listen_addresses=127.0.0.1",
            f"unix_socket_directories={folder}",
            "max_connections=60",
            *(() if self.durable else FAST),
        ]
        options = " ".join(f"-c {s}" for s in settings)
        try:
            self._run(
                "pg_ctl", "-D", str(data), "-l", str(log), "-o", options, "-w", "-t", "60", "start"
            )
        except PostgresUnavailableError as exc:
            detail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise PostgresUnavailableError(f"{exc}\n{detail}") from None
        self._create_database()

    def _create_database(self) -> None:
        import psycopg

        with psycopg.connect(
            host="127.0.0.1", port=self.port, user="titan", dbname="postgres", autocommit=True
        ) as connection:
            connection.execute("CREATE DATABASE titan")

    def stop(self) -> None:
        if self.folder is None:
            return
        with contextlib.suppress(PostgresUnavailableError):  # it was not running
            self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = None

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
