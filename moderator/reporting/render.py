"""
Text reports from Jinja2 templates.

The templates live in the repository's top-level ``templates/`` folder; a built wheel
carries them as ``moderator/templates/`` (pyproject's hatch ``force-include``).  Both
places are searched, the installed one first.  Templates only loop and format: the
view-models they get are built in ``moderator.reporting.views``.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

#: Where an installed package keeps its templates (the wheel's ``moderator/templates``).
PACKAGE_TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
#: Where a source checkout keeps them (the repository's ``templates``).
SOURCE_TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def template_dirs() -> list[Path]:
    """The folders templates are loaded from, in the order they are searched."""
    return [d for d in (PACKAGE_TEMPLATES, SOURCE_TEMPLATES) if d.is_dir()]


@functools.cache
def environment() -> Environment:
    """The shared text-template environment (no HTML escaping, undefined names fail)."""
    dirs = template_dirs()
    if not dirs:
        raise FileNotFoundError(
            f"no templates folder: looked in {PACKAGE_TEMPLATES} and {SOURCE_TEMPLATES}"
        )
    return Environment(
        loader=FileSystemLoader([str(d) for d in dirs]),
        undefined=StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )


def render(name: str, **context: Any) -> str:
    """The text of template ``name`` (e.g. "status.txt.j2") with ``context``, without
    trailing newlines (reports are joined and printed line by line)."""
    return environment().get_template(name).render(**context).rstrip("\n")
