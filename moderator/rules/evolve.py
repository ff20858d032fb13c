"""
The fold: ``evolve(state, event)`` gives the next state; ``replay`` folds many.

Every rule decision was taken in ``decide``; here we only apply facts.  The
few derived transitions (which step follows) are computed from the state so
that a replay reaches exactly the same place.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from moderator.rules import battle_fold as _battle_fold
from moderator.rules import events as ev
from moderator.rules.fold import HANDLERS as _HANDLERS
from moderator.rules.fold import on
from moderator.rules.state import Engagement, GameState, Legion, Move, Player, Step
from moderator.rules.variant import load_variant


def evolve(state: GameState, event: ev.Event) -> GameState:
    """Apply one event; the result's ``version`` counts the events folded."""
    new = _HANDLERS[type(event)](state, event)
    return replace(new, version=state.version + 1)


def replay(events: Iterable[ev.Event], state: GameState | None = None) -> GameState:
    state = state or GameState()
    for event in events:
        state = evolve(state, event)
    return state


# -- helpers -------------------------------------------------------------------


def _with_legion(state: GameState, legion: Legion) -> dict[str, Legion]:
    legions = dict(state.legions)
    legions[legion.marker] = legion
    return legions


def _update_player(state: GameState, name: str, **changes: Any) -> tuple[Player, ...]:
    return tuple(replace(p, **changes) if p.name == name else p for p in state.players)


def _add(counts: dict[str, int], creature: str, n: int = 1) -> None:
    counts[creature] = counts.get(creature, 0) + n


def _set_aside(
    state: GameState, characters: Iterable[str]
) -> tuple[dict[str, int], dict[str, int]]:
    """Slain characters: lords and demi-lords regenerate, others are dead (2.5.6.10)."""
    caretaker = dict(state.caretaker)
    dead = dict(state.dead)
    variant = load_variant()
    for c in characters:
        kind = variant.creature(c)
        if c != "Titan" and (kind.lord or kind.demilord):
            _add(caretaker, c)
        else:
            _add(dead, c)
    return caretaker, dead


def _full_caretaker(players: int) -> dict[str, int]:
    variant = load_variant()
    return {name: kind.count for name, kind in variant.creatures.items() if name != "Titan"}


def _start_turn(state: GameState, player: str, turn: int) -> GameState:
    legions = {
        m: replace(lg, moved=False, mustered=False, split_from=None)
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


def _after_engagements(state: GameState) -> Step:
    return Step.ENGAGE if state.engagement_lands() else Step.MUSTER


def _sorted(contents: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(contents))


def _remove(contents: tuple[str, ...], losses: Iterable[str]) -> tuple[str, ...]:
    left = list(contents)
    for c in losses:
        left.remove(c)
    return tuple(left)


# -- setup -----------------------------------------------------------------------


@on(ev.GameCreated)
def _game_created(state: GameState, e: ev.GameCreated) -> GameState:
    players = tuple(Player(name=n, tower=0) for n in e.players)
    return GameState(players=players, caretaker=_full_caretaker(len(players)), step=Step.COLOUR)


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
        state, players=_update_player(state, e.player, colour=e.colour, markers=e.markers)
    )


@on(ev.LegionsPlaced)
def _legions_placed(state: GameState, e: ev.LegionsPlaced) -> GameState:
    legions = dict(state.legions)
    caretaker = dict(state.caretaker)
    for marker, owner, land, contents in e.legions:
        # Every starting legion holds the same eight characters (5.2): nothing to hide yet.
        legions[marker] = Legion(
            marker=marker, owner=owner, land=land, contents=_sorted(contents), known_to=None
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
    caretaker = _full_caretaker(len(players))
    legions: dict[str, Legion] = {}
    for marker, owner, land, contents, moved in e.legions:
        legions[marker] = Legion(
            marker=marker, owner=owner, land=land, contents=_sorted(contents), moved=moved
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
    )
    if e.battle is not None:
        state = _battle_fold.battle_from_position(state, e.battle)
    return state


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
        contents=_sorted(e.moved),
        split_from=e.parent,
    )
    legions = dict(state.legions)
    legions[e.parent] = replace(parent, contents=_remove(parent.contents, e.moved))
    legions[e.child] = child
    return replace(state, legions=legions)


@on(ev.LegionSplit)
def _legion_split(state: GameState, e: ev.LegionSplit) -> GameState:
    """A split hides both stacks again from everybody but the owner."""
    legions = dict(state.legions)
    for marker in (e.parent, e.child):
        legions[marker] = replace(legions[marker], known_to=frozenset())
    return replace(state, legions=legions)


@on(ev.MovementRolled)
def _movement_rolled(state: GameState, e: ev.MovementRolled) -> GameState:
    return replace(
        state, roll=e.roll, step=Step.MOVE, mulligan_used=state.mulligan_used or e.mulligan
    )


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
    return replace(state, legions=_with_legion(state, legion), moves=(*state.moves, move))


