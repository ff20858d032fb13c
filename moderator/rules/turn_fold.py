"""
The fold of setup and of the turn (registered into ``fold``'s table on import,
by ``evolve``): the game's creation, towers, colours and starting legions (1.x,
5.1, 5.2), a loaded position, then splits, movement, recombining, mustering
(18.x; a reinforcement joins the battle, 14.0) and a player's withdrawal.
"""

from __future__ import annotations

from moderator.records import replace
from moderator.rules import battle_fold as _battle_fold
from moderator.rules import events as ev
from moderator.rules.fold import on
from moderator.rules.fold_common import (
    after_engagements,
    decided,
    ordered,
    set_aside,
    update_player,
    with_legion,
    without,
)
from moderator.rules.state import GameState, Legion, Move, Player, Step
from moderator.rules.variant import Variant, check_digest, load_variant


def _full_caretaker(variant: Variant) -> dict[str, int]:
    return {name: kind.count for name, kind in variant.creatures.items() if name != "Titan"}


def _start_turn(state: GameState, player: str, turn: int) -> GameState:
    legions = {
        m: replace(lg, moved=False, mustered=False, took_angel=False, split_from=None)
        for m, lg in state.legions.items()
    }
    return replace(
        state,
        legions=legions,
        step=Step.SPLIT,
        turn=turn,
        active=player,
        roll=None,
        mulligan_used=False,
        moves=(),
        engagement=None,
        summoned_this_phase=False,
        acquisitions=(),
        acquiring=None,
    )


# -- setup -----------------------------------------------------------------------


@on(ev.GameCreated)
def _game_created(state: GameState, e: ev.GameCreated) -> GameState:
    players = tuple(Player(name=n, tower=0) for n in e.players)
    check_digest(e.variant, e.variant_digest)  # an own variant whose files changed: refused
    variant = load_variant(e.variant)
    return GameState(
        players=players,
        caretaker=_full_caretaker(variant),
        step=Step.COLOUR,
        variant_name=e.variant,
        variant_digest=e.variant_digest,
    )


@on(ev.TowersRolled)
def _towers_rolled(state: GameState, e: ev.TowersRolled) -> GameState:
    players = state.players
    for name, tower in e.assigned:
        players = tuple(replace(p, tower=tower) if p.name == name else p for p in players)
    if all(p.tower for p in players):
        # 5.1: turns go in descending tower order; keep that order from now on.
        players = tuple(sorted(players, key=lambda p: -p.tower))
    return replace(state, players=players)


@on(ev.ColourChosen)
def _colour_chosen(state: GameState, e: ev.ColourChosen) -> GameState:
    return replace(
        state, players=update_player(state, e.player, colour=e.colour, markers=e.markers)
    )


@on(ev.LegionsPlaced)
def _legions_placed(state: GameState, e: ev.LegionsPlaced) -> GameState:
    legions = dict(state.legions)
    caretaker = dict(state.caretaker)
    for marker, owner, land, contents in e.legions:
        # Every starting legion holds the same eight characters (5.2): nothing to hide yet.
        legions[marker] = Legion(
            marker=marker, owner=owner, land=land, contents=ordered(contents), known_to=None
        )
        for c in contents:
            if c != "Titan":
                caretaker[c] -= 1
    return replace(state, legions=legions, caretaker=caretaker, step=Step.SPLIT)


@on(ev.PositionLoaded)
def _position_loaded(state: GameState, e: ev.PositionLoaded) -> GameState:
    players = tuple(
        Player(name=n, colour=c, tower=t, score=s, eliminated=x, markers=m)
        for n, c, t, s, x, m in e.players
    )
    players = tuple(sorted(players, key=lambda p: -p.tower))
    # Who has had a first turn already decides the first-turn split rule (Wolff 4.1/5.2).
    active_tower = next((p.tower for p in players if p.name == e.active), 0)
    players = tuple(
        replace(p, turns_played=e.turn - 1 + (1 if p.tower > active_tower else 0)) for p in players
    )
    check_digest(e.variant, e.variant_digest)  # an own variant whose files changed: refused
    caretaker = _full_caretaker(load_variant(e.variant))
    legions: dict[str, Legion] = {}
    for marker, owner, land, contents, moved in e.legions:
        legions[marker] = Legion(
            marker=marker, owner=owner, land=land, contents=ordered(contents), moved=moved
        )
        for c in contents:
            if c != "Titan":
                caretaker[c] -= 1
    dead = dict(e.dead)
    for c, n in dead.items():
        if c != "Titan":
            caretaker[c] -= n
    state = GameState(
        players=players,
        legions=legions,
        caretaker=caretaker,
        dead=dead,
        step=Step(e.step),
        turn=e.turn,
        active=e.active,
        roll=e.roll,
        moves=_entry_moves(legions, e.active, e.entries),
        variant_name=e.variant,
        variant_digest=e.variant_digest,
    )
    if e.battle is not None:
        state = _battle_fold.battle_from_position(state, e.battle, e.battleland)
    return state


