"""
A finished game's result, read from its events and final state, and what it is
worth in the standings.

**Ranking.**  A player who outlasts another finishes ahead of him: the winner first,
then the players in the reverse order of their elimination (or withdrawal).  Players
whose Titans died in the same engagement share their place.  A game stopped before
its end (the Wolff 21.1 time limit, or the director) ranks the players still in it
by their rulebook 20.5 total, score plus the value of all their remaining legions,
highest first (equal totals share a place), ahead of those eliminated.

**Points** (``place_points``).  ``places``: in a game of N players each place is
worth the number of places below it (N-1 for the first, 0 for the last); players
sharing places share those places' points equally.  ``winner``: 1 point for the
first place, shared by those who share it.

**Tiebreak.**  The standings break equal points by the sum of the player's 20.5
totals over his finished games (``GameFinished.totals``, kept for every game).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from moderator.records import record
from moderator.rules import events as rules_events
from moderator.rules import timelimit
from moderator.rules.state import GameState, Step
from moderator.tournament.settings import Scoring

#: ``GameFinished.ended``.
PLAY, TIME, DIRECTOR = "play", "time", "director"


@record
class GameResult:
    """What ``events.GameFinished`` records (seats, not players)."""

    ranking: tuple[tuple[str, ...], ...]
    totals: tuple[tuple[str, int], ...]
    ended: str
    winner: str | None


def totals_20_5(state: GameState) -> dict[str, int]:
    """Rulebook 20.5: each player's score plus the value of all his legions left."""
    return {
        p.name: p.score
        + sum(state.legion_value(lg.contents, p.name) for lg in state.legions_of(p.name))
        for p in state.players
    }


def _ranked_by_total(names: Sequence[str], totals: Mapping[str, int]) -> list[tuple[str, ...]]:
    groups: list[tuple[str, ...]] = []
    for value in sorted({totals[n] for n in names}, reverse=True):
        groups.append(tuple(sorted(n for n in names if totals[n] == value)))
    return groups


def _stated_totals(events: Sequence[rules_events.Event]) -> dict[str, int] | None:
    """The 20.5 totals of a game that ended by its time limit (``GameScored``), if any."""
    for event in reversed(events):
        if isinstance(event, rules_events.GameScored):
            return {name: total for name, _score, _value, total in event.scores}
    return None


def game_result(
    events: Sequence[rules_events.Event], state: GameState, *, by_director: bool = False
) -> GameResult:
    """
    The result of a game that is over (``state.step`` is ``over``), from its events.

    Raises:
        ValueError: the game is not over.
    """
    if state.step is not Step.OVER:
        msg = "the game is not over yet"
        raise ValueError(msg)
    totals = totals_20_5(state)
    stated = _stated_totals(events)
    if stated is not None:
        totals.update({name: value for name, value in stated.items() if name in totals})
    groups: list[tuple[str, ...]] = []
    previous_eliminated = False
    for event in events:
        if isinstance(event, rules_events.PlayerEliminated):
            if previous_eliminated:
                groups[-1] = (*groups[-1], event.player)
            else:
                groups.append((event.player,))
            previous_eliminated = True
            continue
        previous_eliminated = False
        if isinstance(event, rules_events.PlayerWithdrew):
            groups.append((event.player,))
    out = {name for group in groups for name in group}
    survivors = [p.name for p in state.players if p.name not in out]
    ranking = _ranked_by_total(survivors, totals) if survivors else []
    ranking += [tuple(sorted(group)) for group in reversed(groups)]
    if by_director:
        ended = DIRECTOR
    elif len(survivors) > 1:
        ended = TIME
    else:
        ended = PLAY
    winner = ranking[0][0] if ranking and len(ranking[0]) == 1 else None
    if ended == PLAY or state.winners:
        winner = state.winner
    return GameResult(
        ranking=tuple(ranking),
        totals=tuple(sorted(totals.items())),
        ended=ended,
        winner=winner,
    )


def place_points(ranking: Sequence[Sequence[str]], scoring: Scoring) -> dict[str, Fraction]:
    """Each seat's points for a game ranked so (see the module's text)."""
    players = sum(len(group) for group in ranking)
    points: dict[str, Fraction] = {}
    place = 0  # places taken by the groups before
    for index, group in enumerate(ranking):
        if scoring is Scoring.PLACES:
            worth = sum(players - 1 - (place + k) for k in range(len(group)))
        else:
            worth = 1 if index == 0 else 0
        for seat in group:
            points[seat] = Fraction(worth, len(group))
        place += len(group)
    return points


def stop_events(state: GameState) -> list[rules_events.Event]:
    """
    The events that stop a game by the director's order: the game is scored as a game
    whose time ran out (rulebook 20.5, ``timelimit.final_scores``), every legion still
    in play revealed as it is counted.
    """
    if state.step is Step.OVER or not state.live_players:
        return []
    return [timelimit.final_scores(state)]
