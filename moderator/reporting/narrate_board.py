"""
Masterboard events told in plain English: the setup, the turn (splits, movement,
musters) and engagements up to their outcome and the game's end.  Split out of
``narrate`` to keep each module to one job; ``narrate.describe`` looks lines up here.
"""

from __future__ import annotations

from moderator.orders.exposure_orders import shown_plainly
from moderator.reporting.views import land_name
from moderator.reporting.wording import (
    Describers,
    _a,
    _and,
    _chars,
    _legion,
    _owner,
    registrar,
)
from moderator.rules import events as ev
from moderator.rules.battlefield import ATTACKER
from moderator.rules.state import GameState
from moderator.rules.variant import STANDARD, load_variant

#: Masterboard event class -> its describer.
DESCRIBERS: Describers = {}
_on = registrar(DESCRIBERS)


# -- setup ----------------------------------------------------------------------------------


@_on(ev.GameCreated)
def _game_created(e: ev.GameCreated, state: GameState) -> str:
    dice = " (with scripted dice)" if e.scripted_dice else ""
    return f"A game of {_game_of(e.variant)} was created for {_and(e.players)}{dice}"


def _game_of(variant: str) -> str:
    """The game's name in a history: Titan, or its variant's title and name."""
    if variant == STANDARD:
        return "Titan"
    return f"{load_variant(variant).title} (variant {variant})"


@_on(ev.TowersRolled)
def _towers_rolled(e: ev.TowersRolled, state: GameState) -> str:
    rolls = ", ".join(f"{name} {roll}" for name, roll in e.rolls)
    if not e.assigned:
        return f"Tower rolls: {rolls}; no tower assigned, roll again"
    towers = ", ".join(f"{name} tower {tower}" for name, tower in e.assigned)
    return f"Tower rolls: {rolls}; {towers}"


@_on(ev.ColourChosen)
def _colour_chosen(e: ev.ColourChosen, state: GameState) -> str:
    return f"{e.player} chose {e.colour}"


@_on(ev.LegionsPlaced)
def _legions_placed(e: ev.LegionsPlaced, state: GameState) -> str:
    placed = "; ".join(
        f"{owner}'s {marker} in {land_name(state.variant, land)}" for marker, owner, land, _ in e.legions
    )
    return f"Starting legions of eight placed: {placed}"


@_on(ev.PositionLoaded)
def _position_loaded(e: ev.PositionLoaded, state: GameState) -> str:
    who = ", ".join(
        f"{name} ({colour}, tower {tower}, {score} points{', out' if out else ''})"
        for name, colour, tower, score, out, _ in e.players
    )
    game = "The game" if e.variant == STANDARD else f"The game of {_game_of(e.variant)}"
    return (
        f"{game} was restored from a position at turn {e.turn}, {e.active} to play "
        f"({e.step} step): {who}; {len(e.legions)} legions on the board"
    )


# -- the turn ---------------------------------------------------------------------------------


@_on(ev.TurnStarted)
def _turn_started(e: ev.TurnStarted, state: GameState) -> str:
    return f"Turn {e.turn} begins: {e.player} to play"


@_on(ev.LegionSplit)
def _legion_split(e: ev.LegionSplit, state: GameState) -> str:
    owner = _owner(e.parent, state)
    who = f"{owner} split" if owner else "Split:"
    return f"{who} {e.child} off {e.parent} ({e.parent_height} and {e.child_height})"


@_on(ev.SplitContents)
def _split_contents(e: ev.SplitContents, state: GameState) -> str:
    return f"(secret) {e.child} takes {_chars(state.variant, e.moved)} from {e.parent}"


@_on(ev.MovementRolled)
def _movement_rolled(e: ev.MovementRolled, state: GameState) -> str:
    if e.mulligan:
        return f"{e.player} took the mulligan and rolled a {e.roll}"
    return f"{e.player} rolled a {e.roll} for movement"


@_on(ev.LateMoveDrawn)
def _late_move_drawn(e: ev.LateMoveDrawn, state: GameState) -> str:
    rolls = ", ".join(str(r) for r in e.rolls)
    return (
        f"{e.player}'s time to move ran out (rulebook 21.2): the dice ({rolls}) "
        f"drew {e.marker} to move to {e.land}"
    )


@_on(ev.LegionMoved)
def _legion_moved(e: ev.LegionMoved, state: GameState) -> str:
    verb = "moved"
    if e.teleport == "tower":
        verb = "teleported (tower teleport)"
    elif e.teleport == "titan":
        verb = "teleported (Titan teleport)"
    text = f"{_legion(e.marker, state, name=True)} {verb} from {land_name(state.variant, e.from_land)} to {land_name(state.variant, e.to_land)}"
    if e.lord_shown:
        text += f", showing its {e.lord_shown}"
    if e.entry:
        text += f", entering from the {e.entry}"
        if e.entry_roll is not None:
            text += f" (drawn with a roll of {e.entry_roll})"
    return text


