"""
The templates every letter is rendered over, and the register of letters.

The templates live in the repository's top-level ``templates/`` folder; a built wheel
carries them as ``moderator/templates/`` (pyproject's hatch ``force-include``).  Both
places are searched, the installed one first.  Templates only loop and format: what
they print is computed by the use cases (and the view-models of
``moderator.reporting.views``) and handed to a letter as plain values.

The Jinja2 environment is held by a ``Templates`` object that builds it on first use
and keeps it: the package owns one (``TEMPLATES``), so importing a letter reads no file
and imports no Jinja2, and a letter never rendered costs nothing (a ``local order`` that
no robot follows renders none).  Nothing else in the product imports Jinja2
(an import-linter contract says so).

Compiling a template is most of the cost of rendering it, and a command line renders
one per process (``local show``'s status: issue 28).  The compiled code is kept between
processes, as Python keeps a module's bytecode: in the user's cache folder
(``$XDG_CACHE_HOME``, else ``~/.cache``, then ``titan-moderator/templates``), one file
a template, checked against the template's text (an edited template is compiled again),
named after Jinja2's version and this environment's options.  A cache folder that cannot be written
or read only costs the compile.  The status a command line prints (``compiled.QUICK``)
goes further: the Python code Jinja2 compiled it to is kept there too, and a process
that has not loaded Jinja2 runs that code over ``compiled``'s runtime, never importing
Jinja2 (``Templates.render``).

``letter(*names)`` marks a function as a letter and records the templates it renders,
so a test can hold the letters and the templates folder against each other: no
template that no letter renders, no letter whose template is missing.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from moderator.letters.compiled import QUICK, keep, kept_now, rendered

if TYPE_CHECKING:  # Jinja2 is imported when a letter first renders (see Templates)
    from jinja2 import BytecodeCache, Environment

#: Where an installed package keeps its templates (the wheel's ``moderator/templates``).
PACKAGE_TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
#: Where a source checkout keeps them (the repository's ``templates``).
SOURCE_TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def template_dirs() -> list[Path]:
    """The folders templates are loaded from, in the order they are searched."""
    return [d for d in (PACKAGE_TEMPLATES, SOURCE_TEMPLATES) if d.is_dir()]


#: The environment's options: part of each compiled template's name in the cache, since
#: a template compiled under other options is other code.
_OPTIONS: dict[str, Any] = {
    "autoescape": False,
    "trim_blocks": True,
    "lstrip_blocks": True,
    "keep_trailing_newline": False,
}


#: The options as the kept code of a template records them (``compiled``).
_MADE_WITH = repr(sorted(_OPTIONS.items()))


def cache_dir() -> Path:
    """Where compiled templates are kept: the user's cache folder (XDG), ours within it."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "titan-moderator" / "templates"


def _bytecode_cache(folder: Path) -> BytecodeCache:
    """
    Jinja2's cache of compiled templates in ``folder``, made when first written, where a
    file that cannot be read or written is only a template compiled again; each file is
    named after Jinja2's version and the environment's options.
    """
    import jinja2
    from jinja2.bccache import Bucket

    class CompiledTemplates(jinja2.FileSystemBytecodeCache):
        def load_bytecode(self, bucket: Bucket) -> None:
            with contextlib.suppress(OSError):
                super().load_bytecode(bucket)

        def dump_bytecode(self, bucket: Bucket) -> None:
            with contextlib.suppress(OSError):
                os.makedirs(self.directory, exist_ok=True)
                super().dump_bytecode(bucket)

    made_by = repr((jinja2.__version__, sorted(_OPTIONS.items())))
    prefix = hashlib.sha256(made_by.encode()).hexdigest()[:12]
    return CompiledTemplates(str(folder), f"{prefix}-%s.cache")


class Templates:
    """
    The text-template environment (no HTML escaping, an undefined name is an error),
    built from ``dirs`` (default: ``template_dirs()``) the first time a letter renders,
    its compiled templates kept in ``cache`` (default: ``cache_dir()`` for the package's
    own templates; for a folder of templates given, none).
    """

    def __init__(self, dirs: list[Path] | None = None, cache: Path | None = None) -> None:
        self._dirs = dirs
        self._cache = cache
        self._environment: Environment | None = None
        #: Whether this process has kept the ``QUICK`` templates' code (or found it kept).
        self._kept = False

    @property
    def environment(self) -> Environment:
        """The Jinja2 environment, built once."""
        if self._environment is None:
            dirs = self._dirs if self._dirs is not None else template_dirs()
            if not dirs:
                raise FileNotFoundError(
                    f"no templates folder: looked in {PACKAGE_TEMPLATES} and {SOURCE_TEMPLATES}"
                )
            from jinja2 import Environment, FileSystemLoader, StrictUndefined

            self._environment = Environment(
                loader=FileSystemLoader([str(d) for d in dirs]),
                undefined=StrictUndefined,
                bytecode_cache=self._compiled(),
                # Templates are read once a process: without this every render asked
                # the file system whether its file changed (a stat call per mail part).
                auto_reload=False,
                **_OPTIONS,
            )
        return self._environment

    def _compiled(self) -> BytecodeCache | None:
        if self._cache is not None:
            return _bytecode_cache(self._cache)
        if self._dirs is None:
            return _bytecode_cache(cache_dir())  # the package's own templates
        return None  # a folder of templates given, a test's: compiled each time

    def render(self, name: str, /, **context: Any) -> str:
        """The text of template ``name`` (e.g. "status.txt.j2") with ``context``, without
        trailing newlines (reports are joined and printed line by line).

        The package's own ``compiled.QUICK`` templates are rendered from their kept code
        while Jinja2 is not loaded (a command line that prints one status never loads
        it), and their code is kept after Jinja2 renders them."""
        # only over the environment this class builds: a subclass's own (a test's, with
        # other finalizers) must neither be bypassed nor have its code kept
        quick = (
            name in QUICK and self._dirs is None and self._cache is None
            and type(self).environment is Templates.environment
        )
        if quick and self._environment is None:
            text = rendered(name, context, template_dirs(), cache_dir(), _MADE_WITH)
            if text is not None:
                return text.rstrip("\n")
        template = self.environment.get_template(name)
        text = template.render(**context)
        if quick and not self._kept:
            self._kept = True
            self._keep()
        return text.rstrip("\n")

    def _keep(self) -> None:
        """Keep the compiled code of the ``QUICK`` templates, where it is not kept as they are."""
        environment = self.environment
        dirs, folder = template_dirs(), cache_dir()
        for name in sorted(QUICK):
            if not kept_now(name, dirs, folder, _MADE_WITH):
                source, filename, _ = environment.loader.get_source(environment, name)  # type: ignore[union-attr]
                if filename is not None:
                    python = environment.compile(source, name, filename, raw=True)
                    keep(name, source, filename, python, dirs, folder, _MADE_WITH)


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
