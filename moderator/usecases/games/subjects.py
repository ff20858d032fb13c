"""
The subject of a report: what the mail is, read before it is opened (issue 24, item 6).

A report is mailed for one reason among a few, and its subject names it: the game is
over; the game has begun (the last colour chosen); you are out; it is your move (once
per step: a later report in the same step says what it brings instead); a message or a
legion shown to you by another player (Wolff 4.5); the daily digest; or, for a report
that only tells the others' play, whose move it is.  The game's tag and the step
reference are added by the caller.  Pure.
"""

from __future__ import annotations

from collections.abc import Sequence

from moderator.reporting.visibility import is_bookkeeping, may_see
from moderator.rules import events as ev
from moderator.rules.legal import to_act
from moderator.rules.state import GameState, Step
from moderator.schedule import timing

#: (event, the game just before it): the events a report covers.
Timeline = Sequence[tuple[ev.Event, GameState]]


def headline(
    state: GameState,
    viewer: str,
    timeline: Timeline,
    *,
    news_after: int | None = None,
    digest: bool = False,
    answering: bool = False,
) -> str:
    """
    The subject of ``viewer``'s report of ``state``, which covers ``timeline`` (the
    events since his last report).  ``news_after``: the events after this version are
    what the report is sent for (None: all of them); ``digest``: it is his daily
    digest; ``answering``: it goes in the answer to his own mail, which always says
    when it is his move.
    """
    last = timeline[0][1] if timeline else state  # the game at his last report
    news = [
        (event, before)
        for event, before in timeline
        if news_after is None or before.version >= news_after
    ]
    aside = aside_words(news, viewer)
    actor = to_act(state)
    your_move = actor == viewer and state.step is not Step.OVER
    where = f"turn {state.turn}, {state.step.value} step"
    told = not answering and _told_before(last, state, viewer)
    if state.step is Step.OVER:
        head = "The game is over"
    elif last.step is Step.COLOUR and state.step is not Step.COLOUR:
        head = f"The game has begun: {'your move' if your_move else f'{actor} to act'}, {where}"
    elif any(_out(event, viewer) for event, _ in news):
        head = f"You are out of the game: {where}, {actor} to act"
    elif your_move and not told:
        head = f"Your move: {where}"
    elif aside:
        return aside
    elif your_move:
        head = f"Still your move: {where}"
    else:
        head = f"{where[:1].upper()}{where[1:]}, {actor} to act"
    if aside:
        head = f"{head}; {aside[:1].lower()}{aside[1:]}"
    return f"Daily digest: {head[:1].lower()}{head[1:]}" if digest else head


def aside_words(news: Timeline, viewer: str) -> str:
    """
    What other players showed or said to ``viewer`` among ``news`` (Wolff 4.5), as a
    subject says it: ``Message from Bob``, ``A legion shown by Cy``, or both; empty if
    nothing.
    """
    told: dict[type[ev.Event], list[str]] = {ev.MessageRelayed: [], ev.LegionShown: []}
    for event, _ in news:
        author = ev.author(event)
        if (
            isinstance(event, (ev.MessageRelayed, ev.LegionShown))
            and author is not None
            and author != viewer
            and may_see(event, viewer)
            and not is_bookkeeping(event)
            and author not in told[type(event)]
        ):
            told[type(event)].append(author)
    said, shown = told[ev.MessageRelayed], told[ev.LegionShown]
    parts = []
    if said:
        parts.append(f"{'Message' if len(said) == 1 else 'Messages'} from {_names(said)}")
    if shown:
        which = "A legion" if len(shown) == 1 else "Legions"
        parts.append(f"{which} shown by {_names(shown)}")
    if len(parts) == 2:
        parts[1] = parts[1][:1].lower() + parts[1][1:]
    return ", ".join(parts)


def _names(names: Sequence[str]) -> str:
    ordered = sorted(names)
    return ordered[0] if len(ordered) == 1 else f"{', '.join(ordered[:-1])} and {ordered[-1]}"


def _told_before(last: GameState, state: GameState, viewer: str) -> bool:
    """
    Whether ``viewer``'s last report (of ``last``) already told him it was his move in
    the step the game waits on now: the same player, kind of step and turn as the
    deadline counts them (``timing.step_key``).
    """
    return (
        to_act(last) == viewer
        and last.step is not Step.OVER
        and timing.step_key(last) == timing.step_key(state)
    )


def _out(event: ev.Event, viewer: str) -> bool:
    """Whether ``event`` takes ``viewer`` out of the game."""
    return isinstance(event, (ev.PlayerEliminated, ev.PlayerWithdrew)) and event.player == viewer
