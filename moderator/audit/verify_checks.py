"""
The verifier's smaller checks and how it names what it finds: a discrepancy with the
event it is in, an event as a player reads it, what the rules give beside what the log
holds, a move's land and drawn side, the tower rolls.  Pure.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any

from moderator.rules import events as ev
from moderator.rules.battle import battleland_for
from moderator.rules.codec import plain
from moderator.rules.dice import ScriptedDice
from moderator.rules.lateness import RULEBOOK_21_2, policy_of_trigger
from moderator.rules.movement import legion_moves
from moderator.rules.setup import towers_won
from moderator.rules.state import GameState
from moderator.rules.turn import drawn_side
from moderator.rules.variant import (
    VariantDataError,
    install_own_variant,
    own_variant_from_data,
    shipped_variants,
)

#: The longest value a discrepancy quotes.
_QUOTE = 120


class Discrepancy(Exception):
    """What does not hold, and the event it is in (0: the bundle as a whole)."""

    def __init__(self, event: int, why: str) -> None:
        super().__init__(why)
        self.event = event
        self.why = why

    def __str__(self) -> str:
        return f"event {self.event}: {self.why}" if self.event else self.why


def named(event: ev.Event) -> str:
    """An event (an audit note or any other) as a discrepancy names it."""
    marker = getattr(event, "marker", None)
    return f"{event.TYPE} of {marker}" if marker else event.TYPE


def _quoted(value: object) -> str:
    text = json.dumps(plain(value))
    return text if len(text) <= _QUOTE else text[: _QUOTE - 3] + "..."


def differs(want: ev.Event, got: ev.Event) -> str:
    """What the rules give (``want``) beside what the log holds (``got``), field by field."""
    if type(want) is not type(got):
        return f"the rules give {named(want)} here, the log has {named(got)}"
    fields = [
        f"{f.name} {_quoted(getattr(want, f.name))}, not {_quoted(getattr(got, f.name))}"
        for f in dataclasses.fields(want)
        if getattr(want, f.name) != getattr(got, f.name)
    ]
    return f"the rules give this {named(want)} with " + "; ".join(fields)


def check_move(seq: int, state: GameState, event: ev.LegionMoved) -> None:
    """A move reaches a land the roll allows; a side drawn by a die is the one it gives."""
    legion = state.legions.get(event.marker)
    options = [o for o in legion_moves(state, legion) if o.land == event.to_land] if legion else []
    if not options:
        raise Discrepancy(
            seq, f"{event.marker} may not move to {event.to_land} on a roll of {state.roll}"
        )
    if event.entry_roll is not None:
        sides = next((o.entries for o in options if o.teleport == event.teleport), ())
        drawn = drawn_side(sides, event.entry_roll) if sides else None
        if drawn != event.entry:
            raise Discrepancy(seq, f"a roll of {event.entry_roll} draws the side {drawn}, not {event.entry}")


def check_towers(seq: int, state: GameState, event: ev.TowersRolled) -> None:
    """1.3.1: a roll unique in its set that names a free tower takes it; no other does."""
    waiting = [p.name for p in state.players if not p.tower]
    if [name for name, _ in event.rolls] != waiting:
        raise Discrepancy(seq, f"the tower rolls are not those of {', '.join(waiting)} in turn")
    if towers_won(event.rolls, (p.tower for p in state.players if p.tower)) != event.assigned:
        raise Discrepancy(seq, f"the towers {list(event.assigned)} do not follow from the rolls")


def check_battleland(seq: int, state: GameState, event: ev.BattleStarted) -> None:
    """The battle is fought where the variant puts it; a die rolled for it chose it."""
    recorded = () if event.battleland_roll is None else (event.battleland_roll,)
    try:
        want, rolled = battleland_for(state.variant, state.variant.lands[event.land], ScriptedDice(recorded))
    except IndexError:
        raise Discrepancy(seq, f"a die chooses the battleland of {event.land}, the log has none") from None
    if rolled != event.battleland_roll:
        raise Discrepancy(seq, f"no die chooses the battleland of {event.land}, the log has one")
    if want != event.terrain:
        raise Discrepancy(seq, f"the battle of {event.land} is fought on {want}, not {event.terrain}")


def install_bundle_variant(bundle: Mapping[str, Any]) -> str | None:
    """
    A group's own variant travels in its game's bundle (``variant_data``): check that
    the data hold together and hash to the bundle's ``variant_digest``, and install them
    under the variant's name for the replay, so that a player needs none of the
    operator's files.  The game's setup event records the same digest, which the replay
    then holds it to.  None when the bundle names a shipped variant only.
    """
    data = bundle.get("variant_data")
    if data is None:
        return None
    name = str(bundle.get("variant", ""))
    if not isinstance(data, Mapping):
        raise Discrepancy(0, "the bundle's variant_data is not a table of the variant's files")
    try:
        own = own_variant_from_data(data, name)
    except VariantDataError as exc:
        raise Discrepancy(0, f"the bundle's variant data do not make a variant: {exc}") from None
    if own.variant.name != name:
        raise Discrepancy(0, f"the bundle's variant data are of {own.variant.name!r}, not {name!r}")
    if own.digest != bundle.get("variant_digest"):
        raise Discrepancy(0, "the bundle's variant data do not hash to its variant_digest")
    if name in shipped_variants():
        raise Discrepancy(0, f"the bundle carries data for {name!r}, a shipped variant's name")
    install_own_variant(own)
    return own.digest


def lateness_name(policy: str) -> str:
    """A lateness policy as a player reads it."""
    return "rulebook 21.2's timed moves" if policy == RULEBOOK_21_2 else "Wolff 20.4's refusal"


def check_lateness(seq: int, trigger: str, policy: str) -> None:
    """A timeout's trigger names the lateness policy whose default it gave: the one the
    game's start was sealed with, never another."""
    timed = policy_of_trigger(trigger)
    if timed is not None and timed != policy:
        raise Discrepancy(
            seq,
            f"a timeout gave {lateness_name(timed)}, but the game was started under "
            f"{lateness_name(policy)}",
        )