@on(ev.MoveUndone)
def _move_undone(state: GameState, e: ev.MoveUndone) -> GameState:
    legion = replace(state.legions[e.marker], land=e.back_to, moved=False)
    moves = tuple(m for m in state.moves if m.marker != e.marker)
    return replace(state, legions=_with_legion(state, legion), moves=moves)


@on(ev.MovementEnded)
def _movement_ended(state: GameState, e: ev.MovementEnded) -> GameState:
    return replace(state, step=_after_engagements(state))


@on(ev.LegionsRecombined)
def _legions_recombined(state: GameState, e: ev.LegionsRecombined) -> GameState:
    legions = dict(state.legions)
    keep = legions[e.marker]
    contents = list(keep.contents)
    for m in e.absorbed:
        contents.extend(legions.pop(m).contents)
    legions[e.marker] = replace(keep, contents=_sorted(contents), known_to=frozenset())
    return replace(state, legions=legions, step=_after_engagements(replace(state, legions=legions)))


@on(ev.CreatureMustered)
def _creature_mustered(state: GameState, e: ev.CreatureMustered) -> GameState:
    legion = state.legions[e.marker]
    legion = replace(legion, contents=_sorted((*legion.contents, e.creature)), mustered=True)
    caretaker = dict(state.caretaker)
    caretaker[e.creature] -= 1
    new = replace(state, legions=_with_legion(state, legion), caretaker=caretaker)
    if e.reinforcement and state.battle is not None:  # 14.0: it must still enter
        return replace(new, battle=_battle_fold.joined(state.battle, "defender", e.creature))
    return _decided(new) if e.reinforcement else new


@on(ev.TurnEnded)
def _turn_ended(state: GameState, e: ev.TurnEnded) -> GameState:
    player = state.player(e.player)
    return replace(
        state, players=_update_player(state, e.player, turns_played=player.turns_played + 1)
    )


@on(ev.PlayerWithdrew)
def _player_withdrew(state: GameState, e: ev.PlayerWithdrew) -> GameState:
    legions = {m: lg for m, lg in state.legions.items() if lg.owner != e.player}
    caretaker, dead = _set_aside(state, (c for _, contents in e.legions for c in contents))
    players = _update_player(state, e.player, eliminated=True)
    return replace(state, legions=legions, caretaker=caretaker, dead=dead, players=players)


# -- engagements ---------------------------------------------------------------------


@on(ev.EngagementStarted)
def _engagement_started(state: GameState, e: ev.EngagementStarted) -> GameState:
    attacker = state.legions[e.attacker]
    defender = state.legions[e.defender]
    engagement = Engagement(
        land=e.land,
        attacker=e.attacker,
        defender=e.defender,
        attacker_player=attacker.owner,
        defender_player=defender.owner,
        awaiting=defender.owner,
    )
    return replace(state, engagement=engagement, step=Step.NEGOTIATE)


@on(ev.LegionRevealed)
def _legion_revealed(state: GameState, e: ev.LegionRevealed) -> GameState:
    legion = state.legions.get(e.marker)
    if legion is None:
        return state
    if e.visible_to is None or legion.known_to is None:
        known: frozenset[str] | None = None
    else:
        known = legion.known_to | e.visible_to
    return replace(state, legions=_with_legion(state, replace(legion, known_to=known)))


@on(ev.ProposalsMade)
def _proposals_made(state: GameState, e: ev.ProposalsMade) -> GameState:
    eng = state.engagement
    assert eng is not None
    proposals = eng.proposals + tuple((e.player, p) for p in e.proposals)
    engagement = replace(eng, proposals=proposals, opened=True, awaiting=eng.other(e.player))
    return replace(state, engagement=engagement)


@on(ev.NoMoreProposals)
def _no_more(state: GameState, e: ev.NoMoreProposals) -> GameState:
    eng = state.engagement
    assert eng is not None
    engagement = replace(eng, no_more=e.player, opened=True, awaiting=eng.other(e.player))
    return replace(state, engagement=engagement)


@on(ev.EngagementResolved)
def _engagement_resolved(state: GameState, e: ev.EngagementResolved) -> GameState:
    eng = state.engagement
    assert eng is not None
    legions = dict(state.legions)
    titans: list[str] = []
    for marker, losses in ((eng.attacker, e.attacker_losses), (eng.defender, e.defender_losses)):
        legion = legions[marker]
        if "Titan" in losses:
            titans.append(legion.owner)
        left = _remove(legion.contents, losses)
        if left:
            legions[marker] = replace(legion, contents=left)
        else:
            del legions[marker]
    engagement = replace(
        eng,
        resolved=True,
        how=e.how,
        winner=e.winner,
        points=e.points,
        slain=(*e.attacker_losses, *e.defender_losses),
        titans_slain=tuple(titans),
    )
    return replace(state, legions=legions, engagement=engagement, battle=None)


def _decided(state: GameState, **changes: Any) -> GameState:
    """A 2.5.6.5 or 2.5.6.8 decision was taken: the engagement goes on (see decide.advance)."""
    eng = state.engagement
    if eng is None:
        return replace(state, **changes)
    return replace(state, engagement=replace(eng, option_done=True), step=Step.NEGOTIATE, **changes)


