"""
What the tournament's mails say: the answer to a mail's tournament lines, the game a
player was seated in, a notice (a seat handed over, a game paused, resumed or its
deadline moved, a withdrawal), the standings; and the sentences and the standings'
view-model they are made of, built from the tournament's state.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import timedelta
from typing import Any

from moderator.letters.templates import letter, render
from moderator.letters.texts import LineResult, Texts
from moderator.tournament import events as ev
from moderator.tournament.commands import OPERATOR
from moderator.tournament.ratings import Rating, format_rating, ratings_around
from moderator.tournament.scoring import DIRECTOR, PLAY, TIME, place_points
from moderator.tournament.settings import Scoring
from moderator.tournament.standings import format_points
from moderator.tournament.standings import standings as ranked
from moderator.tournament.state import TournamentGame, TournamentState

#: How a game ended, in words (``GameFinished.ended``).
HOW = {
    PLAY: "played to its end",
    TIME: "its time limit ran out",
    DIRECTOR: "stopped by the director",
}


def directed_by(by: str) -> str:
    """Who gave a director's line (``by``, as the tournament's history names him), in
    the players' words: the operator's lines (``tournament direct``) are not the
    director's, and the players are not told otherwise."""
    return "the moderator's operator" if by == OPERATOR else "the tournament director"


def confirmation(state: TournamentState, kind: str) -> list[str]:
    """The answer to a player's ``join``, ``leave``, ``withdraw`` or ``standby`` line."""
    settings = state.settings
    size = settings.players_per_game
    match kind:
        case "join":
            return [
                (
                    f"You are on the waiting list of {state.name}: {len(state.pool())} player(s) "
                    f"wait; a game of {size} is formed as soon as {size} wait (you play at most "
                    f"{settings.rounds} game(s), {settings.max_games} at a time)."
                )
            ]
        case "leave":
            return [f"You are off the waiting list of {state.name}; your games under way go on."]
        case "withdraw":
            return [
                (
                    f"You have withdrawn from {state.name}. The director hands your seats in games "
                    "under way to other players."
                )
            ]
        case _:
            return [
                (
                    f"You are on the standby list of {state.name}: the director may hand you a "
                    "seat in a game under way."
                )
            ]


def withdrawal(state: TournamentState, player: str) -> tuple[str, list[str]] | None:
    """The director's notice that ``player`` withdrew with games under way (None: none)."""
    games = [g for g in state.unfinished if player in g.players]
    if not games:
        return None
    seats = ", ".join(f"{g.game} ({g.seat_of(player)})" for g in games)
    return (
        f"{state.name_of(player)} has withdrawn from the tournament {state.name}.",
        [
            f"Seats to hand over: {seats}.",
            (
                "Write 'replace SEAT in GAME with ADDRESS' (or without 'with ...' to take the "
                "first free player on the standby list)."
            ),
        ],
    )


def replacement(
    state: TournamentState, replaced: ev.SeatReplaced, by: str
) -> tuple[str, list[str], list[str], list[str]]:
    """(heading, to the new holder, to the old holder, to the other players) of a seat
    handed over by ``by`` (the director's address or the operator, see ``directed_by``)."""
    game, seat = replaced.game, replaced.seat
    new_name, old_name = state.name_of(replaced.new), state.name_of(replaced.old)
    return (
        f"Game {game}: the seat {seat} is now played by {new_name}.",
        [
            (
                f"You now hold the seat {seat} in the game {game} of the tournament {state.name}, "
                f"and play as {seat}. The seat's latest report follows in a mail of its own; write "
                f"your orders with the line 'game {game}'."
            )
        ],
        [
            (
                f"{directed_by(by).capitalize()} has handed your seat {seat} in {game} to "
                f"{new_name}: "
                "you get no more mail about the game."
            )
        ],
        [f"({old_name} no longer plays in it.)"],
    )


def game_summary(state: TournamentState, game: TournamentGame) -> dict[str, Any] | None:
    """
    A finished game's places, points, 20.5 totals and each player's rating after it
    (and how far the game moved it), as the standings mail shows them to the players
    and the director.
    """
    result = game.result
    if result is None:
        return None
    worth = place_points(result.ranking, state.settings.scoring)
    totals = dict(result.totals)
    holders = dict(result.holders)
    before, after = ratings_around(state, game)
    places = []
    place = 1
    for group in result.ranking:
        for seat in group:
            holder = holders[seat]
            who = state.name_of(holder)
            shown = seat if who == seat else f"{seat} ({who})"
            tie = " (shared)" if len(group) > 1 else ""
            if seat in result.unscored:  # its player dropped out: the robot's result is nobody's
                places.append(
                    f"{place}. {shown}{tie}: no points (dropped out, played by the robot), "
                    f"20.5 total {totals.get(seat, 0)}"
                )
                continue
            places.append(
                f"{place}. {shown}{tie}: {format_points(worth[seat])} point(s), "
                f"20.5 total {totals.get(seat, 0)}{_rating_moved(before, after, holder)}"
            )
        place += len(group)
    how = HOW.get(result.ended, result.ended)
    if result.ended == DIRECTOR and game.ended_by == OPERATOR:
        how = f"stopped by {directed_by(game.ended_by)}"
    return {"id": game.game, "how": how, "places": places}


