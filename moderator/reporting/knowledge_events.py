"""
What each event shows each viewer (``moderator.reporting.knowledge``'s handlers): one
function per kind of event that reveals, moves or hides characters, registered in
``HANDLERS``; an event without one that changes legions makes the changed legions
unknown (``changed_unseen``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from moderator.reporting.knowledge_facts import _Work
from moderator.rules import events as ev

Handler = Callable[[_Work, Any, bool], None]
HANDLERS: dict[type[ev.Event], Handler] = {}


def _on(cls: type[ev.Event]) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        HANDLERS[cls] = fn
        return fn

    return register


# -- what each event shows ----------------------------------------------------------------


def changed_unseen(work: _Work, event: ev.Event, seen: bool) -> None:
    work.forget_changed()


@_on(ev.GameCreated)
def _game_created(work: _Work, event: ev.GameCreated, seen: bool) -> None:
    """A new game: nothing is on the board yet."""


@_on(ev.LegionsPlaced)
def _legions_placed(work: _Work, event: ev.LegionsPlaced, seen: bool) -> None:
    """5.2, Wolff 4.1: every starting legion holds the same eight characters."""
    if not seen:
        work.forget_changed()
        return
    for marker, _owner, _land, contents in event.legions:
        work.heights[marker] = len(contents)
        work.reveal(marker, contents)


@_on(ev.PositionLoaded)
def _position_loaded(work: _Work, event: ev.PositionLoaded, seen: bool) -> None:
    """A restored game: only owners know their legions, and a battle's two are public."""
    if event.battle is not None and seen:
        for marker in (event.battle[1], event.battle[2]):
            work.heights[marker] = work.after.legions[marker].height
            work.reveal(marker, work.after.legions[marker].contents)  # 2.5.6.1


@_on(ev.SplitContents)
def _split_contents(work: _Work, event: ev.SplitContents, seen: bool) -> None:
    """4.3: the owner sees what went where; the others only the heights (``LegionSplit``)."""
    work.split(event.parent, event.child, event.moved if seen else None)


@_on(ev.LegionSplit)
def _legion_split(work: _Work, event: ev.LegionSplit, seen: bool) -> None:
    """The public half of a split: the heights, already applied with ``SplitContents``."""


@_on(ev.LegionMoved)
def _legion_moved(work: _Work, event: ev.LegionMoved, seen: bool) -> None:
    """8.1/8.2: a teleport shows the lord that allows it."""
    if seen and event.lord_shown is not None:
        work.learn(event.marker, (event.lord_shown,))


@_on(ev.LegionsRecombined)
def _recombined(work: _Work, event: ev.LegionsRecombined, seen: bool) -> None:
    """2.4, Wolff 4.7: the halves become one legion, holding what both held."""
    if not seen:
        work.forget_changed()
        return
    work.merge(event.marker, event.absorbed)


@_on(ev.CreatureMustered)
def _mustered(work: _Work, event: ev.CreatureMustered, seen: bool) -> None:
    """18.x (and 14.x for a reinforcement): the characters shown, and the new one."""
    if not seen:
        work.forget_changed()
        return
    work.learn(event.marker, event.shown)
    work.add(event.marker, event.creature)


@_on(ev.LegionRevealed)
def _revealed(work: _Work, event: ev.LegionRevealed, seen: bool) -> None:
    """2.5.1/2.5.2 (the look, to the two players), Wolff 9.3 and 2.5.6.1 (a battle, to all)."""
    if seen and event.marker in work.after.legions:
        work.reveal(event.marker, event.contents)


@_on(ev.LegionShown)
def _shown(work: _Work, event: ev.LegionShown, seen: bool) -> None:
    """Wolff 4.5: a legion shown by its owner, whole or in part, as a reveal or a muster shows."""
    if not seen or event.marker not in work.after.legions:
        return
    if event.whole:
        work.reveal(event.marker, event.characters)
    else:
        work.learn(event.marker, event.characters)


@_on(ev.MessageRelayed)
def _relayed(work: _Work, event: ev.MessageRelayed, seen: bool) -> None:
    """Words between players show nothing the moderator vouches for."""


@_on(ev.EngagementResolved)
def _resolved(work: _Work, event: ev.EngagementResolved, seen: bool) -> None:
    """Wolff 9.5: each legion's losses are public; a legion that lost all is gone (4.4)."""
    eng = work.before.engagement
    if not seen or eng is None:
        work.forget_changed()
        return
    sides = ((eng.attacker, event.attacker_losses), (eng.defender, event.defender_losses))
    for marker, losses in sides:
        for creature in losses:
            work.remove(marker, creature)


@_on(ev.AngelSummoned)
def _summoned(work: _Work, event: ev.AngelSummoned, seen: bool) -> None:
    """15.1: the angel summoned is shown; it leaves one legion for the other (Wolff 18.1)."""
    if not seen:
        work.forget_changed()
        return
    work.remove(event.source, event.lord)
    work.add(event.target, event.lord)


@_on(ev.AngelAcquired)
def _acquired(work: _Work, event: ev.AngelAcquired, seen: bool) -> None:
    """17.x: the angel or archangel taken joins the winning legion."""
    if not seen:
        work.forget_changed()
        return
    work.add(event.marker, event.lord)


@_on(ev.JoinUndone)
def _join_undone(work: _Work, event: ev.JoinUndone, seen: bool) -> None:
    """Wolff 15.1, 14.1: an angel that did not enter goes back; a reinforcement is returned."""
    if not seen:
        work.forget_changed()
        return
    work.remove(event.marker, event.creature)
    if event.source is not None:
        work.add(event.source, event.creature)


def _gone(work: _Work, legions: Iterable[tuple[str, Sequence[str]]]) -> None:
    for marker, contents in legions:
        work.reveal(marker, contents)
        for creature in contents:
            work.remove(marker, creature)


@_on(ev.PlayerEliminated)
def _eliminated(work: _Work, event: ev.PlayerEliminated, seen: bool) -> None:
    """19.4: the eliminated player's legions are revealed, then removed."""
    if not seen:
        work.forget_changed()
        return
    _gone(work, event.legions)


@_on(ev.PlayerWithdrew)
def _withdrew(work: _Work, event: ev.PlayerWithdrew, seen: bool) -> None:
    """20.4: the withdrawn player's legions are set aside with the slain."""
    if not seen:
        work.forget_changed()
        return
    _gone(work, event.legions)


@_on(ev.GameOver)
def _game_over(work: _Work, event: ev.GameOver, seen: bool) -> None:
    """19.0, Complete Sequence 3: the winner's legions are public."""
    if seen:
        for marker, contents in event.legions:
            work.reveal(marker, contents)


@_on(ev.GameScored)
def _game_scored(work: _Work, event: ev.GameScored, seen: bool) -> None:
    """20.5, Wolff 21.1: every remaining legion is revealed as it is counted."""
    if seen:
        for marker, _owner, contents, _value in event.legions:
            work.reveal(marker, contents)

