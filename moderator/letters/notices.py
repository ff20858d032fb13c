"""
The texts of the mails the service's clock writes: reminders before a deadline,
timeout notices (what the moderator did for a player who did not act in time, Wolff
20.4/21.0), absences declared, withdrawn and ended, the game's end date (Wolff 21.1)
and its result (rulebook 20.5), and the notices after an outage of the service; and to
the game master, a mail set aside that waits for him.

Each has a public part (signed when it is sent) that holds only what every player may
know and names no character of a legion (Wolff 4.5): who was to act, the order lines
given on his behalf that name none (refusals: withdraw, flee, concede, decline, the
lowest engagement, no carry-over; a robot's roll or move), moments and scores.  A line
that would name one (a robot's split or muster given at a timeout) is signed without
its characters, and whole in the private part of its own player's notice only (the
others learn what they may of it from their reports); the legions a result counted
are in its private part.  The events themselves reach each player
in his report.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from moderator.letters.moments import moment_line, span, step_name
from moderator.letters.templates import letter, render
from moderator.letters.texts import Texts
from moderator.orders.render import names_characters, without_characters
from moderator.rules import events as ev


@letter("player.reminder.txt.j2")
def reminder(
    game: str,
    ref: str,
    viewer: str,
    kind: str,
    due: datetime,
    now: datetime,
    time_zone: str,
    default: str | None,
) -> Texts:
    """A reminder to ``viewer``, the player to act, that his deadline comes near."""
    text = render(
        "player.reminder.txt.j2",
        game=game,
        ref=ref,
        viewer=viewer,
        step=step_name(kind),
        deadline=moment_line(due, time_zone),
        left=span(due - now),
        default=default,
    )
    return Texts(f"Reminder: your move is due {moment_line(due, time_zone)} (ref {ref})", text)


@letter("player.timeout.txt.j2", "player.timeout-private.txt.j2")
def timeout(
    game: str,
    ref: str,
    who: str,
    viewer: str,
    kind: str,
    due: datetime,
    orders: Sequence[str],
    *,
    actor: str | None,
    over: bool,
    next_deadline: str,
    time_zone: str,
    robot: bool = False,
) -> Texts:
    """What the moderator did for ``who`` when his deadline passed, as ``viewer`` is told
    (``robot``: the game keeps seats, and the robot gave the orders, issue 26)."""
    own = who == viewer
    naming = [line for line in orders if names_characters(line)]
    signed = [without_characters(line) if line in naming else line for line in orders]
    text = render(
        "player.timeout.txt.j2",
        game=game,
        ref=ref,
        who=who,
        own=own,
        step=step_name(kind),
        deadline=moment_line(due, time_zone),
        orders=signed,
        naming=len(naming) if own else 0,
        over=over,
        your_move=actor == viewer and not over,
        actor=actor,
        next_deadline=next_deadline,
        robot=robot,
    )
    private = None
    if naming and own:  # what his split moved is his alone, and never signed (Wolff 4.5)
        private = render(
            "player.timeout-private.txt.j2", game=game, orders=list(orders)
        )
    whose = "Your" if own else f"{who}'s"
    return Texts(f"{whose} deadline passed: the moderator acted (ref {ref})", text, private)


@letter("player.absence.txt.j2")
def absence(
    game: str,
    who: str,
    what: str,
    first: str,
    last: str,
    begins: datetime,
    ends: datetime,
    *,
    actor: str | None,
    deadline: str,
    time_zone: str,
) -> Texts:
    """``who``'s absence ``declared``, ``withdrawn``, ``cancelled`` (ended early) or ``ended``."""
    text = render(
        "player.absence.txt.j2",
        game=game,
        who=who,
        what=what,
        first=first,
        last=last,
        begins=moment_line(begins, time_zone),
        ends=moment_line(ends, time_zone),
        actor=actor,
        deadline=deadline,
    )
    subjects = {
        "declared": f"{who} will be away from {first} to {last}",
        "withdrawn": f"{who} will not be away after all",
    }
    return Texts(subjects.get(what, f"{who} is back"), text)


@letter("player.outage.txt.j2")
def outage(
    game: str,
    down_from: datetime,
    down_to: datetime,
    *,
    actor: str | None,
    deadline: str,
    time_zone: str,
) -> Texts:
    """To a game's players: the service was down, the deadline was extended."""
    text = render(
        "player.outage.txt.j2",
        game=game,
        down_from=moment_line(down_from, time_zone),
        down_to=moment_line(down_to, time_zone),
        length=span(down_to - down_from),
        actor=actor,
        deadline=deadline,
    )
    return Texts("The moderator was down: deadlines extended", text)


@letter("player.outage-summary.txt.j2")
def outage_summary(
    down_from: datetime, down_to: datetime, allowed: timedelta, games: Sequence[str]
) -> Texts:
    """To the moderator: how long the service was down and what was extended."""
    text = render(
        "player.outage-summary.txt.j2",
        down_from=moment_line(down_from),
        down_to=moment_line(down_to),
        length=span(down_to - down_from),
        allowed=span(allowed),
        games=list(games),
    )
    return Texts(f"Titan moderator: down for {span(down_to - down_from)}, deadlines extended", text)


@letter("player.time-called.txt.j2")
def time_called(
    game: str, ref: str, ends: datetime, called: ev.TimeCalled, time_zone: str
) -> Texts:
    """Wolff 21.1: the game's end date has come."""
    text = render(
        "player.time-called.txt.j2",
        game=game,
        ref=ref,
        ends=moment_line(ends, time_zone),
        last_player=called.last_player,
        last_turn=called.last_turn,
    )
    return Texts(f"The game's end date has come: last round {called.last_turn} (ref {ref})", text)


@letter("player.result.txt.j2", "player.result-private.txt.j2")
def result(game: str, ref: str, scored: ev.GameScored) -> Texts:
    """Rulebook 20.5/21.1: the totals of a game ended by its time limit."""
    rows = [
        {"player": player, "score": score, "value": value, "total": total}
        for player, score, value, total in sorted(scored.scores, key=lambda r: (-r[3], r[0]))
    ]
    legions = [
        f"{marker} ({owner}): {', '.join(contents) or 'empty'} = {value}"
        for marker, owner, contents, value in scored.legions
    ]
    text = render(
        "player.result.txt.j2",
        game=game,
        ref=ref,
        scores=rows,
        winners=list(scored.winners),
        legions=len(legions),
    )
    # what each counted legion held, every player saw: told, never signed (Wolff 4.5)
    private = render("player.result-private.txt.j2", game=game, legions=legions) if legions else None
    won = " and ".join(scored.winners) or "nobody"
    return Texts(
        f"The game is over: {won} {'wins' if len(scored.winners) == 1 else 'win'} (ref {ref})",
        text,
        private,
    )


@letter("gm.shunted.txt.j2")
def shunted(message_id: int, error: str) -> Texts:
    """To the game master: inbound message ``message_id`` failed with ``error`` and waits."""
    text = render("gm.shunted.txt.j2", message_id=message_id, error=error)
    return Texts(f"Message {message_id} was shunted", text)


__all__ = [
    "absence",
    "outage",
    "outage_summary",
    "reminder",
    "result",
    "shunted",
    "time_called",
    "timeout",
]
