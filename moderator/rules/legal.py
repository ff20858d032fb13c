"""
Who is to act, and what may they do?

This is the one answer the order parser's hints, the robot players, the
deadline defaults and the refusal-to-play rule all use.  Where the choices
are finite they are enumerated as commands; negotiation proposals are open
ended, so only the plain outcomes are listed (any legal set may be sent).
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, product

from moderator.rules import battle, setup
from moderator.rules import commands as cmd
from moderator.rules import engagement as eng_rules
from moderator.rules.battle_legal import battle_commands
from moderator.rules.errors import RuleError
from moderator.rules.movement import legion_moves
from moderator.rules.muster import muster_options
from moderator.rules.state import GameState, Legion, Step
from moderator.rules.turn import (
    FIRST_TURN_HEIGHT,
    MIN_SPLIT,
    end_movement,
    is_first_turn,
    musterable_legions,
    recombined_marker_choices,
    recombining,
)


def to_act(state: GameState) -> str | None:
    """The one player who may act now (Wolff 1.3/1.4), or None when the game is over."""
    step = state.step
    if step is Step.OVER:
        return None
    if step is Step.COLOUR:
        return setup.colour_chooser(state)
    eng = state.engagement
    if step is Step.NEGOTIATE and eng is not None:
        return eng.awaiting
    if step is Step.SUMMON and eng is not None:
        return eng.attacker_player
    if step is Step.REINFORCE and eng is not None:
        return eng.defender_player
    if step is Step.BATTLE and state.battle is not None and eng is not None:
        return battle.player_of(eng, battle.acting_side(state.battle))
    if step is Step.ACQUIRE and state.acquiring in state.legions:
        return state.legions[state.acquiring or ""].owner
    return state.active


def legal_commands(state: GameState) -> list[cmd.Command]:
    """Every legal command of the player to act (see the module note on proposals)."""
    player = to_act(state)
    if player is None:
        return []
    builder = _BUILDERS[state.step]
    return builder(state, player)


def _colour(state: GameState, player: str) -> list[cmd.Command]:
    out: list[cmd.Command] = [
        cmd.ChooseColour(player=player, colour=c) for c in setup.free_colours(state)
    ]
    return [*out, cmd.Withdraw(player=player)]


def split_choices(state: GameState, legion: Legion) -> list[tuple[str, ...]]:
    """Distinct groups of characters that may be split off ``legion`` now (4.3, Wolff 4.1/5.2)."""
    first = is_first_turn(state, legion.owner)
    if first and legion.height != FIRST_TURN_HEIGHT:
        return []
    sizes = (
        [FIRST_TURN_HEIGHT // 2] if first else list(range(MIN_SPLIT, legion.height - MIN_SPLIT + 1))
    )
    groups: set[tuple[str, ...]] = set()
    for size in sizes:
        groups.update(combinations(legion.contents, size))
    if first:
        groups = {g for g in groups if sum(c in ("Titan", "Angel") for c in g) == 1}
    return sorted(groups)


def _split(state: GameState, player: str) -> list[cmd.Command]:
    out: list[cmd.Command] = []
    free = state.free_markers(player)
    if free:
        for legion in state.legions_of(player):
            for group in split_choices(state, legion):
                out.append(
                    cmd.Split(player=player, parent=legion.marker, child=free[0], characters=group)
                )
    if not any(lg.height == FIRST_TURN_HEIGHT for lg in state.legions_of(player)):
        out.append(cmd.Roll(player=player))
    out.append(cmd.Withdraw(player=player))
    return out


def _move(state: GameState, player: str) -> list[cmd.Command]:
    out: list[cmd.Command] = []
    if (
        state.variant.options.first_move_mulligan
        and is_first_turn(state, player)
        and not state.mulligan_used
        and not state.moves
    ):
        out.append(cmd.Mulligan(player=player))
    for legion in state.legions_of(player):
        for option in legion_moves(state, legion):
            teleport = option.teleport is not None
            entries: tuple[str | None, ...] = option.entries or (None,)
            shows: tuple[str | None, ...] = option.lords if teleport else (None,)
            out.extend(
                cmd.MoveLegion(
                    player=player,
                    marker=legion.marker,
                    land=option.land,
                    entry=entry,
                    teleport=teleport,
                    showing=show,
                )
                for entry in entries
                for show in shows
            )
    if state.moves:
        out.append(cmd.UndoMove(player=player))
    if may_end_movement(state, player):
        out.extend(_end_movement_choices(state, player))
    out.append(cmd.Withdraw(player=player))
    return out


def _end_movement_choices(state: GameState, player: str) -> list[cmd.Command]:
    """Plain ``done`` first, then each other choice of markers Wolff 4.7 leaves open."""
    choices = [recombined_marker_choices(g) for _, g in sorted(recombining(state, player).items())]
    out: list[cmd.Command] = [cmd.Done(player=player)]
    for picked in product(*choices):
        keep = tuple(m for m, options in zip(picked, choices, strict=True) if m != options[0])
        if keep:
            out.append(cmd.Done(player=player, keep=keep))
    return out


def may_end_movement(state: GameState, player: str) -> bool:
    try:
        end_movement(state, cmd.Done(player=player))
    except RuleError:
        return False
    return True


def _engage(state: GameState, player: str) -> list[cmd.Command]:
    return [cmd.Engage(player=player, land=land) for land in state.engagement_lands()]


def _negotiate(state: GameState, player: str) -> list[cmd.Command]:
    eng = state.engagement
    assert eng is not None
    out: list[cmd.Command] = []
    if player == eng.defender_player and eng_rules.may_flee(state, eng):
        out.append(cmd.Flee(player=player))
    theirs = [i for i, (who, _) in enumerate(eng.proposals, 1) if who != player]
    out.extend(cmd.Accept(player=player, number=n) for n in theirs)
    out.append(cmd.Concede(player=player))
    if eng.no_more is not None and eng.no_more != player:
        out.append(cmd.Fight(player=player))  # 2.5.5
    if eng.no_more is None:
        made = {p for _, p in eng.proposals}
        for proposal in plain_proposals(state):
            if proposal not in made:
                out.append(cmd.Propose(player=player, proposals=(proposal,)))
        out.append(cmd.NoMore(player=player))
    return out


def plain_proposals(state: GameState) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """The simple outcomes: either side eliminated with no other loss, or both."""
    eng = state.engagement
    assert eng is not None
    a = state.legions[eng.attacker].contents
    d = state.legions[eng.defender].contents
    return [((), d), (a, ()), (a, d)]


def _summon(state: GameState, player: str) -> list[cmd.Command]:
    eng = state.engagement
    assert eng is not None
    sources = eng_rules.summon_sources(state, state.legions[eng.attacker])
    out: list[cmd.Command] = [cmd.Summon(player=player, lord=lord, source=m) for lord, m in sources]
    return [*out, cmd.Decline(player=player)]


def _reinforce(state: GameState, player: str) -> list[cmd.Command]:
    eng = state.engagement
    assert eng is not None
    options = muster_options(state, state.legions[eng.defender])
    out: list[cmd.Command] = [
        cmd.Reinforce(player=player, creature=c, showing=shown) for c, shown in _distinct(options)
    ]
    return [*out, cmd.Decline(player=player)]


def _acquire(state: GameState, player: str) -> list[cmd.Command]:
    out: list[cmd.Command] = [
        cmd.TakeAngel(player=player, lord=k) for k in eng_rules.angel_choices(state)
    ]
    return [*out, cmd.Decline(player=player)]


def _muster(state: GameState, player: str) -> list[cmd.Command]:
    out: list[cmd.Command] = []
    for legion in musterable_legions(state):
        out.extend(
            cmd.Muster(player=player, marker=legion.marker, creature=c, showing=shown)
            for c, shown in _distinct(muster_options(state, legion))
        )
    return [*out, cmd.Done(player=player), cmd.Withdraw(player=player)]


def _distinct(options: list[tuple[str, tuple[str, ...]]]) -> list[tuple[str, tuple[str, ...]]]:
    seen: set[tuple[str, tuple[str, ...]]] = set()
    out = []
    for creature, shown in options:
        key = (creature, tuple(sorted(Counter(shown).elements())))
        if key not in seen:
            seen.add(key)
            out.append(key)
    return out


_BUILDERS = {
    Step.BATTLE: battle_commands,
    Step.COLOUR: _colour,
    Step.SPLIT: _split,
    Step.MOVE: _move,
    Step.ENGAGE: _engage,
    Step.NEGOTIATE: _negotiate,
    Step.SUMMON: _summon,
    Step.REINFORCE: _reinforce,
    Step.ACQUIRE: _acquire,
    Step.MUSTER: _muster,
}
