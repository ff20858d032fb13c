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
from collections.abc import Callable, Mapping
from dataclasses import field
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

from moderator.records import record
from moderator.rules.variant_check import check_variant
from moderator.rules.variant_files import (
    DATA_FILES,
    Source,
    VariantDataError,
    build_variant,
    data_digest,
    read_sources,
    source_data,
    sources_of_data,
)
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
    "OwnVariant",
    "Sign",
    "UnknownVariantError",
    "Variant",
    "VariantChangedError",
    "VariantDataError",
    "check_digest",
    "forget_own_variant",
    "install_own_variant",
    "load_variant",
    "load_variant_from",
    "offered_variants",
    "own_variant",
    "own_variant_from_data",
    "own_variants",
    "read_own_variant",
    "register_variant",
    "set_shipped_keeper",
    "shipped_chain",
    "shipped_files",
    "shipped_variants",
    "variant_digest",
    "variant_file",
    "variant_names",
]


class UnknownVariantError(ValueError):
    """A game, a position or a command named a variant we do not have."""


class VariantChangedError(UnknownVariantError):
    """A game of a group's own variant whose files changed since the game began."""


@record
class OwnVariant:
    """
    A group's own variant, read from a directory the operator configured (or from an
    audit bundle): the variant, the digest of its data and the data itself (every
    file's tables, its base's included), which an audit bundle carries so that a player
    can replay the game without the operator's files.
    """

    variant: Variant
    digest: str
    data: Mapping[str, object] = field(repr=False)
    #: Where it was read (None: from a bundle's data); the pictures find its layout there.
    directory: Traversable | None = field(default=None, repr=False)


