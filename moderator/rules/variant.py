"""The static data of a game of Titan (a variant), found by name.

Each variant's facts live in ``moderator/rules/data/<name>/`` as our own TOML
(human-readable, one table per land, creature or battleland) so that a reviewer can
check them against the printed game and Wolff's errata without reading code, and a
group can write a variant of its own (docs/variants.md); ``standard`` is the Avalon
Hill game.  ``variant_files`` reads a directory, ``variant_check`` rejects one whose
facts do not hold together, naming the file; this module finds variants by name and
keeps each one loaded once.  The rules take the variant from the game's state
(``GameState.variant``), never from here directly.
"""

from __future__ import annotations

import functools
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

from moderator.rules.variant_check import check_variant
from moderator.rules.variant_files import DATA_FILES, VariantDataError, build_variant, read_sources
from moderator.rules.variant_types import (
    LABELS,
    SIDES,
    STANDARD,
    TOWER,
    BattleHex,
    Battleland,
    CreatureType,
    Exit,
    Land,
    Sign,
    Variant,
)

__all__ = [
    "LABELS",
    "SIDES",
    "STANDARD",
    "TOWER",
    "BattleHex",
    "Battleland",
    "CreatureType",
    "Exit",
    "Land",
    "Sign",
    "UnknownVariantError",
    "Variant",
    "VariantDataError",
    "load_variant",
    "load_variant_from",
    "register_variant",
    "shipped_variants",
    "variant_file",
    "variant_names",
]


class UnknownVariantError(ValueError):
    """A game, a position or a command named a variant we do not have."""


#: Variants built in code rather than shipped as data, by name (see ``register_variant``).
_REGISTERED: dict[str, Variant] = {}


def _data_root() -> Traversable:
    return files("moderator.rules") / "data"


@functools.cache
def shipped_variants() -> tuple[str, ...]:
    """The variants the moderator ships and offers: one folder each under ``rules/data/``."""
    return tuple(
        sorted(
            d.name
            for d in _data_root().iterdir()
            if d.is_dir() and any((d / f).is_file() for f in ("variant.toml", "masterboard.toml"))
        )
    )


def _shipped_directory(name: str) -> Traversable:
    if name not in shipped_variants():
        raise UnknownVariantError(
            f"there is no variant {name!r}; variants: {', '.join(variant_names())}"
        )
    return _data_root() / name


def variant_file(name: str, file: str) -> Traversable:
    """Where the variant ``name`` keeps ``file``: its own directory or its base's.

    The pictures read ``masterboard_layout.toml`` through this; a variant that shares
    the standard board shares its layout.
    """
    directory = _shipped_directory(name)
    while not (directory / file).is_file():
        base = read_sources(directory, name, _shipped_directory)["variant.toml"].tables.get("based_on")
        if not isinstance(base, str):
            raise VariantDataError(f"{name}/{file}", "the file is missing")
        directory, name = _shipped_directory(base), base
    return directory / file


def variant_names() -> tuple[str, ...]:
    """Every name ``load_variant`` answers: the shipped variants and any registered."""
    return tuple(sorted({*shipped_variants(), *_REGISTERED}))


def register_variant(variant: Variant) -> Variant:
    """Make a variant built in code loadable by its name (the rules tests' second variant).

    It is not offered to players (``shipped_variants`` lists only the data folders); a
    name already taken by a different variant is refused, so a game's name keeps its
    meaning.
    """
    check_variant(variant)
    if variant.name in shipped_variants():
        raise ValueError(f"{variant.name!r} is a shipped variant; register another name")
    known = _REGISTERED.setdefault(variant.name, variant)
    if known is not variant and known != variant:
        raise ValueError(f"a different variant is already registered as {variant.name!r}")
    return known


def load_variant(name: str) -> Variant:
    """The variant called ``name``, loaded once and shared, as it never changes.

    Raises:
        UnknownVariantError: naming the variants there are.
    """
    found = _REGISTERED.get(name)
    return found if found is not None else _load_shipped(name)


@functools.cache
def _load_shipped(name: str) -> Variant:
    return _read_directory(_shipped_directory(name), name, name)


def load_variant_from(path: Path | str) -> Variant:
    """The variant in the directory ``path`` (a group's own, or a copy being checked).

    Its name is its ``variant.toml``'s ``name`` (else the directory's); it is read each
    time, not cached, and not registered.

    Raises:
        VariantDataError: naming the file at fault and what is wrong.
    """
    directory = Path(path)
    if not (directory / "variant.toml").is_file():
        raise VariantDataError(str(directory / "variant.toml"), "the file is missing")
    return _read_directory(directory, str(directory), directory.name)


def _read_directory(directory: Traversable, label: str, default_name: str) -> Variant:
    sources = read_sources(directory, label, _shipped_directory)
    name = str(sources["variant.toml"].tables.get("name", default_name))
    variant = build_variant(name, sources)
    check_variant(variant, _absent(label) | {f: s.where for f, s in sources.items()})
    return variant


def _absent(label: str) -> dict[str, str]:
    """Where a file a variant does not have would go, for a fault about what it lacks."""
    return {f: f"{label}/{f}" for f in DATA_FILES}
