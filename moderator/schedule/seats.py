"""
Seats kept when a player drops (issue 26): the policy, pure.

A game's record says what happens to a seat whose player missed ``keep_after``
deadlines in a row (2 by default) or left:

- ``defaults``: nothing more; every missed deadline is met by Wolff 20.4's refusal
  defaults, as it always was (a seat that only loses); a player who withdrew has left
  the seat (``GameRecord.left``): the defaults play it and he is no longer reminded or
  told of his own timeouts, until he acts in it again or the director hands it over;
- ``robot``: the robot holds the seat and plays it as its player could (his view
  only); the player takes it back with any authenticated mail to the game;
- ``standby``: the same, but the robot holds the seat until a standby takes it (the
  tournament director's ``replace`` line); the player may still take it back first.

A seat the robot holds is named in ``GameRecord.robots`` with why: ``KEPT`` (its
player dropped, under ``robot``), ``STANDBY`` (dropped, under ``standby``) or ``OWN``
(a robot's seat from the start, ``game new --robots``: nobody takes it back).
"""

from __future__ import annotations

from moderator.schedule.record import GameRecord

#: The settings of ``seat_keeping``.
DEFAULTS, ROBOT, STANDBY_KEEPING = "defaults", "robot", "standby"
KEEPINGS = (DEFAULTS, ROBOT, STANDBY_KEEPING)
#: Why the robot holds a seat (``GameRecord.robots``).
KEPT, STANDBY, OWN = "kept", "standby", "own"
#: The deadlines missed in a row after which a seat is kept, unless set.
KEEP_AFTER = 2


def check_keeping(keeping: str, keep_after: int = KEEP_AFTER, robot_delay: int = 0) -> None:
    """
    Raises:
        ValueError: a setting the moderator cannot apply, saying what it may be.
    """
    if keeping not in KEEPINGS:
        raise ValueError(f"seat keeping {keeping!r}: write one of {', '.join(KEEPINGS)}")
    if keep_after < 1:
        raise ValueError(f"a seat is kept after 1 missed deadline or more, not {keep_after}")
    if robot_delay < 0:
        raise ValueError(f"a robot's delay is 0 minutes or more, not {robot_delay}")


def held(record: GameRecord, seat: str | None) -> bool:
    """Whether the robot holds ``seat``."""
    return seat is not None and seat in record.robots


def robot_seat(record: GameRecord, seat: str) -> bool:
    """Whether ``seat`` is a robot's own (no player ever takes it back)."""
    return record.robots.get(seat) == OWN


def missed(record: GameRecord, seat: str) -> GameRecord:
    """The record after ``seat``'s player missed one more deadline in a row."""
    return record.but(missed={**record.missed, seat: record.missed.get(seat, 0) + 1})


def met(record: GameRecord, seat: str) -> GameRecord:
    """The record after a mail of ``seat``'s player (or a new holder taking it): his run of
    missed deadlines ends, and a seat he had left is his again."""
    if seat in record.left:
        record = record.but(left=tuple(s for s in record.left if s != seat))
    if seat not in record.missed:
        return record
    return record.but(missed={k: v for k, v in record.missed.items() if k != seat})


def handed(record: GameRecord, seat: str) -> GameRecord:
    """
    The record once ``seat`` is handed to another player (the operator's or a director's
    ``replace``, a standby taking it): as ``met``, and the old holder's standing orders
    dropped.  They were his (Wolff 9.4: private to the moderator): left in place they
    would act in the new holder's name, a last order against his own seat (concede
    whenever attacked), and the report the new holder is handed would show them to him.
    His absences and choices go too (``_his_choices_gone``); the caller closes their
    deadline rows (``usecases.games.handover``).
    """
    record = met(record, seat)
    if seat in record.standing:
        record = record.but(standing={k: v for k, v in record.standing.items() if k != seat})
    return _his_choices_gone(record, seat)


def _his_choices_gone(record: GameRecord, seat: str) -> GameRecord:
    """
    The old holder's absences and his ``notify``/``pictures`` choices dropped: they were
    about him (his holidays, his phone), not the seat.  Kept, his absence would move the
    new holder's deadlines and count against his allowance, and a digest hour the new
    holder never chose would hold back his reports.
    """
    if any(a.player == seat for a in record.absences):
        record = record.but(absences=tuple(a for a in record.absences if a.player != seat))
    if seat in record.notify:
        record = record.but(notify={k: v for k, v in record.notify.items() if k != seat})
    if seat in record.pictures:
        record = record.but(pictures={k: v for k, v in record.pictures.items() if k != seat})
    return record


def leave(record: GameRecord, seat: str) -> GameRecord:
    """The record after ``seat``'s player withdrew in a game that keeps no seats
    (``defaults``): the defaults go on playing it, and nobody reminds a player who left."""
    return record if seat in record.left else record.but(left=(*record.left, seat))


def quiet(record: GameRecord, seat: str | None) -> bool:
    """Whether ``seat``'s player left it (no reminders, no notice of his own timeouts)."""
    return seat is not None and seat in record.left


def drops(record: GameRecord, seat: str) -> bool:
    """Whether ``seat`` goes to the robot now (its player missed enough in a row)."""
    return (
        record.seat_keeping != DEFAULTS
        and not held(record, seat)
        and record.missed.get(seat, 0) >= record.keep_after
    )


def taken(record: GameRecord, seat: str) -> GameRecord:
    """The record with ``seat`` held by the robot, as the game's setting says."""
    why = STANDBY if record.seat_keeping == STANDBY_KEEPING else KEPT
    return record.but(robots={**record.robots, seat: why})


def given_back(record: GameRecord, seat: str) -> GameRecord:
    """The record with ``seat`` no longer the robot's (its run of misses forgotten)."""
    robots = {k: v for k, v in record.robots.items() if k != seat}
    return met(record.but(robots=robots), seat)


__all__ = [
    "DEFAULTS",
    "KEEPINGS",
    "KEEP_AFTER",
    "KEPT",
    "OWN",
    "ROBOT",
    "STANDBY",
    "STANDBY_KEEPING",
    "check_keeping",
    "drops",
    "given_back",
    "handed",
    "held",
    "leave",
    "met",
    "missed",
    "quiet",
    "robot_seat",
    "taken",
]
