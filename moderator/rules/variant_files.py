"""Reading a variant's directory of TOML files into a :class:`Variant`.

A variant is data so that a group can add its own without code (docs/variants.md):
``variant.toml`` names it and may say ``based_on = "standard"``, in which case every
other file it does not have is read from that variant's directory (TitanPlus changes
only the characters and the muster table).  A fault in a file is reported as a
:class:`VariantDataError` naming the file, so the person who wrote it knows where to
look.  The directories are read through :mod:`importlib.resources` traversables, so
the shipped ones work from a wheel and a group's own from any path.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from importlib.resources.abc import Traversable
from typing import Any

from moderator.records import record
from moderator.rules.options import RuleOptions
from moderator.rules.variant_types import (
    HEXSIDE_KINDS,
    LABELS,
    BattleHex,
    Battleland,
    CreatureType,
    Exit,
    Land,
    Sign,
    Variant,
    neighbour_of,
)

#: The files a variant is made of; placement.toml is optional (only Badlands has one).
DATA_FILES = (
    "masterboard.toml",
    "muster.toml",
    "creatures.toml",
    "battlelands.toml",
    "markers.toml",
    "placement.toml",
)
OPTIONAL_FILES = frozenset({"placement.toml"})


class VariantDataError(ValueError):
    """A variant's data is wrong; ``file`` is where, the message says what."""

    def __init__(self, file: str, fault: str) -> None:
        super().__init__(f"{file}: {fault}")
        self.file = file
        self.fault = fault


@record
class Source:
    """One variant file: where it was found (for messages) and its tables."""

    where: str
    tables: dict[str, Any]


#: How a ``based_on`` name is turned into the directory that holds that variant.
Resolver = Callable[[str], Traversable]


def read_sources(directory: Traversable, label: str, resolve: Resolver) -> dict[str, Source]:
    """Every file of the variant in ``directory``, its own or its base's, by file name.

    ``label`` is how messages name the directory (``titanplus`` or a path).
    """
    # a directory without variant.toml is a variant of its files alone (no base, no options)
    has_meta = (directory / "variant.toml").is_file() or not (directory / "masterboard.toml").is_file()
    meta = _parse(directory / "variant.toml", f"{label}/variant.toml") if has_meta else Source(
        f"{label}/variant.toml", {}
    )
    found: dict[str, Source] = {"variant.toml": meta}
    base = meta.tables.get("based_on")
    seen = {label}
    while True:
        for name in DATA_FILES:
            if name not in found and (directory / name).is_file():
                found[name] = _parse(directory / name, f"{label}/{name}")
        if base is None:
            break
        if not isinstance(base, str) or base in seen:
            raise VariantDataError(meta.where, f"based_on {base!r} is not a variant to build on")
        seen.add(base)
        try:
            directory, label = resolve(base), base
            base = _parse(directory / "variant.toml", f"{base}/variant.toml").tables.get("based_on")
        except (OSError, ValueError) as exc:
            raise VariantDataError(meta.where, f"based_on names {base!r}, which is not shipped") from exc
    missing = [n for n in DATA_FILES if n not in found and n not in OPTIONAL_FILES]
    if missing:
        raise VariantDataError(f"{label}/", f"no {', '.join(missing)} (nor a based_on that has it)")
    return found


def source_data(sources: Mapping[str, Source]) -> dict[str, dict[str, Any]]:
    """Every file's tables by file name: what a variant is, without where it was read."""
    return {name: source.tables for name, source in sorted(sources.items())}


def sources_of_data(data: Mapping[str, Any], label: str) -> dict[str, Source]:
    """``source_data``'s answer (say, from an audit bundle) as sources to build from."""
    found = {str(name): Source(f"{label}/{name}", dict(tables)) for name, tables in data.items()}
    if "variant.toml" not in found:
        raise VariantDataError(f"{label}/variant.toml", "the file is missing")
    missing = [n for n in DATA_FILES if n not in found and n not in OPTIONAL_FILES]
    if missing:
        raise VariantDataError(f"{label}/", f"no {', '.join(missing)}")
    return found


def data_digest(data: Mapping[str, Any]) -> str:
    """
    The SHA-256 of a variant's data (``source_data``), written canonically: the same
    tables give the same digest whatever the files' layout, comments or order, and any
    change of a fact changes it.  A game of a group's own variant records it, so that it
    is replayed on the data it was played on.
    """
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _parse(path: Traversable, where: str) -> Source:
    import tomllib  # here: a variant served from the shell's cache parses no TOML (issue 28)

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, FileNotFoundError) as exc:
        raise VariantDataError(where, "the file is missing") from exc
    try:
        return Source(where, tomllib.loads(text))
    except tomllib.TOMLDecodeError as exc:
        raise VariantDataError(where, f"not valid TOML: {exc}") from exc


