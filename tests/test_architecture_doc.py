"""
docs/architecture.md is checked against the code (issue 25): its walk of an order mail
is the one ``benchmarks/walk_order_mail.py`` generates from a real poll (embedded mail
hub, SQLite), in 15 steps at most; every module path it and docs/mail-service.md name
exists, with the functions they name in it.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
BEGIN, END = "<!-- walk:begin -->\n", "<!-- walk:end -->"
REGENERATE = "regenerate it: python benchmarks/walk_order_mail.py --markdown"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "walk_order_mail", ROOT / "benchmarks" / "walk_order_mail.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def walked() -> tuple[ModuleType, Any]:
    script = _script()
    return script, script.walk()


def _doc_block() -> str:
    text = DOC.read_text(encoding="utf-8")
    assert text.count(BEGIN) == 1 and text.count(END) == 1, "one walk between the markers"
    return text.split(BEGIN, 1)[1].split(END, 1)[0]


def test_walk_of_an_order_mail_takes_at_most_15_steps(walked: tuple[ModuleType, Any]) -> None:
    script, result = walked
    assert result.order, "the player to act mailed an order"
    assert len(result.steps) <= script.MOST_STEPS, script.markdown(result)


def test_walk_reaches_smtp_through_the_unit_of_work(walked: tuple[ModuleType, Any]) -> None:
    """The mail is fetched, decided, written and committed, then sent: in that order."""
    _script_module, result = walked
    called = [(step.callee, name, step.end) for step in result.steps for name in step.functions]
    order = [
        ("moderator.mail.imap", "ImapSource.fetch_new", False),
        ("moderator.runners.mail", "process_message", False),
        ("moderator.usecases.mail.handler", "MailGameHandler.handle", False),
        ("moderator.store.unit_of_work", "write", False),
        ("moderator.store.eventstore", "EventStore.transaction", True),
        ("moderator.mail.smtp", "SmtpSession.send", False),
    ]
    positions = [called.index(entry) for entry in order]
    assert positions == sorted(positions), called
    assert {"usecases.mail.gate", "usecases.mail.play_mail", "usecases.games.run",
            "usecases.games.notify"} <= {m.removeprefix("moderator.") for m in result.decision}
    assert {"rules", "orders", "letters"} <= set(result.decision_parts)


def test_store_never_calls_back_up_during_the_walk(walked: tuple[ModuleType, Any]) -> None:
    """A callback from the store into a use case, runner or the runtime (import-linter
    sees imports, not the callables handed down) would undo the layering."""
    _script_module, result = walked
    assert result.upcalls == []


def test_doc_shows_the_generated_walk(walked: tuple[ModuleType, Any]) -> None:
    script, result = walked
    assert _doc_block() == script.markdown(result), REGENERATE


#: A path in backquotes that names a module or folder of the product.
PATH = re.compile(r"`((?:[a-z_]+/)+[a-z_0-9]+(?:\.py|/)?)`")
#: Paths that only the wheel has: the top-level templates/ folder is shipped there.
WHEEL_ONLY = {"moderator/templates/"}


@pytest.mark.parametrize("doc", ["architecture.md", "mail-service.md"])
def test_every_module_path_the_doc_names_exists(doc: str) -> None:
    text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    missing = []
    for path in sorted(set(PATH.findall(text)) - WHEEL_ONLY):
        candidates = [ROOT / path, ROOT / "moderator" / path]
        if not any(c.exists() or c.with_suffix(".py").exists() for c in candidates):
            missing.append(path)
    assert missing == [], f"docs/{doc} names paths that do not exist: {missing}"


#: A module path and a name in it, in backquotes: `store/inbox.last_seen`.
NAMED = re.compile(r"`((?:[a-z_]+/)+[a-z_0-9]+)\.([A-Za-z_][A-Za-z_0-9.]*)`")


@pytest.mark.parametrize("doc", ["architecture.md", "mail-service.md"])
def test_every_function_the_doc_names_in_a_module_is_there(doc: str) -> None:
    text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    missing = []
    for path, name in sorted(set(NAMED.findall(text))):
        if name == "py" or not (ROOT / "moderator" / f"{path}.py").exists():
            continue  # a data file (`x.toml`), a script, a test: not a module of the product
        found: object = importlib.import_module("moderator." + path.replace("/", "."))
        for attribute in name.split("."):
            found = getattr(found, attribute, None)
        if found is None:
            missing.append(f"{path}.{name}")
    assert missing == [], f"docs/{doc} names what its module does not hold: {missing}"
