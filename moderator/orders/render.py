"""Commands and queries back to the canonical order line.

``parse_order(render_order(c, state), c.player, state) == c`` for every well-formed
command (canonical marker codes and character names); the moderator uses this to echo
orders in reports and to write the orders a robot or a deadline default gave.
"""

from __future__ import annotations

from collections.abc import Iterable

from moderator.orders.queries import Query
from moderator.rules import commands as cmd
from moderator.rules.state import GameState, Proposal


def _names(characters: Iterable[str]) -> str:
    return " ".join(c.lower() for c in characters)


def _hexes(labels: Iterable[str], separator: str) -> str:
    return separator.join(label.upper() for label in labels)


def _showing(showing: tuple[str, ...]) -> str:
    return f" showing {_names(showing)}" if showing else ""


def render_order(command: cmd.Command, state: GameState | None = None) -> str:
    """The canonical order line for ``command``.

    ``state`` is needed for ``Propose`` only (its engagement tells which legion is the
    attacker and which the defender).  Raises ``ValueError`` for a command no order line
    can express (a ``Propose`` without an engagement, a ``Split`` of nothing, a plain move
    that shows a lord, a ``Maneuver`` naming neither a hex to move from nor a character).
    Hex labels are written in capitals, character names in small letters.
    """
    match command:
        case cmd.ChooseColour(colour=colour):
            return f"colour {colour.lower()}"
        case cmd.Withdraw():
            return "withdraw"
        case cmd.Split(parent=parent, child=child, characters=characters):
            if not characters:
                raise ValueError("a split must move at least one character")
            into = f" into {child}" if child is not None else ""
            return f"split {parent}{into}: {_names(characters)}"
        case cmd.Roll():
            return "roll"
        case cmd.Mulligan():
            return "mulligan"
        case cmd.MoveLegion(
            marker=marker, land=land, entry=entry, teleport=teleport, showing=showing
        ):
            if showing is not None and not teleport:
                raise ValueError("only a teleport shows a lord")
            word = "teleport" if teleport else "move"
            side = f" from {entry}" if entry is not None else ""
            lord = f" showing {showing.lower()}" if showing is not None else ""
            return f"{word} {marker} to {land}{side}{lord}"
        case cmd.UndoMove(marker=marker):
            return "undo" if marker is None else f"undo {marker}"
        case cmd.Done(keep=keep):
            return f"done keeping {' '.join(keep)}" if keep else "done"
        case cmd.Engage(land=land):
            return f"engage {land}"
        case cmd.Flee():
            return "flee"
        case cmd.Propose(proposals=proposals):
            return _render_propose(proposals, state)
        case cmd.Accept(number=number):
            return f"accept {number}"
        case cmd.NoMore():
            return "no more proposals"
        case cmd.Concede():
            return "concede"
        case cmd.Fight():
            return "fight"
        case cmd.Summon(lord=lord, source=source):
            return f"summon {lord.lower()} from {source}"
        case cmd.Reinforce(creature=creature, showing=showing):
            return f"reinforce {creature.lower()}{_showing(showing)}"
        case cmd.TakeAngel(lord=lord):
            return f"take {lord.lower()}"
        case cmd.Decline():
            return "decline"
        case cmd.Muster(marker=marker, creature=creature, showing=showing):
            return f"muster {marker} {creature.lower()}{_showing(showing)}"
        case cmd.Maneuver(to_hex=to_hex, from_hex=from_hex, creature=creature):
            if from_hex is None and creature is None:
                raise ValueError("a maneuver names the hex it moves from or the character")
            who = [] if creature is None else [creature.lower()]
            where = [] if from_hex is None else [from_hex.upper()]
            return " ".join(["move", *who, *where, "to", to_hex.upper()])
        case cmd.ResetManeuver():
            return "reset"
        case cmd.Proceed():
            return "proceed"
        case cmd.AcceptConcession():
            return "accept concession"
        case cmd.Strike(striker=striker, target=target, strike_number=number, dice=dice):
            needing = f" needing {number}" if number is not None else ""
            with_dice = f" with {dice} {'die' if dice == 1 else 'dice'}" if dice is not None else ""
            return f"strike {striker.upper()} at {target.upper()}{needing}{with_dice}"
        case cmd.Rangestrike(striker=striker, target=target, via=via, strike_number=number):
            path = f" via {_hexes(via, ' ')}" if via else ""
            needing = f" needing {number}" if number is not None else ""
            return f"rangestrike {striker.upper()} at {target.upper()}{path}{needing}"
        case cmd.Carry(targets=targets):
            return f"carry to {_hexes(targets, ' then ')}" if targets else "carry nowhere"
        case cmd.ShowLegion(marker=marker, to=to, characters=characters):
            shown = f": {_names(characters)}" if characters else ""
            return f"show {marker} to {', '.join(to) if to else 'all'}{shown}"
        case cmd.Tell(to=to, text=text):
            return f"tell {', '.join(to) if to else 'all'}: {text}"
    raise ValueError(f"no order line for {type(command).__name__}")