def _rating_moved(before: Mapping[str, Rating], after: Mapping[str, Rating], player: str) -> str:
    """``, rating 3.3 (+3.3)``: the player's rating after the game and its change."""
    now = after.get(player)
    if now is None:
        return ""
    change = now.ordinal - before.get(player, Rating()).ordinal
    return f", rating {format_rating(now.ordinal)} ({format_rating(change, signed=True)})"


def standings_context(state: TournamentState, game: TournamentGame | None = None) -> dict[str, Any]:
    """What ``tournament.standings.txt.j2`` prints (after ``game`` finished, if given)."""
    scoring = (
        "per game, one point per player finished ahead of"
        if state.settings.scoring is Scoring.PLACES
        else "one point for a win"
    )
    return {
        "heading": "",
        "tournament": state.name,
        "final": state.finished,
        "game": game_summary(state, game) if game is not None else None,
        "rows": ranked(state),
        "scoring": scoring,
        "running": [g.game for g in state.unfinished],
        "waiting": [state.name_of(p) for p in state.pool()],
    }


def standings_subject(state: TournamentState, game: TournamentGame | None) -> str:
    if state.finished:
        return f"Tournament {state.name}: final standings"
    if game is not None:
        return f"Tournament {state.name}: {game.game} is over, the standings"
    return f"Tournament {state.name}: standings"


@letter("tournament.standings.txt.j2")
def standings(state: TournamentState, game: TournamentGame | None = None) -> str:
    """The standings of ``state`` (after ``game`` finished, if given): the text mailed and printed."""
    return render("tournament.standings.txt.j2", **standings_context(state, game))


def standings_mail(state: TournamentState, game: TournamentGame | None) -> Texts:
    """The standings as every player of the tournament is mailed them."""
    return Texts(standings_subject(state, game), standings(state, game))


@letter("tournament.notice.txt.j2")
def notice(heading: str, lines: Iterable[str]) -> Texts:
    """A tournament notice: ``heading`` (its subject too) and what it says."""
    return Texts(heading, render("tournament.notice.txt.j2", heading=heading, lines=list(lines)))


@letter("tournament.game-start.txt.j2")
def game_start(
    tournament: str,
    game: str,
    seat: str,
    seats: Sequence[Mapping[str, str]],
    settings: Sequence[str],
    ends_at: str,
) -> Texts:
    """To the holder of ``seat``: the tournament formed ``game`` (``seats``: seat and name)."""
    text = render(
        "tournament.game-start.txt.j2",
        tournament=tournament,
        game=game,
        seat=seat,
        seats=list(seats),
        settings=list(settings),
        ends_at=ends_at,
    )
    return Texts(f"Tournament {tournament}: your game {game}", text)


@letter("tournament.reply.txt.j2", "tournament.reply-private.txt.j2")
def reply(
    mail: str,
    message_id: str,
    results: Sequence[LineResult],
    others: Sequence[str] = (),
    others_why: str = "",
) -> Texts:
    """
    The answer to a mail's tournament lines: counts in the signed part (``mail`` names
    the mail by when it was read), each line and its result in the private part (it
    quotes the mail, so it is never signed); ``others``: lines not read, and why.
    """
    public = render(
        "tournament.reply.txt.j2",
        mail=mail,
        done=sum(r.outcome == "done" for r in results),
        refused=sum(r.outcome == "refused" for r in results),
        answered=sum(r.outcome == "answered" for r in results),
    )
    private = render(
        "tournament.reply-private.txt.j2",
        message_id=message_id,
        results=list(results),
        others=list(others),
        others_why=others_why,
    )
    return Texts("Re: your tournament lines", public, private)


def paused_lines() -> list[str]:
    """The notice that the director paused a game."""
    return ["No deadline runs until the game is resumed; orders are still carried out."]


def resumed_lines(paused_for: timedelta, ends_at: str, deadline: str) -> list[str]:
    """The notice that a game paused for ``paused_for`` runs again (``ends_at``: its
    time limit moved on, "" if it has none; ``deadline``: the one running now)."""
    lines = [f"The game was paused for {_span(paused_for)}."]
    if ends_at:
        lines.append(f"Its time limit is now reached at {ends_at}.")
    lines.append(f"Deadline: {deadline}.")
    return lines


def extended_lines(deadline: str | None) -> list[str]:
    """The notice of a deadline moved on by the director (None: none was running)."""
    if deadline is None:
        return ["No deadline is running in the game now: nothing was moved."]
    return [f"Deadline now: {deadline}."]


def _span(length: timedelta) -> str:
    hours = round(length.total_seconds() / 3600)
    return f"{hours} hour(s)" if hours < 48 else f"{hours // 24} day(s)"
