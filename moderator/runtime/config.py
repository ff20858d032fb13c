"""
The service's configuration: one TOML file, each value overridable from the
environment, checked whole before anything starts.

Every key of the file can be set as ``TITAN_<SECTION>_<KEY>`` (``TITAN_IMAP_PASSWORD``,
``TITAN_SMTP_HOST``...); the database URL also as ``TITAN_MODERATOR_DB`` (as the ``db``
commands read it).  A password may instead be read from a file (``password_file``), so
that it need not sit in the configuration or the environment.  ``example_text()``
(``titan-moderator config example``) is a file with every key, shipped in the wheel
from ``deploy/config.example.toml``.
"""

from __future__ import annotations

import hashlib
import math
import os
import tomllib
from collections.abc import Mapping
from dataclasses import field, fields
from pathlib import Path
from typing import Any

from moderator.records import record
from moderator.store.config import DEFAULT_SNAPSHOT_EVERY, DEFAULT_URL, ENV_VAR

#: The prefix of the environment variables overriding the file.
ENV_PREFIX = "TITAN_"
TLS_MODES = ("none", "starttls", "tls")
#: The example configuration as the wheel ships it (``pyproject.toml``'s force-include).
EXAMPLE = Path(__file__).with_name("config.example.toml")
#: The same file in a source checkout.
SOURCE_EXAMPLE = Path(__file__).resolve().parents[2] / "deploy" / "config.example.toml"


class ConfigError(ValueError):
    """The configuration is missing something or holds a wrong value; says which."""


@record
class ModeratorSettings:
    """Who the moderator is in mail."""

    address: str = "moderator@localhost"
    name: str = "Titan moderator"
    #: Also told about shunted mail and outages (default: nobody).
    gm_address: str = ""
    #: Each mail goes out with its own return path (``moderator+b<id>-<tag>@domain``,
    #: ``moderator.mail.verp``), so that a bounce names the mail it returns; the mail
    #: server must deliver ``+detail`` addresses to the moderator's mailbox.
    verp: bool = True
    #: The key of the return paths' tags (or a file holding it).  Empty: derived from
    #: the IMAP and SMTP passwords, which a stranger does not know either.
    verp_secret: str = field(default="", repr=False)
    verp_secret_file: str = ""


@record
class DatabaseSettings:
    url: str = DEFAULT_URL
    snapshot_every: int = DEFAULT_SNAPSHOT_EVERY


@record
class ImapSettings:
    host: str = "localhost"
    port: int = 993
    #: ``tls`` (implicit TLS) or ``none``; IMAP STARTTLS is not offered.
    tls: str = "tls"
    user: str = ""
    password: str = field(default="", repr=False)
    password_file: str = ""
    folder: str = "INBOX"
    #: Where processed mail is moved; empty: it stays, flagged as processed.
    processed_folder: str = ""
    #: Seconds between polls when the server has no IDLE (or ``idle`` is off).
    poll_seconds: float = 60.0
    idle: bool = True
    timeout: float = 30.0


@record
class SmtpSettings:
    host: str = "localhost"
    port: int = 587
    tls: str = "starttls"
    user: str = ""
    password: str = field(default="", repr=False)
    password_file: str = ""
    timeout: float = 60.0
    #: Seconds between looks at the outbox (mail written by a transaction is also sent
    #: at once).
    send_seconds: float = 10.0
    #: Seconds a sender's claim keeps other senders off a mail (``outbox.LEASE``),
    #: renewed four times a lease while it works: a dead sender's mail goes out from
    #: another within about this long.
    lease_seconds: float = 20.0


@record
class GnupgSettings:
    #: The moderator's GnuPG home; empty: mail goes out unsigned and only secrets
    #: authenticate players (for tests and trials, never for a real game).
    home: str = ""
    #: The fingerprint of the moderator's signing key.
    key: str = ""
    passphrase_file: str = ""


@record
class DkimSettings:
    """
    The moderator's own DKIM signature (``moderator.mail.dkim``), for a relay that does
    not sign for the moderator's domain: off while ``key_file`` is empty.
    """

    #: The selector: the key is published at ``SELECTOR._domainkey.DOMAIN``.
    selector: str = ""
    #: The signing domain; empty: the domain of the moderator's address.
    domain: str = ""
    #: The RSA private key (PEM), readable by the service only.
    key_file: str = ""


