"""
Seats the robot holds (issue 26): the robot plays them, and seats change hands.

- ``play_robots``: while the player to act (the rules core's one answer, ``to_act``) sits
  in a seat the robot holds, the competent robot (``moderator.robots``) gives its order,
  decided with the game's dice bound to the robot's own trigger (``audit.seal.ROBOT``)
  and sealed as that seat's order.  The robot sees only its seat's player view and what
  he knows for certain (``reporting.knowledge``), never the hidden truth; its randomness
  is a seed derived from the game's seed and the event count, so a replay decides the
  same.  With a delay (``GameRecord.robot_delay``) it only sets a ``ROBOT_TURN``
  deadline, and acts when the clock wakes it.  The runners call it after every change
  to a game (``runners.unit``), in the same unit of work; a player's order mail has the
  robots that follow it act first (``following``), so that one report round tells
  their orders with his.
- ``drop_seat``: a seat goes to the robot (its player missed deadlines in a row, or
  withdrew from the tournament); every player is told.
- ``take_back``: the seat's player took it back with a mail, or a standby took it by
  the director's line; every player is told.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta

from moderator.audit.seal import robot_trigger
from moderator.letters import seats as letters
from moderator.ports import (
    DeadlineChange,
    GameContext,
    Lookup,
    Outcome,
    OutgoingMail,
    Player,
    game_write,
)
from moderator.ports.deadlines import ROBOT_TURN
from moderator.records import record
from moderator.reporting.knowledge import Knowledge, knowledge_of
from moderator.robots.robot import order as robot_order
from moderator.robots.view import seat_view
from moderator.rules import commands as cmd
from moderator.rules import events as ev
from moderator.rules.decide import decide
from moderator.rules.evolve import replay
from moderator.rules.legal import to_act
from moderator.rules.state import GameState, Step
from moderator.schedule import reference, seats, timing
from moderator.schedule.record import GameRecord
from moderator.usecases.games import notify, standing
from moderator.usecases.games.caches import caches_of
from moderator.usecases.games.dice import dice_for, seal_order

#: The most orders the robots give in one unit of work (a whole game between robots is
#: a few thousand; the runner calls again while one is still to act, a bounded number
#: of times).
MAX_ORDERS = 3000


def robot_to_act(state: GameState, record: GameRecord) -> str | None:
    """The seat the robot holds that is to act now (None: a person, or nobody)."""
    if state.step is Step.OVER or record.paused is not None:
        return None
    actor = to_act(state)
    return actor if seats.held(record, actor) else None


def robot_seed(record: GameRecord, game_id: str, version: int) -> int:
    """
    The robot's random seed for a decision at event ``version``: an HMAC of the game's
    dice seed, so nobody without the seed foretells it and a replay decides the same.
    """
    key = (record.dice.seed or 0).to_bytes(32, "big") if record.dice.script is None else (
        bytes(record.dice.script)
    )
    digest = hmac.new(key, f"titan-robot|{game_id}|{version}".encode(), hashlib.sha256)
    return int.from_bytes(digest.digest()[:8], "big")


def robot_knowledge(game: GameContext, lookup: Lookup) -> Knowledge:
    """What every seat knows for certain after the game's stored events."""
    return caches_of(lookup).knowledge.knowledge_after(game, lookup, ())


def certain(knowledge: Knowledge, seat: str) -> dict[str, tuple[str, ...]]:
    """What ``seat``'s player knows for certain of every legion, by marker."""
    return {m: known.known for m, known in knowledge.legions(seat).items()}


def robot_decision(
    state: GameState, seat: str, known: Mapping[str, tuple[str, ...]], seed: int
) -> tuple[str, cmd.Command]:
    """
    The robot's order for ``seat`` (its line and command): from the seat's player view
    of ``state`` and what he knows for certain (``known``) alone, so the hidden contents
    of other players' legions cannot change it.
    """
    return robot_order(seat_view(state, seat, certain=known), random.Random(seed))


@record
class Played:
    """The robot's orders: their events (and the standing orders they let act), the game
    after them, and the lines given ("SEAT: LINE")."""

    events: tuple[ev.Event, ...]
    state: GameState
    record: GameRecord
    given: tuple[str, ...]