def _render_propose(proposals: tuple[Proposal, ...], state: GameState | None) -> str:
    eng = state.engagement if state is not None else None
    if eng is None:
        raise ValueError("rendering a proposal needs the state with its engagement")
    if not proposals:
        raise ValueError("a propose order makes at least one proposal")

    def clause(marker: str, losses: tuple[str, ...]) -> str:
        return f"{marker} loses {_names(losses) if losses else 'nothing'}"

    return "propose " + " or ".join(
        f"{clause(eng.attacker, attacker)}; {clause(eng.defender, defender)}"
        for attacker, defender in proposals
    )


#: The order words whose canonical line never names a character: the rest name one (a
#: split's, a muster's, a summon's...), or carry a player's words (``tell``).
_NAMELESS_WORDS = frozenset({
    "colour", "withdraw", "roll", "mulligan", "undo", "done", "engage", "flee", "accept",
    "no", "concede", "fight", "decline", "reset", "proceed", "strike", "rangestrike", "carry",
})


def names_characters(line: str) -> bool:
    """
    Whether the canonical order ``line`` (as ``render_order`` writes it) may name a
    character of a legion, or quote a player's words: such a line is never signed
    (Wolff 4.5), so the reports and notices that echo it put it in the private part.
    A move names one when it shows a lord (a teleport) or is a battle maneuver naming
    its character (``move ogre C3 to D4``); any word not known to name none counts as
    naming one, so a new order kind errs on the private side.
    """
    words = line.split()
    if not words:
        return False
    if words[0] in ("move", "teleport"):
        if "showing" in words or "to" not in words:
            return True
        return any(word.isalpha() for word in words[1 : words.index("to")])
    return words[0] not in _NAMELESS_WORDS


#: The words of an order line kept when its characters are left out (``without_characters``).
_LINKS = frozenset({"into", "from", "to", "at", "in", "via", "then"})


def without_characters(line: str) -> str:
    """
    The canonical order ``line`` with every character (and a message's words) left
    out: its order word, the markers, lands and hexes it names and the words between
    them (``split Bu01 into Bu02: ogre ogre`` gives ``split Bu01 into Bu02``).  For a
    reader who may not know what the order named (another player's split, the losses
    of an engagement he is not in): it says what was done, not with what.
    """
    words = line.partition(":")[0].split()
    if not words:
        return line
    kept = [words[0]]
    for word in words[1:]:
        if word == "showing":
            break
        if any(ch.isdigit() for ch in word) or word in _LINKS:
            kept.append(word)
    while kept[-1] in _LINKS and len(kept) > 1:
        kept.pop()
    return " ".join(kept)


def render_query(query: Query) -> str:
    """The canonical line for a query (parses back to an equal ``Query``)."""
    if query.kind == "history":
        if not query.args:
            return "history"
        text = f"history from turn {query.args[0]}"
        return text + (f" to turn {query.args[1]}" if len(query.args) > 1 else "")
    return " ".join((query.kind, *query.args))
