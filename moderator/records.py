"""
``record``: a frozen, slotted dataclass that costs next to nothing to define.

The rules' events, commands and state are some 130 frozen dataclasses, and a command
line that reads one game (``local show``) defines every one of them at each start
(issue 28).  ``dataclasses.dataclass`` writes the source of six methods per class
(``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``)
and compiles each: most of the import time of ``moderator.rules``.

``record`` gives the class methods made once here, which read the class's field names
instead of being compiled for them.  Only ``__init__`` is compiled, as ``dataclasses``
would write it, and only when the class is first instantiated: a start that defines 130
classes and builds a dozen of them compiles a dozen.  Nor does it run
``dataclasses.dataclass`` at all: even with no method to write, its search for fields
(each annotation matched against ``ClassVar``, ``InitVar`` and ``KW_ONLY`` by regular
expression and module lookups) was half of a record's cost.  ``record`` finds the
fields itself (a string annotation is looked up only if it names one of those three),
makes the slotted class as ``dataclasses`` does (the class again, with slots), and sets the
attributes ``dataclasses`` reads (``__dataclass_fields__`` with the fields' own kind
marker, ``__dataclass_params__`` of a frozen dataclass), so that ``fields``,
``replace``, ``asdict`` and ``is_dataclass`` work as on any dataclass.

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

import abc
import dataclasses
import reprlib
import sys
from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, dataclass_transform, overload

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
    every = _fields_of(cls, own, kw_only)
    # a dataclass base's class variables are among its __dataclass_fields__, of their own kind
    fields = tuple(f for f in every.values() if getattr(f, "_field_type", None) is _FIELD_KIND)
    names = tuple(f.name for f in fields)
    _check_order(cls.__name__, fields)
    # The slotted class, as dataclasses makes it: the class again, its fields as slots
    # (those no base has), their defaults only in the fields (a slot and a class
    # attribute of one name cannot both be).
    for name in names:
        own.pop(name, None)
    own.pop("__dict__", None)
    own.pop("__weakref__", None)
    inherited = {slot for base in cls.__mro__[1:-1] for slot in _slots_of(base)}
    own["__slots__"] = tuple(n for n in names if n not in inherited)
    own["__dataclass_fields__"] = every
    own["__dataclass_params__"] = _PARAMS
    own.setdefault("__match_args__", tuple(f.name for f in fields if not f.kw_only))
    if not own.get("__doc__"):
        own["__doc__"] = f"{cls.__name__}({', '.join(names)})"
    meta: Any = type(cls)
    made: Any = meta(cls.__name__, cls.__bases__, own)
    made.__qualname__ = cls.__qualname__

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
    if isinstance(made, abc.ABCMeta):
        abc.update_abstractmethods(made)  # type: ignore[arg-type]
    return made  # type: ignore[no-any-return]


@dataclasses.dataclass(frozen=True)
class _Model:
    """A frozen dataclass whose parameters and field kind every record shares, so that
    ``dataclasses`` reads a record as one of its own (its parameters' constructor and
    its fields' kind marker are its own business, and change between versions)."""

    model: int = 0


_PARAMS = _Model.__dataclass_params__  # type: ignore[attr-defined]
_FIELD_KIND = dataclasses.fields(_Model)[0]._field_type  # type: ignore[attr-defined]


def _fields_of(cls: type[Any], own: dict[str, Any], kw_only: bool) -> dict[str, dataclasses.Field[Any]]:
    """
    The record's fields by name, as ``dataclasses`` finds them: its bases' first (a field
    given again keeps its place), then its own annotations in order, a class variable
    (``ClassVar``) left out.  ``InitVar`` and ``KW_ONLY`` are refused (a record takes every
    field in ``__init__``; ``kw_only=True`` says the other).
    """
    every: dict[str, dataclasses.Field[Any]] = {}
    for base in cls.__mro__[-1:0:-1]:
        every.update(getattr(base, "__dataclass_fields__", {}))
    annotations = own.get("__annotations__", {})
    for name, annotation in annotations.items():
        if _is_class_variable(cls, annotation):
            continue
        default = own.get(name, _MISSING)
        f: Any = default if isinstance(default, dataclasses.Field) else dataclasses.field(default=default)
        f.name, f.type = name, annotation
        f._field_type = _FIELD_KIND
        if f.kw_only is _MISSING:
            f.kw_only = kw_only
        if f.default is not _MISSING and f.default.__class__.__hash__ is None:
            raise ValueError(f"mutable default {type(f.default)} for field {name} is not "
                             "allowed: use default_factory")
        every[name] = f
    for name, value in own.items():
        if isinstance(value, dataclasses.Field) and name not in annotations:
            raise TypeError(f"{name!r} is a field but has no type annotation")
    return every


def _is_class_variable(cls: type[Any], annotation: Any) -> bool:
    """Whether ``annotation`` says ``ClassVar`` (written as a string, as under ``from
    __future__ import annotations``, or not); an ``InitVar`` or ``KW_ONLY`` is refused."""
    if isinstance(annotation, str):
        if not any(word in annotation for word in ("ClassVar", "InitVar", "KW_ONLY")):
            return False  # nearly every field: no lookup
        head = annotation.split("[", 1)[0].strip()
        module, _, word = head.rpartition(".")
        scope = vars(sys.modules[cls.__module__]) if cls.__module__ in sys.modules else {}
        found = getattr(scope.get(module), word, None) if module else scope.get(word)
    else:
        found = getattr(annotation, "__origin__", annotation)
    if found is dataclasses.InitVar or isinstance(found, dataclasses.InitVar) or found is dataclasses.KW_ONLY:
        raise TypeError(f"{cls.__name__}: a record takes every field in __init__ (no InitVar, "
                        "no KW_ONLY: say kw_only=True)")
    return found is ClassVar


def _slots_of(cls: type[Any]) -> tuple[str, ...]:
    """The slots ``cls`` itself declares (a lone string is one slot)."""
    slots = cls.__dict__.get("__slots__", ())
    return (slots,) if isinstance(slots, str) else tuple(slots)


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