def robot_orders(
    game_id: str,
    state: GameState,
    record: GameRecord,
    knowledge: Knowledge,
    acting: Callable[[GameState, GameRecord], str | None],
) -> Played:
    """
    The robot's orders from ``state`` on, each for the seat ``acting`` names (until it
    names none, or ``MAX_ORDERS``); ``knowledge``: what every seat knows for certain at
    ``state``.  Each order has its own trigger (``audit.seal.robot_trigger``) for its
    dice and seal; the standing orders of the players to act after it act under it.
    """
    events: list[ev.Event] = []
    given: list[str] = []
    for _ in range(MAX_ORDERS):
        seat = acting(state, record)
        if seat is None:
            break
        line, command = robot_decision(
            state, seat, certain(knowledge, seat), robot_seed(record, game_id, state.version)
        )
        trigger = robot_trigger(seat, state.version + 1)
        dice = dice_for(record.dice, game_id, trigger)
        dice.at(state.version + 1)
        new = decide(state, command, dice)
        notes, after, record = seal_order(
            state, replay(new, state), dice, record, player=seat, order=line, events=new
        )
        record = record.but(dice=dice.record())
        carried = standing.carry_out(after, record, game_id, trigger)
        batch = [*new, *notes, *carried.events]
        knowledge = knowledge_of(batch, knowledge)
        events.extend(batch)
        state, record = carried.state, carried.record
        given.append(f"{seat}: {line}")
    return Played(tuple(events), state, record, tuple(given))


def following(
    game_id: str, state: GameState, record: GameRecord, knowledge: Callable[[], Knowledge]
) -> Played | None:
    """
    The robots' orders that follow a change at once (a seat the robot holds is to act
    in ``state`` and the game has no delay), for the use case that made the change to
    report them with its own in one round: the player whose order woke the robots gets
    one mail, not his answer and then their report.  None: no robot acts at once.
    ``knowledge`` gives what every seat knows at ``state``, asked only if a robot acts.
    """
    if record.robot_delay > 0 or robot_to_act(state, record) is None:
        return None
    return robot_orders(game_id, state, record, knowledge(), robot_to_act)


def play_robots(
    game_id: str, sender: str, lookup: Lookup, now: datetime, *, woken: bool = False
) -> Outcome:
    """
    The robots' orders while a seat they hold is to act, the reports that follow and the
    next deadline; nothing if no robot is to act.  ``woken``: the clock's ``ROBOT_TURN``
    deadline fell (a game with a delay acts only then).  The game's record is read
    first: a game where the robot holds no seat (most games) is not loaded again after
    every mail that changed it.
    """
    record = lookup.record(game_id)
    if record is None or not record.robots:
        return Outcome()
    game = lookup.game(game_id)
    if game is None:
        return Outcome()
    actor = robot_to_act(game.state, game.record)
    if actor is None:
        return Outcome()
    if game.record.robot_delay > 0 and not woken:
        return _delayed(game, actor, lookup, now)
    played = robot_orders(
        game_id, game.state, game.record, robot_knowledge(game, lookup), robot_to_act
    )
    events, state, record, given = played.events, played.state, played.record, played.given
    settled = notify.settle(sender, game, lookup, events, state, record, now)
    changed = game_write(
        game_id, game.seq, events, record=settled.record, state=state, deadlines=settled.deadlines
    )
    line = f"{game_id}: the robot gave {len(given)} orders ({'; '.join(given[-3:])})"
    return Outcome(games=(changed,), mails=tuple(settled.mails), log=(line,))


def acting_for(sender: str) -> Callable[[str, Lookup, datetime], Outcome]:
    """``play_robots`` for games whose mail comes from ``sender`` (what a runner calls)."""
    return lambda game_id, lookup, now: play_robots(game_id, sender, lookup, now)


def _delayed(game: GameContext, seat: str, lookup: Lookup, now: datetime) -> Outcome:
    """The robot acts after the game's delay: a ``ROBOT_TURN`` deadline, set once a step."""
    key = timing.step_key(game.state)
    waiting = any(
        row.kind == ROBOT_TURN and row.step == key
        for row in lookup.open_deadlines()
        if row.game_id == game.game_id
    )
    if waiting:
        return Outcome()
    due = now + timedelta(minutes=game.record.robot_delay)
    change = DeadlineChange(ROBOT_TURN, due, seat, key)
    return Outcome(games=(game_write(game.game_id, game.seq, deadlines=(change,)),))


