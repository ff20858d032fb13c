"""
Package names imported when first asked for (PEP 562).

A package that gathers the names of its modules (``moderator.ports``, ``store``,
``orders``, ``reporting``) would otherwise import every module when any one is
needed; a command line that reads one game then pays for the mail's, the order
parser's or the narrative's modules at each start (issue 28).  With ``lazy_names`` a
package's ``__init__`` names where each lives and imports nothing itself; type checkers
read the same names from its ``if TYPE_CHECKING:`` imports.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_names(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """
    The ``__getattr__`` of ``package``: a name of ``homes`` (name -> module) is imported
    from its module when first asked for and kept in the package.
    """

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(home), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__


__all__ = ["lazy_names"]
