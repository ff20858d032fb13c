"""
The notices of seats kept when a player drops (issue 26): the robot takes a seat, the
robot gives it back to its player or to a standby.  Every player in the game is told,
each in his own words; only what all may know (who, why, the step reference).
"""

from __future__ import annotations

from moderator.letters.templates import letter, render
from moderator.letters.texts import Texts


@letter("player.seat-robot.txt.j2")
def robot_took(
    game: str,
    ref: str,
    who: str,
    viewer: str,
    *,
    missed: int,
    standby: bool,
    withdrew: bool = False,
    tournament: str | None = None,
    was_standby: bool = False,
) -> Texts:
    """The robot now plays ``who``'s seat, after ``missed`` deadlines in a row (or
    because he ``withdrew`` from the tournament); ``tournament``: the game's, whose
    waiting list he is taken off (he is told how to come back), and its standby list
    too if he ``was_standby``."""
    own = who == viewer
    text = render(
        "player.seat-robot.txt.j2",
        game=game, ref=ref, who=who, own=own, missed=missed, standby=standby,
        withdrew=withdrew, tournament=tournament, was_standby=was_standby,
    )
    whose = "Your seat" if own else f"{who}'s seat"
    return Texts(f"{whose} is played by the robot (ref {ref})", text)


@letter("player.seat-back.txt.j2")
def robot_gave_back(
    game: str,
    ref: str,
    who: str,
    viewer: str,
    *,
    standby: str | None = None,
    named_by: str = "the tournament director",
) -> Texts:
    """The robot gave ``who``'s seat back: to him, or to ``standby`` (``named_by`` chose
    him: the director, or the operator for him)."""
    own = viewer == who  # after a standby took it, the seat (by its name) is his
    text = render(
        "player.seat-back.txt.j2",
        game=game, ref=ref, who=who, own=own, standby=standby, named_by=named_by,
    )
    whose = "Your seat" if own else f"{who}'s seat"
    return Texts(f"{whose} is no longer the robot's (ref {ref})", text)


__all__ = ["robot_gave_back", "robot_took"]
