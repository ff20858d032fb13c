"""
Issue 28, a quick command line: a command imports what it uses and no more.  A script
that plays a game through ``local order`` starts Python once an order, so the mail
stack, the scheduler, GnuPG and the picture raster must not load for a command that
reads one game; ``verify`` reads files only, so not even the database.

Each command runs as its own process under ``python -X importtime``, which names every
module the process imported; the tests hold the sets of modules, never the time.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from moderator.cli import app
from moderator.cli.quick import parsed
from moderator.rules.variant import shipped_variants

runner = CliRunner()

#: The adapters (and their libraries) that only ``serve``, ``worker``, the demos and the
#: pictures use.
ADAPTERS = frozenset(
    {
        "aiosmtplib",
        "aioimaplib",
        "gnupg",
        "apscheduler",
        "dkim",
        "cairosvg",
        "resvg_py",
        "PIL",
        "moderator.mail.imap",
        "moderator.mail.smtp",
        "moderator.mail.gpg",
        "moderator.mail.dkim",
        "moderator.pictures.raster",
        "moderator.runtime.picture_worker",
        "moderator.runtime.poller",
        "moderator.runtime.sender",
        "moderator.runtime.service",
        "moderator.usecases.mail.handler",
    }
)
#: What a command that opens no database has no use for.
STORE = frozenset(
    {"sqlalchemy", "sqlmodel", "moderator.store.eventstore", "moderator.runtime.bootstrap"}
)


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}


def imported(*argv: str, ok: int = 0, env: dict[str, str] | None = None) -> set[str]:
    """
    The modules ``python -m moderator ARGV`` imported, read from ``-X importtime``
    (``env``: more environment variables).
    """
    env = {**_env(), **(env or {})}
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "moderator", *argv],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == ok, done.stdout + done.stderr
    return {
        line.rsplit("|", 1)[1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }


def loaded(modules: set[str], names: frozenset[str]) -> set[str]:
    """Those of ``names`` among ``modules``, a package counting with its submodules."""
    return {n for n in names if any(m == n or m.startswith(n + ".") for m in modules)}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('quick') / 'games.sqlite'}"
    made = runner.invoke(app, ["local", "new", "g1", "--players", "Ann,Bob", "--dice-seed", "1", "--db", url])
    assert made.exit_code == 0, made.output
    return url


def test_issue_28_local_show_imports_no_adapter(db: str, tmp_path: Path) -> None:
    # A group's own variants are the composition root's to install: the store reads
    # the game then, not the quick reader.
    own = {"TITAN_VARIANTS_DIRECTORY": str(tmp_path)}
    modules = imported("local", "show", "g1", "--as", "Ann", "--db", db, env=own)
    assert "moderator.store.eventstore" in modules  # it did read the game
    assert loaded(modules, ADAPTERS) == set()


def test_issue_28_local_legal_json_imports_no_adapter_and_no_order_runner(db: str) -> None:
    modules = imported("local", "legal", "g1", "--json", "--db", db)
    beyond = {"moderator.runners.commands", "moderator.audit.verify"}
    assert loaded(modules, ADAPTERS | beyond) == set()


#: What the quick reads of a SQLite file do without: typer (which builds a pydantic
#: validator for every option it reads), the store's SQLAlchemy and its tables.
QUICK = frozenset({"typer", "pydantic", "sqlalchemy", "sqlmodel", "moderator.store.eventstore"})


@pytest.mark.parametrize(
    "argv",
    [
        ("local", "show", "g1", "--as", "Ann"),
        ("local", "show", "--json", "--as=Ann", "g1"),
        ("local", "legal", "g1"),
        ("local", "legal", "g1", "--json"),
    ],
)
def test_issue_28_a_read_of_a_sqlite_file_loads_neither_typer_nor_sqlalchemy(
    db: str, argv: tuple[str, ...]
) -> None:
    modules = imported(*argv, "--db", db)
    assert "moderator.store.quick" in modules  # it did read the game
    assert loaded(modules, QUICK | ADAPTERS) == set()


def test_issue_28_a_show_after_the_first_loads_no_jinja2_and_prints_the_same(
    db: str, tmp_path: Path
) -> None:
    """The first ``local show`` renders the status through Jinja2 and keeps the code Jinja2
    compiled it to (``letters.compiled``), and the shipped variant's parsed files
    (``runtime.variant_cache``); the next runs that code without Jinja2 and parses no TOML."""
    cache = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    argv = ("local", "show", "g1", "--as", "Ann", "--db", db)
    shown = []
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "moderator", *argv],
            capture_output=True, text=True, env={**_env(), **cache}, check=True,
        )
        modules = {
            line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if "|" in line
        }
        shown.append((done.stdout, loaded(modules, frozenset({"jinja2", "tomllib"}))))
    assert shown[0][1] == {"jinja2", "tomllib"} and shown[1][1] == set()
    assert shown[0][0] == shown[1][0]
    for json_too in ((), ("--json",)):
        assert loaded(imported(*argv, *json_too, env=cache), QUICK | ADAPTERS | {"jinja2"}) == set()


def test_issue_28_the_quick_path_takes_only_the_plain_read_and_verify_command_lines() -> None:
    assert parsed(["local", "show", "g1", "--as", "Ann", "--db", "sqlite:///x"]) == (
        "show", ("g1",), {"--as": "Ann", "--db": "sqlite:///x"}
    )
    assert parsed(["local", "legal", "--json", "g1"]) == ("legal", ("g1",), {"--json": True})
    assert parsed(["local", "order", "g1", "roll", "--as", "Ann", "--config=c.toml"]) == (
        "order", ("g1", "roll"), {"--as": "Ann", "--config": "c.toml"}
    )
    for argv in (
        ["local", "show", "g1"],  # --as is required: typer says so
        ["local", "show", "g1", "--as", "Ann", "--as", "Bob"],
        ["local", "show", "g1", "g2", "--as", "Ann"],
        ["local", "show", "g1", "--as"],
        ["local", "legal", "g1", "--json=yes"],
        ["local", "legal", "g1", "--help"],
        ["local", "legal", "--", "g1"],
        ["local", "legal", "g1", "-j"],
        ["local", "order", "g1", "--as", "Ann"],  # no orders
        ["local", "order", "g1", "roll", "done", "--as", "Ann"],
        ["local", "order", "g1", "roll"],  # --as is required
        ["local", "legal"],
        ["--help"],
        ["verify"],
        ["verify", "a.json", "--report"],
        ["verify", "a.json", "--help"],
        ["verify", "a.json", "b.json"],
    ):
        assert parsed(argv) is None, argv
    assert parsed(["verify", "--report", "m.eml", "a.json", "--report=n.eml"]) == (
        "verify", ("a.json",), {"--report": ["m.eml", "n.eml"]}
    )
    assert parsed(["verify", "a.json"]) == ("verify", ("a.json",), {"--report": []})


def test_issue_28_an_order_whose_configuration_typer_reads_from_the_environment_goes_to_typer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TITAN_MODERATOR_CONFIG", "moderator.toml")
    assert parsed(["local", "order", "g1", "roll", "--as", "Ann"]) is None


def test_issue_28_what_the_quick_path_cannot_read_the_store_answers(
    db: str, tmp_path: Path
) -> None:
    """A missing game or file gets the store's own error, whichever path a command takes."""
    missing = f"sqlite:///{tmp_path / 'missing.sqlite'}"
    for argv in (
        ("local", "show", "nobody", "--as", "Ann", "--db", db),
        ("local", "legal", "g1", "--json", "--db", missing),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "moderator", *argv],
            capture_output=True, text=True, env=_env(), check=False,
        )
        typed = runner.invoke(app, list(argv))
        assert (done.returncode, done.stderr) == (typed.exit_code, typed.output)
        assert done.returncode == 2 and done.stderr.startswith("error: ")


