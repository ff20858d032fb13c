"""
The service's configuration (``moderator.runtime.config``), and the deployment files
in ``deploy/`` that use it: the example loads, defaults, environment overrides,
password files, and a message naming the key for every mistake.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import fields
from pathlib import Path

import pytest

from moderator.runtime.config import (
    _SECTIONS,
    Config,
    ConfigError,
    DatabaseSettings,
    ImapSettings,
    load_config,
)
from moderator.store.config import DEFAULT_URL, ENV_VAR

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
EXAMPLE = DEPLOY / "config.example.toml"
FINGERPRINT = "0123456789ABCDEF0123456789ABCDEF01234567"


def write(tmp_path: Path, text: str, name: str = "config.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error_of(path: Path | None, environ: dict[str, str] | None = None) -> str:
    with pytest.raises(ConfigError) as caught:
        load_config(path, environ or {})
    return str(caught.value)


# -- the example in deploy/ ---------------------------------------------------------------


def test_the_example_configuration_loads_with_the_documented_values() -> None:
    config = load_config(EXAMPLE, {})
    assert config.source == str(EXAMPLE)
    assert config.moderator.address == "titan@example.org"
    assert config.moderator.gm_address == "gm@example.org"
    assert config.database.url == "postgresql+psycopg://titan@localhost/titan"
    assert config.database.snapshot_every == 500
    imap = config.imap
    assert (imap.host, imap.port, imap.tls, imap.user) == (
        "imap.example.org",
        993,
        "tls",
        "titan@example.org",
    )
    assert (imap.password, imap.password_file) == ("", "/etc/titan-moderator/imap.password")
    assert (imap.folder, imap.processed_folder, imap.idle) == ("INBOX", "Processed", True)
    smtp = config.smtp
    assert (smtp.host, smtp.port, smtp.tls, smtp.user) == (
        "smtp.example.org",
        587,
        "starttls",
        "titan@example.org",
    )
    assert (smtp.password, smtp.password_file) == ("", "/etc/titan-moderator/smtp.password")
    assert config.gnupg.home == "/var/lib/titan-moderator/gnupg"
    assert re.fullmatch(r"[0-9A-F]{40}", config.gnupg.key)
    assert config.gnupg.passphrase_file == "" and config.gpg_passphrase is None


def test_the_example_names_every_section_and_key() -> None:
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    assert list(data) == list(_SECTIONS)
    for name, kind in _SECTIONS.items():
        assert set(data[name]) == {f.name for f in fields(kind)}, name


def test_the_moderators_guide_explains_every_key() -> None:
    guide = (ROOT / "docs" / "moderators.md").read_text(encoding="utf-8")
    for name, kind in _SECTIONS.items():
        assert f"`[{name}]`" in guide, name
        for spec in fields(kind):
            assert f"`{spec.name}`" in guide, f"[{name}] {spec.name}"


def test_the_example_with_the_compose_overrides() -> None:
    """What deploy/compose.yaml sets in the environment replaces the file's values."""
    environ = {
        "TITAN_MODERATOR_DB": "postgresql+psycopg://titan@db/titan",
        "TITAN_IMAP_PASSWORD_FILE": "/run/secrets/imap_password",
        "TITAN_SMTP_PASSWORD_FILE": "/run/secrets/smtp_password",
    }
    config = load_config(EXAMPLE, environ)
    assert config.database.url == "postgresql+psycopg://titan@db/titan"
    assert config.imap.password_file == "/run/secrets/imap_password"
    assert config.smtp.password_file == "/run/secrets/smtp_password"


# -- defaults and the environment ---------------------------------------------------------


def test_no_file_gives_the_defaults() -> None:
    config = load_config(None, {})
    assert config == Config()
    assert config.source == "defaults"
    assert config.database.url == DEFAULT_URL
    assert config.imap == ImapSettings()
    assert (config.imap.port, config.imap.tls, config.smtp.port, config.smtp.tls) == (
        993,
        "tls",
        587,
        "starttls",
    )
    assert config.gnupg.home == "" and config.gpg_passphrase is None
    assert config.imap_password == "" and config.smtp_password == ""


def test_an_empty_file_gives_the_defaults(tmp_path: Path) -> None:
    path = write(tmp_path, "")
    config = load_config(path, {})
    assert config.source == str(path)
    assert config.imap == ImapSettings() and config.database == DatabaseSettings()


def test_a_string_from_the_environment_wins_over_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, '[smtp]\nhost = "smtp.example.org"\n')
    assert load_config(path, {}).smtp.host == "smtp.example.org"
    assert load_config(path, {"TITAN_SMTP_HOST": "relay.example.net"}).smtp.host == (
        "relay.example.net"
    )


