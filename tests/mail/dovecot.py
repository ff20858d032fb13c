"""
A throw-away Dovecot IMAP server for the transport tests.

``TemporaryDovecot`` writes a configuration of its own into a new folder under
/tmp (Unix socket paths must stay short) and runs ``dovecot -F -c CONF`` as a
child process: IMAP only, on 127.0.0.1 and a free port, no TLS, plain-text
logins allowed, users in a passwd-file (``{PLAIN}`` passwords, written ahead: ``add_user``), mail in
maildirs in the folder.  ``stop()`` ends the master process (it ends its
children) and removes the folder.

Dovecot will not let its login processes run as root nor read mail as root:
started by root, it logs users in as ``dovenull``, runs its internal processes
as ``dovecot`` (``nobody`` when those users are missing) and reads mail as
``nobody``, who owns the maildirs.  Started by anybody else it runs
everything as that user (Dovecot's "rootless" set-up).

Needs ``dovecot`` and ``doveadm`` (Debian: ``dovecot-imapd``;
``scripts/install-system-deps`` installs it).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path
from typing import Self

from aiosmtpd.smtp import SMTP, Envelope, Session

SBIN = ("/usr/sbin", "/usr/local/sbin", "/sbin")
#: Users written to the passwd-file at a time.
POOL = 64


class DovecotUnavailableError(RuntimeError):
    """Raised when Dovecot cannot be found or will not start."""


def find_binary(name: str) -> str | None:
    """``name`` on ``$PATH`` or in the usual sbin folders, or None."""
    found = shutil.which(name)
    if found:
        return found
    for folder in SBIN:
        candidate = Path(folder) / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _user_or(name: str, fallback: str) -> str:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return fallback
    return name


class TemporaryDovecot:
    """A Dovecot IMAP server of our own (see the module's docstring)."""

    host = "127.0.0.1"

    def __init__(self) -> None:
        dovecot, doveadm = find_binary("dovecot"), find_binary("doveadm")
        if dovecot is None or doveadm is None:
            msg = "dovecot and doveadm are not installed (apt-get install dovecot-imapd)"
            raise DovecotUnavailableError(msg)
        self.dovecot, self.doveadm_path = dovecot, doveadm
        self.folder = Path(tempfile.mkdtemp(prefix="tdc-", dir="/tmp"))
        self.conf = self.folder / "dovecot.conf"
        self.passwd = self.folder / "passwd"
        self.mail_root = self.folder / "mail"
        self.log = self.folder / "dovecot.log"
        self.port = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._pool: list[tuple[str, str]] = []
        me = pwd.getpwuid(os.getuid()).pw_name
        if os.geteuid() == 0:
            self.mail_user = _user_or("nobody", "nobody")
            self.internal_user = _user_or("dovecot", "nobody")
            self.login_user = _user_or("dovenull", "nobody")
        else:
            self.mail_user = self.internal_user = self.login_user = me
        entry = pwd.getpwnam(self.mail_user)
        self.mail_uid, self.mail_gid = entry.pw_uid, entry.pw_gid

    # -- life cycle ------------------------------------------------------------

    def start(self, *, attempts: int = 3) -> None:
        """Start the server; raises ``DovecotUnavailableError`` with its log if it fails."""
        for name in ("run", "state"):
            (self.folder / name).mkdir(exist_ok=True)
        self.mail_root.mkdir(exist_ok=True)
        self.passwd.touch()
        self._write_users(POOL)
        # The mail user must reach the maildirs through the folder.
        self.folder.chmod(0o755)
        self.passwd.chmod(0o644)
        if os.geteuid() == 0:
            os.chown(self.mail_root, self.mail_uid, self.mail_gid)
        for attempt in range(attempts):
            self.port = _free_port()
            self.conf.write_text(self._configuration())
            log = self.log.open("ab")
            self._process = subprocess.Popen(
                [self.dovecot, "-F", "-c", str(self.conf)],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
            )
            log.close()
            if self._wait_ready(timeout=10.0):
                return
            self._end_process()
            if attempt == attempts - 1 or "Address already in use" not in self.log_text():
                break
        msg = f"dovecot did not start; its log:\n{self.log_text()[-4000:]}"
        self.stop()
        raise DovecotUnavailableError(msg)

    def stop(self) -> None:
        """Stop the server and remove its folder."""
        self._end_process()
        shutil.rmtree(self.folder, ignore_errors=True)

    def _end_process(self) -> None:
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)

    def _wait_ready(self, *, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process is None or self._process.poll() is not None:
                return False
            with (
                contextlib.suppress(OSError),
                socket.create_connection((self.host, self.port), timeout=1.0) as conn,
            ):
                if conn.recv(200).startswith(b"* OK"):
                    return True
            time.sleep(0.05)
        return False

    def log_text(self) -> str:
        """What Dovecot wrote to its log so far."""
        try:
            return self.log.read_text(errors="replace")
        except OSError:
            return ""

    def _configuration(self) -> str:
        folder = self.folder
        return f"""# A throw-away Dovecot for tests: written by tests/mail/dovecot.py
base_dir = {folder}/run
state_dir = {folder}/state
log_path = {self.log}
info_log_path = {self.log}
protocols = imap
listen = {self.host}
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
# Answer a wrong password at once (the default waits 2 seconds).
auth_failure_delay = 0
default_internal_user = {self.internal_user}
default_login_user = {self.login_user}
mail_uid = {self.mail_uid}
mail_gid = {self.mail_gid}
first_valid_uid = {self.mail_uid}
first_valid_gid = {self.mail_gid}
mail_location = maildir:{self.mail_root}/%u
mail_fsync = never
# IDLE: notice new mail within a second where inotify does not reach.
mailbox_idle_check_interval = 1 secs
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {self.passwd}
}}
userdb {{
  driver = static
  args = home={self.mail_root}/%u
}}
protocol imap {{
  mail_max_userip_connections = 100
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = {self.host}
    port = {self.port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service anvil {{
  chroot =
}}
"""

    # -- users and mail ---------------------------------------------------------------

    def add_user(self) -> tuple[str, str]:
        """
        A user nobody used yet, as ``(address, password)``.

        Dovecot stats its passwd-file at most once a second, so a user written
        just after a login may stay unknown for a second: users are written
        ``POOL`` at a time, before they are needed.
        """
        if not self._pool:
            self._write_users(POOL)
            time.sleep(1.1)
        return self._pool.pop(0)

    def add_named_user(self, address: str, password: str) -> None:
        """Add a user with the address given (waits out Dovecot's stat of the file)."""
        with self.passwd.open("a") as out:
            out.write(f"{address}:{{PLAIN}}{password}\n")
        time.sleep(1.1)

    def _write_users(self, count: int) -> None:
        fresh = [(f"u{uuid.uuid4().hex[:10]}@example.org", "secret") for _ in range(count)]
        with self.passwd.open("a") as out:
            out.writelines(f"{address}:{{PLAIN}}{password}\n" for address, password in fresh)
        self._pool += fresh

    def deliver(self, address: str, content: bytes) -> Path:
        """
        Drop a message into a user's INBOX as a delivery agent would: written to
        the maildir's ``tmp/`` and renamed into ``new/``.
        """
        maildir = self.mail_root / address
        for sub in ("cur", "new", "tmp"):
            (maildir / sub).mkdir(parents=True, exist_ok=True)
        name = f"{time.time_ns()}.{uuid.uuid4().hex}.titan-tests"
        staged = maildir / "tmp" / name
        staged.write_bytes(content)
        if os.geteuid() == 0:
            for path in (maildir, maildir / "cur", maildir / "new", maildir / "tmp", staged):
                os.chown(path, self.mail_uid, self.mail_gid)
        final = maildir / "new" / name
        staged.rename(final)
        return final

    def doveadm(self, *args: str) -> str:
        """Run ``doveadm -c CONF ARGS``; returns its output."""
        done = subprocess.run(
            [self.doveadm_path, "-c", str(self.conf), *args],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        if done.returncode != 0:
            msg = f"doveadm {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}"
            raise DovecotUnavailableError(msg)
        return done.stdout

    def kick(self, address: str) -> None:
        """Disconnect every IMAP connection of a user."""
        self.doveadm("kick", address)

    def set_uidvalidity(self, address: str, folder: str, value: int) -> None:
        """Give a folder another UIDVALIDITY (as a rebuilt index may)."""
        self.doveadm("mailbox", "update", "-u", address, "--uid-validity", str(value), folder)


class _Delivery:
    """aiosmtpd hooks: take mail for Dovecot's users and drop it in their maildirs."""

    def __init__(self, dovecot: TemporaryDovecot, users: set[str]) -> None:
        self.dovecot = dovecot
        self.users = users

    async def handle_RCPT(  # aiosmtpd names its hooks so
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        if address.lower() not in self.users:
            return "550 5.1.1 no such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        content = envelope.original_content or b""
        for address in envelope.rcpt_tos:
            await asyncio.to_thread(self.dovecot.deliver, address.lower(), content)
        return "250 OK delivered"


class DovecotMailSystem:
    """
    A mail system around a ``TemporaryDovecot``: an aiosmtpd SMTP server on loopback
    delivers into the users' maildirs as a mail server's delivery agent would, and
    Dovecot serves them over IMAP.  Use as ``async with``.
    """

    host = "127.0.0.1"

    def __init__(self, dovecot: TemporaryDovecot) -> None:
        self.dovecot = dovecot
        self._users: set[str] = set()
        self._server: asyncio.Server | None = None

    async def __aenter__(self) -> Self:
        loop = asyncio.get_running_loop()
        handler = _Delivery(self.dovecot, self._users)
        self._server = await loop.create_server(
            lambda: SMTP(handler, hostname="mx.titan-tests.invalid"), self.host, 0
        )
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None

    @property
    def smtp_port(self) -> int:
        assert self._server is not None, "use DovecotMailSystem with async with"
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    @property
    def imap_port(self) -> int:
        return self.dovecot.port

    def add_user(self, address: str, password: str) -> None:
        self._users.add(address.lower())
        self.dovecot.add_named_user(address.lower(), password)