def _entry_moves(
    legions: dict[str, Legion], active: str, entries: tuple[tuple[int, str], ...]
) -> tuple[Move, ...]:
    """
    A position's entry sides as the moves that made the engagements (Wolff 2.2/10.1).

    The battle reads the attacker's side from this turn's moves; where the attacker came
    from is not in the file, so its land stands in (nothing reads it after movement).
    """
    attackers = {lg.land: lg.marker for lg in legions.values() if lg.owner == active}
    return tuple(
        Move(marker=attackers[land], from_land=land, to_land=land, entry=side, teleport=None)
        for land, side in entries
    )


# -- the turn ----------------------------------------------------------------------


@on(ev.TurnStarted)
def _turn_started(state: GameState, e: ev.TurnStarted) -> GameState:
    return _start_turn(state, e.player, e.turn)


@on(ev.SplitContents)
def _split_contents(state: GameState, e: ev.SplitContents) -> GameState:
    """The private half comes first, so every intermediate state is a legal board."""
    parent = state.legions[e.parent]
    child = Legion(
        marker=e.child,
        owner=parent.owner,
        land=parent.land,
        contents=ordered(e.moved),
        split_from=e.parent,
    )
    legions = dict(state.legions)
    legions[e.parent] = replace(parent, contents=without(parent.contents, e.moved))
    legions[e.child] = child
    return replace(state, legions=legions)


@on(ev.LegionSplit)
def _legion_split(state: GameState, e: ev.LegionSplit) -> GameState:
    """A split hides both stacks again from everybody but the owner."""
    legions = dict(state.legions)
    for marker in (e.parent, e.child):
        legions[marker] = replace(legions[marker], known_to=frozenset(), shown_to=frozenset())
    return replace(state, legions=legions)


@on(ev.MovementRolled)
def _movement_rolled(state: GameState, e: ev.MovementRolled) -> GameState:
    return replace(
        state, roll=e.roll, step=Step.MOVE, mulligan_used=state.mulligan_used or e.mulligan
    )


@on(ev.LateMoveDrawn)
def _late_move_drawn(state: GameState, e: ev.LateMoveDrawn) -> GameState:
    return state  # the draw only; the LegionMoved that follows moves the legion


@on(ev.LegionMoved)
def _legion_moved(state: GameState, e: ev.LegionMoved) -> GameState:
    legion = replace(state.legions[e.marker], land=e.to_land, moved=True)
    move = Move(
        marker=e.marker,
        from_land=e.from_land,
        to_land=e.to_land,
        entry=e.entry,
        teleport=e.teleport,
    )
    return replace(state, legions=with_legion(state, legion), moves=(*state.moves, move))


@on(ev.MoveUndone)
def _move_undone(state: GameState, e: ev.MoveUndone) -> GameState:
    legion = replace(state.legions[e.marker], land=e.back_to, moved=False)
    moves = tuple(m for m in state.moves if m.marker != e.marker)
    return replace(state, legions=with_legion(state, legion), moves=moves)


@on(ev.MovementEnded)
def _movement_ended(state: GameState, e: ev.MovementEnded) -> GameState:
    return replace(state, step=after_engagements(state))


@on(ev.LegionsRecombined)
def _legions_recombined(state: GameState, e: ev.LegionsRecombined) -> GameState:
    legions = dict(state.legions)
    keep = legions[e.marker]
    contents = list(keep.contents)
    for m in e.absorbed:
        contents.extend(legions.pop(m).contents)
    legions[e.marker] = replace(
        keep, contents=ordered(contents), known_to=frozenset(), shown_to=frozenset()
    )
    return replace(state, legions=legions, step=after_engagements(replace(state, legions=legions)))


@on(ev.CreatureMustered)
def _creature_mustered(state: GameState, e: ev.CreatureMustered) -> GameState:
    legion = state.legions[e.marker]
    legion = replace(legion, contents=ordered((*legion.contents, e.creature)), mustered=True)
    caretaker = dict(state.caretaker)
    caretaker[e.creature] -= 1
    new = replace(state, legions=with_legion(state, legion), caretaker=caretaker)
    if e.reinforcement and state.battle is not None:  # 14.0: it must still enter
        return replace(new, battle=_battle_fold.joined(state.battle, "defender", e.creature))
    return decided(new) if e.reinforcement else new


@on(ev.TurnEnded)
def _turn_ended(state: GameState, e: ev.TurnEnded) -> GameState:
    player = state.player(e.player)
    return replace(
        state, players=update_player(state, e.player, turns_played=player.turns_played + 1)
    )


@on(ev.PlayerWithdrew)
def _player_withdrew(state: GameState, e: ev.PlayerWithdrew) -> GameState:
    legions = {m: lg for m, lg in state.legions.items() if lg.owner != e.player}
    caretaker, dead = set_aside(state, (c for _, contents in e.legions for c in contents))
    players = update_player(state, e.player, eliminated=True)
    return replace(state, legions=legions, caretaker=caretaker, dead=dead, players=players)