def test_an_integer_from_the_environment() -> None:
    config = load_config(None, {"TITAN_IMAP_PORT": "143", "TITAN_SERVICE_MAX_LINES": "40"})
    assert config.imap.port == 143 and isinstance(config.imap.port, int)
    assert config.service.max_lines == 40


def test_a_float_from_the_environment() -> None:
    config = load_config(None, {"TITAN_IMAP_POLL_SECONDS": "2.5", "TITAN_SMTP_TIMEOUT": "5"})
    assert config.imap.poll_seconds == 2.5
    assert config.smtp.timeout == 5.0 and isinstance(config.smtp.timeout, float)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1", True),
        ("true", True),
        ("yes", True),
        ("ON", True),
        (" True ", True),
        ("0", False),
        ("false", False),
        ("no", False),
        ("Off", False),
    ],
)
def test_a_bool_from_the_environment(tmp_path: Path, text: str, value: bool) -> None:
    path = write(tmp_path, f"[imap]\nidle = {str(not value).lower()}\n")
    assert load_config(path, {"TITAN_IMAP_IDLE": text}).imap.idle is value


def test_the_environment_alone_overrides_the_defaults() -> None:
    config = load_config(None, {"TITAN_MODERATOR_ADDRESS": "titan@example.net"})
    assert config.moderator.address == "titan@example.net"
    assert config.source == "defaults"


def test_variables_of_other_programs_are_ignored() -> None:
    assert load_config(None, {"TITAN_IMAP_HOSTNAME": "x", "IMAP_HOST": "y"}) == Config()


def test_titan_moderator_db_overrides_the_database_url(tmp_path: Path) -> None:
    path = write(tmp_path, '[database]\nurl = "sqlite:////var/lib/titan/games.sqlite"\n')
    url = "postgresql+psycopg://titan@db/titan"
    assert load_config(path, {"TITAN_MODERATOR_DB": url}).database.url == url
    both = {"TITAN_MODERATOR_DB": url, "TITAN_DATABASE_URL": "sqlite:///other.sqlite"}
    assert load_config(path, both).database.url == url
    only = {"TITAN_DATABASE_URL": "sqlite:///other.sqlite"}
    assert load_config(path, only).database.url == "sqlite:///other.sqlite"
    # An empty TITAN_MODERATOR_DB counts as unset.
    assert load_config(path, {"TITAN_MODERATOR_DB": ""}).database.url == (
        "sqlite:////var/lib/titan/games.sqlite"
    )


# -- passwords and the passphrase ---------------------------------------------------------


def test_a_password_file_is_read_and_stripped(tmp_path: Path) -> None:
    (tmp_path / "imap.password").write_text("  imap s3cret \n", encoding="utf-8")
    (tmp_path / "smtp.password").write_text("smtp-s3cret\n", encoding="utf-8")
    (tmp_path / "gpg.passphrase").write_text("a long passphrase\n\n", encoding="utf-8")
    path = write(
        tmp_path,
        f'[imap]\npassword_file = "{tmp_path / "imap.password"}"\n'
        f'[smtp]\npassword_file = "{tmp_path / "smtp.password"}"\n'
        f'[gnupg]\nhome = "{tmp_path / "gnupg"}"\nkey = "{FINGERPRINT}"\n'
        f'passphrase_file = "{tmp_path / "gpg.passphrase"}"\n',
    )
    config = load_config(path, {})
    assert config.imap_password == "imap s3cret"
    assert config.smtp_password == "smtp-s3cret"
    assert config.gpg_passphrase == "a long passphrase"
    assert "s3cret" not in repr(config)


def test_a_password_file_named_in_the_environment(tmp_path: Path) -> None:
    (tmp_path / "pw").write_text("from-a-file\n", encoding="utf-8")
    config = load_config(None, {"TITAN_SMTP_PASSWORD_FILE": str(tmp_path / "pw")})
    assert config.smtp_password == "from-a-file"


def test_a_password_in_the_file_is_used_as_it_is(tmp_path: Path) -> None:
    path = write(tmp_path, '[imap]\npassword = "inline pw "\n')
    config = load_config(path, {})
    assert config.imap_password == "inline pw "
    assert "inline" not in repr(config)


