"""
``record``: a frozen, slotted dataclass that costs next to nothing to define.

The rules' events, commands and state are some 130 frozen dataclasses, and a command
line that reads one game (``local show``) defines every one of them at each start
(issue 28).  ``dataclasses.dataclass`` writes the source of six methods per class
(``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``)
and compiles each: most of the import time of ``moderator.rules``.

``record`` lets ``dataclasses`` do what is cheap (find the fields, make the slotted
class, so that ``fields``, ``replace``, ``asdict`` and ``is_dataclass`` work as on any
dataclass) and gives the class methods made once here, which read the class's field
names instead of being compiled for them.  Only ``__init__`` is compiled, as
``dataclasses`` would write it, and only when the class is first instantiated: a start
that defines 130 classes and builds a dozen of them compiles a dozen.

The records behave as ``@dataclass(frozen=True, slots=True)`` ones (``kw_only`` as
given): equality and hashing over the compared fields, the same ``repr``, assignment
and deletion refused with ``FrozenInstanceError``, copying and pickling, and a
method the class defines itself is kept.  ``tests/test_records.py`` holds the two
side by side.

``replace`` is ``dataclasses.replace`` made cheap: the fold calls it some ten thousand
times a game (``evolve`` on every event, an audit's ``verify`` on every event again),
and ``dataclasses.replace`` walks the class's field table on every call.  Ours writes
each class's copy once, with the field names in its source, and hands the same keywords
to the class as ``dataclasses.replace`` does (so ``__post_init__`` runs, and an unknown
field is a ``TypeError``).  To mypy it *is* ``dataclasses.replace``, whose call sites
its dataclasses plugin checks.
"""

from __future__ import annotations

import dataclasses
import reprlib
from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, Any, TypeVar, dataclass_transform, overload

_T = TypeVar("_T")
_MISSING = dataclasses.MISSING


@overload
def record(cls: type[_T], /) -> type[_T]: ...


