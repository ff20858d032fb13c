"""
Game states to JSON and back, for snapshots.

The state is made of frozen dataclasses, enums, tuples, frozensets and dicts
(``moderator.rules.state``).  The codec is generic: it reads each dataclass's type
hints once and builds an encoder and a decoder for it, so a field added to the state
needs no change here.  ``SHAPE`` fingerprints those hints; a snapshot written under
another shape, or under an older ``SCHEMA_VERSION``, is ignored and the game is
replayed from its first event instead.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

from moderator.rules.state import GameState

#: Bump when the meaning of a stored state changes without its shape changing (a fold
#: in ``evolve`` that now computes something differently): every older snapshot is
#: then ignored.
SCHEMA_VERSION = 1

_Codec = Callable[[Any], Any]


def _is_optional(hint: Any) -> Any | None:
    """``X`` for ``X | None``, else None."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) == 1 and len(typing.get_args(hint)) == 2:
            return args[0]
    return None


def _identity(value: Any) -> Any:
    return value


_ENCODERS: dict[Any, _Codec] = {}
_DECODERS: dict[Any, _Codec] = {}


def _encoder(hint: Any) -> _Codec:
    try:
        return _ENCODERS[hint]
    except KeyError:
        pass
    _ENCODERS[hint] = fn = _make_encoder(hint)
    return fn


def _decoder(hint: Any) -> _Codec:
    try:
        return _DECODERS[hint]
    except KeyError:
        pass
    _DECODERS[hint] = fn = _make_decoder(hint)
    return fn


def _make_encoder(hint: Any) -> _Codec:
    if hint is Any:  # plain JSON values (a tournament's time-limit settings)
        return _identity
    inner = _is_optional(hint)
    if inner is not None:
        enc = _encoder(inner)
        return lambda v: None if v is None else enc(v)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint in (str, int, bool, type(None)):
        return _identity
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return lambda v: v.value
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        fields = [(f.name, _encoder(h)) for f, h in _fields(hint)]
        return lambda v: {name: enc(getattr(v, name)) for name, enc in fields}
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _encoder(args[0])
            return lambda v: [item(x) for x in v]
        items = [_encoder(a) for a in args]
        return lambda v: [enc(x) for enc, x in zip(items, v)]
    if origin is frozenset:
        item = _encoder(args[0])
        return lambda v: sorted(item(x) for x in v)
    if origin in (dict, Mapping):
        key, value = _key_codecs(args[0])[0], _encoder(args[1])
        return lambda v: {key(k): value(x) for k, x in v.items()}
    msg = f"snapshots cannot encode a state field of type {hint!r}"
    raise TypeError(msg)


def _make_decoder(hint: Any) -> _Codec:
    if hint is Any:
        return _identity
    inner = _is_optional(hint)
    if inner is not None:
        dec = _decoder(inner)
        return lambda v: None if v is None else dec(v)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint in (str, int, bool, type(None)):
        return _identity
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        cls: Any = hint
        fields = [(f.name, _decoder(h)) for f, h in _fields(hint)]
        return lambda v: cls(**{name: dec(v[name]) for name, dec in fields if name in v})
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _decoder(args[0])
            return lambda v: tuple(item(x) for x in v)
        items = [_decoder(a) for a in args]
        return lambda v: tuple(dec(x) for dec, x in zip(items, v))
    if origin is frozenset:
        item = _decoder(args[0])
        return lambda v: frozenset(item(x) for x in v)
    if origin in (dict, Mapping):
        key, value = _key_codecs(args[0])[1], _decoder(args[1])
        return lambda v: {key(k): value(x) for k, x in v.items()}
    msg = f"snapshots cannot decode a state field of type {hint!r}"
    raise TypeError(msg)


def _key_codecs(hint: Any) -> tuple[_Codec, _Codec]:
    """JSON object keys are strings: (to key, from key) for a mapping's key type."""
    if hint is str:
        return _identity, _identity
    if hint is int:
        return str, int
    msg = f"snapshots cannot store a mapping keyed by {hint!r}"
    raise TypeError(msg)


def _fields(cls: type) -> list[tuple[dataclasses.Field[Any], Any]]:
    hints = typing.get_type_hints(cls)
    return [(f, hints[f.name]) for f in dataclasses.fields(cls)]


def _describe(hint: Any, seen: set[type]) -> str:
    """A stable text for a type hint, expanding every dataclass and enum once."""
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if hint in seen:
            return hint.__name__
        seen.add(hint)
        inner = ",".join(f"{f.name}:{_describe(h, seen)}" for f, h in _fields(hint))
        return f"{hint.__name__}({inner})"
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return f"{hint.__name__}[{','.join(str(m.value) for m in hint)}]"
    args = typing.get_args(hint)
    if args:
        origin = typing.get_origin(hint)
        name = getattr(origin, "__name__", str(origin))
        return f"{name}[{','.join(_describe(a, seen) for a in args)}]"
    return getattr(hint, "__name__", repr(hint))


#: A fingerprint of the state's structure: a snapshot of another shape is not read.
SHAPE = hashlib.sha256(_describe(GameState, set()).encode()).hexdigest()[:16]


def shape_of(cls: type) -> str:
    """A fingerprint of ``cls``'s type hints, all the way down (what a snapshot must match)."""
    return hashlib.sha256(_describe(cls, set()).encode()).hexdigest()[:16]


def encode_as(cls: type, value: Any) -> dict[str, Any]:
    """A frozen dataclass value of type ``cls`` as JSON-able data (any state, not only games)."""
    data: dict[str, Any] = _encoder(cls)(value)
    return data


def decode_as(cls: type, data: Mapping[str, Any]) -> Any:
    """The value ``encode_as(cls, ...)`` wrote."""
    return _decoder(cls)(data)


def encode_state(state: GameState) -> dict[str, Any]:
    """The state as JSON-able data."""
    data: dict[str, Any] = _encoder(GameState)(state)
    return data


def decode_state(data: Mapping[str, Any]) -> GameState:
    """The state ``encode_state`` wrote."""
    state: GameState = _decoder(GameState)(data)
    return state


def first_difference(left: Any, right: Any, path: str = "") -> str | None:
    """
    Where two encoded states first differ, as ``path: left != right``; None if equal.
    """
    if isinstance(left, dict) and isinstance(right, dict):
        for key in sorted(set(left) | set(right), key=str):
            here = f"{path}.{key}" if path else str(key)
            if key not in left:
                return f"{here}: missing != {right[key]!r}"
            if key not in right:
                return f"{here}: {left[key]!r} != missing"
            found = first_difference(left[key], right[key], here)
            if found:
                return found
        return None
    if isinstance(left, list) and isinstance(right, list) and len(left) == len(right):
        for index, (a, b) in enumerate(zip(left, right)):
            found = first_difference(a, b, f"{path}[{index}]")
            if found:
                return found
        return None
    if left != right or type(left) is not type(right):
        return f"{path or 'state'}: {left!r} != {right!r}"
    return None
