"""Parsers for the orders of a battle turn: maneuver, reset, go on, strike, rangestrike, carry.

These name characters by the battleland hexes they stand in (Wolff 2.2); each function
reads the words after its order word from a ``Reader`` and returns the command.
"""

from __future__ import annotations

from moderator.orders.help import MANEUVER_USAGE
from moderator.orders.reader import HEX_SEPARATORS, Reader, Result
from moderator.rules import commands as cmd

#: A strike number runs from 1 to 6 (rule 12.3): a die shows no more.
_LOWEST_STRIKE_NUMBER, _HIGHEST_STRIKE_NUMBER = 1, 6
_NEEDING = ("needing", "need", "needs")


def parse_maneuver(r: Reader) -> Result:
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


def parse_reset(r: Reader) -> Result:
    r.accept("maneuver", "manoeuvre", "moves")
    r.end()
    return cmd.ResetManeuver(player=r.player)


def parse_go(r: Reader) -> Result:
    r.expect("on")
    r.end()
    return cmd.Proceed(player=r.player)


def _strike_number(r: Reader) -> int:
    return r.bounded("strike", _LOWEST_STRIKE_NUMBER, _HIGHEST_STRIKE_NUMBER)


def parse_strike(r: Reader) -> Result:
    striker = r.hex()
    r.expect("at")
    target = r.hex()
    strike_number: int | None = None
    dice: int | None = None
    while not r.at_end():
        if strike_number is None and r.accept(*_NEEDING):
            strike_number = _strike_number(r)
        elif dice is None and r.accept("with"):
            dice = r.bounded("dice", 1)
            r.expect("dice", "die")
        else:
            r.fail()
    return cmd.Strike(
        player=r.player, striker=striker, target=target, strike_number=strike_number, dice=dice
    )


def parse_rangestrike(r: Reader) -> Result:
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
            strike_number = _strike_number(r)
        else:
            r.fail()
    return cmd.Rangestrike(
        player=r.player, striker=striker, target=target, via=via, strike_number=strike_number
    )


def parse_carry(r: Reader) -> Result:
    if r.accept("nowhere"):
        r.end()
        return cmd.Carry(player=r.player)
    targets: list[str] = []
    while True:
        if r.next_is_number():
            r.bounded("hits", 1)  # how many: a reminder for the player, not part of the order
            r.accept("hits", "hit")
        r.accept("to")
        if not r.next_is_hex():
            r.fail()
        targets.append(r.hex())
        if r.at_end():
            break
        while r.accept(*HEX_SEPARATORS):
            pass
    return cmd.Carry(player=r.player, targets=tuple(targets))
