"""
The masterboard turn: splits, the movement roll, movement, recombination,
mustering and the end of the turn (Complete Sequence 2.1-2.4, 2.6, 2.7).
"""

from __future__ import annotations

from collections import Counter

from moderator.rules import events as ev
from moderator.rules.commands import Done, MoveLegion, Muster, Split, UndoMove
from moderator.rules.dice import Dice
from moderator.rules.errors import RuleError
from moderator.rules.movement import (
    LORDS,
    can_move_normally,
    legion_moves,
    seven_high_stays,
    teleport_refusal,
)
from moderator.rules.muster import (
    MAX_HEIGHT,
    angel_instead_of_muster,
    can_muster,
    choose_showing,
    muster_options,
)
from moderator.rules.state import GameState, Legion, Step

FIRST_TURN_HEIGHT = 8
MIN_SPLIT = 2  # 4.3


def own_legion(state: GameState, player: str, marker: str) -> Legion:
    legion = state.legions.get(marker)
    if legion is None:
        raise RuleError("E-NO-LEGION", f"there is no legion {marker} on the board")
    if legion.owner != player:
        raise RuleError("E-NOT-YOURS", f"{marker} belongs to {legion.owner}, not to you")
    return legion


def is_first_turn(state: GameState, player: str) -> bool:
    return state.player(player).turns_played == 0


# -- 2.1 splits ------------------------------------------------------------------


def split(state: GameState, cmd: Split) -> list[ev.Event]:
    parent = own_legion(state, cmd.player, cmd.parent)
    free = state.free_markers(cmd.player)
    child = cmd.child or (free[0] if free else None)
    if child is None or child not in free:
        hint = f"free markers: {', '.join(free)}" if free else "you have no free marker (4.2)"
        raise RuleError(
            "E-SPLIT-MARKER", f"{cmd.child or 'a new marker'} is not free to use; {hint}"
        )
    if Counter(cmd.characters) - Counter(parent.contents):
        raise RuleError(
            "E-SPLIT-CONTENTS",
            f"{cmd.parent} does not hold {' '.join(cmd.characters)}; it holds "
            f"{' '.join(parent.contents)}",
        )
    staying = len(parent.contents) - len(cmd.characters)
    if is_first_turn(state, cmd.player):
        _check_first_split(parent, cmd.characters)
    elif len(cmd.characters) < MIN_SPLIT or staying < MIN_SPLIT:
        raise RuleError(
            "E-SPLIT-SIZE",
            f"both legions must keep at least two characters (4.3); {cmd.parent} "
            f"has {parent.height}, so split off 2 to {parent.height - 2}",
        )
    return [
        ev.SplitContents(
            parent=parent.marker,
            child=child,
            moved=tuple(sorted(cmd.characters)),
            visible_to=frozenset({cmd.player}),
        ),
        ev.LegionSplit(
            parent=parent.marker,
            child=child,
            parent_height=staying,
            child_height=len(cmd.characters),
        ),
    ]


def _check_first_split(parent: Legion, characters: tuple[str, ...]) -> None:
    """Complete Sequence 2.1: the first turn's split is 4-4 with one lord in each legion."""
    if parent.height != FIRST_TURN_HEIGHT:
        raise RuleError("E-SPLIT-FIRST", "on your first turn you split only once, four and four")
    lords = sum(1 for c in characters if c in LORDS)
    if len(characters) != FIRST_TURN_HEIGHT // 2 or lords != 1:
        raise RuleError(
            "E-SPLIT-FIRST",
            "on your first turn split four characters off, exactly one of them a lord "
            "(your Titan or your Angel), e.g. 'split "
            f"{parent.marker}: angel centaur gargoyle ogre'",
        )


def check_may_roll(state: GameState, player: str) -> None:
    if any(lg.height > MAX_HEIGHT for lg in state.legions_of(player)):
        raise RuleError(
            "E-SPLIT-FIRST",
            "split your eight characters 4-4 before you roll (one lord in each legion)",
        )


# -- 2.3 movement ----------------------------------------------------------------


def move(state: GameState, cmd: MoveLegion, dice: Dice) -> list[ev.Event]:
    legion = own_legion(state, cmd.player, cmd.marker)
    if legion.moved:
        raise RuleError(
            "E-MOVED", f"{cmd.marker} has already moved this turn; 'undo {cmd.marker}' to change it"
        )
    if seven_high_stays(state, legion):
        raise RuleError(
            "E-MOVE",
            f"{cmd.marker} holds seven characters; in this game a legion of seven may not "
            "move or teleport (1980 rules 4E, 8D)",
        )
    kind = "teleport" if cmd.teleport else "move"
    options = [o for o in legion_moves(state, legion) if (o.teleport is not None) == cmd.teleport]
    option = next((o for o in options if o.land == cmd.land), None)
    if option is None and cmd.teleport:
        raise teleport_refusal(state, legion, cmd.land)
    if option is None:
        raise RuleError("E-MOVE", _no_such_move(state, legion, cmd.land, kind, options))
    shown = None
    if option.teleport:  # checked before a side is drawn: a refused order rolls nothing
        shown = _lord_shown(option.lords, cmd.showing, option.teleport)
    entry, entry_roll = _entry_side(option.entries, cmd.entry, dice, cmd.land)
    return [
        ev.LegionMoved(
            marker=legion.marker,
            from_land=legion.land,
            to_land=cmd.land,
            entry=entry,
            entry_roll=entry_roll,
            teleport=option.teleport,
            lord_shown=shown,
        )
    ]