@record
class ServiceSettings:
    #: Automatic answers to one address in a day before mail from it is held.
    reply_budget: int = 200
    #: Order lines read from one mail.
    max_lines: int = 100
    #: Seconds between deadline checks.
    deadline_seconds: float = 60.0
    #: An outage longer than this (hours) extends every deadline instead of timing
    #: players out for the moderator's absence.
    max_outage_hours: float = 12.0
    #: How long (hours) a believed bounce pauses the deadline of the player whose mail
    #: bounced, once per deadline (``moderator.usecases.mail.bounces``).
    bounce_pause_hours: float = 48.0
    #: Mails signed and sent at once.
    send_concurrency: int = 4
    #: Mails one player's shows and messages (Wolff 4.5) may cause another player of a
    #: game to get at once in a day (UTC); beyond it they wait for his next report.
    aside_mails_a_day: int = 20
    #: Seconds between looks at the tournaments: games formed from their waiting lists,
    #: finished games scored and their standings mailed.
    tournament_seconds: float = 300.0
    #: How old (days) a signature may be; each signed text acts once, and its seal is
    #: kept this long (``moderator.usecases.mail.seals``).
    signature_days: int = 14
    #: The largest mail read (KiB); larger ones are archived and not read.  The other
    #: caps (parts, nesting, headers, lines) are ``moderator.mail.limits``'s.
    max_mail_kib: int = 1024


@record
class VariantsSettings:
    """A group's own variants (docs/variants.md), installed by the composition root."""

    #: A directory holding one variant directory each; empty: the shipped ones only.
    directory: str = ""


@record
class Config:
    """The whole configuration (see the module's text)."""

    moderator: ModeratorSettings = field(default_factory=ModeratorSettings)
    database: DatabaseSettings = field(default_factory=DatabaseSettings)
    imap: ImapSettings = field(default_factory=ImapSettings)
    smtp: SmtpSettings = field(default_factory=SmtpSettings)
    gnupg: GnupgSettings = field(default_factory=GnupgSettings)
    service: ServiceSettings = field(default_factory=ServiceSettings)
    dkim: DkimSettings = field(default_factory=DkimSettings)
    variants: VariantsSettings = field(default_factory=VariantsSettings)
    #: Where the values came from ("file.toml", "environment"), for messages.
    source: str = "defaults"

    @property
    def imap_password(self) -> str:
        return _secret(self.imap.password, self.imap.password_file, "imap")

    @property
    def smtp_password(self) -> str:
        return _secret(self.smtp.password, self.smtp.password_file, "smtp")

    @property
    def verp_key(self) -> bytes | None:
        """
        The key of the VERP tags (None: ``verp`` is off).  A key of its own when one is
        set; else one derived from the mailbox passwords, so that it stays the same
        from one start to the next (a bounce may come back days after its mail) without
        another secret to keep.  Without any of them (a trial set-up) it is derived from
        the moderator's address alone, and a bounce's tag proves little.
        """
        moderator = self.moderator
        if not moderator.verp:
            return None
        own = _secret(moderator.verp_secret, moderator.verp_secret_file, "moderator")
        material = (
            ["own", own]
            if own
            else ["derived", self.imap_password, self.smtp_password, moderator.address.lower()]
        )
        return hashlib.sha256("\0".join(["titan-verp", *material]).encode("utf-8")).digest()

    @property
    def dkim_domain(self) -> str:
        """The domain DKIM signs for: ``[dkim] domain``, else the moderator's address's."""
        return self.dkim.domain or self.moderator.address.rpartition("@")[2]

    @property
    def gpg_passphrase(self) -> str | None:
        if not self.gnupg.passphrase_file:
            return None
        return _secret("", self.gnupg.passphrase_file, "gnupg")


_SECTIONS: dict[str, type] = {
    "moderator": ModeratorSettings,
    "database": DatabaseSettings,
    "imap": ImapSettings,
    "smtp": SmtpSettings,
    "gnupg": GnupgSettings,
    "service": ServiceSettings,
    "dkim": DkimSettings,
    "variants": VariantsSettings,
}


def load_config(
    path: str | os.PathLike[str] | None, environ: Mapping[str, str] | None = None
) -> Config:
    """
    The configuration from ``path`` (None: defaults only) and ``environ`` (default: the
    process environment).

    Raises:
        ConfigError: the file cannot be read, or a section, key or value is wrong.
    """
    env = os.environ if environ is None else environ
    data: dict[str, Any] = {}
    source = "defaults"
    if path is not None:
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"cannot read the configuration file {str(path)!r}: {exc}") from exc
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{str(path)!r} is not valid TOML: {exc}") from exc
        source = str(path)
    unknown = sorted(set(data) - set(_SECTIONS))
    if unknown:
        raise ConfigError(
            f"{source}: unknown section(s) {', '.join(unknown)}; "
            f"the sections are {', '.join(_SECTIONS)}"
        )
    sections: dict[str, Any] = {}
    for name, kind in _SECTIONS.items():
        table = data.get(name, {})
        if not isinstance(table, dict):
            raise ConfigError(f"{source}: [{name}] must be a table")
        sections[name] = _section(name, kind, table, env, source)
    config = Config(**sections, source=source)
    _check(config)
    return config