@_on(ev.MoveUndone)
def _move_undone(e: ev.MoveUndone, state: GameState) -> str:
    return f"{_legion(e.marker, state)}'s move was undone; it is back in {e.back_to}"


@_on(ev.MovementEnded)
def _movement_ended(e: ev.MovementEnded, state: GameState) -> str:
    return f"{e.player} finished moving"


@_on(ev.LegionsRecombined)
def _legions_recombined(e: ev.LegionsRecombined, state: GameState) -> str:
    return f"{_and(e.absorbed)} rejoined {_legion(e.marker, state)} in {land_name(state.variant, e.land)} (4.3)"


@_on(ev.CreatureMustered)
def _creature_mustered(e: ev.CreatureMustered, state: GameState) -> str:
    verb = "was reinforced with" if e.reinforcement else "mustered"
    shown = f", showing {_chars(state.variant, e.shown)}" if e.shown else ""
    return f"{_legion(e.marker, state)} {verb} {_a(e.creature)}{shown}"


@_on(ev.TurnEnded)
def _turn_ended(e: ev.TurnEnded, state: GameState) -> str:
    return f"{e.player} ended the turn"


@_on(ev.PlayerWithdrew)
def _player_withdrew(e: ev.PlayerWithdrew, state: GameState) -> str:
    removed = "; ".join(f"{m} ({_chars(state.variant, c)})" for m, c in e.legions)
    return f"{e.player} withdrew from the game" + (
        f"; legions removed: {removed}" if removed else ""
    )


# -- engagements ----------------------------------------------------------------------------


@_on(ev.EngagementStarted)
def _engagement_started(e: ev.EngagementStarted, state: GameState) -> str:
    return (
        f"Engagement at {land_name(state.variant, e.land)}: {_legion(e.attacker, state)} attacks "
        f"{_legion(e.defender, state)}"
    )


@_on(ev.LegionRevealed)
def _legion_revealed(e: ev.LegionRevealed, state: GameState) -> str:
    why = f" ({e.reason})" if e.reason else ""
    return f"{_legion(e.marker, state)} revealed{why}: {_chars(state.variant, e.contents)}"


def _terms(proposal: tuple[tuple[str, ...], tuple[str, ...]], state: GameState) -> str:
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
    return f"{attacker} loses {_chars(state.variant, a_loss)}; {defender} loses {_chars(state.variant, d_loss)}"


@_on(ev.ProposalsMade)
def _proposals_made(e: ev.ProposalsMade, state: GameState) -> str:
    terms = " or ".join(
        f"#{number} {_terms(p, state)}" for number, p in enumerate(e.proposals, e.first_number)
    )
    return f"{e.player} proposed: {terms}"


@_on(ev.NoMoreProposals)
def _no_more(e: ev.NoMoreProposals, state: GameState) -> str:
    return f"{e.player} declared no more proposals"


@_on(ev.EngagementResolved)
def _engagement_resolved(e: ev.EngagementResolved, state: GameState) -> str:
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
            f"fought out: {attacker} lost {_chars(state.variant, e.attacker_losses)}, "
            f"{defender} lost {_chars(state.variant, e.defender_losses)}"
        )
    elif e.how == "time loss":
        what = f"time ran out after seven battle turns (10.5): {attacker} is eliminated"
    else:
        what = (
            f"settled by agreement: {attacker} lost {_chars(state.variant, e.attacker_losses)}, "
            f"{defender} lost {_chars(state.variant, e.defender_losses)}"
        )
    if e.winner is None:
        return f"Engagement at {land_name(state.variant, e.land)}: {what}; both legions are eliminated"
    winner = _owner(e.winner, state)
    if e.points and winner:
        return f"Engagement at {land_name(state.variant, e.land)}: {what}; {winner} scores {e.points}"
    return f"Engagement at {land_name(state.variant, e.land)}: {what}; {_legion(e.winner, state)} wins"


_DECISIONS = {
    "summon": "may summon an angel into the winning legion",
    "reinforce": "may reinforce the winning legion",
    "angel": "may take an angel",
}


@_on(ev.DecisionAwaited)
def _decision_awaited(e: ev.DecisionAwaited, state: GameState) -> str:
    return f"{e.player} {_DECISIONS.get(e.what, e.what)}"