def test_an_unreadable_password_file_names_the_section_and_file(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.password"
    config = load_config(None, {"TITAN_IMAP_PASSWORD_FILE": str(missing)})
    with pytest.raises(ConfigError, match=r"\[imap\] cannot read the secret file") as caught:
        _ = config.imap_password
    assert str(missing) in str(caught.value)
    config = load_config(None, {"TITAN_GNUPG_PASSPHRASE_FILE": str(missing)})
    with pytest.raises(ConfigError, match=r"\[gnupg\]"):
        _ = config.gpg_passphrase


# -- mistakes -----------------------------------------------------------------------------


def test_an_unknown_section(tmp_path: Path) -> None:
    message = error_of(write(tmp_path, '[imapp]\nhost = "x"\n'))
    assert "unknown section" in message and "imapp" in message
    assert "imap" in message.split("the sections are", 1)[1]


def test_a_top_level_key_is_an_unknown_section(tmp_path: Path) -> None:
    message = error_of(write(tmp_path, 'url = "sqlite:///x.sqlite"\n'))
    assert "unknown section" in message and "url" in message


def test_a_section_that_is_not_a_table(tmp_path: Path) -> None:
    assert "[imap] must be a table" in error_of(write(tmp_path, "imap = 5\n"))


def test_an_unknown_key(tmp_path: Path) -> None:
    message = error_of(write(tmp_path, '[imap]\nhostname = "imap.example.org"\n'))
    assert "[imap]" in message and "hostname" in message
    assert "host" in message.split("the keys are", 1)[1]


@pytest.mark.parametrize("text", ["maybe", "2", ""])
def test_a_bad_bool(text: str) -> None:
    message = error_of(None, {"TITAN_IMAP_IDLE": text})
    assert "[imap] idle" in message and "$TITAN_IMAP_IDLE" in message
    assert "true or false" in message


def test_a_bad_bool_in_the_file(tmp_path: Path) -> None:
    message = error_of(write(tmp_path, '[imap]\nidle = "sometimes"\n'))
    assert "[imap] idle" in message and "sometimes" in message


@pytest.mark.parametrize(
    ("variable", "key"),
    [
        ("TITAN_IMAP_PORT", "[imap] port"),
        ("TITAN_SMTP_TIMEOUT", "[smtp] timeout"),
        ("TITAN_SERVICE_REPLY_BUDGET", "[service] reply_budget"),
        ("TITAN_DATABASE_SNAPSHOT_EVERY", "[database] snapshot_every"),
    ],
)
def test_a_bad_number(variable: str, key: str) -> None:
    message = error_of(None, {variable: "many"})
    assert key in message and f"${variable}" in message and "must be a number" in message


def test_a_bad_number_in_the_file(tmp_path: Path) -> None:
    message = error_of(write(tmp_path, '[smtp]\nport = "submission"\n'))
    assert "[smtp] port" in message and "submission" in message


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("[smtp]\ntimeout = -1.0\n", "[smtp] timeout"),
        ("[imap]\nport = -993\n", "[imap] port"),
        ("[service]\nmax_lines = -5\n", "[service] max_lines"),
    ],
)
def test_a_negative_number(tmp_path: Path, text: str, key: str) -> None:
    message = error_of(write(tmp_path, text))
    assert key in message and "cannot be negative" in message


def test_poll_seconds_below_one(tmp_path: Path) -> None:
    message = error_of(write(tmp_path, "[imap]\npoll_seconds = 0.5\n"))
    assert "[imap] poll_seconds" in message


def test_lease_seconds_below_one(tmp_path: Path) -> None:
    message = error_of(write(tmp_path, "[smtp]\nlease_seconds = 0.5\n"))
    assert "[smtp] lease_seconds must be at least 1" in message


def test_the_senders_lease_is_the_configured_one_renewed_four_times_a_lease(
    tmp_path: Path,
) -> None:
    """A dead service's mail goes out again after ``lease_seconds`` (the crash test sets
    5 s so as not to sit out the default, the outbox's 20)."""
    from moderator.runtime.bootstrap import bootstrap
    from moderator.store.outbox import LEASE, RENEW_EVERY

    assert load_config(None, {}).smtp.lease_seconds == LEASE.total_seconds()
    assert LEASE / 4 == RENEW_EVERY
    url = f"sqlite:///{tmp_path}/a.db"
    app = bootstrap(load_config(write(tmp_path, "[smtp]\nlease_seconds = 5\n"), {ENV_VAR: url}))
    try:
        sender = app.sender
        assert (sender.lease.total_seconds(), sender.renew_every.total_seconds()) == (5.0, 1.25)
    finally:
        app.close()


def test_a_string_key_given_a_number(tmp_path: Path) -> None:
    message = error_of(write(tmp_path, "[smtp]\nhost = 25\n"))
    assert "[smtp] host" in message and "must be a string" in message