def _section(
    name: str, kind: type, table: Mapping[str, Any], env: Mapping[str, str], source: str
) -> Any:
    known = {f.name: f for f in fields(kind)}
    unknown = sorted(set(table) - set(known))
    if unknown:
        raise ConfigError(
            f"{source}: unknown key(s) in [{name}]: {', '.join(unknown)}; "
            f"the keys are {', '.join(known)}"
        )
    values: dict[str, Any] = {}
    for key, spec in known.items():
        default = spec.default
        value: Any = table.get(key, default)
        variable = f"{ENV_PREFIX}{name}_{key}".upper()
        if name == "database" and key == "url" and env.get(ENV_VAR):
            value = env[ENV_VAR]
        elif variable in env:
            value = env[variable]
        values[key] = _typed(value, type(default), f"[{name}] {key}", variable)
    return kind(**values)


def _typed(value: Any, kind: type, what: str, variable: str) -> Any:
    if kind is bool:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
        raise ConfigError(f"{what} (or ${variable}) must be true or false, not {value!r}")
    if kind in (int, float):
        try:
            number = kind(value) if not isinstance(value, bool) else None
        except (TypeError, ValueError):
            number = None
        if number is None or not math.isfinite(number) or (kind is int and number != float(value)):
            whole = " (a whole one)" if kind is int else ""
            raise ConfigError(f"{what} (or ${variable}) must be a number{whole}, not {value!r}")
        if number < 0:
            raise ConfigError(f"{what} (or ${variable}) cannot be negative")
        return number
    if not isinstance(value, str):
        raise ConfigError(f"{what} (or ${variable}) must be a string, not {value!r}")
    return value


def _check(config: Config) -> None:
    for name, mode in (("imap", config.imap.tls), ("smtp", config.smtp.tls)):
        allowed = ("none", "tls") if name == "imap" else TLS_MODES
        if mode not in allowed:
            raise ConfigError(f"[{name}] tls must be one of {', '.join(allowed)}, not {mode!r}")
    if "@" not in config.moderator.address:
        raise ConfigError(
            f"[moderator] address must be a mail address, not {config.moderator.address!r}"
        )
    if bool(config.gnupg.home) != bool(config.gnupg.key):
        raise ConfigError(
            "[gnupg] home and key go together: give the GnuPG home and the fingerprint "
            "of the moderator's key, or neither (unsigned mail, for trials only)"
        )
    if config.imap.password and config.imap.password_file:
        raise ConfigError("[imap] give password or password_file, not both")
    if config.smtp.password and config.smtp.password_file:
        raise ConfigError("[smtp] give password or password_file, not both")
    if config.moderator.verp_secret and config.moderator.verp_secret_file:
        raise ConfigError("[moderator] give verp_secret or verp_secret_file, not both")
    if config.smtp.lease_seconds < 1:
        raise ConfigError("[smtp] lease_seconds must be at least 1")
    if config.imap.poll_seconds < 1:
        raise ConfigError("[imap] poll_seconds must be at least 1")
    if config.database.snapshot_every < 1:
        raise ConfigError("[database] snapshot_every must be at least 1")
    if config.service.tournament_seconds <= 0:
        raise ConfigError("[service] tournament_seconds must be more than 0")
    if config.dkim.key_file and not config.dkim.selector:
        raise ConfigError(
            "[dkim] key_file needs a selector: the name the key is published under, "
            "SELECTOR._domainkey.DOMAIN (e.g. selector = \"titan2027\")"
        )


def example_text() -> str:
    """
    The example configuration, every key with a comment: from the installed package,
    or from ``deploy/`` in a source checkout.

    Raises:
        ConfigError: neither is there (a broken install).
    """
    for path in (EXAMPLE, SOURCE_EXAMPLE):
        if path.is_file():
            return path.read_text(encoding="utf-8")
    raise ConfigError(f"no example configuration: looked at {EXAMPLE} and {SOURCE_EXAMPLE}")


def _secret(value: str, path: str, section: str) -> str:
    if not path:
        return value
    try:
        return Path(path).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"[{section}] cannot read the secret file {path!r}: {exc}") from exc
