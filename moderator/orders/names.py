"""Names in orders: legion markers, characters, colours, battleland hexes and players.

Players write these in any case, singular or plural, or abridged; this module turns what
they wrote into the canonical name, or says why it cannot.  Markers, characters and
colours are those of the game's variant, which every reader here is given.  It knows nothing about the
order a name appears in: that is for the reader and the order parsers built on it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from moderator.orders.errors import (
    E_COLOUR,
    E_CREATURE,
    E_HEX,
    E_PLAYER,
    AmbiguousOrderError,
    OrderError,
)
from moderator.rules.state import GameState
from moderator.rules.variant import LABELS, Variant

#: What looks like a legion marker code: two letters and a number (checked against markers).
CODE_SHAPE = re.compile(r"([A-Za-z]{2})([0-9]{1,2})")
#: What looks like a battleland hex label: a letter and a number (checked against LABELS).
HEX_SHAPE = re.compile(r"[A-Za-z][0-9]{1,6}")
_LABELS = frozenset(LABELS)
#: The shortest abbreviation of a character or player name the parser tries to complete.
_MIN_PREFIX = 3
#: The words for "every other player still in the game".
EVERYBODY = ("all", "everybody", "everyone")
#: What separates the names in a list of players (no signed-on name holds one of these).
_NAME_LIST = re.compile(r"[,;|]")


@functools.cache
def _markers(variant: Variant) -> dict[str, str]:
    """Marker code or picture name (casefolded) -> code, built once per variant."""
    found: dict[str, str] = {}
    for pairs in variant.markers.values():
        for code, name in pairs:
            found[code.casefold()] = code
            found[name.casefold()] = code
    return found


def marker_code(token: str, variant: Variant) -> str | None:
    """The canonical code ("Rd01") for a marker code in any case or a marker name."""
    m = CODE_SHAPE.fullmatch(token)
    if m:
        token = f"{m.group(1)}{int(m.group(2)):02d}"
    return _markers(variant).get(token.casefold())


def marker_colour_codes(variant: Variant) -> list[str]:
    """The two-letter colour codes that begin marker codes ("Bk", "Rd", ...), sorted."""
    return sorted({code[:2] for code in _markers(variant).values()})


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


def exact_creature(token: str, variant: Variant) -> str | None:
    """The canonical name of a character written in full (any case, singular or plural)."""
    try:
        return variant.creature(token).name
    except KeyError:
        return None


def creature_name(token: str, variant: Variant, line: str = "") -> str:
    """The canonical name of a character written in any case, singular, plural or abridged."""
    exact = exact_creature(token, variant)
    if exact is not None:
        return exact
    key = token.casefold()
    kinds = variant.creatures.values()
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


def colour_name(token: str, variant: Variant, line: str = "") -> str:
    """The canonical colour for a colour name, its marker code ("Rd") or a clear beginning."""
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


def player_names(
    text: str, state: GameState | None, player: str, line: str = ""
) -> tuple[str, ...] | None:
    """
    The players named in ``text`` ("Ann Example, Bob and Cy"), spelt as they signed on;
    None for ``all``.  Names may hold spaces, so they are read against the game's players:
    a name in full (any case) or a beginning of at least three letters that fits one
    other player only.  Without players at hand the names are taken as written, split at
    commas and ``and``.

    Raises:
        OrderError: a name that fits no player (E-PLAYER), or an abbreviation that fits
            several (E-AMBIGUOUS); each lists the names ``player`` may use.
    """
    if " ".join(text.split()).casefold() in EVERYBODY:
        return None
    pieces = [piece.split() for piece in _NAME_LIST.split(text)]
    if state is None or not state.players:
        return tuple(name for words in pieces for name in _split_at_and(words))
    return tuple(
        name for words in pieces for name in _read_names(words, state, player, line)
    )


def _split_at_and(words: list[str]) -> list[str]:
    names: list[list[str]] = [[]]
    for word in words:
        if word.casefold() == "and":
            names.append([])
        else:
            names[-1].append(word)
    return [" ".join(name) for name in names if name]


def _squeezed(name: str) -> str:
    return " ".join(name.split()).casefold()


def _read_names(words: list[str], state: GameState, player: str, line: str) -> list[str]:
    """The players ``words`` name, left to right: at each place the longest run of words
    that is a name in full, else (``and`` passed over) the longest that begins one."""
    exact = {_squeezed(p.name): p.name for p in state.players}
    found: list[str] = []
    at = 0
    while at < len(words):
        runs = [" ".join(words[at:end]) for end in range(len(words), at, -1)]
        whole = next(
            ((len(run.split()), exact[run.casefold()]) for run in runs if run.casefold() in exact),
            None,
        )
        if whole is None and words[at].casefold() == "and":
            at += 1
            continue
        if whole is None:
            whole = _beginning(runs, state, player, line)
        found.append(whole[1])
        at += whole[0]
    return found


def _beginning(runs: list[str], state: GameState, player: str, line: str) -> tuple[int, str]:
    """How many words the longest of ``runs`` that begins another player's name takes,
    and that name; live players first (one who left is named only to be told so)."""
    others = [p for p in state.players if p.name != player]
    for run in runs:
        key = run.casefold()
        for group in ([p for p in others if not p.eliminated], others):
            hits = sorted(p.name for p in group if _squeezed(p.name).startswith(key))
            if len(key) < _MIN_PREFIX and hits:
                raise OrderError(
                    E_PLAYER,
                    f"{_lead(line)}{run!r} is too short to stand for a player: write at "
                    f"least {_MIN_PREFIX} letters of the name; {_may_name(state, player)}",
                    line,
                )
            if len(hits) > 1:
                raise AmbiguousOrderError(
                    f"{_lead(line)}{run!r} could be {' or '.join(hits)}: write more of the "
                    f"name; {_may_name(state, player)}",
                    line,
                )
            if hits:
                return len(run.split()), hits[0]
    words = runs[0].split()
    unknown = " ".join(words[: next((i for i, w in enumerate(words) if w.casefold() == "and"),
                                    len(words))])
    raise OrderError(
        E_PLAYER,
        f"{_lead(line)}{unknown!r} is not a player in this game; {_may_name(state, player)}",
        line,
    )


def _may_name(state: GameState, player: str) -> str:
    others = sorted(p.name for p in state.live_players if p.name != player)
    return f"players you may name: {', '.join(others) or 'nobody'}, or 'all'"
