"""
What import-linter cannot check because tests and benchmarks are no package: they
import nothing from ``moderator.demo`` (issue 25).  The demo is a product command; what
tests need from it is test support and lives in ``moderator.testing`` (the mail robots,
their keys and stamps, a game by mail), and the demo's own tests run its command line.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = "moderator.demo"


def _names_the_demo(module: str) -> bool:
    return module == FORBIDDEN or module.startswith(FORBIDDEN + ".")


def demo_imports(source: str) -> list[int]:
    """
    The lines of ``source`` that import ``moderator.demo`` or a module of it: import
    statements (``from moderator import demo`` too) and a module named by a string
    (``importlib.import_module("moderator.demo.x")`` or a list of modules to try).
    """
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found = any(_names_the_demo(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            found = _names_the_demo(module) or (
                module == "moderator" and any(alias.name == "demo" for alias in node.names)
            )
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found = _names_the_demo(node.value.strip())
        else:
            continue
        if found:
            lines.append(node.lineno)
    return sorted(lines)


def test_the_demo_import_check_finds_every_way_of_importing_it():
    source = (
        "import moderator.demo.mail_demo\n"
        "from moderator.demo.keys import keep\n"
        "from moderator import demo\n"
        "importlib.import_module('moderator.demo.keys')\n"
        "from moderator.testing import mailrobot\n"
        "'the moderator.demo package'\n"
    )
    assert demo_imports(source) == [1, 2, 3, 4]


def test_issue_25_tests_and_benchmarks_import_nothing_from_the_demo():
    offenders = [
        f"{path.relative_to(ROOT)}:{line}"
        for folder in ("tests", "benchmarks")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if path != Path(__file__).resolve()  # this file names the demo to look for it
        for line in demo_imports(path.read_text())
    ]
    assert not offenders, (
        "tests and benchmarks must not import moderator.demo (use moderator.testing, or "
        "run the demo by its command line): " + ", ".join(offenders)
    )
