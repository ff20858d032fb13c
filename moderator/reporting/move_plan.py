"""
Where each of a player's legions could move on each movement roll, before he rolls.

A player who writes ``on roll N: ...`` lines in the mail that rolls must know, for each
result, where each legion may go; without a board at hand he cannot.  The report that
asks him to roll therefore lists it: for each of his legions and each roll 1-6 the lands
``rules.movement.legion_moves`` gives for that roll, the teleports apart (8.1, 8.2) and
an enemy's marker beside the land it stands on.  Nothing is rolled; the game is only
looked at as if each roll had come.

Each legion is taken alone, as the board stands now.  Some moves the list shows exclude
each other: two of the player's legions may not end on one land, only one legion may
teleport in a movement phase (8.0), and a legion he splits off first moves from the same
land (a teleport needs a lord in it).  The rules check those when the moves are made.
"""

from __future__ import annotations

import dataclasses
import textwrap

from moderator.records import record
from moderator.rules.legal import to_act
from moderator.rules.movement import legion_moves
from moderator.rules.state import GameState, Legion, Step

ROLLS = range(1, 7)
WIDTH = 76  # a report line's letters, continuation lines indented
_GLUE = "\u00a0"  # joins what a line must not be broken inside; a space once wrapped


@record
class RollMoves:
    """The lands one legion could reach on one roll, by the signs and by teleport."""

    roll: int
    lands: tuple[int, ...]
    tower: tuple[int, ...] = ()  # tower teleport (8.1)
    titan: tuple[int, ...] = ()  # Titan teleport (8.2)


@record
class LegionPlan:
    """Where one legion could go on each roll."""

    marker: str
    land: int
    rolls: tuple[RollMoves, ...]


def move_plan(state: GameState, player: str) -> list[LegionPlan]:
    """
    ``player``'s legions and where each could go on each roll, when the game waits for
    him to split or roll (the step before his movement roll); otherwise nothing.
    """
    if state.step is not Step.SPLIT or state.active != player or state.roll is not None:
        return []
    return [_legion_plan(state, legion) for legion in state.legions_of(player)]


def _legion_plan(state: GameState, legion: Legion) -> LegionPlan:
    rolls = []
    for roll in ROLLS:
        options = legion_moves(dataclasses.replace(state, roll=roll), legion)
        rolls.append(
            RollMoves(
                roll,
                tuple(o.land for o in options if o.teleport is None),
                tuple(o.land for o in options if o.teleport == "tower"),
                tuple(o.land for o in options if o.teleport == "titan"),
            )
        )
    return LegionPlan(legion.marker, legion.land, tuple(rolls))


def _land(state: GameState, land: int, owner: str) -> str:
    """A land, with the marker of each enemy legion on it."""
    enemies = [lg.marker for lg in state.legions_at(land) if lg.owner != owner]
    return land_with(land, enemies)


def land_with(land: int, enemies: list[str]) -> str:
    """``107`` or, with an enemy there, ``107 (Bk03)``: kept on one line."""
    return f"{land}{_GLUE}({', '.join(enemies)})" if enemies else str(land)


def _roll_text(state: GameState, owner: str, moves: RollMoves) -> str:
    """
    One roll's lands, glued so that a line breaks only between rolls or inside a
    teleport's list (the one part that can outgrow a line).
    """

    def lands(found: tuple[int, ...], glue: str) -> str:
        return f",{glue}".join(_land(state, land, owner) for land in found)

    parts = [lands(moves.lands, _GLUE)] if moves.lands else []
    for kind, found in (("tower", moves.tower), ("Titan", moves.titan)):
        if found:
            parts.append(f"{kind}{_GLUE}teleport{_GLUE}to{_GLUE}{lands(found, ' ')}")
    return f"{moves.roll}{_GLUE}→{_GLUE}" + (f",{_GLUE}or{_GLUE}".join(parts) or "nowhere")


def plan_lines(state: GameState, player: str) -> list[str]:
    """
    ``move_plan`` as a report prints it, one legion a line (wrapped, the rest indented):
    ``Rd01 from 104: 1 → 103; 2 → 102, 107 (Bk03); ...; 6 → 5, or tower teleport to ...``.
    """
    out: list[str] = []
    for plan in move_plan(state, player):
        rolls = "; ".join(_roll_text(state, player, moves) for moves in plan.rolls)
        text = f"{plan.marker}{_GLUE}from{_GLUE}{plan.land}: {rolls}"
        wrapped = textwrap.wrap(
            text, WIDTH, subsequent_indent="    ", break_long_words=False, break_on_hyphens=False
        )
        out += [line.replace(_GLUE, " ") for line in wrapped]
    return out


def sharing_notes(state: GameState, player: str) -> list[str]:
    """
    At ``player``'s split or move step, his unmoved legions that share a land (he split
    this turn), each group a line: what becomes of them is not on the board, and a
    player who splits three ways into a land with one way out loses the split unwarned.
    4.3: while one of them can move off (teleports aside) 'done' is refused; those no
    move can part recombine when he is done (4.7).
    """
    if state.step not in (Step.SPLIT, Step.MOVE) or to_act(state) != player:
        return []
    groups: dict[int, list[str]] = {}
    for legion in state.legions_of(player):
        if not legion.moved:
            groups.setdefault(legion.land, []).append(legion.marker)
    out = []
    for land, markers in sorted(groups.items()):
        if len(markers) > 1:
            named = ", ".join(markers[:-1]) + f" and {markers[-1]}"
            where = f"{land} ({state.variant.lands[land].terrain})"
            out.append(
                f"{named} share {where}: 'done' is refused while one of them can still "
                "move off, teleports aside (4.3); those left together when none can "
                "recombine into one legion (4.7)."
            )
    return [
        line
        for note in out
        for line in textwrap.wrap(note, WIDTH - 4, subsequent_indent="  ", break_on_hyphens=False)
    ]
