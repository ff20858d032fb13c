"""
Starting a game played by mail: players who signed on are seated, the game is set up,
and each player is mailed his first report.

The moderator does this with ``titan-moderator game new``; a tournament does it when
it forms a game.  Setting up rolls for the towers and the first player (1.1-1.6); the
first report tells each player his tower and who picks a colour first.
"""

from __future__ import annotations

from datetime import datetime

from moderator.ports import Lookup, Outcome, game_write
from moderator.ports.errors import GameNotFoundError
from moderator.records import record
from moderator.rules.variant import STANDARD
from moderator.schedule import pictures as pictures_choice
from moderator.schedule import seats
from moderator.schedule.record import GameRecord
from moderator.schedule.timing import TimeLimits
from moderator.usecases.games import notify
from moderator.usecases.games.errors import GameError
from moderator.usecases.games.planning import plan_game


class StartError(ValueError):
    """The game cannot be started as asked; says why."""


@record
class NewGame:
    """
    A game by mail for the players registered with ``addresses`` (2 to 6, in seat
    order), mailed from ``sender``.  ``time_limits`` gives the game deadlines (Wolff
    21.0; the first report shows the first one) and ``ends_at`` an end date (Wolff 21.1);
    without them it has neither.  The dice get a secret seed of their own; ``seed`` is
    taken only with ``insecure_seed`` (a test or a demo that must replay: every report
    then says the dice are not secret, ``plan_game``).  ``seat_keeping``,
    ``keep_after`` and ``robot_delay``: what happens to a seat whose player drops
    (``schedule.seats``); ``robots``: seats the robot plays from the start (names chosen
    among ``ROBOT_NAMES``, colours chosen in play like a player's).  ``pictures``: every
    player's ``pictures`` choice from his first report on, as his own ``pictures`` line
    would set it (``schedule.pictures``; None leaves each on the default).
    """

    game_id: str
    addresses: tuple[str, ...]
    sender: str
    seed: int | None = None
    insecure_seed: bool = False
    allow_secrets: bool = False
    time_limits: TimeLimits | None = None
    ends_at: datetime | None = None
    #: the game's variant (docs/variants.md): TITANplus, Badlands...
    variant: str = STANDARD
    seat_keeping: str = seats.DEFAULTS
    keep_after: int = seats.KEEP_AFTER
    robot_delay: int = 0
    robots: int = 0
    pictures: str | None = None


#: The names robots sit under (the first not taken by a player), Titans all.
ROBOT_NAMES = ("Atlas", "Crius", "Hyperion", "Iapetus", "Koios", "Oceanus")


def robot_names(count: int, taken: list[str]) -> list[str]:
    """``count`` robots' names, none a player's (compared without case)."""
    free = [n for n in ROBOT_NAMES if n.lower() not in {t.lower() for t in taken}]
    return free[:count]


def start_game(ask: NewGame, lookup: Lookup, now: datetime) -> Outcome:
    """
    The game created, its players seated and each one's first report: one outcome, so
    that all of it is written or none (its ``GameWrite`` holds the game's first state).

    Raises:
        StartError: an address is not registered, two players share a name, the
            game exists, or a seed was given without ``insecure_seed``.
    """
    addresses = ask.addresses
    if not 2 <= len(addresses) + ask.robots <= 6 or not addresses:
        raise StartError(
            f"a game of Titan has 2 to 6 players, one of them at least a person, not "
            f"{len(addresses)} and {ask.robots} robots"
        )
    try:
        seats.check_keeping(ask.seat_keeping, ask.keep_after, ask.robot_delay)
        if ask.pictures is not None:
            pictures_choice.parse(f"pictures {ask.pictures}")
    except ValueError as exc:
        raise StartError(str(exc)) from exc
    found = [lookup.player(address) for address in addresses]
    if lookup.record(ask.game_id) is not None:
        raise StartError(f"there is already a game {ask.game_id!r}")
    missing = [a for a, p in zip(addresses, found) if p is None]
    if missing:
        raise StartError(
            f"not signed on: {', '.join(missing)} (a player signs on by mail first)"
        )
    seated = [p for p in found if p is not None]
    names = [p.name for p in seated]
    # names that differ only in case or spacing read as one in reports, and the orders
    # that name players (show, tell) could not tell them apart
    if len({" ".join(n.split()).casefold() for n in names}) != len(names):
        raise StartError(f"two players have the same name in {names}: one must sign on anew")
    robots = robot_names(ask.robots, names)
    taken = tuple((p.name, p.address) for p in seated)
    try:
        planned, state = plan_game(
            ask.game_id, [*names, *robots], ask.seed, None, None, now, ask.time_limits,
            ask.ends_at, taken, bound=True, insecure_seed=ask.insecure_seed, variant=ask.variant,
        )
    except GameError as exc:
        raise StartError(str(exc)) from exc
    base = (planned.record or GameRecord()).but(
        allow_secrets=ask.allow_secrets,
        seat_keeping=ask.seat_keeping,
        keep_after=ask.keep_after,
        robot_delay=ask.robot_delay,
        robots=dict.fromkeys(robots, seats.OWN),
        pictures={} if ask.pictures is None else dict.fromkeys(names, ask.pictures),
    )
    record, mails = notify.first_reports(
        ask.sender, ask.game_id, {p.name: p for p in seated}, planned.events, state, base
    )
    return Outcome(games=(planned.but(record=record),), mails=tuple(mails))


@record
class Relay:
    """The game master's ask: players may pass messages in ``game_id`` (``on``) or not."""

    game_id: str
    on: bool


def set_relay(ask: Relay, lookup: Lookup, now: datetime) -> Outcome:
    """
    The game master lets players pass messages through the moderator in the game
    (Wolff 4.5), or stops it, at ``now``; the game's record keeps it.  Nothing if it is
    so already.

    Raises:
        GameNotFoundError: there is no such game.
    """
    game = lookup.game(ask.game_id)
    if game is None:
        raise GameNotFoundError(ask.game_id)
    if game.record.relay == ask.on:
        return Outcome()
    record = game.record.but(relay=ask.on)
    said = "may" if ask.on else "may no longer"
    line = f"{ask.game_id}: players {said} pass messages, from {now.isoformat()}"
    return Outcome(games=(game_write(ask.game_id, game.seq, record=record),), log=(line,))


__all__ = ["ROBOT_NAMES", "NewGame", "Relay", "StartError", "robot_names", "set_relay", "start_game"]
