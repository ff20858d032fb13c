"""The order parser: one line a player typed in a mail -> a ``Command`` or a ``Query``.

The language is line oriented, case-insensitive and whitespace-insensitive.  Commas and
colons are optional separators; ``;`` separates the clauses of a proposal and ``or`` (or
``|``) separates proposals; anything from ``#`` on is a comment.  Legion markers may be
written as codes (``Rd01``, ``rd1``) or by their names (``Cross``); characters by their
names in the singular or plural, or by an unambiguous beginning of at least three letters
(``cent`` for Centaur); battleland hexes by their labels (``C1``, ``c1``; Wolff 2.2).

``move`` has two forms: a legion marker after it (``move Rd01 to 6``) makes it a move on
the masterboard, a hex label or a character name (``move C1 to C2``, ``move centaur to
C1``) a maneuver in a battle.

The parser checks form only.  Whether an order is allowed now is for the rules
(``decide``) to say; the one exception is ``propose``, whose clauses can only be sorted
into attacker's and defender's losses with the current engagement at hand.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Callable
from typing import NoReturn

from moderator.orders.errors import (
    E_COLOUR,
    E_CREATURE,
    E_EMPTY,
    E_HEX,
    E_MARKER,
    E_NUMBER,
    E_PROPOSAL,
    E_SYNTAX,
    E_UNKNOWN_ORDER,
    AmbiguousOrderError,
    OrderError,
    OrderSyntaxError,
)
from moderator.orders.help import (
    MANEUVER_USAGE,
    ORDER_WORDS,
    QUERY_WORDS,
    USAGE,
    canonical_topic,
)
from moderator.orders.queries import Query
from moderator.rules import commands as cmd
from moderator.rules.state import Engagement, GameState, Proposal
from moderator.rules.variant import LABELS, SIDES, load_variant

_TOKEN = re.compile(r"[;|]|[^\s;|:,]+")
_CODE = re.compile(r"([A-Za-z]{2})([0-9]{1,2})")
_NUMBER = re.compile(r"[0-9]{1,6}")
#: What looks like a battleland hex label: a letter and a number (checked against LABELS).
_HEX = re.compile(r"[A-Za-z][0-9]{1,6}")
_LABELS = frozenset(LABELS)
#: A strike number runs from 1 to 6 (rule 12.3): a die shows no more.
_LOWEST_STRIKE_NUMBER, _HIGHEST_STRIKE_NUMBER = 1, 6
_NEEDING = ("needing", "need", "needs")
_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
#: A legion holds at most seven characters (rule 4.3), so no count in an order exceeds it.
_MAX_COUNT = 7
#: The shortest abbreviation of a character name the parser tries to complete.
_MIN_PREFIX = 3
_PROPOSAL_SEPARATORS = ("or", "|")
_FILLERS = ("and",)
#: Words that may separate the hexes of a carry or a rangestrike's path.
_HEX_SEPARATORS = ("then", "and")

Result = cmd.Command | Query


def parse_order(line: str, player: str, state: GameState | None = None) -> cmd.Command | Query:
    """Read one order line for ``player``.

    ``state`` is needed only for ``propose`` (to tell the attacker from the defender and
    to know what an eliminated legion holds) and for a bare ``engage`` (when exactly one
    engagement is waiting).  Raises ``OrderError`` (or a subclass) when the line cannot
    be read; never anything else.
    """
    text = line.split("#", 1)[0].strip().rstrip(".").strip()
    tokens = _TOKEN.findall(text)
    if not tokens:
        raise OrderSyntaxError(
            E_EMPTY, "there is no order on this line; write one order per line", line
        )
    word = tokens[0].casefold()
    handler = _HANDLERS.get(word)
    if handler is None:
        raise _unknown_order(tokens[0], line)
    reader = _Reader(line, tokens[1:], player, state, _USAGE_OF.get(word, word))
    return handler(reader)


def _unknown_order(word: str, line: str) -> OrderSyntaxError:
    words = [*ORDER_WORDS, *QUERY_WORDS]
    close = difflib.get_close_matches(word.casefold(), words, n=1)
    hint = f" Did you mean {close[0]!r}?" if close else ""
    return OrderSyntaxError(
        E_UNKNOWN_ORDER,
        f"cannot read {line.strip()!r}: {word!r} is not an order.{hint} "
        f"Orders are: {', '.join(ORDER_WORDS)}; queries are: {', '.join(QUERY_WORDS)}.",
        line,
    )


# --------------------------------------------------------------------------- names


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
    m = _CODE.fullmatch(token)
    if m:
        token = f"{m.group(1)}{int(m.group(2)):02d}"
    return _MARKERS.get(token.casefold())


def _lead(line: str) -> str:
    return f"cannot read {line.strip()!r}: " if line.strip() else ""


def _creature_exact(token: str) -> str | None:
    try:
        return load_variant().creature(token).name
    except KeyError:
        return None


def creature_name(token: str, line: str = "") -> str:
    """The canonical name of a character written in any case, singular, plural or abridged."""
    exact = _creature_exact(token)
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
        if len(hits) == 1:
            return hits[0]
        if hits:
            raise AmbiguousOrderError(
                f"{_lead(line)}{token!r} could be {' or '.join(hits)}: write the full name",
                line,
            )
    raise OrderError(
        E_CREATURE,
        f"{_lead(line)}{token!r} is not a character; characters are: "
        f"{', '.join(k.name.lower() for k in kinds)}",
        line,
    )


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
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise AmbiguousOrderError(
            f"{_lead(line)}{token!r} could be {' or '.join(hits)}: write the full colour name",
            line,
        )
    raise OrderError(
        E_COLOUR,
        f"{_lead(line)}{token!r} is not a colour; colours are: "
        f"{', '.join(c.lower() for c in variant.colours)}",
        line,
    )


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
    if _HEX.fullmatch(token):
        why = f"there is no hex {label} on a battleland"
    else:
        why = f"{token!r} is not a battleland hex"
    raise OrderError(
        E_HEX,
        f"{_lead(line)}{why}; a hex is a column letter and a row number: {_label_ranges()}",
        line,
    )


def _a_number(what: str) -> str:
    """'a land number', 'a strike number'; 'a number of dice', 'a number of hits'."""
    return f"a number of {what}" if what in ("dice", "hits") else f"a {what} number"


# --------------------------------------------------------------------------- reader


class _Reader:
    """The tokens after the order word, read left to right."""

    def __init__(
        self, line: str, tokens: list[str], player: str, state: GameState | None, usage: str
    ) -> None:
        self.line = line
        self.tokens = tokens
        self.pos = 0
        self.player = player
        self.state = state
        self.usage = usage

    # -- primitives ------------------------------------------------------

    def peek(self) -> str | None:
        return self.tokens[self.pos].casefold() if self.pos < len(self.tokens) else None

    def at_end(self) -> bool:
        return self.pos >= len(self.tokens)

    def take(self) -> str:
        if self.at_end():
            self.fail()
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def accept(self, *words: str) -> bool:
        if self.peek() in words:
            self.pos += 1
            return True
        return False

    def expect(self, *words: str) -> None:
        if not self.accept(*words):
            self.fail()

    def end(self) -> None:
        if not self.at_end():
            self.fail()

    def fail(self, why: str = "") -> NoReturn:
        reason = f" ({why})" if why else ""
        raise OrderSyntaxError(
            E_SYNTAX, f"cannot read {self.line.strip()!r}{reason}: write {self.usage}", self.line
        )

    def error(self, code: str, message: str) -> NoReturn:
        raise OrderError(code, f"cannot read {self.line.strip()!r}: {message}", self.line)

    # -- values ----------------------------------------------------------

    def marker(self) -> str:
        token = self.take()
        code = marker_code(token)
        if code is not None:
            return code
        if _CODE.fullmatch(token):
            codes = sorted({code[:2] for code in _MARKERS.values()})
            self.error(
                E_MARKER,
                f"there is no legion marker {token!r}; a marker code is a colour code "
                f"({', '.join(codes)}) and a number from 01 to 12",
            )
        self.error(
            E_MARKER,
            f"{token!r} is not a legion marker (write a code such as Rd01 or a marker name "
            f"such as Cross); write {self.usage}",
        )

    def next_is_marker(self) -> bool:
        """Whether the next token is a marker (and not also a character name)."""
        if self.at_end():
            return False
        raw = self.tokens[self.pos]
        return _creature_exact(raw) is None and marker_code(raw) is not None

    def number(self, what: str) -> int:
        """A decimal number; ``what`` names it in the error ("land" -> "a land number")."""
        token = self.take()
        if not _NUMBER.fullmatch(token):
            raise OrderSyntaxError(
                E_NUMBER,
                f"cannot read {self.line.strip()!r}: {token!r} is not {_a_number(what)}; "
                f"write {self.usage}",
                self.line,
            )
        return int(token)

    def hex(self) -> str:
        """A battleland hex label, canonical ("C1")."""
        return hex_label(self.take(), self.line)

    def next_is_hex(self) -> bool:
        """Whether the next token has the shape of a hex label (valid or not)."""
        return not self.at_end() and _HEX.fullmatch(self.tokens[self.pos]) is not None

    def hexes(self, stop: tuple[str, ...] = ()) -> list[str]:
        """Hex labels up to a stop word or the end; 'then' and 'and' may separate them."""
        found: list[str] = []
        while not self.at_end() and self.peek() not in stop:
            if not (found and self.accept(*_HEX_SEPARATORS)):
                found.append(self.hex())
        return found

    def bounded(self, what: str, low: int, high: int | None = None) -> int:
        """A number from ``low`` to ``high`` (no limit if None); E-NUMBER otherwise."""
        n = self.number(what)
        if n < low or (high is not None and n > high):
            span = f"runs from {low} to {high}" if high is not None else f"is at least {low}"
            raise OrderSyntaxError(
                E_NUMBER,
                f"cannot read {self.line.strip()!r}: {_a_number(what)} {span}, not {n}",
                self.line,
            )
        return n

    def land(self) -> int:
        self.accept("land")
        return self.number("land")

    def entry(self) -> str:
        self.accept("the")
        side = self.peek()
        if side is None or side not in SIDES:
            self.fail(f"a legion enters from {', '.join(SIDES)}")
        self.pos += 1
        return side

    def creature(self) -> str:
        return creature_name(self.take(), self.line)

    def count(self) -> int | None:
        """A count before a character name ("2 centaurs", "two centaurs"), if any."""
        token = self.peek()
        if token is None:
            return None
        if _NUMBER.fullmatch(token):
            n = int(token)
        elif token in _NUMBER_WORDS:
            n = _NUMBER_WORDS[token]
        else:
            return None
        if not 1 <= n <= _MAX_COUNT:
            raise OrderSyntaxError(
                E_NUMBER,
                f"cannot read {self.line.strip()!r}: a count of characters runs from 1 to "
                f"{_MAX_COUNT}, not {token}",
                self.line,
            )
        self.pos += 1
        return n

    def creatures(self, stop: tuple[str, ...] = (), stop_at_marker: bool = False) -> list[str]:
        """Characters up to a stop word or the end; counts and 'and' allowed."""
        found: list[str] = []
        while not self.at_end():
            token = self.peek()
            if token in stop:
                break
            if token in _FILLERS:
                self.pos += 1
                continue
            if stop_at_marker and self.next_is_marker():
                break
            n = self.count()
            found.extend([self.creature()] * (n or 1))
        return found


# --------------------------------------------------------------------------- orders


def _colour(r: _Reader) -> Result:
    name = r.take()
    r.end()
    return cmd.ChooseColour(player=r.player, colour=colour_name(name, r.line))


def _simple(kind: Callable[..., cmd.Command]) -> Callable[[_Reader], Result]:
    def parse(r: _Reader) -> Result:
        r.end()
        return kind(player=r.player)

    return parse


def _split(r: _Reader) -> Result:
    parent = r.marker()
    child = r.marker() if r.accept("into") or r.next_is_marker() else None
    characters = r.creatures()
    if not characters:
        r.fail("name the characters that go to the new legion")
    return cmd.Split(player=r.player, parent=parent, child=child, characters=tuple(characters))


def _move(r: _Reader, teleport: bool) -> Result:
    marker = r.marker()
    r.usage = r.usage.replace("Rd01", marker)
    r.expect("to")
    land = r.land()
    entry: str | None = None
    showing: str | None = None
    while not r.at_end():
        if entry is None and r.accept("from", "entering"):
            r.accept("from")
            entry = r.entry()
        elif teleport and showing is None and r.accept("showing", "show", "revealing"):
            showing = r.creature()
        else:
            r.fail()
    return cmd.MoveLegion(
        player=r.player, marker=marker, land=land, entry=entry, teleport=teleport, showing=showing
    )


def _move_or_maneuver(r: _Reader) -> Result:
    """``move``: a legion marker first means the masterboard, a hex or character a battle."""
    if r.at_end() or r.next_is_marker():
        return _move(r, teleport=False)
    raw = r.tokens[r.pos]
    if r.next_is_hex() or r.peek() == "from":
        return _maneuver(r)
    if _CODE.fullmatch(raw):  # shaped like a marker code: the marker error says more
        return _move(r, teleport=False)
    if _creature_exact(raw) is not None or _to_a_hex(r):
        return _maneuver(r)
    try:
        creature_name(raw, r.line)
    except AmbiguousOrderError:
        raise
    except OrderError:
        return _move(r, teleport=False)  # neither marker nor character: say "marker"
    return _maneuver(r)


def _to_a_hex(r: _Reader) -> bool:
    """Whether the word after a later 'to' has the shape of a hex label."""
    rest = [t.casefold() for t in r.tokens[r.pos :]]
    return any(
        word == "to" and i + 1 < len(rest) and _HEX.fullmatch(rest[i + 1]) is not None
        for i, word in enumerate(rest)
    )


def _maneuver(r: _Reader) -> Result:
    """``move C1 to C2``, ``move centaur to C1``, ``move centaur [from] C1 to C2``."""
    r.usage = MANEUVER_USAGE
    if r.peek() == "to":
        r.fail("name the character, or the hex it moves from")
    if r.count() is not None:
        r.fail("a maneuver moves one character; write one line for each")
    creature: str | None = None
    from_hex: str | None = None
    if r.accept("from") or r.next_is_hex():
        from_hex = r.hex()
    else:
        creature = r.creature()
        if r.peek() != "to":
            r.accept("from")
            from_hex = r.hex()
    r.expect("to")
    to_hex = r.hex()
    r.end()
    return cmd.Maneuver(player=r.player, to_hex=to_hex, from_hex=from_hex, creature=creature)


def _reset(r: _Reader) -> Result:
    r.accept("maneuver", "manoeuvre", "moves")
    r.end()
    return cmd.ResetManeuver(player=r.player)


def _go(r: _Reader) -> Result:
    r.expect("on")
    r.end()
    return cmd.Proceed(player=r.player)


def _strike(r: _Reader) -> Result:
    striker = r.hex()
    r.expect("at")
    target = r.hex()
    strike_number: int | None = None
    dice: int | None = None
    while not r.at_end():
        if strike_number is None and r.accept(*_NEEDING):
            strike_number = r.bounded("strike", _LOWEST_STRIKE_NUMBER, _HIGHEST_STRIKE_NUMBER)
        elif dice is None and r.accept("with"):
            dice = r.bounded("dice", 1)
            r.expect("dice", "die")
        else:
            r.fail()
    return cmd.Strike(
        player=r.player, striker=striker, target=target, strike_number=strike_number, dice=dice
    )


def _rangestrike(r: _Reader) -> Result:
    striker = r.hex()
    r.expect("at")
    target = r.hex()
    via: tuple[str, ...] = ()
    strike_number: int | None = None
    while not r.at_end():
        if not via and r.accept("via", "through"):
            via = tuple(r.hexes(stop=_NEEDING))
            if not via:
                r.fail("name the hexes the line of sight crosses")
        elif strike_number is None and r.accept(*_NEEDING):
            strike_number = r.bounded("strike", _LOWEST_STRIKE_NUMBER, _HIGHEST_STRIKE_NUMBER)
        else:
            r.fail()
    return cmd.Rangestrike(
        player=r.player, striker=striker, target=target, via=via, strike_number=strike_number
    )


def _carry(r: _Reader) -> Result:
    if r.accept("nowhere"):
        r.end()
        return cmd.Carry(player=r.player)
    targets: list[str] = []
    while True:
        if not r.at_end() and _NUMBER.fullmatch(r.tokens[r.pos]):
            r.bounded("hits", 1)  # how many: a reminder for the player, not part of the order
            r.accept("hits", "hit")
        r.accept("to")
        if not r.next_is_hex():
            r.fail()
        targets.append(r.hex())
        if r.at_end():
            break
        while r.accept(*_HEX_SEPARATORS):
            pass
    return cmd.Carry(player=r.player, targets=tuple(targets))


def _undo(r: _Reader) -> Result:
    r.accept("move")
    marker = None if r.at_end() else r.marker()
    r.end()
    return cmd.UndoMove(player=r.player, marker=marker)


def _engage(r: _Reader) -> Result:
    if r.at_end() and r.state is not None:
        lands = r.state.engagement_lands()
        if len(lands) == 1:
            return cmd.Engage(player=r.player, land=lands[0])
        if lands:
            raise AmbiguousOrderError(
                f"cannot read {r.line.strip()!r}: there are engagements in lands "
                f"{', '.join(map(str, lands))}; write 'engage {lands[0]}' for one of them",
                r.line,
            )
    land = r.land()
    r.end()
    return cmd.Engage(player=r.player, land=land)


def _no(r: _Reader) -> Result:
    if r.accept("carry", "carries", "carrying"):
        r.usage = USAGE["carry"]
        r.end()
        return cmd.Carry(player=r.player)
    if r.accept("more"):
        r.usage = USAGE["no more"]
        r.accept("proposals", "proposal", "offers", "offer")
        r.end()
        return cmd.NoMore(player=r.player)
    r.usage = USAGE["decline"]
    r.end()
    return cmd.Decline(player=r.player)


def _accept(r: _Reader) -> Result:
    r.accept("the")
    if r.accept("concession"):
        r.end()
        return cmd.AcceptConcession(player=r.player)
    r.accept("proposal", "offer", "number", "no", "nr")
    number = r.number("proposal")
    r.end()
    return cmd.Accept(player=r.player, number=number)


def _summon(r: _Reader) -> Result:
    lord = r.creature()
    r.expect("from")
    source = r.marker()
    r.end()
    return cmd.Summon(player=r.player, lord=lord, source=source)


def _showing(r: _Reader) -> tuple[str, ...]:
    if r.accept("showing", "show", "revealing"):
        shown = r.creatures()
        if not shown:
            r.fail("name the characters you show")
        return tuple(shown)
    r.end()
    return ()


def _reinforce(r: _Reader) -> Result:
    creature = r.creature()
    return cmd.Reinforce(player=r.player, creature=creature, showing=_showing(r))


def _take(r: _Reader) -> Result:
    lord = r.creature()
    r.end()
    return cmd.TakeAngel(player=r.player, lord=lord)


def _muster(r: _Reader) -> Result:
    marker = r.marker()
    creature = r.creature()
    return cmd.Muster(player=r.player, marker=marker, creature=creature, showing=_showing(r))


# -- propose -----------------------------------------------------------------------


def _propose(r: _Reader) -> Result:
    state = r.state
    eng = state.engagement if state is not None else None
    if state is None or eng is None:
        r.error(E_PROPOSAL, "there is no engagement to make a proposal about")
    proposals: list[Proposal] = []
    while True:
        proposals.append(_proposal(r, state, eng))
        if r.at_end():
            break
        r.expect(*_PROPOSAL_SEPARATORS)
    return cmd.Propose(player=r.player, proposals=tuple(proposals))


def _proposal(r: _Reader, state: GameState, eng: Engagement) -> Proposal:
    losses: dict[str, tuple[str, ...]] = {}
    while True:
        marker = r.marker()
        if marker not in (eng.attacker, eng.defender):
            r.error(
                E_PROPOSAL,
                f"{marker} is not part of this engagement ({eng.attacker} attacks "
                f"{eng.defender} in land {eng.land})",
            )
        if marker in losses:
            r.error(E_PROPOSAL, f"{marker} is named twice in one proposal")
        losses[marker] = _clause(r, state, marker)
        while r.accept(";"):
            pass
        if r.at_end() or r.peek() in _PROPOSAL_SEPARATORS:
            break
    return losses.get(eng.attacker, ()), losses.get(eng.defender, ())


def _clause(r: _Reader, state: GameState, marker: str) -> tuple[str, ...]:
    legion = state.legions.get(marker)
    stop = (";", *_PROPOSAL_SEPARATORS)
    r.accept("is")
    if r.accept("eliminated", "dies", "destroyed"):
        eliminated = True
    elif r.accept("loses", "lose", "lost"):
        if r.accept("nothing", "none"):
            return ()
        eliminated = r.accept("all", "everything")
        if eliminated:
            r.accept("characters")
    else:
        r.fail(
            "each clause is 'MARKER loses CHARACTERS', 'MARKER loses nothing' or "
            "'MARKER eliminated'"
        )
    if eliminated:
        if legion is None:
            r.error(
                E_PROPOSAL,
                f"the contents of {marker} are not known here; list its losses instead: "
                f"'{marker} loses ...'",
            )
        return tuple(sorted(legion.contents))
    lost = r.creatures(stop=stop, stop_at_marker=True)
    if not lost:
        r.fail(f"name what {marker} loses, or write '{marker} loses nothing'")
    if legion is not None:
        missing = Counter(lost) - Counter(legion.contents)
        if missing:
            what = ", ".join(f"{n} {c}" if n > 1 else c for c, n in sorted(missing.items()))
            r.error(E_PROPOSAL, f"{marker} cannot lose {what}: it does not hold that many")
    return tuple(sorted(lost))


# -- queries -------------------------------------------------------------------------


def _query(kind: str) -> Callable[[_Reader], Result]:
    def parse(r: _Reader) -> Result:
        r.end()
        return Query(r.player, kind)

    return parse


def _marker_query(kind: str) -> Callable[[_Reader], Result]:
    def parse(r: _Reader) -> Result:
        marker = r.marker()
        r.end()
        return Query(r.player, kind, (marker,))

    return parse


def _hex_query(kind: str) -> Callable[[_Reader], Result]:
    def parse(r: _Reader) -> Result:
        label = r.hex()
        r.end()
        return Query(r.player, kind, (label,))

    return parse


def _help(r: _Reader) -> Result:
    topic = " ".join(r.tokens)
    return Query(r.player, "help", (canonical_topic(topic),) if topic.strip() else ())


def _history(r: _Reader) -> Result:
    first: int | None = None
    last: int | None = None
    if not r.at_end() and r.peek() != "to":
        r.accept("from")
        r.accept("turn")
        first = r.number("turn")
    if r.accept("to"):
        r.accept("turn")
        last = r.number("turn")
    r.end()
    if first is None and last is None:
        return Query(r.player, "history")
    first = 1 if first is None else first
    if last is None:
        return Query(r.player, "history", (str(first),))
    if last < first:
        raise OrderSyntaxError(
            E_NUMBER,
            f"cannot read {r.line.strip()!r}: turn {last} comes before turn {first}",
            r.line,
        )
    return Query(r.player, "history", (str(first), str(last)))


_HANDLERS: dict[str, Callable[[_Reader], Result]] = {
    "colour": _colour,
    "color": _colour,
    "withdraw": _simple(cmd.Withdraw),
    "split": _split,
    "roll": _simple(cmd.Roll),
    "mulligan": _simple(cmd.Mulligan),
    "move": _move_or_maneuver,
    "teleport": lambda r: _move(r, teleport=True),
    "undo": _undo,
    "done": _simple(cmd.Done),
    "engage": _engage,
    "flee": _simple(cmd.Flee),
    "concede": _simple(cmd.Concede),
    "fight": _simple(cmd.Fight),
    "proceed": _simple(cmd.Proceed),
    "continue": _simple(cmd.Proceed),
    "go": _go,
    "reset": _reset,
    "strike": _strike,
    "rangestrike": _rangestrike,
    "carry": _carry,
    "propose": _propose,
    "accept": _accept,
    "no": _no,
    "summon": _summon,
    "reinforce": _reinforce,
    "take": _take,
    "decline": _simple(cmd.Decline),
    "pass": _simple(cmd.Decline),
    "refuse": _simple(cmd.Decline),
    "muster": _muster,
    "status": _query("status"),
    "moves": _marker_query("moves"),
    "legion": _marker_query("legion"),
    "battle": _query("battle"),
    "reach": _hex_query("reach"),
    "strikes": _query("strikes"),
    "help": _help,
    "history": _history,
    "report": _query("report"),
    "legal": _query("legal"),
}

_USAGE_OF = {word: USAGE[canonical_topic(word)] for word in _HANDLERS}
