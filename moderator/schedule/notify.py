"""
How each player wants to hear of the others' play: the ``notify`` choice and the rule
that says, after a change, whether he is mailed now or later.

A report always covers everything he may see since his last one, so a report held back
is never lost: the next one tells the net result (etiquette 16).  The choices:

``all``
    a report after every change he may see (the first releases' behaviour);
``turn`` (the default)
    a report when the game is set up and when it begins (the last colour chosen); when
    he must act; when a legion of his is attacked,
    and in a battle he fights when it starts, when each side's battle turn begins and
    when it ends; when a player's turn ends (its net result), a player leaves the game
    or the end date is called; when the game ends; and when something is shown to him
    alone;
``digest HH:MM``
    a report when the game is set up and when it begins, when he must act, when the
    game ends or he leaves it, and once a day at the hour he names (his own time zone)
    if anything happened since his last one.

A player out of the game (eliminated, or withdrawn) gets the report that tells him so
and the one that ends the game, and no other unless he chose ``all``
(``hears_while_out``).

Deadlines, reminders and other notices are not reports: they are never held back.
Pure: no clock, no store.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from moderator.records import record
from moderator.rules import events as ev
from moderator.rules.state import GameState, Step

ALL, TURN, DIGEST = "all", "turn", "digest"
DEFAULT = TURN
_LINE = re.compile(r"^\s*notify\b\s*(?P<rest>.*?)\s*$", re.IGNORECASE)
_DIGEST = re.compile(r"^digest\s+(?:at\s+)?(?P<h>\d{1,2})(?::(?P<m>\d{2}))?$", re.IGNORECASE)
USAGE = "write 'notify all', 'notify turn' or 'notify digest 18:00' (your time zone)"


@record
class Choice:
    """A player's notification choice: ``mode``, and for a digest its local hour."""

    mode: str
    at: time | None = None

    def __str__(self) -> str:
        return f"{DIGEST} {self.at:%H:%M}" if self.mode == DIGEST and self.at else self.mode

    def describe(self) -> str:
        """What the player will get, in a sentence."""
        if self.mode == ALL:
            return "You will get a report after every change you may see."
        if self.mode == DIGEST and self.at is not None:
            return (
                f"You will get a report when you must act, and one digest a day at "
                f"{self.at:%H:%M} your time of what happened since your last report."
            )
        return (
            "You will get a report when you must act, when a legion of yours is attacked "
            "(and as a battle you fight goes from one battle turn to the next), and when "
            "a player's turn ends."
        )


def is_notify(line: str) -> bool:
    """Whether ``line`` is a ``notify`` line (valid or not)."""
    return _LINE.match(line) is not None


def parse(line: str) -> Choice:
    """
    The choice a ``notify`` line makes.

    Raises:
        ValueError: a player-readable reason, with what to write instead.
    """
    found = _LINE.match(line)
    rest = found.group("rest").lower() if found else ""
    if rest in (ALL, TURN):
        return Choice(rest)
    digest = _DIGEST.match(rest)
    if digest:
        hour, minute = int(digest.group("h")), int(digest.group("m") or 0)
        if hour < 24 and minute < 60:
            return Choice(DIGEST, time(hour, minute))
    raise ValueError(f"'{line.strip()}' is not a notification choice: {USAGE}")


def choice_of(stored: str | None) -> Choice:
    """A stored choice (``str(Choice)``), or the default for none or a bad one."""
    if not stored:
        return Choice(DEFAULT)
    try:
        return parse(f"notify {stored}")
    except ValueError:
        return Choice(DEFAULT)


def wants_report(
    choice: Choice,
    seat: str,
    new: Sequence[ev.Event],
    before: GameState,
    after: GameState,
    actor: str | None,
) -> bool:
    """
    Whether ``seat`` is mailed a report now, after ``new`` events (which he may see
    some of) led from ``before`` to ``after`` and ``actor`` is to act.
    """
    if choice.mode == ALL or seat == actor:
        return True
    if any(_ends_for(event, seat) for event in new) or _begins(before, after):
        return True
    if choice.mode == DIGEST:
        return False
    if any(isinstance(event, _TOLD_AT_ONCE) for event in new):
        return True
    if any(event.visible_to is not None and seat in event.visible_to for event in new):
        return True  # shown to him alone (or to a few): it concerns him
    if _fights(before, seat) or _fights(after, seat):
        return any(_marks_his_fight(event) for event in new)
    return False


#: In an engagement he fights, what a ``turn`` player is mailed for though not to act:
#: its start (he is attacked), the battle's start, each side's battle turn beginning
#: (its maneuver), and the end; the strikes between are told in the next report.
_FIGHT_MARKS = (
    ev.EngagementStarted,
    ev.BattleStarted,
    ev.BattleEnded,
    ev.EngagementResolved,
    ev.EngagementEnded,
)


def _marks_his_fight(event: ev.Event) -> bool:
    if isinstance(event, ev.BattleStepBegan):
        return event.step == "maneuver"
    return isinstance(event, _FIGHT_MARKS)


#: What a ``turn`` player hears of at once: a turn's end (its net result), a player
#: leaving the game, the end date called (Wolff 21.1).
_TOLD_AT_ONCE = (ev.TurnEnded, ev.PlayerEliminated, ev.PlayerWithdrew, ev.TimeCalled)


def _ends_for(event: ev.Event, seat: str) -> bool:
    """The game's start or end, or ``seat`` leaving it: always told at once."""
    if isinstance(event, ev.GameCreated | ev.GameOver | ev.GameScored):
        return True
    return isinstance(event, ev.PlayerEliminated | ev.PlayerWithdrew) and event.player == seat


def _begins(before: GameState, after: GameState) -> bool:
    """Whether the last colour was chosen: the game has begun (1.4), everybody is told."""
    return before.step is Step.COLOUR and after.step not in (Step.COLOUR, Step.OVER)


def hears_while_out(choice: Choice, seat: str, new: Sequence[ev.Event]) -> bool:
    """
    Whether ``seat``, out of the game (eliminated or withdrawn), is mailed a report of
    ``new``: the mail that tells him he is out and the game's end, and every change
    only if he asked for it (``notify all``).  What he chose not to hear is not kept
    for him: his next report begins where the game is then.
    """
    return choice.mode == ALL or any(_ends_for(event, seat) for event in new)


def _fights(state: GameState, seat: str) -> bool:
    """Whether ``seat`` is in the engagement (or battle) on now."""
    eng = state.engagement
    return eng is not None and seat in (eng.attacker_player, eng.defender_player)


def next_digest(choice: Choice, now: datetime, time_zone: str) -> datetime | None:
    """When ``choice``'s next digest is due after ``now`` (None: not a digest)."""
    if choice.mode != DIGEST or choice.at is None:
        return None
    try:
        zone = ZoneInfo(time_zone)
    except (ValueError, ZoneInfoNotFoundError):
        zone = ZoneInfo("UTC")
    local = now.astimezone(zone)
    due = datetime.combine(local.date(), choice.at, tzinfo=zone)
    if due <= local:
        due = datetime.combine(local.date() + timedelta(days=1), choice.at, tzinfo=zone)
    return due.astimezone(now.tzinfo)