def _no_such_move(state: GameState, legion: Legion, land: int, kind: str, options: list) -> str:  # type: ignore[type-arg]
    lands = ", ".join(str(o.land) for o in options) or "nowhere"
    why = f"{legion.marker} cannot {kind} to {land} with a roll of {state.roll}"
    start = state.variant.lands[legion.land]
    blocks = [x.to for x in start.exits if x.sign.value == "block"]
    if blocks:
        why += f": the block on land {legion.land} sends its first step to {blocks[0]}"
    if any(o.land == land for o in legion_moves(state, legion) if o.teleport):
        why += f" (by the signs; to teleport there write 'teleport {legion.marker} to {land}')"
    return f"{why}; it may {kind} to: {lands}"


def _entry_side(
    entries: tuple[str, ...], wanted: str | None, dice: Dice, land: int
) -> tuple[str | None, int | None]:
    """Wolff 7.0: an undeclared side is drawn uniformly from the legal ones."""
    if not entries:
        if wanted:
            raise RuleError(
                "E-ENTRY", f"no engagement follows at {land}, so leave out 'from {wanted}'"
            )
        return None, None
    if wanted:
        if wanted not in entries:
            raise RuleError(
                "E-ENTRY",
                f"{land} cannot be entered from the {wanted}; legal: {', '.join(entries)}",
            )
        return wanted, None
    if len(entries) == 1:
        return entries[0], None
    roll = dice.roll(1)[0]
    return drawn_side(entries, roll), roll