def build_variant(name: str, sources: Mapping[str, Source]) -> Variant:
    """The variant the files describe; a missing or mistyped field names its file."""
    meta = sources["variant.toml"].tables
    with _blame(sources["variant.toml"].where):
        options = RuleOptions.from_table(dict(meta.get("options", {})), "[options]")
    board, muster = sources["masterboard.toml"], sources["muster.toml"]
    placement = sources.get("placement.toml")
    with _blame(board.where):
        lands = _lands(board.tables)
    with _blame(placement.where if placement else board.where):
        placed = {int(k): str(v) for k, v in (placement.tables.get("land", {}) if placement else {}).items()}
        alternates = dict(placement.tables.get("alternate", {})) if placement else {}
        for number, battleland in placed.items():
            if number not in lands:
                raise ValueError(f"land {number} is placed but is not on the masterboard")
            lands[number] = _with_battleland(lands[number], battleland)
    with _blame(muster.where):
        m = muster.tables
        chains = {
            terrain: tuple((step["creature"], int(step["needs"])) for step in chain)
            for terrain, chain in m["chain"].items()
        }
        tower = m["tower"]
    with _blame(sources["creatures.toml"].where):
        creatures = _creatures(sources["creatures.toml"].tables)
    with _blame(sources["battlelands.toml"].where):
        battlelands = _battlelands(sources["battlelands.toml"].tables)
    with _blame(sources["markers.toml"].where):
        markers_raw = sources["markers.toml"].tables
        markers = _markers(markers_raw)
    with _blame(muster.where):
        return Variant(
            name=name,
            lands=lands,
            towers=tuple(sorted(n for n, land in lands.items() if land.is_tower)),
            creatures=creatures,
            muster_chains=chains,
            tower_creatures=tuple(tower["creatures"]),
            guardian_needs=int(tower["guardian_needs"]),
            warlock_qualifiers=tuple(tower["warlock_qualifiers"]),
            starting_creatures=dict(m["starting"]),
            acquirables=tuple((a["name"], a["points"]) for a in m["acquirable"]),
            battlelands=battlelands,
            markers=markers,
            colours=tuple(markers_raw["colour"]),
            title=str(meta.get("title", name)),
            source=str(meta.get("source", "")),
            alternates=alternates,
            options=options,
        )


class _blame:
    """Turn a missing or mistyped field into a VariantDataError naming ``where``."""

    def __init__(self, where: str) -> None:
        self.where = where

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if exc is None or isinstance(exc, VariantDataError):
            return
        if isinstance(exc, KeyError):
            raise VariantDataError(self.where, f"a table lacks the field {exc.args[0]!r}") from exc
        if isinstance(exc, (ValueError, TypeError, AttributeError)):
            raise VariantDataError(self.where, str(exc)) from exc


def _with_battleland(land: Land, battleland: str) -> Land:
    return Land(
        number=land.number,
        terrain=land.terrain,
        exits=land.exits,
        entry_sides=land.entry_sides,
        neighbours=land.neighbours,
        battleland=battleland,
    )


def _lands(raw: dict[str, Any]) -> dict[int, Land]:
    tables = raw["land"]
    touching: dict[int, set[int]] = {int(t["number"]): set() for t in tables}
    for t in tables:
        for e in t["exits"]:
            if int(e["to"]) not in touching:
                raise ValueError(f"land {t['number']}: an exit points to {e['to']}, no land")
            touching[int(t["number"])].add(int(e["to"]))
            touching[int(e["to"])].add(int(t["number"]))
    lands: dict[int, Land] = {}
    for t in tables:
        number = int(t["number"])
        if number in lands:
            raise ValueError(f"land {number} is listed twice")
        lands[number] = Land(
            number=number,
            terrain=t["terrain"],
            exits=tuple(Exit(_sign(e["sign"], number), int(e["to"])) for e in t["exits"]),
            entry_sides={int(k): v for k, v in t["entered_from"].items()},
            neighbours=frozenset(touching[number]),
        )
    return lands


def _sign(word: str, land: int) -> Sign:
    try:
        return Sign(word)
    except ValueError:
        signs = ", ".join(s.value for s in Sign)
        raise ValueError(f"land {land}: no sign {word!r} (signs: {signs})") from None


def _creatures(raw: dict[str, Any]) -> dict[str, CreatureType]:
    return {
        t["name"]: CreatureType(
            name=t["name"],
            plural=t["plural"],
            power=t["power"],
            skill=t["skill"],
            rangestrikes=t["rangestrikes"],
            flies=t["flies"],
            natives=frozenset(t["natives"]),
            lord=t["lord"],
            demilord=t["demilord"],
            summonable=t["summonable"],
            count=t["count"],
            aliases=tuple(t.get("aliases", ())),
        )
        for t in raw["creature"]
    }


def _battlelands(raw: dict[str, Any]) -> dict[str, Battleland]:
    entrances = {side: tuple(hexes) for side, hexes in raw["entrances"].items()}
    result: dict[str, Battleland] = {}
    for terrain, t in raw["battleland"].items():
        hexes = {label: BattleHex(label, "plains", 0) for label in LABELS}
        for group in t.get("hexes", ()):
            for label in group["labels"]:
                if label not in hexes:
                    raise ValueError(f"battleland {terrain}: no hex {label!r}")
                hexes[label] = BattleHex(label, group["terrain"], group["elevation"])
        hexsides: dict[tuple[str, str], str] = {}
        for kind in HEXSIDE_KINDS:
            for pair in t.get(kind, ()):
                owner, _, other = pair.partition(">")
                if other not in {neighbour_of(owner, d) for d in range(6)}:
                    raise ValueError(
                        f"battleland {terrain}: {kind} {pair!r} joins hexes that do not touch"
                    )
                if (owner, other) in hexsides or (other, owner) in hexsides:
                    raise ValueError(f"battleland {terrain}: hexside {pair!r} is listed twice")
                hexsides[owner, other] = kind
        result[terrain] = Battleland(
            terrain=terrain,
            hexes=hexes,
            hexsides=hexsides,
            tower=t["tower"],
            deploy=tuple(t.get("deploy", ())),
            entrances=dict(entrances),
        )
    return result


def _markers(raw: dict[str, Any]) -> dict[str, tuple[tuple[str, str], ...]]:
    result: dict[str, tuple[tuple[str, str], ...]] = {}
    for colour, table in raw["colour"].items():
        pairs = tuple(sorted(table["markers"].items()))
        if any(not code.startswith(table["code"]) for code, _ in pairs):
            raise ValueError(f"colour {colour}: every marker code must start with {table['code']!r}")
        result[colour] = pairs
    return result
