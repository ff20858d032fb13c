"""
Rangestrike geometry: distance, range, the path of a rangestrike and what blocks it
(rules 13.2, 13.3, 13.5, the hazard chart 11.7, Wolff's errata 11.7, 13.3, 13.5).

Hex geometry.  The battle hexes stand in vertical columns A-F (flat-topped hexes,
Wolff 2.2).  Each hex gets integer "doubled" coordinates ``(col, v)``: ``col`` is
0..5 for A..F, and ``v`` counts half hex heights upward, ``v = 2 * row + OFFSET[col]``
with ``OFFSET = (0, -1, -2, -3, -2, -1)``.  Going N adds (0, 2), NE (1, 1), SE
(1, -1), S (0, -2), SW (-1, -1) and NW (-1, 1); this reproduces the neighbour
tables of the data format (columns B, C, D half a step lower going right of A, the
offsets turning round at the long middle column D), and the tests check it against
``Battleland.neighbours`` for every hex.

For lines (13.3) the plane is drawn with the affine map that puts a hex's centre at
``(3 * col, v)``: a regular hexagon then has its corners at ``(x +- 2, v)`` and
``(x +- 1, v +- 1)``, so every corner is an integer point and a hex is the set of
points with ``|y - v| <= 1``, ``|(x + y) - (x0 + v)| <= 2`` and
``|(x - y) - (x0 - v)| <= 2``.  An affine map keeps straight lines straight and
maps hexes onto hexes, so which hexes a centre-to-centre line meets is unchanged,
and with ``Fraction`` every tie (a line exactly along a hexside) is exact.

Which hexes a line passes through: the hexes whose inside it crosses.  A hex the
line only touches at a corner is not passed through.  Where the line runs along a
hexside, it passes through one of the two hexes that side separates, and the
striker chooses which (13.3): ``paths`` returns one path per combination of choices.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from fractions import Fraction

from moderator.records import record
from moderator.rules.battlefield import Fighter, elevation, hexside, terrain
from moderator.rules.variant import Battleland

_COLUMNS = "ABCDEF"
_OFFSET = (0, -1, -2, -3, -2, -1)
_HEIGHTS = (3, 4, 5, 6, 5, 4)
#: 13.2: no rangestrike reaches further than four hexes (both ends counted).
MAX_RANGE = 4
#: 13.5: the rangestriker that is never blocked nor affected by hazards.
WARLOCK = "Warlock"


def coords(label: str) -> tuple[int, int]:
    """The doubled coordinates ``(col, v)`` of a hex label (see the module docstring)."""
    col = _COLUMNS.index(label[0])
    row = int(label[1:])
    if not 1 <= row <= _HEIGHTS[col]:
        raise KeyError(f"no hex {label!r} on a battleland")
    return col, 2 * row + _OFFSET[col]


def _label(col: int, v: int) -> str | None:
    """The label at doubled coordinates, or None off the battleland."""
    if not 0 <= col < len(_COLUMNS) or (v - _OFFSET[col]) % 2:
        return None
    row = (v - _OFFSET[col]) // 2
    return f"{_COLUMNS[col]}{row}" if 1 <= row <= _HEIGHTS[col] else None


def hex_distance(a: str, b: str) -> int:
    """The number of steps from hex ``a`` to hex ``b``."""
    (ca, va), (cb, vb) = coords(a), coords(b)
    dc, dv = abs(ca - cb), abs(va - vb)
    return dc + max(0, (dv - dc) // 2)


def strike_range(a: str, b: str) -> int:
    """13.2: the range counts the striker's hex, the target's hex and every hex between."""
    return hex_distance(a, b) + 1


def max_range(fighter: Fighter) -> int:
    """13.2: up to the skill, never beyond four (Wolff 11.7/13.2: the printed skill)."""
    return min(fighter.skill, MAX_RANGE)


# --------------------------------------------------------------------------- paths


def _slabs(x: int, y: int) -> tuple[int, int, int]:
    """The three linear forms whose ranges define a hex (see the module docstring)."""
    return y, x + y, x - y


_HALF_WIDTHS = (1, 2, 2)


def _meeting(
    start: tuple[int, int], delta: tuple[int, int], centre: tuple[int, int]
) -> tuple[Fraction, Fraction, bool] | None:
    """
    Where the segment ``start + t * delta`` (0 <= t <= 1) meets the hex at ``centre``.

    Returns ``(t_in, t_out, inside)`` for a contact longer than a point, where
    ``inside`` is False when the segment only runs along one of the hex's sides;
    None when they do not meet or only touch at a corner.
    """
    lo, hi = Fraction(0), Fraction(1)
    f0, f1, fc = _slabs(*start), _slabs(*delta), _slabs(*centre)
    for p, d, c, w in zip(f0, f1, fc, _HALF_WIDTHS):
        if d == 0:
            if abs(p - c) > w:
                return None
            continue
        t1, t2 = Fraction(c - w - p, d), Fraction(c + w - p, d)
        lo, hi = max(lo, min(t1, t2)), min(hi, max(t1, t2))
    if lo >= hi:
        return None
    mid = (lo + hi) / 2
    inside = all(abs(p + mid * d - c) < w for p, d, c, w in zip(f0, f1, fc, _HALF_WIDTHS))
    return lo, hi, inside


def paths(land: Battleland, a: str, b: str) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """
    13.3: the hexes a centre-to-centre line from ``a`` to ``b`` passes through.

    One ``(intervening hexes in order from a, via)`` per path: where the line runs
    along a hexside the striker picks one of the two hexes, and ``via`` lists the
    hexes so picked (empty when the line never runs along a hexside).  Every two
    consecutive hexes of ``(a, *intervening, b)`` are adjacent.
    """
    for end in (a, b):
        if end not in land.hexes:
            raise KeyError(f"no hex {end!r} on the {land.terrain} battleland")
    (ca, va), (cb, vb) = coords(a), coords(b)
    start, delta = (3 * ca, va), (3 * (cb - ca), vb - va)
    through: list[tuple[Fraction, str]] = []
    along: dict[tuple[Fraction, Fraction], list[str]] = {}
    for col in range(min(ca, cb) - 1, max(ca, cb) + 2):
        for v in range(min(va, vb) - 2, max(va, vb) + 3):
            if (col + v) % 2 or (col, v) in ((ca, va), (cb, vb)):
                continue
            met = _meeting(start, delta, (3 * col, v))
            if met is None:
                continue
            label = _label(col, v)
            if label is None:
                # The battleland is a convex block of hexes: a line between two of its
                # hexes never leaves it.  Guard the claim rather than guess.
                raise AssertionError(f"line {a}-{b} leaves the battleland")
            t_in, t_out, inside = met
            if inside:
                through.append((t_in, label))
            else:
                along.setdefault((t_in, t_out), []).append(label)
    steps: list[tuple[Fraction, tuple[str, ...]]] = [(t, (label,)) for t, label in through]
    for (t_in, _), pair in along.items():
        if len(pair) != 2:
            raise AssertionError(f"line {a}-{b}: a hexside run beside {pair}")
        steps.append((t_in, tuple(sorted(pair))))
    steps.sort()
    result: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    for choice in itertools.product(*(options for _, options in steps)):
        via = tuple(h for h, (_, options) in zip(choice, steps) if len(options) > 1)
        result.append((tuple(choice), via))
    return result


# --------------------------------------------------------------------------- sight


@record
class SightResult:
    """
    Whether one path of a rangestrike is clear, and the hazard penalties along it.

    ``brambles``: intervening bramble hexes (the caller takes one skill from a
    non-native striker for each, Wolff 11.7).  ``walls_up``: walls crossed going up
    (one skill each).  Both are 0 for a Warlock (13.5: not affected by hazards).
    """

    blocked: bool
    reason: str
    brambles: int
    walls_up: int


@record
class _Side:
    """One hazard hexside crossed: its kind, the hex atop it and the hex below it."""

    kind: str
    atop: str
    base: str
    up: bool  # crossed going into the hex atop it


def _crossed(land: Battleland, line: Sequence[str]) -> list[_Side]:
    found: list[_Side] = []
    for a, b in itertools.pairwise(line):
        kind, atop = hexside(land, a, b)
        if kind is not None and atop is not None:
            found.append(_Side(kind, atop, b if atop == a else a, atop == b))
    return found


def _tower_centre_and_beneath(land: Battleland) -> tuple[frozenset[str], frozenset[str]]:
    """
    The tower's centre hex (atop walls, beneath none: D4) and the hexes directly
    beneath an outer wall (a wall whose top is not the centre).
    """
    walls = [(atop, base) for (atop, base), kind in land.hexsides.items() if kind == "wall"]
    bases = {base for _, base in walls}
    centre = frozenset(atop for atop, _ in walls if atop not in bases)
    beneath = frozenset(base for atop, base in walls if atop not in centre)
    return centre, beneath


def _hexside_block(land: Battleland, s: str, t: str, sides: list[_Side]) -> str:
    """The hazard chart's rangestrike rules for the hexsides crossed; '' when clear."""
    ends = (s, t)
    cliffs = [x for x in sides if x.kind == "cliff"]
    dunes = [x for x in sides if x.kind == "dune"]
    slopes = [x for x in sides if x.kind == "slope"]
    walls = [x for x in sides if x.kind == "wall"]

    # Cliff: crossed only with the striker atop it and the target not at its base, or
    # the other way round.  The chart speaks of "a Cliff"; two cliffs are allowed when
    # each passes that test on its own (the striker atop one, the target atop the
    # other), as the dune rule allows two dunes so held: the chart does not forbid it
    # and Wolff is silent (an open question).
    for x in cliffs:
        if not ((x.atop == s and x.base != t) or (x.atop == t and x.base != s)):
            return f"the cliff between {x.atop} and {x.base} blocks the line"

    # Dune: one dune only if striker or target is atop it; two only if each is atop
    # one (Wolff 11.7: the hex connected to a dune is the hex atop it; dunes are not
    # height).  A cliff/dune combination needs one end atop the dune and the other
    # atop the cliff, which the two checks together demand.
    for x in dunes:
        if x.atop not in ends:
            return f"the dune between {x.atop} and {x.base} blocks the line"

    # Slope: "one Cliff before or after any number of Slopes provided the striker or
    # target occupies the hex atop the Cliff": a held cliff frees the slopes.
    # Otherwise one or two slopes need an end atop one of them.  Three slopes: the
    # chart says "if the rangestriker or the target is directly atop the third Slope"
    # and Wolff is silent.  Only the first and the last hexsides crossed can belong
    # to an end, so "an end atop some slope" would make the sentence say nothing new;
    # we read it as the striker atop the first slope and the target atop the third,
    # as the Gods of Titan chart (seed 002, same wording otherwise) spells it out.
    # A hill in the middle therefore hides what lies behind it.  More than three
    # slopes never (no line of range 4 crosses four anyway).
    if slopes and not cliffs:
        if len(slopes) > 3:
            return f"{len(slopes)} slopes block the line"
        if len(slopes) == 3:
            if not (slopes[0].atop == s and slopes[-1].atop == t):
                return "three slopes block the line unless both ends stand atop the outer two"
        elif not any(x.atop in ends for x in slopes):
            first = slopes[0]
            return f"the slope between {first.atop} and {first.base} blocks the line"

    # Wall: a single wall only if striker or target is atop it (Wolff 11.7: the hex
    # connected to a wall is the hex atop it); two walls only if one of them holds
    # the tower's centre and neither stands directly beneath any outer wall.
    if len(walls) == 1:
        x = walls[0]
        if x.atop not in ends:
            return f"the wall between {x.atop} and {x.base} blocks the line"
    elif len(walls) == 2:
        centre, beneath = _tower_centre_and_beneath(land)
        if not (centre & set(ends)) or beneath & set(ends):
            return (
                "two walls block the line unless one end holds the tower's centre"
                " and neither stands beneath an outer wall"
            )
    elif len(walls) > 2:
        return f"{len(walls)} walls block the line"
    return ""