#: Variants built in code rather than shipped as data, by name (see ``register_variant``).
_REGISTERED: dict[str, Variant] = {}
#: The groups' own variants the composition root installed, by name.
_OWN: dict[str, OwnVariant] = {}


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
    the standard board shares its layout (a group's own variant too).
    """
    own = _OWN.get(name)
    directory = own.directory if own is not None and own.directory is not None else None
    if directory is None:
        directory = _shipped_directory(name) if own is None else _shipped_directory(_base_of(own))
    while not (directory / file).is_file():
        base = read_sources(directory, name, _shipped_directory)["variant.toml"].tables.get("based_on")
        if not isinstance(base, str):
            raise VariantDataError(f"{name}/{file}", "the file is missing")
        directory, name = _shipped_directory(base), base
    return directory / file


def _base_of(own: OwnVariant) -> str:
    meta = own.data.get("variant.toml")
    base = meta.get("based_on") if isinstance(meta, Mapping) else None
    if not isinstance(base, str):
        raise VariantDataError(f"{own.variant.name}/variant.toml", "no based_on to take the board's layout from")
    return base


def variant_names() -> tuple[str, ...]:
    """Every name ``load_variant`` answers: the shipped variants, own and registered."""
    return tuple(sorted({*shipped_variants(), *_OWN, *_REGISTERED}))


def offered_variants() -> tuple[str, ...]:
    """What a game may be started in: the shipped variants and the groups' own installed."""
    return (*shipped_variants(), *sorted(set(_OWN) - set(shipped_variants())))


def own_variants() -> tuple[str, ...]:
    """The names of the groups' own variants installed."""
    return tuple(sorted(_OWN))


def own_variant(name: str) -> OwnVariant | None:
    return _OWN.get(name)


def read_own_variant(path: Path | str) -> OwnVariant:
    """
    A group's own variant from its directory, checked, with its digest.

    Raises:
        VariantDataError: naming the file at fault and what is wrong.
    """
    directory = Path(path)
    if not (directory / "variant.toml").is_file():
        raise VariantDataError(str(directory / "variant.toml"), "the file is missing")
    sources = read_sources(directory, str(directory), _shipped_directory)
    variant = _built(sources, str(directory), directory.name)
    data = source_data(sources)
    return OwnVariant(variant, data_digest(data), data, directory)


def own_variant_from_data(data: Mapping[str, object], name: str) -> OwnVariant:
    """
    A group's own variant from its data as ``OwnVariant.data`` holds it (an audit
    bundle's copy); ``name`` is its name unless its ``variant.toml`` gives one.

    Raises:
        VariantDataError: the data do not make a variant that holds together.
    """
    sources = sources_of_data(data, name)
    return OwnVariant(_built(sources, name, name), data_digest(source_data(sources)), source_data(sources))


def install_own_variant(own: OwnVariant) -> OwnVariant:
    """
    Make a group's own variant loadable by its name (the composition root does this for
    each directory it is given; ``verify`` for a bundle's).  A shipped name is refused,
    so a game called ``standard`` always means the shipped game; the same name installed
    again replaces the one before (the files were read again), and the games begun on
    the old data then refuse to load (``check_digest``).
    """
    name = own.variant.name
    if name in shipped_variants() or name in _REGISTERED:
        raise VariantDataError(
            f"{name}/variant.toml", f"the name {name!r} is a shipped variant's; give your variant another name"
        )
    _OWN[name] = own
    return own


def forget_own_variant(name: str) -> None:
    """Uninstall an own variant (its games then refuse to load until it is back)."""
    _OWN.pop(name, None)


def variant_digest(name: str) -> str:
    """The digest of an own variant's data; "" for a shipped or registered one."""
    own = _OWN.get(name)
    return own.digest if own is not None else ""


def check_digest(name: str, digest: str) -> None:
    """
    Raises:
        VariantChangedError: ``name``'s data are not those whose digest a game recorded.
    """
    now = variant_digest(name)
    if digest and now != digest:
        raise VariantChangedError(
            f"this game was begun in the variant {name!r} whose data had the digest "
            f"{digest[:16]}..., but the variant installed now has "
            + (f"{now[:16]}..." if now else "no such data (it is not installed)")
            + ": its files changed since the game began, and the game would not replay as "
            "it was played. Put the variant's files back as they were (or install the "
            "changed ones under another name for new games)."
        )


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
    if found is not None:
        return found
    own = _OWN.get(name)
    return own.variant if own is not None else _load_shipped(name)


#: How the shell keeps a shipped variant's files read between processes: given the
#: variant's name and the function that reads and parses its files (its base's too), it
#: answers what that function would (see ``set_shipped_keeper``).
Keeper = Callable[[str, Callable[[], Mapping[str, Source]]], Mapping[str, Source]]
_KEEPER: list[Keeper] = []


def set_shipped_keeper(keeper: Keeper | None) -> None:
    """
    Have ``keeper`` read the files of the shipped variants not loaded yet (None: parse them).

    A command line that reads one game loads its variant at each start, and parsing the
    TOML files is most of that (issue 28).  The rules do no I/O beyond their package's
    data, so a cache of parsed files between processes is the shell's
    (``runtime.variant_cache``); the variant is built and checked from what it answers
    as from freshly parsed files, so it is the same variant, to the order of its sets.
    """
    _KEEPER[:] = [] if keeper is None else [keeper]


@functools.cache
def _load_shipped(name: str) -> Variant:
    directory = _shipped_directory(name)

    def read() -> Mapping[str, Source]:
        return read_sources(directory, name, _shipped_directory)

    return _built(_KEEPER[0](name, read) if _KEEPER else read(), name, name)


def shipped_chain(name: str) -> tuple[str, ...]:
    """The shipped variant ``name`` and those it is based on, in turn (its files are theirs)."""
    chain = [name]
    while True:
        base = _parse_meta(chain[-1]).get("based_on")
        if not isinstance(base, str) or base in chain:
            return tuple(chain)
        _shipped_directory(base)  # an unknown base: UnknownVariantError
        chain.append(base)


def _parse_meta(name: str) -> Mapping[str, object]:
    meta = _shipped_directory(name) / "variant.toml"
    if not meta.is_file():
        return {}
    return read_sources(_shipped_directory(name), name, _shipped_directory)["variant.toml"].tables


def shipped_files(name: str) -> dict[str, bytes]:
    """Every file in the shipped variant ``name``'s folder, by name: what its data are."""
    return {f.name: f.read_bytes() for f in _shipped_directory(name).iterdir() if f.is_file()}


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
    return _built(read_sources(directory, label, _shipped_directory), label, default_name)


def _built(sources: Mapping[str, Source], label: str, default_name: str) -> Variant:
    name = str(sources["variant.toml"].tables.get("name", default_name))
    variant = build_variant(name, sources)
    check_variant(variant, _absent(label) | {f: s.where for f, s in sources.items()})
    return variant


def _absent(label: str) -> dict[str, str]:
    """Where a file a variant does not have would go, for a fault about what it lacks."""
    return {f: f"{label}/{f}" for f in DATA_FILES}
