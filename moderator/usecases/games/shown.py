"""
What the pictures a player was last sent showed, and whether anything but his own
orders changed it since (issue 28, small mails).

A report carries the masterboard, or the battle's picture, when what it shows changed
since the last one the player was sent.  But a change that is only his own doing adds
nothing he does not know: he wrote the split, the moves, the musters, the maneuvers,
and the text of his answer tells what each did.  Such a change waits for the next
picture that shows another's play (its marks still show his lands), or one he asks
for (``report``).  His own doing is narrow on purpose: the kinds of event in
``OWN_DOING``, made while he was the player to act; anything else (a die that decided
something on the board, a legion moved for him at random under rulebook 21.2, a
standing order, another player's act) means the picture is sent.  Events that change
nothing a picture shows (``UNSEEN``) do not count either way.

A battle's picture is about where the characters stand: it goes again when one stands
elsewhere than the last one showed at another's hand (a maneuver, an entry, a die).  The
strikes, carries and deaths of a battle (``HITS_ONLY``) do not send it alone: the
report's table lists every character's hits and the slain, hex by hex, and the picture
he has still shows where each one stands.  ``reports`` sends it too at each maneuver step
he is asked to act in, the step a player plans from the board.

Pure: states and events in, a verdict out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from moderator.records import record
from moderator.reporting.visibility import is_bookkeeping, may_see
from moderator.rules import events as ev
from moderator.rules.legal import to_act
from moderator.rules.state import GameState

#: What a player's own orders make, no die and nothing hidden deciding what it shows.
OWN_DOING: tuple[type[ev.Event], ...] = (
    ev.LegionSplit,
    ev.SplitContents,
    ev.LegionMoved,
    ev.MoveUndone,
    ev.LegionsRecombined,
    ev.CreatureMustered,
    ev.FighterMoved,
    ev.ManeuverReset,
)
#: What changes nothing either picture shows (markers, heights, scores, fighters, hits).
UNSEEN: tuple[type[ev.Event], ...] = (
    ev.TurnStarted,
    ev.TurnEnded,
    ev.MovementRolled,
    ev.MovementEnded,
    ev.EngagementStarted,
    ev.LegionRevealed,
    ev.BattleStepBegan,
)
#: What changes only hits and lives on the battleland, never where a character stands:
#: the report's table of characters says it, hex by hex (a character left off the
#: battleland at its first maneuver never stood on it).
HITS_ONLY: tuple[type[ev.Event], ...] = (
    ev.StrikeRolled,
    ev.CarryAllocated,
    ev.DriftDamaged,
    ev.SlainRemoved,
    ev.FightersLeftOff,
    ev.ConcessionAttempted,
)

#: (event number, event, the game just before it), as ``notify`` reads the log.
Numbered = Sequence[tuple[int, ev.Event, GameState]]


@record
class Shown:
    """The game as the player's last masterboard and last battle picture showed it
    (None: none sent, or too long ago to look back), whether only his own orders
    changed the board since, and whether every character still stands where his last
    battle picture showed it but for his own maneuvers (hits and deaths aside)."""

    board: GameState | None = None
    board_own: bool = False
    battle: GameState | None = None
    battle_stood: bool = False


NOTHING_SHOWN = Shown()


def own_doing(
    events: Sequence[tuple[ev.Event, GameState]],
    viewer: str,
    unseen: tuple[type[ev.Event], ...] = UNSEEN,
) -> bool:
    """Whether every one of ``events`` (each with the game before it) that ``viewer`` may
    see is his own doing, or one of the ``unseen`` kinds that change nothing the picture
    shows.  One he may not see counts neither way (it changes nothing a picture shows):
    whether a picture comes must not tell him it happened."""
    return all(
        not may_see(event, viewer)
        or ev.is_aside(event)
        or is_bookkeeping(event)
        or isinstance(event, unseen)
        or (isinstance(event, OWN_DOING) and to_act(before) == viewer)
        for event, before in events
    )


def state_at(timeline: Numbered, version: int | None, now: GameState) -> GameState | None:
    """
    The game at ``version`` (the last picture a player was sent showed it), from a
    ``timeline`` that reaches back to it; None if he has been sent none, or the timeline
    does not reach back that far.
    """
    if version is None:
        return None
    if version >= now.version:
        return now
    return next((before for number, _, before in timeline if number == version + 1), None)


def shown(
    timeline: Numbered, board: int | None, battle: int | None, now: GameState, viewer: str
) -> Shown:
    """What ``viewer``'s last masterboard (at version ``board``) and battle picture (at
    ``battle``) showed, from the ``timeline`` since the older of the two."""

    def since(version: int | None, unseen: tuple[type[ev.Event], ...] = UNSEEN) -> bool:
        events = [(e, before) for n, e, before in timeline if version is not None and n > version]
        return version is not None and own_doing(events, viewer, unseen)

    return Shown(
        board=state_at(timeline, board, now),
        board_own=since(board),
        battle=state_at(timeline, battle, now),
        battle_stood=since(battle, UNSEEN + HITS_ONLY),
    )


def battle_changed(before: Mapping[str, Any] | None, after: Mapping[str, Any]) -> bool:
    """
    Whether the battle picture drawn from the public view ``after`` differs from the one
    drawn from ``before`` (None: none sent) in what a player plans with: the battle, and
    each character's hex, hits and fate.  A new step or battle turn alone does not
    change it (the text names them).
    """
    if before is None or before.get("battle") is None or after.get("battle") is None:
        return True
    return _fighting(before["battle"]) != _fighting(after["battle"])


def _fighting(battle: Mapping[str, Any]) -> tuple[object, ...]:
    keys = ("land", "attacker", "defender")
    characters = sorted(
        (str(c.get("legion")), str(c.get("type")), str(c.get("hex")), c.get("hits"), c.get("slain"))
        for c in battle.get("characters", ())
    )
    return tuple(battle.get(k) for k in keys) + tuple(characters)