def _everyone(lookup: Lookup, game_id: str, state: GameState) -> list[tuple[str, Player]]:
    """The game's seated players still in it, by seat name (robots' own seats have none)."""
    seated = lookup.seated_players(game_id)
    return [(seat, p) for seat, p in sorted(seated.items()) if state.has_player(seat)]


def drop_seat(
    sender: str,
    lookup: Lookup,
    game_id: str,
    state: GameState,
    record: GameRecord,
    seat: str,
    *,
    withdrew: bool = False,
) -> tuple[GameRecord, list[OutgoingMail]]:
    """
    ``seat`` goes to the robot (its player missed deadlines in a row, or ``withdrew``
    from the tournament): the record that says so, and every player told (and, when a
    standby is to take it, the tournament's director).
    """
    missed = record.missed.get(seat, 0)
    was_standby = not withdrew and _on_standby_list(lookup, game_id, record, seat)
    record = seats.taken(record, seat)
    standby = record.robots.get(seat) == seats.STANDBY
    mails = [
        notify.mail_to(
            sender,
            player,
            notify.NOTICE,
            letters.robot_took(
                game_id,
                _ref(game_id, state, viewer),
                seat,
                viewer,
                missed=missed,
                standby=standby,
                withdrew=withdrew,
                tournament=record.tournament or None,
                was_standby=was_standby,
            ),
            game_id,
            {},
        )
        for viewer, player in [*_everyone(lookup, game_id, state), *_director(lookup, record, seat)]
    ]
    return record, mails


def _on_standby_list(lookup: Lookup, game_id: str, record: GameRecord, seat: str) -> bool:
    """Whether the seat's player is on his tournament's standby list: dropping out takes
    him off it (the tournament decides that), and his notice says how to go back on it."""
    loaded = lookup.tournament(record.tournament) if record.tournament else None
    holder = next((a for a, s in lookup.seats(game_id).items() if s == seat), None)
    if loaded is None or holder is None:
        return False
    entrant = loaded.state.entrant(holder)
    return entrant is not None and entrant.standby


def _ref(game_id: str, state: GameState, viewer: str) -> str:
    """The reference ``viewer`` is given (the director, with no seat: the public one)."""
    return str(reference.current(game_id, state, viewer or None))


def _director(lookup: Lookup, record: GameRecord, seat: str) -> list[tuple[str, Player]]:
    """The tournament's director, told of a seat kept for a standby (he gives it to one)."""
    address = lookup.director(record.tournament) if record.tournament else None
    found = lookup.player(address) if address else None
    return [("", found)] if found is not None and record.robots.get(seat) == seats.STANDBY else []


def take_back(
    sender: str,
    lookup: Lookup,
    game_id: str,
    state: GameState,
    record: GameRecord,
    seat: str,
    *,
    standby: str | None = None,
    named_by: str = "the tournament director",
    also: Sequence[tuple[str, Player]] = (),
) -> tuple[GameRecord, list[OutgoingMail]]:
    """
    The robot gives ``seat`` back (to its player, or to ``standby``, whom ``named_by``
    chose): the record and every player told (``also``: players to tell beside those
    seated now, e.g. the seat's new holder before the store has him).
    """
    if not seats.held(record, seat) or seats.robot_seat(record, seat):
        return record, []
    record = seats.given_back(record, seat)
    told = dict(_everyone(lookup, game_id, state))
    told.update(dict(also))
    mails = [
        notify.mail_to(
            sender,
            player,
            notify.NOTICE,
            letters.robot_gave_back(
                game_id, _ref(game_id, state, viewer), seat, viewer, standby=standby,
                named_by=named_by,
            ),
            game_id,
            {},
        )
        for viewer, player in sorted(told.items())
    ]
    return record, mails


__all__ = [
    "MAX_ORDERS",
    "Played",
    "acting_for",
    "certain",
    "drop_seat",
    "play_robots",
    "robot_decision",
    "robot_knowledge",
    "robot_orders",
    "robot_seed",
    "robot_to_act",
    "take_back",
]
