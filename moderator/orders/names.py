"""Names in orders: legion markers, characters, colours and battleland hexes.

Players write these in any case, singular or plural, or abridged; this module turns what
they wrote into the canonical name, or says why it cannot.  It knows nothing about the
order a name appears in: that is for the reader and the order parsers built on it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from moderator.orders.errors import (
    E_COLOUR,
    E_CREATURE,
    E_HEX,
    AmbiguousOrderError,
    OrderError,
)
from moderator.rules.variant import LABELS, load_variant

#: What looks like a legion marker code: two letters and a number (checked against markers).
CODE_SHAPE = re.compile(r"([A-Za-z]{2})([0-9]{1,2})")
#: What looks like a battleland hex label: a letter and a number (checked against LABELS).
HEX_SHAPE = re.compile(r"[A-Za-z][0-9]{1,6}")
_LABELS = frozenset(LABELS)
#: The shortest abbreviation of a character name the parser tries to complete.
_MIN_PREFIX = 3


def _build_markers() -> dict[str, str]:
    found: dict[str, str] = {}
    for pairs in load_variant().markers.values():
        for code, name in pairs:
            found[code.casefold()] = code
            found[name.casefold()] = code
    return found


_MARKERS = _build_markers()


def marker_code(token: str) -> str | None:
    """The canonical code ("Rd01") for a marker code in any case or a marker name."""
    m = CODE_SHAPE.fullmatch(token)
    if m:
        token = f"{m.group(1)}{int(m.group(2)):02d}"
    return _MARKERS.get(token.casefold())


def marker_colour_codes() -> list[str]:
    """The two-letter colour codes that begin marker codes ("Bk", "Rd", ...), sorted."""
    return sorted({code[:2] for code in _MARKERS.values()})


def _lead(line: str) -> str:
    return f"cannot read {line.strip()!r}: " if line.strip() else ""


def _the_one(token: str, hits: list[str], line: str, full: str) -> str | None:
    """The one name in ``hits`` (those ``token`` begins); None if none; ambiguous if several."""
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise AmbiguousOrderError(
            f"{_lead(line)}{token!r} could be {' or '.join(hits)}: write the full {full}",
            line,
        )
    return None


def _none_of(code: str, token: str, line: str, kind: str, names: Iterable[str]) -> OrderError:
    """The error for a ``token`` that is no ``kind`` at all, listing the ``names`` there are."""
    return OrderError(
        code,
        f"{_lead(line)}{token!r} is not a {kind}; {kind}s are: "
        f"{', '.join(n.lower() for n in names)}",
        line,
    )


def exact_creature(token: str) -> str | None:
    """The canonical name of a character written in full (any case, singular or plural)."""
    try:
        return load_variant().creature(token).name
    except KeyError:
        return None


def creature_name(token: str, line: str = "") -> str:
    """The canonical name of a character written in any case, singular, plural or abridged."""
    exact = exact_creature(token)
    if exact is not None:
        return exact
    key = token.casefold()
    kinds = load_variant().creatures.values()
    if len(key) >= _MIN_PREFIX:
        hits = sorted(
            {
                k.name
                for k in kinds
                if any(s.casefold().startswith(key) for s in (k.name, k.plural, *k.aliases))
            }
        )
        found = _the_one(token, hits, line, "name")
        if found is not None:
            return found
    raise _none_of(E_CREATURE, token, line, "character", [k.name for k in kinds])


def colour_name(token: str, line: str = "") -> str:
    """The canonical colour for a colour name, its marker code ("Rd") or a clear beginning."""
    variant = load_variant()
    key = token.casefold()
    codes = {pairs[0][0][:2].casefold(): colour for colour, pairs in variant.markers.items()}
    if key in codes:
        return codes[key]
    hits = [c for c in variant.colours if c.casefold().startswith(key)]
    exact = [c for c in hits if c.casefold() == key]
    if exact:
        return exact[0]
    found = _the_one(token, hits, line, "colour name")
    if found is not None:
        return found
    raise _none_of(E_COLOUR, token, line, "colour", variant.colours)


def _label_ranges() -> str:
    columns: dict[str, list[str]] = {}
    for label in LABELS:
        columns.setdefault(label[0], []).append(label)
    return ", ".join(f"{hexes[0]}-{hexes[-1]}" for hexes in columns.values())


def hex_label(token: str, line: str = "") -> str:
    """The canonical label ("C1") of a battleland hex written in any case (Wolff 2.2)."""
    label = token.upper()
    if label in _LABELS:
        return label
    if HEX_SHAPE.fullmatch(token):
        why = f"there is no hex {label} on a battleland"
    else:
        why = f"{token!r} is not a battleland hex"
    raise OrderError(
        E_HEX,
        f"{_lead(line)}{why}; a hex is a column letter and a row number: {_label_ranges()}",
        line,
    )