@pytest.mark.parametrize(
    ("section", "mode", "allowed"),
    [
        ("imap", "starttls", "none, tls"),
        ("imap", "ssl", "none, tls"),
        ("smtp", "ssl", "none, starttls, tls"),
        ("smtp", "STARTTLS", "none, starttls, tls"),
    ],
)
def test_a_wrong_tls_mode(tmp_path: Path, section: str, mode: str, allowed: str) -> None:
    message = error_of(write(tmp_path, f'[{section}]\ntls = "{mode}"\n'))
    assert f"[{section}] tls" in message and allowed in message and repr(mode) in message


def test_a_wrong_tls_mode_from_the_environment() -> None:
    assert "[smtp] tls" in error_of(None, {"TITAN_SMTP_TLS": "implicit"})


def test_a_moderator_address_without_an_at(tmp_path: Path) -> None:
    message = error_of(write(tmp_path, '[moderator]\naddress = "titan"\n'))
    assert "[moderator] address" in message


@pytest.mark.parametrize(
    "text",
    ['[gnupg]\nhome = "/var/lib/titan-moderator/gnupg"\n', f'[gnupg]\nkey = "{FINGERPRINT}"\n'],
)
def test_gnupg_home_and_key_go_together(tmp_path: Path, text: str) -> None:
    message = error_of(write(tmp_path, text))
    assert "[gnupg] home and key" in message


@pytest.mark.parametrize("section", ["imap", "smtp"])
def test_password_and_password_file_both(tmp_path: Path, section: str) -> None:
    path = write(tmp_path, f'[{section}]\npassword = "pw"\npassword_file = "/etc/pw"\n')
    message = error_of(path)
    assert f"[{section}]" in message and "password_file" in message


def test_a_password_from_the_environment_beside_a_password_file(tmp_path: Path) -> None:
    path = write(tmp_path, '[imap]\npassword_file = "/etc/titan-moderator/imap.password"\n')
    message = error_of(path, {"TITAN_IMAP_PASSWORD": "pw"})
    assert "[imap]" in message and "password_file" in message
    # Emptying the file's password_file from the environment lets the password in.
    environ = {"TITAN_IMAP_PASSWORD": "pw", "TITAN_IMAP_PASSWORD_FILE": ""}
    assert load_config(path, environ).imap_password == "pw"


def test_an_unreadable_configuration_file(tmp_path: Path) -> None:
    missing = tmp_path / "missing.toml"
    message = error_of(missing)
    assert "cannot read the configuration file" in message and str(missing) in message


def test_bad_toml(tmp_path: Path) -> None:
    path = write(tmp_path, '[imap\nhost = "x"\n')
    message = error_of(path)
    assert "not valid TOML" in message and str(path) in message


# -- the deployment files -----------------------------------------------------------------