def test_issue_28_local_order_imports_no_adapter_and_no_typer(db: str) -> None:
    legal = runner.invoke(app, ["local", "legal", "g1", "--json", "--db", db])
    actions = json.loads(legal.output)
    line = actions["actions"][0]["order"]
    modules = imported("local", "order", "g1", line, "--as", actions["player"], "--db", db)
    assert "moderator.runners.commands" in modules
    # no robot holds a seat: no letter is rendered, so neither Jinja2 nor the bounce
    # detectors are loaded
    beyond = {"typer", "moderator.cli.commands", "jinja2", "flufl"}
    assert loaded(modules, ADAPTERS | beyond) == set()


def test_issue_28_an_order_in_a_process_of_its_own_answers_as_typer_does(
    db: str, tmp_path: Path
) -> None:
    """The plain ``local order`` runs without typer (``cli.quick``); on two copies of
    one game, it and typer's command print the same and exit alike, whatever happens."""
    source = Path(db.removeprefix("sqlite:///"))
    actions = json.loads(runner.invoke(app, ["local", "legal", "g1", "--json", "--db", db]).output)
    line, player = actions["actions"][0]["order"], actions["player"]
    other = "Bob" if player == "Ann" else "Ann"
    config = tmp_path / "bad.toml"
    config.write_text("not toml [")
    codes = []
    for number, argv in enumerate((
        ["local", "order", "g1", line, "--as", player],  # accepted
        ["local", "order", "g1", line, "--as", other],  # not his turn: rejected
        ["local", "order", "nobody", "roll", "--as", player],  # no such game
        ["local", "order", "g1", line, "--as", player, "--config", str(config)],
    )):
        ends = []
        for way in ("quick", "typer"):
            copy = tmp_path / f"{number}-{way}.sqlite"
            copy.write_bytes(source.read_bytes())
            full = [*argv, "--db", f"sqlite:///{copy}"]
            if way == "quick":
                done = subprocess.run(
                    [sys.executable, "-m", "moderator", *full],
                    capture_output=True, text=True, env=_env(), check=False,
                )
                ends.append((done.returncode, done.stdout + done.stderr))
            else:
                typed = runner.invoke(app, full)
                ends.append((typed.exit_code, typed.output))
        assert ends[0] == ends[1], argv
        codes.append(ends[0][0])
    assert codes == [0, 1, 2, 2]


