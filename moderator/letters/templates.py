"""
The templates every letter is rendered over, and the register of letters.

The templates live in the repository's top-level ``templates/`` folder; a built wheel
carries them as ``moderator/templates/`` (pyproject's hatch ``force-include``).  Both
places are searched, the installed one first.  Templates only loop and format: what
they print is computed by the use cases (and the view-models of
``moderator.reporting.views``) and handed to a letter as plain values.

The Jinja2 environment is held by a ``Templates`` object that builds it on first use
and keeps it: the package owns one (``TEMPLATES``), so importing a letter reads no file
and a letter never rendered costs nothing.  Nothing else in the product imports Jinja2
(an import-linter contract says so).

``letter(*names)`` marks a function as a letter and records the templates it renders,
so a test can hold the letters and the templates folder against each other: no
template that no letter renders, no letter whose template is missing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from jinja2 import Environment, FileSystemLoader, StrictUndefined

#: Where an installed package keeps its templates (the wheel's ``moderator/templates``).
PACKAGE_TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
#: Where a source checkout keeps them (the repository's ``templates``).
SOURCE_TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def template_dirs() -> list[Path]:
    """The folders templates are loaded from, in the order they are searched."""
    return [d for d in (PACKAGE_TEMPLATES, SOURCE_TEMPLATES) if d.is_dir()]


class Templates:
    """
    The text-template environment (no HTML escaping, an undefined name is an error),
    built from ``dirs`` (default: ``template_dirs()``) the first time a letter renders.
    """

    def __init__(self, dirs: list[Path] | None = None) -> None:
        self._dirs = dirs
        self._environment: Environment | None = None

    @property
    def environment(self) -> Environment:
        """The Jinja2 environment, built once."""
        if self._environment is None:
            dirs = self._dirs if self._dirs is not None else template_dirs()
            if not dirs:
                raise FileNotFoundError(
                    f"no templates folder: looked in {PACKAGE_TEMPLATES} and {SOURCE_TEMPLATES}"
                )
            self._environment = Environment(
                loader=FileSystemLoader([str(d) for d in dirs]),
                undefined=StrictUndefined,
                autoescape=False,
                trim_blocks=True,
                lstrip_blocks=True,
                keep_trailing_newline=False,
            )
        return self._environment

    def render(self, name: str, /, **context: Any) -> str:
        """The text of template ``name`` (e.g. "status.txt.j2") with ``context``, without
        trailing newlines (reports are joined and printed line by line)."""
        return self.environment.get_template(name).render(**context).rstrip("\n")


#: The package's templates: every letter renders through it.
TEMPLATES = Templates()


def render(name: str, /, **context: Any) -> str:
    """``TEMPLATES.render``: for the letters of this package only."""
    return TEMPLATES.render(name, **context)


#: Each letter (``module.function``) and the templates it renders.
LETTERS: dict[str, tuple[str, ...]] = {}

_F = TypeVar("_F", bound=Callable[..., Any])


def letter(*names: str) -> Callable[[_F], _F]:
    """Record the decorated function as a letter rendered over the templates ``names``."""

    def record(function: _F) -> _F:
        LETTERS[f"{function.__module__}.{function.__qualname__}"] = names
        return function

    return record
