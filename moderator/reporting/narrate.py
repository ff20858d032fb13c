"""
Events told in plain English, and the game record one player may read.

``describe(event, state)`` gives one line per event; ``state`` is the game *before*
the event and only lends public facts (who owns a marker, the legions of an
engagement), so the line says no more than the event itself.  ``history_lines``
shows a viewer only the events he may see (etiquette 16/27: a record of the game).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from moderator.reporting.views import marker_names
from moderator.rules import events as ev
from moderator.rules.battle import acting_side
from moderator.rules.battlefield import ATTACKER, DEFENDER, Fighter
from moderator.rules.evolve import evolve
from moderator.rules.state import Battle, GameState
from moderator.rules.variant import load_variant

_Describer = Callable[[Any, GameState | None], str]
_DESCRIBERS: dict[type[ev.Event], _Describer] = {}


def _on(cls: type[ev.Event]) -> Callable[[_Describer], _Describer]:
    def register(fn: _Describer) -> _Describer:
        _DESCRIBERS[cls] = fn
        return fn

    return register


def may_see(event: ev.Event, viewer: str | None) -> bool:
    """Whether ``viewer`` (None: the public) may see ``event``."""
    return event.visible_to is None or (viewer is not None and viewer in event.visible_to)


def is_bookkeeping(event: ev.Event) -> bool:
    """
    Whether ``event`` only records the battle passing through a step nobody acts in
    ("after-maneuver", "end-check", ...): left out of histories and replies.
    """
    return isinstance(event, ev.BattleStepBegan) and (
        event.step.startswith("after-") or event.step == "end-check"
    )


def describe(event: ev.Event, state: GameState | None = None) -> str:
    """One readable line for ``event``; ``state`` (the game before it) names the owners."""
    describer = _DESCRIBERS.get(type(event))
    if describer is None:
        return f"{event.TYPE}"
    return describer(event, state)


# -- helpers ------------------------------------------------------------------------------


def _and(items: Iterable[str]) -> str:
    words = list(items)
    if not words:
        return "nothing"
    if len(words) == 1:
        return words[0]
    return f"{', '.join(words[:-1])} and {words[-1]}"


def _chars(characters: Iterable[str]) -> str:
    """Characters grouped with counts: "Angel, 2 Centaurs"-style, in a stable order."""
    counts: dict[str, int] = {}
    for c in characters:
        counts[c] = counts.get(c, 0) + 1
    if not counts:
        return "nothing"
    return ", ".join(c if n == 1 else f"{n} {_plural(c)}" for c, n in sorted(counts.items()))


def _plural(creature: str) -> str:
    try:
        return load_variant().creature(creature).plural
    except KeyError:
        return f"{creature}s"


def _a(word: str) -> str:
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def _owner(marker: str, state: GameState | None) -> str | None:
    if state is None:
        return None
    legion = state.legions.get(marker)
    if legion is not None:
        return legion.owner
    for p in state.players:
        if marker in p.markers:
            return p.name
    return None


def _legion(marker: str, state: GameState | None, *, name: bool = False) -> str:
    """ "Ann's Rd01" (with the marker's picture, "Ann's Rd01 (Cross)", when ``name``)."""
    owner = _owner(marker, state)
    text = f"{owner}'s {marker}" if owner else marker
    picture = marker_names().get(marker)
    return f"{text} ({picture})" if name and picture else text


# -- setup ----------------------------------------------------------------------------------


@_on(ev.GameCreated)
def _game_created(e: ev.GameCreated, state: GameState | None) -> str:
    dice = " (with scripted dice)" if e.scripted_dice else ""
    return f"A game of Titan was created for {_and(e.players)}{dice}"


@_on(ev.TowersRolled)
def _towers_rolled(e: ev.TowersRolled, state: GameState | None) -> str:
    rolls = ", ".join(f"{name} {roll}" for name, roll in e.rolls)
    if not e.assigned:
        return f"Tower rolls: {rolls}; no tower assigned, roll again"
    towers = ", ".join(f"{name} tower {tower}" for name, tower in e.assigned)
    return f"Tower rolls: {rolls}; {towers}"


@_on(ev.ColourChosen)
def _colour_chosen(e: ev.ColourChosen, state: GameState | None) -> str:
    return f"{e.player} chose {e.colour}"


@_on(ev.LegionsPlaced)
def _legions_placed(e: ev.LegionsPlaced, state: GameState | None) -> str:
    placed = "; ".join(f"{owner}'s {marker} in {land}" for marker, owner, land, _ in e.legions)
    return f"Starting legions of eight placed: {placed}"


@_on(ev.PositionLoaded)
def _position_loaded(e: ev.PositionLoaded, state: GameState | None) -> str:
    who = ", ".join(
        f"{name} ({colour}, tower {tower}, {score} points{', out' if out else ''})"
        for name, colour, tower, score, out, _ in e.players
    )
    return (
        f"The game was restored from a position at turn {e.turn}, {e.active} to play "
        f"({e.step} step): {who}; {len(e.legions)} legions on the board"
    )


# -- the turn ---------------------------------------------------------------------------------


@_on(ev.TurnStarted)
def _turn_started(e: ev.TurnStarted, state: GameState | None) -> str:
    return f"Turn {e.turn} begins: {e.player} to play"


@_on(ev.LegionSplit)
def _legion_split(e: ev.LegionSplit, state: GameState | None) -> str:
    owner = _owner(e.parent, state)
    who = f"{owner} split" if owner else "Split:"
    return f"{who} {e.child} off {e.parent} ({e.parent_height} and {e.child_height})"


@_on(ev.SplitContents)
def _split_contents(e: ev.SplitContents, state: GameState | None) -> str:
    return f"(secret) {e.child} takes {_chars(e.moved)} from {e.parent}"


@_on(ev.MovementRolled)
def _movement_rolled(e: ev.MovementRolled, state: GameState | None) -> str:
    if e.mulligan:
        return f"{e.player} took the mulligan and rolled a {e.roll}"
    return f"{e.player} rolled a {e.roll} for movement"


@_on(ev.LegionMoved)
def _legion_moved(e: ev.LegionMoved, state: GameState | None) -> str:
    verb = "moved"
    if e.teleport == "tower":
        verb = "teleported (tower teleport)"
    elif e.teleport == "titan":
        verb = "teleported (Titan teleport)"
    text = f"{_legion(e.marker, state, name=True)} {verb} from {e.from_land} to {e.to_land}"
    if e.lord_shown:
        text += f", showing its {e.lord_shown}"
    if e.entry:
        text += f", entering from the {e.entry}"
        if e.entry_roll is not None:
            text += f" (drawn with a roll of {e.entry_roll})"
    return text


@_on(ev.MoveUndone)
def _move_undone(e: ev.MoveUndone, state: GameState | None) -> str:
    return f"{_legion(e.marker, state)}'s move was undone; it is back in {e.back_to}"


@_on(ev.MovementEnded)
def _movement_ended(e: ev.MovementEnded, state: GameState | None) -> str:
    return f"{e.player} finished moving"


@_on(ev.LegionsRecombined)
def _legions_recombined(e: ev.LegionsRecombined, state: GameState | None) -> str:
    return f"{_and(e.absorbed)} rejoined {_legion(e.marker, state)} in {e.land} (4.3)"


@_on(ev.CreatureMustered)
def _creature_mustered(e: ev.CreatureMustered, state: GameState | None) -> str:
    verb = "was reinforced with" if e.reinforcement else "mustered"
    shown = f", showing {_chars(e.shown)}" if e.shown else ""
    return f"{_legion(e.marker, state)} {verb} {_a(e.creature)}{shown}"


@_on(ev.TurnEnded)
def _turn_ended(e: ev.TurnEnded, state: GameState | None) -> str:
    return f"{e.player} ended the turn"


@_on(ev.PlayerWithdrew)
def _player_withdrew(e: ev.PlayerWithdrew, state: GameState | None) -> str:
    removed = "; ".join(f"{m} ({_chars(c)})" for m, c in e.legions)
    return f"{e.player} withdrew from the game" + (
        f"; legions removed: {removed}" if removed else ""
    )


# -- engagements ----------------------------------------------------------------------------


@_on(ev.EngagementStarted)
def _engagement_started(e: ev.EngagementStarted, state: GameState | None) -> str:
    return (
        f"Engagement at {e.land}: {_legion(e.attacker, state)} attacks {_legion(e.defender, state)}"
    )


@_on(ev.LegionRevealed)
def _legion_revealed(e: ev.LegionRevealed, state: GameState | None) -> str:
    why = f" ({e.reason})" if e.reason else ""
    return f"{_legion(e.marker, state)} revealed{why}: {_chars(e.contents)}"


def _terms(proposal: tuple[tuple[str, ...], tuple[str, ...]], state: GameState | None) -> str:
    eng = state.engagement if state is not None else None
    attacker, defender = (
        ("the attacker", "the defender")
        if eng is None
        else (
            eng.attacker,
            eng.defender,
        )
    )
    a_loss, d_loss = proposal
    return f"{attacker} loses {_chars(a_loss)}; {defender} loses {_chars(d_loss)}"


@_on(ev.ProposalsMade)
def _proposals_made(e: ev.ProposalsMade, state: GameState | None) -> str:
    terms = " or ".join(
        f"#{number} {_terms(p, state)}" for number, p in enumerate(e.proposals, e.first_number)
    )
    return f"{e.player} proposed: {terms}"


@_on(ev.NoMoreProposals)
def _no_more(e: ev.NoMoreProposals, state: GameState | None) -> str:
    return f"{e.player} declared no more proposals"


@_on(ev.EngagementResolved)
def _engagement_resolved(e: ev.EngagementResolved, state: GameState | None) -> str:
    eng = state.engagement if state is not None else None
    attacker = _legion(eng.attacker, state) if eng else "the attacker"
    defender = _legion(eng.defender, state) if eng else "the defender"
    if e.how == "flight":
        what = f"{defender} fled"
    elif e.how == "concession":
        battle = state.battle if state is not None else None
        if battle is not None and battle.conceded is not None:
            conceder = attacker if battle.conceded == ATTACKER else defender
        else:
            conceder = attacker if e.attacker_losses else defender
        what = f"{conceder} conceded"
    elif e.how == "battle":
        what = (
            f"fought out: {attacker} lost {_chars(e.attacker_losses)}, "
            f"{defender} lost {_chars(e.defender_losses)}"
        )
    elif e.how == "time loss":
        what = f"time ran out after seven battle turns (10.5): {attacker} is eliminated"
    else:
        what = (
            f"settled by agreement: {attacker} lost {_chars(e.attacker_losses)}, "
            f"{defender} lost {_chars(e.defender_losses)}"
        )
    if e.winner is None:
        return f"Engagement at {e.land}: {what}; both legions are eliminated"
    winner = _owner(e.winner, state)
    if e.points and winner:
        return f"Engagement at {e.land}: {what}; {winner} scores {e.points}"
    return f"Engagement at {e.land}: {what}; {_legion(e.winner, state)} wins"


_DECISIONS = {
    "summon": "may summon an angel into the winning legion",
    "reinforce": "may reinforce the winning legion",
    "angel": "may take an angel",
}


@_on(ev.DecisionAwaited)
def _decision_awaited(e: ev.DecisionAwaited, state: GameState | None) -> str:
    return f"{e.player} {_DECISIONS.get(e.what, e.what)}"


@_on(ev.AngelSummoned)
def _angel_summoned(e: ev.AngelSummoned, state: GameState | None) -> str:
    return f"{_legion(e.target, state)} summoned {_a(e.lord)} from {e.source}"


@_on(ev.Declined)
def _declined(e: ev.Declined, state: GameState | None) -> str:
    what = {"summon": "summon an angel", "reinforce": "reinforce", "angel": "take an angel"}
    verb = what.get(e.what, e.what)
    if e.reason:
        return f"{e.player} could not {verb}: {e.reason}"
    return f"{e.player} declined to {verb}"


@_on(ev.PointsScored)
def _points_scored(e: ev.PointsScored, state: GameState | None) -> str:
    text = f"{e.player} scored {e.points} points"
    if state is not None and state.has_player(e.player):
        text += f", now {state.player(e.player).score + e.points}"
    if e.multiples:
        text += f" (passing {_and(str(m * 100) for m in e.multiples)})"
    return text


@_on(ev.AngelAcquired)
def _angel_acquired(e: ev.AngelAcquired, state: GameState | None) -> str:
    return f"{_legion(e.marker, state)} took {_a(e.lord)}"


@_on(ev.PlayerEliminated)
def _player_eliminated(e: ev.PlayerEliminated, state: GameState | None) -> str:
    text = f"{e.player}'s Titan died: {e.player} is out of the game"
    if e.slayer:
        text += f", slain by {e.slayer}"
    if e.legions:
        text += "; legions removed: " + "; ".join(f"{m} ({_chars(c)})" for m, c in e.legions)
    if e.half_points:
        text += "; half points: " + ", ".join(f"{p} {n}" for p, n in e.half_points)
    if e.markers_to:
        text += f"; {e.markers_to} takes {e.player}'s markers"
    return text


@_on(ev.EngagementEnded)
def _engagement_ended(e: ev.EngagementEnded, state: GameState | None) -> str:
    return f"The engagement at {e.land} is over"


@_on(ev.GameOver)
def _game_over(e: ev.GameOver, state: GameState | None) -> str:
    if e.winner is None:
        return "Game over: nobody is left, the game is a draw"
    legions = "; ".join(f"{m} ({_chars(c)})" for m, c in e.legions)
    return f"Game over: {e.winner} wins" + (f"; final legions: {legions}" if legions else "")


@_on(ev.TimeCalled)
def _time_called(e: ev.TimeCalled, state: GameState | None) -> str:
    return (
        "Time is called (Wolff 21.1): every player still in the game has one more full "
        f"turn; the game ends after {e.last_player}'s turn {e.last_turn}"
    )


@_on(ev.GameScored)
def _game_scored(e: ev.GameScored, state: GameState | None) -> str:
    parts = []
    for name, score, value, total in e.scores:
        legions = ", ".join(
            f"{marker} ({_chars(contents)}: {worth})"
            for marker, owner, contents, worth in e.legions
            if owner == name
        )
        parts.append(f"{name} {score} + {value} for {legions or 'no legions'} = {total}")
    won = "wins" if len(e.winners) == 1 else "tie for the win"
    result = f"{_and(e.winners)} {won}"
    return f"Game over, time (20.5): {'; '.join(parts)}; {result}"


# -- battles ----------------------------------------------------------------------------------


def _sides(state: GameState | None) -> tuple[Battle | None, dict[str, str], dict[str, str]]:
    """The battle (if any), its sides' players and their legions' markers."""
    battle = state.battle if state is not None else None
    eng = state.engagement if state is not None else None
    if eng is None:
        return battle, {ATTACKER: "the attacker", DEFENDER: "the defender"}, {}
    players = {ATTACKER: eng.attacker_player, DEFENDER: eng.defender_player}
    return battle, players, {ATTACKER: eng.attacker, DEFENDER: eng.defender}


def _fighter(state: GameState | None, fighter_id: int) -> Fighter | None:
    battle = state.battle if state is not None else None
    if battle is None:
        return None
    return next((f for f in battle.fighters if f.id == fighter_id), None)


def _who(state: GameState | None, fighter_id: int, *, at: bool = False) -> str:
    """ "Ann's cyclops" (with its hex, "Ann's cyclops (D4)", when ``at``)."""
    f = _fighter(state, fighter_id)
    if f is None:
        return f"character #{fighter_id}"
    _, players, _ = _sides(state)
    text = f"{players[f.side]}'s {f.creature.lower()}"
    return f"{text} ({f.hex})" if at and f.hex else text


def _grouped(state: GameState | None, fighter_ids: Iterable[int]) -> str:
    """ "Bob's ogre, troll; Ann's cyclops": characters by owner, in the order given."""
    _, players, _ = _sides(state)
    by_owner: dict[str, list[str]] = {}
    for fid in fighter_ids:
        f = _fighter(state, fid)
        if f is None:
            by_owner.setdefault("", []).append(f"character #{fid}")
        else:
            by_owner.setdefault(players[f.side], []).append(f.creature.lower())
    return "; ".join(
        f"{owner}'s {', '.join(names)}" if owner else ", ".join(names)
        for owner, names in by_owner.items()
    )


def _hits(n: int) -> str:
    return f"{n} hit" if n == 1 else f"{n} hits"


@_on(ev.BattleStarted)
def _battle_started(e: ev.BattleStarted, state: GameState | None) -> str:
    eng = state.engagement if state is not None else None
    where = f"Battle at {e.land} ({e.terrain})"
    if eng is None:
        return f"{where}: the attacker enters from the {e.entry}"
    return (
        f"{where}: {_legion(eng.attacker, state)} attacks {_legion(eng.defender, state)} "
        f"from the {e.entry}"
    )


_STEP_WORDS = {
    "maneuver": "maneuver",
    "strike": "strikes",
    "counterstrike": "counterstrikes",
}


@_on(ev.BattleStepBegan)
def _battle_step_began(e: ev.BattleStepBegan, state: GameState | None) -> str:
    battle, players, _ = _sides(state)
    if battle is None or is_bookkeeping(e):
        return f"Battle turn {e.turn}: {e.step} step"
    who = players[acting_side(replace(battle, turn=e.turn, phasing=e.phasing, step=e.step))]
    if e.step in _STEP_WORDS:
        return f"Battle turn {e.turn}: {who}'s {_STEP_WORDS[e.step]}"
    return f"Battle turn {e.turn}: {who} may concede or proceed"


@_on(ev.FighterMoved)
def _fighter_moved(e: ev.FighterMoved, state: GameState | None) -> str:
    if e.from_hex is None:
        return f"{_who(state, e.fighter)} enters at {e.to_hex}"
    return f"{_who(state, e.fighter)} moves {e.from_hex} -> {e.to_hex}"


@_on(ev.ManeuverReset)
def _maneuver_reset(e: ev.ManeuverReset, state: GameState | None) -> str:
    _, players, _ = _sides(state)
    return f"{players[e.side]} takes the maneuver back: every character moved returns"


@_on(ev.FightersLeftOff)
def _fighters_left_off(e: ev.FightersLeftOff, state: GameState | None) -> str:
    return f"Slain for not entering the battleland (10.1): {_grouped(state, e.fighters)}"


@_on(ev.JoinUndone)
def _join_undone(e: ev.JoinUndone, state: GameState | None) -> str:
    where = f"goes back to {e.source}" if e.source else "goes back to the caretaker"
    owner = _owner(e.marker, state)
    who = f"{owner}'s {e.creature.lower()}" if owner else e.creature.lower()
    return f"{who} did not enter the battleland and {where}"


@_on(ev.DriftDamaged)
def _drift_damaged(e: ev.DriftDamaged, state: GameState | None) -> str:
    victims = ", ".join(_who(state, fid, at=True) for fid in e.fighters)
    return f"Drift damage: 1 hit to {victims}"


@_on(ev.StrikeRolled)
def _strike_rolled(e: ev.StrikeRolled, state: GameState | None) -> str:
    verb = "rangestrikes" if e.rangestrike else "strikes"
    via = f" via {' '.join(e.via)}" if e.via else ""
    rolls = " ".join(str(r) for r in e.rolls)
    text = (
        f"{_who(state, e.striker, at=True)} {verb} {_who(state, e.target, at=True)}{via} "
        f"needing {e.strike_number}: {rolls} — {_hits(e.hits)}"
    )
    target = _fighter(state, e.target)
    if target is not None and e.hits >= target.remaining:
        text += f"; the {target.creature.lower()} is slain"
        excess = e.hits - target.remaining
        if excess and e.carry and not e.rangestrike:
            text += f", {_hits(excess)} to spare"
    return text


@_on(ev.CarryAllocated)
def _carry_allocated(e: ev.CarryAllocated, state: GameState | None) -> str:
    battle, players, _ = _sides(state)
    striker = _fighter(state, battle.carry[0]) if battle and battle.carry else None
    who = players[striker.side] if striker is not None else "The striker"
    if not e.allocations:
        return f"{who} carries no hits over"
    parts = []
    for fid, damage in e.allocations:
        f = _fighter(state, fid)
        name = f"the {f.creature.lower()} on {f.hex}" if f is not None else f"character #{fid}"
        parts.append(f"{damage} to {name}")
    return f"{who} carries {_and(parts)}"


@_on(ev.ConcessionAttempted)
def _concession_attempted(e: ev.ConcessionAttempted, state: GameState | None) -> str:
    _, players, _ = _sides(state)
    return f"{players[e.side]} attempts to concede"


@_on(ev.SlainRemoved)
def _slain_removed(e: ev.SlainRemoved, state: GameState | None) -> str:
    return f"Slain: {_grouped(state, e.fighters)}"


@_on(ev.BattleEnded)
def _battle_ended(e: ev.BattleEnded, state: GameState | None) -> str:
    battle, players, markers = _sides(state)

    def legion(side: str) -> str:
        return f"{players[side]}'s {markers[side]}" if side in markers else players[side]

    if e.how == "concession" and e.conceded is not None:
        return f"Battle over: {legion(e.conceded)} concedes"
    if e.how == "time loss":
        return (
            f"Battle over: time ran out after seven battle turns; {legion(ATTACKER)} "
            "is eliminated (10.5)"
        )
    if battle is None:
        return f"Battle over ({e.how})"
    if e.how == "titan":
        dead = [
            s
            for s in (ATTACKER, DEFENDER)
            if any(f.side == s and f.creature == "Titan" and f.slain for f in battle.fighters)
        ]
        return (
            "Battle over: "
            + " and ".join(f"{players[s]}'s Titan" for s in dead)
            + (" are slain" if len(dead) > 1 else " is slain")
        )
    beaten = [
        s for s in (ATTACKER, DEFENDER) if all(f.slain for f in battle.fighters if f.side == s)
    ]
    if len(beaten) > 1:
        return f"Battle over: both {legion(ATTACKER)} and {legion(DEFENDER)} are eliminated"
    if beaten:
        return f"Battle over: {legion(beaten[0])} is eliminated"
    return f"Battle over ({e.how})"


# -- the record -----------------------------------------------------------------------------


def history_lines(
    events: Iterable[ev.Event],
    viewer: str | None,
    first_turn: int | None = None,
    last_turn: int | None = None,
) -> list[str]:
    """
    The game record for ``viewer``: the events he may see, one line each, under
    "Turn N — NAME" headings (setup events under "Setup", shown with turn 1).
    ``first_turn``/``last_turn`` keep only the turns (rounds) between them, inclusive.
    """
    lines: list[str] = []
    state = GameState()
    turn = 0
    heading = "Setup"
    pending: str | None = heading

    def wanted() -> bool:
        shown = max(turn, 1)
        if first_turn is not None and shown < first_turn:
            return False
        return last_turn is None or shown <= last_turn

    for event in events:
        before = state
        state = evolve(state, event)
        if isinstance(event, ev.TurnStarted):
            turn = event.turn
            pending = f"Turn {event.turn} — {event.player}"
            continue
        if isinstance(event, ev.PositionLoaded):
            if wanted() and may_see(event, viewer):
                if pending:
                    lines.append(pending)
                    pending = None
                lines.append(f"  {describe(event, before)}")
            turn = event.turn
            pending = f"Turn {event.turn} — {event.active}"
            continue
        if not may_see(event, viewer) or not wanted() or is_bookkeeping(event):
            continue
        if pending:
            lines.append(pending)
            pending = None
        lines.append(f"  {describe(event, before)}")
    return lines