def unit_settings(text: str) -> dict[str, dict[str, list[str]]]:
    """A systemd unit as section -> key -> values (a key may be given several times)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        assert current is not None, f"a setting outside any section: {line!r}"
        assert not line.endswith("\\"), "no continued lines, please"
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


def test_the_systemd_unit_runs_serve_with_the_config_after_a_db_upgrade() -> None:
    unit = unit_settings((DEPLOY / "titan-moderator.service").read_text(encoding="utf-8"))
    service = unit["Service"]
    (start,) = service["ExecStart"]
    command = start.split()
    assert command[0].startswith("/") and command[0].endswith("/titan-moderator")
    assert command[1:] == ["serve", "--config", "/etc/titan-moderator/config.toml"]
    (before,) = service["ExecStartPre"]
    assert before.split() == [command[0], "db", "upgrade"]
    # The db commands find the database through TITAN_MODERATOR_CONFIG: the same file.
    assert "TITAN_MODERATOR_CONFIG=/etc/titan-moderator/config.toml" in service["Environment"]
    assert service["User"] == ["titan-moderator"]
    assert service["Restart"] == ["on-failure"]
    assert service["NoNewPrivileges"] == ["yes"]
    assert service["ProtectSystem"] == ["strict"]
    assert service["StateDirectory"] == ["titan-moderator"]
    writable = " ".join(service["ReadWritePaths"]).split()
    example = load_config(EXAMPLE, {})
    assert "/var/lib/titan-moderator" in writable
    assert example.gnupg.home in writable
    assert unit["Install"]["WantedBy"] == ["multi-user.target"]


def test_the_containerfile() -> None:
    text = (DEPLOY / "Containerfile").read_text(encoding="utf-8")
    instructions = [
        line.split(None, 1) for line in text.splitlines() if line and line[0] not in "# "
    ]
    words = [parts[0] for parts in instructions]
    assert instructions[0] == ["FROM", "python:3.11-slim"]
    assert "apt-get install -y --no-install-recommends gnupg" in text
    assert "pip install --no-cache-dir ." in text
    (user,) = [parts[1] for parts in instructions if parts[0] == "USER"]
    assert user.strip() not in ("root", "0")
    assert words.index("USER") > max(i for i, w in enumerate(words) if w == "RUN")
    assert '"/var/lib/titan-moderator"' in dict(instructions)["VOLUME"]
    assert dict(instructions)["CMD"].strip() == (
        '["titan-moderator", "serve", "--config", "/etc/titan-moderator/config.toml"]'
    )


def test_compose_runs_the_moderator_beside_postgres() -> None:
    text = (DEPLOY / "compose.yaml").read_text(encoding="utf-8")
    try:
        import yaml
    except ImportError:  # no PyYAML: what can be seen in the text
        assert "image: postgres:16" in text
        assert "dockerfile: deploy/Containerfile" in text
        assert "./config.toml:/etc/titan-moderator/config.toml:ro" in text
        assert "TITAN_MODERATOR_DB: postgresql+psycopg://titan@db/titan" in text
        assert "POSTGRES_PASSWORD_FILE: /run/secrets/db_password" in text
        return
    data = yaml.safe_load(text)
    db, moderator = data["services"]["db"], data["services"]["moderator"]
    assert db["image"] == "postgres:16"
    assert db["environment"]["POSTGRES_PASSWORD_FILE"] == "/run/secrets/db_password"
    assert moderator["build"] == {"context": "..", "dockerfile": "deploy/Containerfile"}
    assert moderator["depends_on"]["db"]["condition"] == "service_healthy"
    assert "./config.toml:/etc/titan-moderator/config.toml:ro" in moderator["volumes"]
    environ = moderator["environment"]
    # Every password comes from a secret file, none from the environment itself.
    assert not any(k.endswith("PASSWORD") for k in environ)
    for key, value in environ.items():
        if key.endswith("_FILE") or key == "PGPASSFILE":
            assert value.startswith("/run/secrets/"), key
            assert value.removeprefix("/run/secrets/") in moderator["secrets"], key
    config = load_config(EXAMPLE, {k: str(v) for k, v in environ.items()})
    assert config.database.url == "postgresql+psycopg://titan@db/titan"
    declared = data["secrets"]
    for name in [*db["secrets"], *moderator["secrets"]]:
        assert declared[name]["file"] == f"./secrets/{name}"
    assert set(data["volumes"]) == {"db", "state"}
    assert "state:/var/lib/titan-moderator" in moderator["volumes"]


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("TITAN_IMAP_PORT", "993.7"),
        ("TITAN_IMAP_POLL_SECONDS", "nan"),
        ("TITAN_SMTP_TIMEOUT", "inf"),
        ("TITAN_DATABASE_SNAPSHOT_EVERY", "0"),
    ],
)
def test_numbers_must_be_whole_finite_and_useful(variable: str, value: str) -> None:
    with pytest.raises(ConfigError):
        load_config(None, {variable: value})


def test_a_boolean_is_not_a_port(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text("[imap]\nport = true\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"\[imap\] port"):
        load_config(path, {})


# -- VERP return paths ---------------------------------------------------------------------


def test_the_verp_key_stays_the_same_from_one_start_to_the_next(tmp_path: Path) -> None:
    """A bounce may come back days later, after a restart: its tag must still be good."""
    secret = write(tmp_path, "a key of our own\n", "verp.key")
    config = write(tmp_path, f'[moderator]\nverp_secret_file = "{secret}"\n')
    first, again = load_config(config, {}).verp_key, load_config(config, {}).verp_key
    assert first is not None and first == again
    derived = load_config(None, {"TITAN_IMAP_PASSWORD": "pw"}).verp_key
    assert derived is not None and derived != first
    assert derived == load_config(None, {"TITAN_IMAP_PASSWORD": "pw"}).verp_key
    assert derived != load_config(None, {"TITAN_IMAP_PASSWORD": "other"}).verp_key
    own = load_config(None, {"TITAN_MODERATOR_VERP_SECRET": "a key of our own"}).verp_key
    assert own == first  # the file's key and the same key given directly
    assert load_config(None, {"TITAN_MODERATOR_VERP": "off"}).verp_key is None


def test_a_verp_secret_and_its_file_together_are_refused(tmp_path: Path) -> None:
    path = write(tmp_path, '[moderator]\nverp_secret = "x"\nverp_secret_file = "/k"\n')
    assert "verp_secret or verp_secret_file" in error_of(path)
