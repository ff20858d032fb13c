"""
A template rendered from the code Jinja2 compiled it to, without importing Jinja2
(issue 28).

``local show`` renders one template (the status, and the battle it includes) in a
process of its own; importing Jinja2 and building its environment cost that process
more than reading the game.  Jinja2 compiles a template to a Python module whose
``root`` function yields the text; that code needs only a few names of Jinja2's
runtime (the environment's filters and tests, a context to look names up in, macros
and loops).  So the first process that renders one of ``QUICK``'s templates through
Jinja2 keeps that code (``keep``: Jinja2's own compiler, ``marshal``-ed, in the user's
cache folder beside Jinja2's bytecode cache), and a later one runs it over this
module's small runtime (``rendered``), while the template's text, its file, Jinja2 and
the environment's options are those it was compiled with.

The runtime has only what those templates use, each with Jinja2's meaning: whatever
else the code asks for (another filter, a name not given, an attribute a value lacks,
a macro called otherwise) raises ``Unsupported``, and the caller renders through Jinja2
instead, which then prints the same text or raises its own error.  ``tests/letters/
test_compiled_templates.py`` renders every view of a played game both ways.
"""

from __future__ import annotations

import ast
import importlib.util
import marshal
import sys
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

#: The templates a process may render without Jinja2: those a command line prints.
QUICK = frozenset({"status.txt.j2", "battle.txt.j2"})
#: The layout of a kept file; another layout is read as no file.
_FORMAT = 1
#: What the compiled code imports from ``jinja2.runtime``: the line is taken out and
#: these names given instead (code that imports anything else is not kept).
_IMPORT = "from jinja2.runtime import "


class Unsupported(Exception):
    """The compiled code asked for something this runtime does not have."""


def _unsupported(*_args: Any, **_kwargs: Any) -> Any:
    raise Unsupported("not in the quick runtime")


class _Missing:
    """The value of a name the context does not have (Jinja2's ``missing``)."""

    def __repr__(self) -> str:
        return "missing"


MISSING = _Missing()


class _EvalContext:
    """Jinja2's evaluation context, as a text environment has it: nothing escaped."""

    autoescape = False
    volatile = False