_DECISION_STEPS = {"summon": Step.SUMMON, "reinforce": Step.REINFORCE, "angel": Step.ACQUIRE}


@on(ev.DecisionAwaited)
def _decision_awaited(state: GameState, e: ev.DecisionAwaited) -> GameState:
    return replace(state, step=_DECISION_STEPS[e.what])


@on(ev.AngelSummoned)
def _angel_summoned(state: GameState, e: ev.AngelSummoned) -> GameState:
    legions = dict(state.legions)
    source = legions[e.source]
    left = _remove(source.contents, (e.lord,))
    if left:
        legions[e.source] = replace(source, contents=left)
    else:
        del legions[e.source]  # Wolff 18.1: an emptied legion is disbanded
    target = legions[e.target]
    legions[e.target] = replace(target, contents=_sorted((*target.contents, e.lord)))
    if state.battle is not None:  # 15.0: summoned into the battle; it must still enter
        battle = replace(
            _battle_fold.joined(state.battle, "attacker", e.lord),
            summoned_from=e.source,
            summoned_land=source.land,
        )
        return replace(state, legions=legions, summoned_this_phase=True, battle=battle)
    return _decided(state, legions=legions, summoned_this_phase=True)


@on(ev.Declined)
def _declined(state: GameState, e: ev.Declined) -> GameState:
    if e.what == "angel":
        return _decided(state, acquisitions=state.acquisitions[1:])
    return _decided(state)


@on(ev.PointsScored)
def _points_scored(state: GameState, e: ev.PointsScored) -> GameState:
    player = state.player(e.player)
    players = _update_player(state, e.player, score=player.score + e.points)
    eng = state.engagement
    assert eng is not None
    return replace(
        state,
        players=players,
        acquisitions=e.multiples,
        acquiring=eng.winner,
        engagement=replace(eng, option_done=True, scored=True),
    )


@on(ev.AngelAcquired)
def _angel_acquired(state: GameState, e: ev.AngelAcquired) -> GameState:
    legion = state.legions[e.marker]
    legion = replace(legion, contents=_sorted((*legion.contents, e.lord)))
    caretaker = dict(state.caretaker)
    caretaker[e.lord] -= 1
    return _decided(
        state,
        legions=_with_legion(state, legion),
        caretaker=caretaker,
        acquisitions=state.acquisitions[1:],
    )


@on(ev.PlayerEliminated)
def _player_eliminated(state: GameState, e: ev.PlayerEliminated) -> GameState:
    removed = {m for m, _ in e.legions}
    legions = {m: lg for m, lg in state.legions.items() if m not in removed}
    caretaker, dead = _set_aside(state, (c for _, contents in e.legions for c in contents))
    players = _update_player(state, e.player, eliminated=True)
    gains = dict(e.half_points)
    loser_markers = state.player(e.player).markers
    new_players = []
    for p in players:
        changes: dict[str, Any] = {}
        if p.name in gains:
            changes["score"] = p.score + gains[p.name]
        if p.name == e.markers_to:
            changes["markers"] = (*p.markers, *loser_markers)
        if p.name == e.player and e.markers_to is not None:
            changes["markers"] = ()
        new_players.append(replace(p, **changes) if changes else p)
    return replace(
        state, legions=legions, caretaker=caretaker, dead=dead, players=tuple(new_players)
    )


@on(ev.EngagementEnded)
def _engagement_ended(state: GameState, e: ev.EngagementEnded) -> GameState:
    eng = state.engagement
    assert eng is not None
    caretaker, dead = _set_aside(state, eng.slain)
    new = replace(
        state, caretaker=caretaker, dead=dead, engagement=None, acquisitions=(), acquiring=None
    )
    return replace(new, step=_after_engagements(new))


@on(ev.GameOver)
def _game_over(state: GameState, e: ev.GameOver) -> GameState:
    legions = dict(state.legions)
    for marker, _ in e.legions:
        legions[marker] = replace(legions[marker], known_to=None)
    return replace(
        state,
        legions=legions,
        step=Step.OVER,
        winner=e.winner,
        winners=(e.winner,) if e.winner else (),
        engagement=None,
    )


@on(ev.TimeCalled)
def _time_called(state: GameState, e: ev.TimeCalled) -> GameState:
    return replace(state, final_turn=e.last_turn, final_player=e.last_player)


@on(ev.GameScored)
def _game_scored(state: GameState, e: ev.GameScored) -> GameState:
    """20.5: every counted legion is revealed; the game is over."""
    legions = dict(state.legions)
    for marker, _owner, _contents, _value in e.legions:
        legions[marker] = replace(legions[marker], known_to=None)
    return replace(
        state,
        legions=legions,
        step=Step.OVER,
        winner=e.winners[0] if len(e.winners) == 1 else None,
        winners=e.winners,
        engagement=None,
    )


