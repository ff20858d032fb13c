"""
Events told in plain English, and the game record one player may read.

``describe(event, state)`` gives one line per event; ``state`` is the game *before*
the event and only lends public facts (who owns a marker, the legions of an
engagement), so the line says no more than the event itself.  ``history_lines``
shows a viewer only the events he may see (etiquette 16/27: a record of the game).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from moderator.reporting.views import marker_names
from moderator.rules import events as ev
from moderator.rules.evolve import evolve
from moderator.rules.state import GameState
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
        what = f"{attacker if e.attacker_losses else defender} conceded"
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
        if not may_see(event, viewer) or not wanted():
            continue
        if pending:
            lines.append(pending)
            pending = None
        lines.append(f"  {describe(event, before)}")
    return lines