def drawn_side(entries: tuple[str, ...], roll: int) -> str:
    """Wolff 7.0: the side a die draws from the legal ones, each as likely."""
    return entries[(roll - 1) * len(entries) // 6]


def _lord_shown(lords: tuple[str, ...], showing: str | None, teleport: str) -> str:
    """8.1/8.2: the lord shown must be in the legion, and a Titan teleport shows the Titan."""
    if showing is None:
        return lords[0]
    if showing not in lords:
        if teleport == "titan":
            why = "a Titan teleport shows your Titan (8.2)"
        elif showing not in LORDS:
            why = f"{showing} is not a lord; show one of the legion's lords (8.1)"
        else:
            why = f"the legion holds no {showing}; show one of its lords (8.1)"
        options = " or ".join(f"'showing {lord.lower()}'" for lord in lords)
        raise RuleError("E-TELEPORT-LORD", f"{why}: write {options}")
    return showing


def undo(state: GameState, cmd: UndoMove) -> list[ev.Event]:
    """Wolff 7.0: changing a move undoes every move made after it."""
    if not state.moves:
        raise RuleError("E-UNDO", "no move has been made this turn, so there is nothing to undo")
    order = [m.marker for m in state.moves]
    marker = cmd.marker or order[-1]
    if marker not in order:
        raise RuleError("E-UNDO", f"{marker} has not moved this turn; moved: {', '.join(order)}")
    undone = list(reversed(state.moves[order.index(marker) :]))
    return [ev.MoveUndone(marker=m.marker, back_to=m.from_land) for m in undone]


def end_movement(state: GameState, cmd: Done) -> list[ev.Event]:
    """6.2/Wolff 6.2: at least one legion moves if any can; 4.3: split-offs separate if they can."""
    mine = state.legions_of(cmd.player)
    unmoved = [lg for lg in mine if not lg.moved]
    if not state.moves and any(can_move_normally(state, lg) for lg in unmoved):
        raise RuleError(
            "E-MUST-MOVE", "you must move at least one legion (6.2); 'moves' lists them"
        )
    out: list[ev.Event] = [ev.MovementEnded(player=cmd.player)]
    groups = recombining(state, cmd.player)
    kept = _kept_markers(groups, cmd.keep)
    for land, group in sorted(groups.items()):
        keep = kept.get(land) or recombined_marker_choices(group)[0]
        absorbed = tuple(lg.marker for lg in group if lg.marker != keep)
        out.insert(len(out) - 1, ev.LegionsRecombined(land=land, marker=keep, absorbed=absorbed))
    return out


def recombining(state: GameState, player: str) -> dict[int, list[Legion]]:
    """
    The split-offs that would recombine if movement ended now, by land (4.3, 2.4).

    Raises ``E-SPLIT-MUST-MOVE`` when one of them could still move: split-offs
    separate if they can, and only legions no normal move can part recombine.
    """
    groups: dict[int, list[Legion]] = {}
    for lg in state.legions_of(player):
        if not lg.moved:
            groups.setdefault(lg.land, []).append(lg)
    groups = {land: group for land, group in groups.items() if len(group) > 1}
    for land, group in sorted(groups.items()):
        movable = [lg.marker for lg in group if can_move_normally(state, lg)]
        if movable:
            raise RuleError(
                "E-SPLIT-MUST-MOVE",
                f"{' and '.join(lg.marker for lg in group)} share land {land}: one of them must "
                f"move (4.3); {', '.join(movable)} can",
            )
    return groups


def recombined_marker_choices(group: list[Legion]) -> list[str]:
    """
    The markers a recombined legion may keep, the default first (Wolff 4.7).

    A cancelled split keeps the original marker.  When the original moved off (a
    three-way split), either split-off's marker may be kept; the player names one with
    ``done keeping MARKER``, and without it the lowest is kept: that is what the
    moderator did before the choice could be given, so games, robots and standing
    orders see no change, and a player can tell it from the markers alone.
    """
    originals = [lg.marker for lg in group if lg.split_from is None]
    return sorted(originals) if originals else sorted(lg.marker for lg in group)


def _kept_markers(groups: dict[int, list[Legion]], keep: tuple[str, ...]) -> dict[int, str]:
    """The marker each land's recombined legion keeps, as ``done keeping ...`` named it."""
    kept: dict[int, str] = {}
    for marker in keep:
        land = next((n for n, group in groups.items() if marker in _markers(group)), None)
        if land is None:
            where = "; ".join(" and ".join(_markers(g)) for _, g in sorted(groups.items()))
            raise RuleError(
                "E-RECOMBINE-MARKER",
                f"{marker} does not recombine with another legion"
                + (f"; recombining: {where}" if where else "; nothing recombines this turn")
                + f", so leave out 'keeping {marker}'",
            )
        if land in kept:
            raise RuleError(
                "E-RECOMBINE-MARKER",
                f"{kept[land]} and {marker} recombine into one legion on land {land}: "
                "name only one of them to keep",
            )
        choices = recombined_marker_choices(groups[land])
        if marker not in choices:
            raise RuleError(
                "E-RECOMBINE-MARKER",
                f"the split on land {land} is cancelled, so it keeps its original marker "
                f"{choices[0]} (Wolff 4.7); write 'done' or 'done keeping {choices[0]}'",
            )
        kept[land] = marker
    return kept


def _markers(group: list[Legion]) -> list[str]:
    return [lg.marker for lg in group]


# -- 2.6 mustering --------------------------------------------------------------------


def muster(state: GameState, cmd: Muster) -> list[ev.Event]:
    legion = own_legion(state, cmd.player, cmd.marker)
    if not legion.moved:
        raise RuleError(
            "E-MUSTER", f"{cmd.marker} did not move this turn, so it cannot muster (18.1)"
        )
    if legion.mustered:
        raise RuleError("E-MUSTER", f"{cmd.marker} has already mustered this turn (18.0)")
    if legion.height >= MAX_HEIGHT:
        raise RuleError("E-MUSTER", f"{cmd.marker} is seven high and cannot muster (4.1)")
    if angel_instead_of_muster(state, legion):
        raise RuleError(
            "E-MUSTER",
            f"{cmd.marker} took an angel for its points this turn; in this game a winning "
            "legion takes the angel or a creature, not both (1982 17.4)",
        )
    shown = _showing(state, legion, cmd.creature, cmd.showing, None)
    return [ev.CreatureMustered(marker=legion.marker, creature=cmd.creature, shown=shown)]


def _showing(
    state: GameState, legion: Legion, creature: str, showing: tuple[str, ...], terrain: str | None
) -> tuple[str, ...]:
    options = muster_options(state, legion, terrain)
    if Counter(showing) - Counter(legion.contents):
        raise RuleError("E-MUSTER", f"{legion.marker} does not hold {' '.join(showing)}")
    shown = choose_showing(options, creature, showing)
    if shown is None:
        land = state.variant.lands[legion.land]
        legal = sorted({c for c, _ in options})
        raise RuleError(
            "E-MUSTER",
            f"{legion.marker} cannot muster a {creature} in {land.terrain} {land.number}"
            + (f" showing {' '.join(showing)}" if showing else "")
            + f"; it may muster: {', '.join(legal) or 'nothing'}",
        )
    return shown


def musterable_legions(state: GameState) -> list[Legion]:
    return [lg for lg in state.legions_of(state.active or "") if can_muster(state, lg)]


def end_turn(state: GameState, cmd: Done) -> list[ev.Event]:
    return [ev.TurnEnded(player=cmd.player)]


def check_step(state: GameState, player: str, *steps: Step) -> None:
    """The synchronous sequence: only the player to act, and only in the right step."""
    if state.step not in steps:
        wanted = " or ".join(s.value for s in steps)
        raise RuleError(
            "E-NOT-NOW",
            f"that order belongs to the {wanted} step; the game is in the {state.step.value} step",
        )
    if state.active != player:
        raise RuleError("E-NOT-YOUR-TURN", f"it is {state.active}'s turn, not yours")
