"""
Wolff 4.5: a player may show some or all of one of his legions, at any time, to all
players or any of them, and pass a message to them through the moderator.  Neither is
tied to the sequence of play: neither changes whose move it is.  The moderator shows
only what is really there: naming a character the legion does not hold is refused.
"""

from __future__ import annotations

from collections import Counter

from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.errors import RuleError
from moderator.rules.state import GameState

#: The longest message the moderator passes on (characters).
LONGEST_MESSAGE = 1000


def audience(state: GameState, player: str, to: tuple[str, ...] | None, code: str) -> frozenset[str]:
    """
    Those named (None: every other player still in the game), spelt as the game spells
    them, and ``player`` himself.

    Raises:
        RuleError: a name is not a player still in the game, or names only ``player``.
    """
    live = {p.name.casefold(): p.name for p in state.live_players}
    if to is None:
        named = {name for name in live.values() if name != player}
    else:
        named = set()
        for name in to:
            found = live.get(name.casefold())
            if found is None:
                left = any(p.name.casefold() == name.casefold() for p in state.players)
                why = "has left this game" if left else "is not playing in this game"
                others = ", ".join(sorted(n for n in live.values() if n != player)) or "nobody"
                raise RuleError(code, f"{name} {why}; players you may name: {others}, or 'all'")
            named.add(found)
        named.discard(player)
    if not named:
        raise RuleError(code, "name another player still in the game, or 'all'")
    return frozenset({*named, player})


def show(state: GameState, c: cmd.ShowLegion) -> list[ev.Event]:
    """Wolff 4.5: the characters named (all, when none are) shown to those named."""
    legion = state.legions.get(c.marker)
    if legion is None or legion.owner != c.player:
        raise RuleError("E-SHOW", f"{c.marker} is not one of your legions; show one of yours")
    viewers = audience(state, c.player, c.to, "E-SHOW")
    holds = Counter(legion.contents)
    wanted = Counter(c.characters if c.characters is not None else legion.contents)
    missing = wanted - holds
    if missing:
        lacking = ", ".join(sorted(missing.elements()))
        raise RuleError(
            "E-SHOW",
            f"{c.marker} does not hold {lacking} (it holds {', '.join(legion.contents)}); "
            "the moderator shows only what is there",
        )
    shown = tuple(sorted(wanted.elements()))
    return [
        ev.LegionShown(
            owner=c.player, marker=c.marker, characters=shown, whole=wanted == holds,
            visible_to=viewers,
        )
    ]


def tell(state: GameState, c: cmd.Tell) -> list[ev.Event]:
    """Wolff 4.5: ``text`` passed on to those named, as the player wrote it."""
    text = " ".join(c.text.split())
    if not text:
        raise RuleError("E-TELL", "write the message after the names: 'tell Bob: ...'")
    if len(text) > LONGEST_MESSAGE:
        raise RuleError(
            "E-TELL", f"a message is at most {LONGEST_MESSAGE} characters, not {len(text)}"
        )
    viewers = audience(state, c.player, c.to, "E-TELL")
    return [ev.MessageRelayed(sender=c.player, text=text, visible_to=viewers)]