@_on(ev.AngelSummoned)
def _angel_summoned(e: ev.AngelSummoned, state: GameState) -> str:
    return f"{_legion(e.target, state)} summoned {_a(e.lord)} from {e.source}"


@_on(ev.Declined)
def _declined(e: ev.Declined, state: GameState) -> str:
    what = {"summon": "summon an angel", "reinforce": "reinforce", "angel": "take an angel"}
    verb = what.get(e.what, e.what)
    if e.reason:
        return f"{e.player} could not {verb}: {e.reason}"
    return f"{e.player} declined to {verb}"


@_on(ev.PointsScored)
def _points_scored(e: ev.PointsScored, state: GameState) -> str:
    text = f"{e.player} scored {e.points} points"
    if state is not None and state.has_player(e.player):
        text += f", now {state.player(e.player).score + e.points}"
    if e.multiples:
        text += f" (passing {_and(str(m * 100) for m in e.multiples)})"
    return text


@_on(ev.AngelAcquired)
def _angel_acquired(e: ev.AngelAcquired, state: GameState) -> str:
    return f"{_legion(e.marker, state)} took {_a(e.lord)}"


@_on(ev.PlayerEliminated)
def _player_eliminated(e: ev.PlayerEliminated, state: GameState) -> str:
    text = f"{e.player}'s Titan died: {e.player} is out of the game"
    if e.slayer:
        text += f", slain by {e.slayer}"
    if e.legions:
        text += "; legions removed: " + "; ".join(f"{m} ({_chars(state.variant, c)})" for m, c in e.legions)
    if e.half_points:
        text += "; half points: " + ", ".join(f"{p} {n}" for p, n in e.half_points)
    if e.markers_to:
        text += f"; {e.markers_to} takes {e.player}'s markers"
    return text


@_on(ev.EngagementEnded)
def _engagement_ended(e: ev.EngagementEnded, state: GameState) -> str:
    return f"The engagement at {land_name(state.variant, e.land)} is over"


@_on(ev.GameOver)
def _game_over(e: ev.GameOver, state: GameState) -> str:
    if e.winner is None:
        return "Game over: nobody is left, the game is a draw"
    legions = "; ".join(f"{m} ({_chars(state.variant, c)})" for m, c in e.legions)
    return f"Game over: {e.winner} wins" + (f"; final legions: {legions}" if legions else "")


@_on(ev.StandingOrderUsed)
def _standing_order_used(e: ev.StandingOrderUsed, state: GameState) -> str:
    return f"Your standing order '{e.standing}' answered for you: {e.order}"


@_on(ev.LegionShown)
def _legion_shown(e: ev.LegionShown, state: GameState) -> str:
    """Wolff 4.5: what the owner chose to show, to whom (never in a signed part)."""
    others = sorted((e.visible_to or frozenset()) - {e.owner})
    what = "all it holds" if e.whole else "part of what it holds"
    return (
        f"{e.owner} shows {e.marker} to {', '.join(others)} ({what}, "
        f"Wolff 4.5): {_chars(state.variant, e.characters)}"
    )


@_on(ev.MessageRelayed)
def _message_relayed(e: ev.MessageRelayed, state: GameState) -> str:
    """Wolff 4.5: a player's words, passed on; the moderator vouches for nothing in them."""
    others = sorted((e.visible_to or frozenset()) - {e.sender})
    return (
        f"Message from {e.sender} to {', '.join(others)}, passed on by the moderator as "
        f"written (the sender's words, not the moderator's): \"{shown_plainly(e.text)}\""
    )


@_on(ev.OperatorActed)
def _operator_acted(e: ev.OperatorActed, state: GameState) -> str:
    return f"The moderator's operator {e.line}"


@_on(ev.TimeCalled)
def _time_called(e: ev.TimeCalled, state: GameState) -> str:
    return (
        "Time is called (Wolff 21.1): every player still in the game has one more full "
        f"turn; the game ends after {e.last_player}'s turn {e.last_turn}"
    )


@_on(ev.GameScored)
def _game_scored(e: ev.GameScored, state: GameState) -> str:
    parts = []
    for name, score, value, total in e.scores:
        legions = ", ".join(
            f"{marker} ({_chars(state.variant, contents)}: {worth})"
            for marker, owner, contents, worth in e.legions
            if owner == name
        )
        parts.append(f"{name} {score} + {value} for {legions or 'no legions'} = {total}")
    won = "wins" if len(e.winners) == 1 else "tie for the win"
    result = f"{_and(e.winners)} {won}"
    return f"Game over, time (20.5): {'; '.join(parts)}; {result}"
