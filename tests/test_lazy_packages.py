"""
A package whose names are imported when first asked for (``moderator.lazy``) lists
each name twice: in its ``if TYPE_CHECKING:`` imports, which type checkers read, and
in ``_HOMES``, which the running program reads.  The two must name the same names in
the same modules, or a name works under mypy and fails at run time (or the reverse).
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

LAZY = ["moderator.ports", "moderator.store", "moderator.orders", "moderator.reporting"]


def _type_checking_imports(package: str) -> dict[str, str]:
    module = importlib.import_module(package)
    tree = ast.parse(Path(str(module.__file__)).read_text(encoding="utf-8"))
    names: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for stmt in node.body:
                assert isinstance(stmt, ast.ImportFrom) and stmt.module is not None
                names.update({alias.asname or alias.name: stmt.module for alias in stmt.names})
    return names


@pytest.mark.parametrize("package", LAZY)
def test_a_lazy_package_runs_with_the_names_its_type_checkers_read(package: str) -> None:
    module = importlib.import_module(package)
    assert _type_checking_imports(package) == module._HOMES
    for name in module._HOMES:
        assert getattr(module, name) is not None