def test_issue_28_verify_opens_no_database_and_imports_no_adapter(tmp_path: Path) -> None:
    missing = tmp_path / "audit-none.json"
    modules = imported("verify", str(missing), ok=2)  # a bundle it cannot read: exit 2
    assert loaded(modules, ADAPTERS | STORE) == set()


def test_issue_28_a_plain_verify_loads_no_typer(tmp_path: Path) -> None:
    bundle = tmp_path / "audit-g1.json"
    bundle.write_text("{}")
    modules = imported("verify", str(bundle), "--report", str(bundle), ok=1)  # no events
    assert "moderator.audit.verify" in modules  # it did check the bundle
    assert loaded(modules, QUICK | ADAPTERS | {"moderator.cli.commands"}) == set()


def test_issue_28_help_lists_the_commands_and_variants_without_the_store_or_adapters() -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run(
        [sys.executable, "-m", "moderator", "local", "new", "--help"],
        capture_output=True, text=True, env=env, check=True,
    )
    text = "".join(done.stdout.split())  # click wraps, at a hyphen too
    assert all(name in text for name in shipped_variants())
    modules = imported("--help")
    beyond = {"moderator.runners", "moderator.usecases.games.reads", "moderator.rules.state"}
    assert loaded(modules, ADAPTERS | STORE | beyond) == set()


@pytest.mark.long
def test_issue_28_the_quick_read_and_the_service_read_agree(tmp_path: Path) -> None:
    """
    ``local show`` and ``local legal`` in a process of their own (no adapter) answer
    what the composition root's store answers inside a running program, after the game
    has moved on.
    """
    from moderator.runners.unit import read
    from moderator.runtime.bootstrap import bootstrap, database_config
    from moderator.usecases.games.reads import legal, show

    url = f"sqlite:///{tmp_path / 'agree.sqlite'}"
    made = runner.invoke(app, ["local", "new", "g1", "--players", "Ann,Bob,Cy", "--dice-seed", "4", "--db", url])
    assert made.exit_code == 0, made.output
    for _ in range(8):
        actions = json.loads(runner.invoke(app, ["local", "legal", "g1", "--json", "--db", url]).output)
        line = actions["actions"][0]["order"]
        given = runner.invoke(app, ["local", "order", "g1", line, "--as", actions["player"], "--db", url])
        assert given.exit_code == 0, given.output
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}

    def quick(*argv: str) -> object:
        done = subprocess.run(
            [sys.executable, "-m", "moderator", "local", *argv, "--db", url],
            capture_output=True, text=True, env=env, check=True,
        )
        return json.loads(done.stdout)

    service = bootstrap(database_config(url), create=False)
    try:
        store = service.store
        for seat in ("Ann", "Bob", "Cy"):
            seen = read(store, lambda lookup, _now, seat=seat: show(lookup, "g1", seat))
            assert quick("show", "g1", "--as", seat, "--json") == json.loads(json.dumps(seen))
        offered = read(store, lambda lookup, _now: legal(lookup, "g1"))
        assert quick("legal", "g1", "--json") == json.loads(json.dumps(offered))
    finally:
        service.close()



def test_issue_28_a_read_whose_reader_went_away_ends_quietly_either_way(
    db: str, tmp_path: Path
) -> None:
    """``local legal | head``: exit 1 and no traceback, on the quick path as under typer."""
    ends = []
    for extra in ({}, {"TITAN_VARIANTS_DIRECTORY": str(tmp_path)}):  # quick, then typer's
        read_end, write_end = os.pipe()
        os.close(read_end)  # nobody reads: the first write fails
        try:
            done = subprocess.run(
                [sys.executable, "-m", "moderator", "local", "legal", "g1", "--json", "--db", db],
                stdout=write_end, stderr=subprocess.PIPE, text=True, env={**_env(), **extra},
                check=False,
            )
        finally:
            os.close(write_end)
        ends.append((done.returncode, done.stderr))
    assert ends == [(1, ""), (1, "")]