@overload
def record(*, kw_only: bool = False) -> Callable[[type[_T]], type[_T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def record(
    cls: type[_T] | None = None, /, *, kw_only: bool = False
) -> type[_T] | Callable[[type[_T]], type[_T]]:
    """``@record`` or ``@record(kw_only=True)`` on a class: see the module."""

    def wrap(cls: type[_T]) -> type[_T]:
        return _made(cls, kw_only)

    return wrap if cls is None else wrap(cls)


def _made(cls: type[_T], kw_only: bool) -> type[_T]:
    own = dict(cls.__dict__)
    if "__setattr__" in own or "__delattr__" in own:
        raise TypeError(f"{cls.__name__}: a record is frozen; it cannot define its own "
                        "__setattr__ or __delattr__")
    explicit_hash = own.get("__hash__", _MISSING)
    keeps_hash = not (explicit_hash is _MISSING or (explicit_hash is None and "__eq__" in own))
    undocumented = not cls.__doc__
    if undocumented:
        cls.__doc__ = cls.__name__  # spares dataclasses the signature it would print
    # Fields, defaults and __slots__ by dataclasses itself; no method written.
    made: Any = dataclasses.dataclass(
        cls, init=False, repr=False, eq=False, kw_only=kw_only, slots=True
    )
    fields = dataclasses.fields(made)
    pseudo = [f for f in made.__dataclass_fields__.values() if f not in fields]
    if any(not f.init for f in fields) or any("InitVar" in str(f.type) for f in pseudo):
        raise TypeError(f"{cls.__name__}: a record takes every field in __init__ (no InitVar)")
    names = tuple(f.name for f in fields)
    _check_order(made.__name__, fields)
    if undocumented:
        made.__doc__ = f"{made.__name__}({', '.join(names)})"

    def setdefault(name: str, method: Any) -> None:
        if name not in own:
            method.__qualname__ = f"{made.__qualname__}.{name}"
            setattr(made, name, method)

    setdefault("__init__", _first_init(made))
    setdefault("__repr__", _repr([f.name for f in fields if f.repr]))
    compared = _values([f.name for f in fields if f.compare])
    setdefault("__eq__", _eq(compared))
    if not keeps_hash:
        hashed = [f.name for f in fields if (f.compare if f.hash is None else f.hash)]
        made.__hash__ = _hash(_values(hashed))
        made.__hash__.__qualname__ = f"{made.__qualname__}.__hash__"
    setdefault("__setattr__", _setattr(made, frozenset(names)))
    setdefault("__delattr__", _delattr(made, frozenset(names)))
    setdefault("__getstate__", _getstate(_values(names)))
    setdefault("__setstate__", _setstate(names))
    return made  # type: ignore[no-any-return]


def _check_order(name: str, fields: tuple[dataclasses.Field[Any], ...]) -> None:
    """The error ``dataclasses`` gives for a positional field without a default after one
    with a default: at the class's definition, not its first use."""
    defaulted = None
    for f in fields:
        if f.kw_only:
            continue
        if f.default is not _MISSING or f.default_factory is not _MISSING:
            defaulted = f.name
        elif defaulted is not None:
            raise TypeError(f"{name}: non-default argument {f.name!r} follows default argument")


def _values(names: list[str] | tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of a record's ``names`` (always a tuple, as dataclasses compares)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda self: (one(self),)
    return lambda self: ()


def _eq(values: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any, Any], Any]:
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    return __eq__


def _hash(values: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(values(self))

    return __hash__


def _repr(names: list[str]) -> Callable[[Any], str]:
    getters = [(f"{name}=", attrgetter(name)) for name in names]

    @reprlib.recursive_repr("...")
    def __repr__(self: Any) -> str:
        shown = ", ".join(label + repr(get(self)) for label, get in getters)
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def _setattr(cls: type[Any], names: frozenset[str]) -> Callable[[Any, str, Any], None]:
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    return __setattr__


def _delattr(cls: type[Any], names: frozenset[str]) -> Callable[[Any, str], None]:
    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    return __delattr__


def _getstate(values: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], list[Any]]:
    def __getstate__(self: Any) -> list[Any]:
        return list(values(self))

    return __getstate__


def _setstate(names: tuple[str, ...]) -> Callable[[Any, list[Any]], None]:
    def __setstate__(self: Any, state: list[Any]) -> None:
        for name, value in zip(names, state, strict=False):
            object.__setattr__(self, name, value)

    return __setstate__


def _first_init(cls: Any) -> Callable[..., None]:
    """An ``__init__`` that compiles the class's own on its first call and hands over."""

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        init = _compiled_init(cls)
        if cls.__dict__.get("__init__") is __init__:
            init.__qualname__ = f"{cls.__qualname__}.__init__"
            cls.__init__ = init
        init(self, *args, **kwargs)

    return __init__


def _compiled_init(cls: Any) -> Callable[..., None]:
    """
    The ``__init__`` dataclasses writes for a frozen class: positional fields, then the
    keyword-only ones, each set with ``object.__setattr__``, a default factory called when
    its field is not given, then ``__post_init__`` if the class has one.
    """
    fields = dataclasses.fields(cls)
    scope: dict[str, Any] = {"__record_set__": object.__setattr__, "__record_factory__": _HasFactory}
    positional: list[str] = []
    keywords: list[str] = []
    body: list[str] = []
    for f in fields:
        if f.default_factory is not _MISSING:
            scope[f"__record_factory_{f.name}__"] = f.default_factory
            param = f"{f.name}=__record_factory__"
            value = f"__record_factory_{f.name}__() if {f.name} is __record_factory__ else {f.name}"
        elif f.default is not _MISSING:
            scope[f"__record_default_{f.name}__"] = f.default
            param, value = f"{f.name}=__record_default_{f.name}__", f.name
        else:
            param, value = f.name, f.name
        (keywords if f.kw_only else positional).append(param)
        body.append(f"  __record_set__(__record_self__, {f.name!r}, {value})")
    params = ["__record_self__", *positional]
    if keywords:
        params += ["*", *keywords]
    if hasattr(cls, "__post_init__"):
        body.append("  __record_self__.__post_init__()")
    # As dataclasses writes it: made inside a function that takes the defaults and the
    # factories as its locals, run in a namespace named after the class's module.
    source = (
        f"def __make_init__({', '.join(scope)}):\n"
        f" def __init__({', '.join(params)}):\n" + ("\n".join(body) or "  pass") + "\n"
        " return __init__\n"
    )
    namespace: dict[str, Any] = {"__name__": cls.__module__}
    exec(compile(source, f"<record {cls.__qualname__}.__init__>", "exec"), namespace)  # noqa: S102 (names of fields only)
    init: Callable[..., None] = namespace["__make_init__"](**scope)
    return init


class _HasFactory:
    """The default of a field with a default factory: not given, so the factory makes one."""


_Replacer = Callable[..., Any]
_REPLACERS: dict[type, _Replacer] = {}


def _replace(obj: _T, /, **changes: Any) -> _T:
    """``dataclasses.replace(obj, **changes)`` through the class's own written copy."""
    replacer = _REPLACERS.get(obj.__class__)
    if replacer is None:
        replacer = _REPLACERS[obj.__class__] = _replacer(obj.__class__)
    result: _T = replacer(obj, **changes)
    return result


def _replacer(cls: type) -> _Replacer:
    """
    A copy for ``cls`` written once: ``replace(self, *, a=<kept>, b=<kept>)`` calls
    ``cls(a=..., b=...)``, each field given or read from ``self``.  A class this cannot
    copy faithfully (not a dataclass, a field ``__init__`` does not take, an ``InitVar``
    field) keeps ``dataclasses.replace`` and its errors.
    """
    table = getattr(cls, "__dataclass_fields__", None)
    if table is None:
        return dataclasses.replace
    fields = dataclasses.fields(cls)
    pseudo = [f for f in table.values() if f not in fields]  # ClassVar and InitVar
    if not fields or any(not f.init for f in fields) or any("InitVar" in str(f.type) for f in pseudo):
        return dataclasses.replace
    names = [f.name for f in fields]
    params = ", ".join(f"{name}=__record_kept__" for name in names)
    given = ", ".join(
        f"{name}=__record_self__.{name} if {name} is __record_kept__ else {name}"
        for name in names
    )
    source = (
        "def __make_replace__(__record_cls__, __record_kept__):\n"
        f" def replace(__record_self__, /, *, {params}):\n"
        f"  return __record_cls__({given})\n"
        " return replace\n"
    )
    namespace: dict[str, Any] = {"__name__": cls.__module__}
    exec(compile(source, f"<record {cls.__qualname__}.replace>", "exec"), namespace)  # noqa: S102 (names of fields only)
    replacer: _Replacer = namespace["__make_replace__"](cls, _Kept)
    return replacer


class _Kept:
    """The default of ``replace``'s every keyword: not given, so the field keeps its value."""


if TYPE_CHECKING:
    from dataclasses import replace
else:
    replace = _replace


__all__ = ["record", "replace"]