def _blocker(
    land: Battleland,
    s: str,
    t: str,
    fighters: Iterable[Fighter],
    path_hexes: Sequence[str],
    ends: tuple[int, int],
) -> str:
    """A tree or a character that blocks the path; '' when none does."""
    for label in path_hexes:
        if terrain(land, label) == "tree":
            return f"the tree in {label} blocks the line"
    standing = {f.hex: f for f in fighters if f.hex is not None and f.id not in ends}
    low = min(elevation(land, s), elevation(land, t))
    for label in path_hexes:
        other = standing.get(label)
        if other is None or elevation(land, label) < low:
            continue  # exception 3: lower than both striker and target
        if any(hexside(land, end, label) == ("cliff", end) for end in (s, t)):
            continue  # exception 2: at the base of a cliff the striker or target tops
        return f"the {other.creature} in {label} blocks the line"
    return ""


def sight(
    land: Battleland,
    striker: Fighter,
    target: Fighter,
    fighters: Iterable[Fighter],
    path_hexes: Sequence[str],
) -> SightResult:
    """
    The hazard chart's rangestrike rules for one path (``path_hexes``: the intervening
    hexes from ``paths``).  Range, contact and lords' immunity are the caller's.

    Characters, friend or foe, in an intervening hex block, except:

    1. nothing blocks a Warlock (13.5; Wolff 11.7/13.5: not even a cliff it stands at
       the base of);
    2. a character at the base of a cliff whose top the striker or target holds;
    3. a character lower than both striker and target (Wolff 11.7: bog, bramble,
       drift and sand are at plains height, dunes are no height; the data's
       elevations say so).

    A slain character still standing (12.6: removed at the end of the strike phase)
    is a character on the battleland, so it blocks.  Trees always block (13.5 aside).
    """
    if striker.hex is None or target.hex is None:
        raise ValueError("both the striker and the target must be on the battleland")
    if striker.creature == WARLOCK:
        return SightResult(False, "", 0, 0)
    s, t = striker.hex, target.hex
    sides = _crossed(land, (s, *path_hexes, t))
    walls_up = sum(1 for x in sides if x.kind == "wall" and x.up)
    brambles = sum(1 for label in path_hexes if terrain(land, label) == "bramble")
    reason = _blocker(land, s, t, fighters, path_hexes, (striker.id, target.id))
    reason = reason or _hexside_block(land, s, t, sides)
    return SightResult(bool(reason), reason, brambles, walls_up)


def rangestrike_paths(
    land: Battleland, striker: Fighter, target: Fighter, fighters: Iterable[Fighter]
) -> list[tuple[tuple[str, ...], SightResult]]:
    """``(via, sight)`` for every path from striker to target (13.3, Wolff 13.3)."""
    if striker.hex is None or target.hex is None:
        raise ValueError("both the striker and the target must be on the battleland")
    everyone = list(fighters)
    return [
        (via, sight(land, striker, target, everyone, hexes))
        for hexes, via in paths(land, striker.hex, target.hex)
    ]
