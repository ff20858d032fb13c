"""
The fold of engagements and what follows them (registered into ``fold``'s table
on import, by ``evolve``): negotiation and its reveals, the resolution (2.5.6.5),
summoning (15.x), acquiring angels, scoring and Titan elimination (2.5.6.8 on),
the engagement's end, the game's end and the time limit (Wolff 21.1, 20.5).
"""

from __future__ import annotations

from typing import Any

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
from moderator.rules.state import Engagement, GameState, Step

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
    return replace(state, legions=with_legion(state, replace(legion, known_to=known)))


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
        left = without(legion.contents, losses)
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


_DECISION_STEPS = {"summon": Step.SUMMON, "reinforce": Step.REINFORCE, "angel": Step.ACQUIRE}


@on(ev.DecisionAwaited)
def _decision_awaited(state: GameState, e: ev.DecisionAwaited) -> GameState:
    return replace(state, step=_DECISION_STEPS[e.what])


@on(ev.AngelSummoned)
def _angel_summoned(state: GameState, e: ev.AngelSummoned) -> GameState:
    legions = dict(state.legions)
    source = legions[e.source]
    left = without(source.contents, (e.lord,))
    if left:
        legions[e.source] = replace(source, contents=left)
    else:
        del legions[e.source]  # Wolff 18.1: an emptied legion is disbanded
    target = legions[e.target]
    legions[e.target] = replace(target, contents=ordered((*target.contents, e.lord)))
    if state.battle is not None:  # 15.0: summoned into the battle; it must still enter
        battle = replace(
            _battle_fold.joined(state.battle, "attacker", e.lord),
            summoned_from=e.source,
            summoned_land=source.land,
        )
        return replace(state, legions=legions, summoned_this_phase=True, battle=battle)
    return decided(state, legions=legions, summoned_this_phase=True)


@on(ev.Declined)
def _declined(state: GameState, e: ev.Declined) -> GameState:
    if e.what == "angel":
        return decided(state, acquisitions=state.acquisitions[1:])
    return decided(state)


@on(ev.PointsScored)
def _points_scored(state: GameState, e: ev.PointsScored) -> GameState:
    player = state.player(e.player)
    players = update_player(state, e.player, score=player.score + e.points)
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
    legion = replace(legion, contents=ordered((*legion.contents, e.lord)), took_angel=True)
    caretaker = dict(state.caretaker)
    caretaker[e.lord] -= 1
    return decided(
        state,
        legions=with_legion(state, legion),
        caretaker=caretaker,
        acquisitions=state.acquisitions[1:],
    )


@on(ev.PlayerEliminated)
def _player_eliminated(state: GameState, e: ev.PlayerEliminated) -> GameState:
    removed = {m for m, _ in e.legions}
    legions = {m: lg for m, lg in state.legions.items() if m not in removed}
    caretaker, dead = set_aside(state, (c for _, contents in e.legions for c in contents))
    players = update_player(state, e.player, eliminated=True)
    gains = dict(e.half_points)
    # 4.6: the markers of the eliminated Titan's player; 21.3 TITANplus: his eight.
    loser_markers = state.player(e.player).markers
    if state.variant.options.markers_per_titan_eliminated:
        loser_markers = loser_markers[: state.variant.options.markers_per_titan_eliminated]
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
    caretaker, dead = set_aside(state, eng.slain)
    new = replace(
        state, caretaker=caretaker, dead=dead, engagement=None, acquisitions=(), acquiring=None
    )
    return replace(new, step=after_engagements(new))


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


@on(ev.StandingOrderUsed)
def _standing_order_used(state: GameState, e: ev.StandingOrderUsed) -> GameState:
    """A note: the events of the order it gave change the game."""
    return state


@on(ev.SeedCommitted)
@on(ev.OrderSealed)
@on(ev.LegionCommitted)
@on(ev.CommitmentOpened)
def _audit_note(state: GameState, e: ev.Event) -> GameState:
    """The moderator's audit notes (``audit_events``) change nothing in the game."""
    return state


@on(ev.LegionShown)
def _legion_shown(state: GameState, e: ev.LegionShown) -> GameState:
    """Wolff 4.5: a legion shown whole is known to those it was shown to, as after a look."""
    legion = state.legions.get(e.marker)
    if legion is None or not e.whole or legion.known_to is None:
        return state
    shown = legion.shown_to | (e.visible_to or frozenset())
    return replace(state, legions=with_legion(state, replace(legion, shown_to=shown)))


@on(ev.MessageRelayed)
def _message_relayed(state: GameState, e: ev.MessageRelayed) -> GameState:
    """Words between players change nothing in the game."""
    return state


@on(ev.OperatorActed)
def _operator_acted(state: GameState, e: ev.OperatorActed) -> GameState:
    """The operator's line runs the service's clock or seats, never the game."""
    return state


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