class Context:
    """The names a template is rendered with (``parent``) and those it sets (``vars``)."""

    def __init__(self, environment: QuickEnvironment, parent: Mapping[str, Any]) -> None:
        self.environment = environment
        self.parent = parent
        self.vars: dict[str, Any] = {}
        self.exported_vars: set[str] = set()
        self.eval_ctx = _EvalContext()

    def resolve_or_missing(self, key: str) -> Any:
        if key in self.vars:
            return self.vars[key]
        return self.parent.get(key, MISSING)

    def get_all(self) -> Mapping[str, Any]:
        if not self.vars:
            return self.parent
        if not self.parent:
            return self.vars
        return {**self.parent, **self.vars}

    def call(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """A call from the template: the compiler's own keywords dropped (no callable of
        ours asks for the context)."""
        kwargs.pop("_loop_vars", None)
        kwargs.pop("_block_vars", None)
        return function(*args, **kwargs)


class Macro:
    """A template's macro, called with its arguments by position (no ``caller``, no
    keywords: those go to Jinja2)."""

    def __init__(
        self, environment: QuickEnvironment, function: Callable[..., str], name: str,
        arguments: tuple[str, ...], catch_kwargs: bool, catch_varargs: bool, caller: bool,
        default_autoescape: bool,
    ) -> None:
        self._function = function
        self._arguments = arguments
        self._plain = not (catch_kwargs or catch_varargs or caller or default_autoescape)

    def __call__(self, *args: Any, **kwargs: Any) -> str:
        if kwargs or not self._plain or len(args) > len(self._arguments):
            raise Unsupported("a macro called with keywords or too many arguments")
        return self._function(*args, *[MISSING] * (len(self._arguments) - len(args)))


class LoopContext:
    """``loop`` in a for loop: where the loop is (``index``, ``first``, ``last``...)."""

    def __init__(self, iterable: Iterable[Any], undefined: Callable[..., Any], *more: Any) -> None:
        if more:
            raise Unsupported("a recursive loop")
        self._items = list(iterable)
        self.index0 = -1

    def __iter__(self) -> Iterator[tuple[Any, LoopContext]]:
        for index0, item in enumerate(self._items):
            self.index0 = index0
            yield item, self

    @property
    def index(self) -> int:
        return self.index0 + 1

    @property
    def length(self) -> int:
        return len(self._items)

    @property
    def first(self) -> bool:
        return self.index0 == 0

    @property
    def last(self) -> bool:
        return self.index0 == len(self._items) - 1


def _format(value: Any, *args: Any, **kwargs: Any) -> str:
    if args and kwargs:
        raise Unsupported("format with both positions and names")
    return (value if isinstance(value, str) else str(value)) % (kwargs or args)


def _join(eval_ctx: _EvalContext, value: Iterable[Any], d: str = "", attribute: Any = None) -> str:
    if attribute is not None:
        raise Unsupported("join by attribute")
    return str(d).join(map(str, value))


def _map(context: Context, value: Iterable[Any], *args: Any, **kwargs: Any) -> Iterator[Any]:
    if not args or kwargs:
        raise Unsupported("map by attribute")
    name, rest = args[0], args[1:]
    if name != "join":
        raise Unsupported(f"map over the {name} filter")
    if value:
        for item in value:
            yield _join(context.eval_ctx, item, *rest)


class QuickEnvironment:
    """What the compiled code reads of its environment; templates are found in ``kept``."""

    filters: Mapping[str, Callable[..., Any]] = {
        "format": _format, "join": _join, "length": len, "map": _map,
    }
    tests: Mapping[str, Callable[..., bool]] = {"none": lambda value: value is None}
    concat = staticmethod("".join)
    undefined = staticmethod(_unsupported)  # strict: Jinja2 says what is missing

    def __init__(self, kept: Callable[[str], QuickTemplate]) -> None:
        self._kept = kept

    def getattr(self, obj: Any, attribute: str) -> Any:
        try:
            return getattr(obj, attribute)
        except AttributeError:
            pass
        try:
            return obj[attribute]
        except (TypeError, LookupError, AttributeError):
            return self.undefined(obj=obj, name=attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        try:
            return obj[argument]
        except (AttributeError, TypeError, LookupError):
            if isinstance(argument, str):
                try:
                    return getattr(obj, argument)
                except AttributeError:
                    pass
            return self.undefined(obj=obj, name=argument)

    def get_template(self, name: str, parent: str | None = None) -> QuickTemplate:
        return self._kept(name)


class QuickTemplate:
    """A kept template's ``root`` function, run over ``QuickEnvironment``."""

    def __init__(self, environment: QuickEnvironment, code: Any, filename: str) -> None:
        namespace: dict[str, Any] = {**RUNTIME, "environment": environment, "__file__": filename}
        exec(code, namespace)  # noqa: S102 (Jinja2's code for our own template, see keep)
        self.environment = environment
        self.root_render_func: Callable[[Context], Iterator[str]] = namespace["root"]
        if namespace.get("blocks"):
            raise Unsupported("template blocks")

    def new_context(
        self, vars: Mapping[str, Any], shared: bool = False, locals: Mapping[str, Any] | None = None
    ) -> Context:
        if not shared or locals:
            raise Unsupported("an include with its own context")
        return Context(self.environment, vars)

    def render(self, context: Mapping[str, Any]) -> str:
        return "".join(self.root_render_func(Context(self.environment, dict(context))))


#: The names the compiled code imports from ``jinja2.runtime``.
RUNTIME: dict[str, Any] = {
    "LoopContext": LoopContext, "Macro": Macro, "Markup": _unsupported,
    "Namespace": _unsupported, "TemplateNotFound": Unsupported,
    "TemplateReference": _unsupported, "TemplateRuntimeError": Unsupported,
    "Undefined": _unsupported, "escape": _unsupported, "identity": lambda value: value,
    "internalcode": lambda function: function, "markup_join": _unsupported,
    "missing": MISSING, "str_join": lambda seq: "".join(map(str, seq)),
}


def _jinja2() -> bytes | None:
    """Which Jinja2 compiles templates here (its ``__init__``, with its version); None if none."""
    spec = importlib.util.find_spec("jinja2")
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).read_bytes()


def _found(name: str, dirs: list[Path]) -> Path | None:
    """The file of template ``name``, from the first folder that has it (as Jinja2 looks)."""
    return next((d / name for d in dirs if (d / name).is_file()), None)


def _kept_path(folder: Path, name: str, dirs: list[Path]) -> Path:
    """Where template ``name``'s code is kept: named after the template folders too, so
    that two installations sharing one cache (a checkout and a wheel) keep one each
    instead of each overwriting the other's at every render."""
    return folder / f"kept-{name}-{zlib.crc32(repr([str(d) for d in dirs]).encode()):08x}.marshal"


def rendered(
    name: str, context: Mapping[str, Any], dirs: list[Path], folder: Path, options: str
) -> str | None:
    """
    Template ``name`` rendered with ``context`` from its kept code; None when there is no
    kept code for it as it is now (its text, file, Jinja2 or ``options`` changed) or the
    code asked for what this runtime does not have: render it through Jinja2 then.
    """
    loaded: dict[str, QuickTemplate] = {}

    def kept(wanted: str) -> QuickTemplate:
        if wanted not in loaded:
            loaded[wanted] = _load(wanted, dirs, folder, options, environment)
        return loaded[wanted]

    environment = QuickEnvironment(kept)
    try:
        return kept(name).render(context)
    except Exception:  # noqa: BLE001 (Unsupported, or a fault Jinja2 will name)
        return None


def _load(name: str, dirs: list[Path], folder: Path, options: str, environment: QuickEnvironment) -> QuickTemplate:
    if name not in QUICK:
        raise Unsupported(f"{name} is not rendered without Jinja2")
    layout, python, jinja2, made_with, filename, text, code = marshal.loads(
        _kept_path(folder, name, dirs).read_bytes()
    )
    found = _found(name, dirs)
    if (layout, python, made_with) != (_FORMAT, sys.version, options) or found is None:
        raise Unsupported("kept by another version or with other options")
    if str(found) != filename or found.read_bytes() != text or _jinja2() != jinja2:
        raise Unsupported("the template or Jinja2 changed since it was kept")
    return QuickTemplate(environment, code, filename)


def kept_now(name: str, dirs: list[Path], folder: Path, options: str) -> bool:
    """Whether template ``name``'s code is kept in ``folder`` as it is now."""
    try:
        _load(name, dirs, folder, options, QuickEnvironment(_unsupported))
    except Exception:  # noqa: BLE001 (not kept, not current, or not to be run here)
        return False
    return True


def python_for(source: str) -> str | None:
    """
    Jinja2's code for a template (``Environment.compile(..., raw=True)``) with its import
    of Jinja2's runtime taken out (the line left empty, so line numbers hold); None when
    it imports anything else or a name the runtime lacks.
    """
    first, newline, rest = source.partition("\n")
    if not first.startswith(_IMPORT):
        return None
    if not {n.strip() for n in first.removeprefix(_IMPORT).split(",")} <= RUNTIME.keys():
        return None
    body = newline + rest
    if any(isinstance(node, ast.Import | ast.ImportFrom) for node in ast.walk(ast.parse(body))):
        return None
    return body


def keep(
    name: str, source: str, filename: str, python: str, dirs: list[Path], folder: Path, options: str
) -> None:
    """
    Keep template ``name``'s code (``python``, Jinja2's compile of ``source``, read from
    ``filename``) in ``folder``; a folder that cannot be written only costs the next
    process Jinja2.
    """
    body = python_for(python)
    found = _found(name, dirs)
    jinja2 = _jinja2()
    if body is None or found is None or str(found) != filename or jinja2 is None:
        return
    code = compile(body, filename, "exec")
    entry = (_FORMAT, sys.version, jinja2, options, filename, source.encode("utf-8"), code)
    try:
        if found.read_bytes() != entry[5]:
            return  # the file changed while it was compiled: the next render keeps it
        folder.mkdir(parents=True, exist_ok=True)
        partial = folder / f".{name}.{id(entry)}.tmp"
        partial.write_bytes(marshal.dumps(entry))
        partial.replace(_kept_path(folder, name, dirs))
    except OSError:
        return


__all__ = ["QUICK", "QuickEnvironment", "Unsupported", "keep", "kept_now", "python_for", "rendered"]
