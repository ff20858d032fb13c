"""
Dice bound to the mail that asked for them (Wolff 1.3: no die is rolled in advance):
``bound_dice`` is ``bound_die`` at each place, ``BoundDice`` rolls exactly those, and
every ``order-sealed`` note of a game names exactly the dice the events before it hold,
recomputed from the seed.  The dice's uniformity is tested in
tests/service/test_fair_dice.py.
"""

from __future__ import annotations

import hashlib

import pytest

from moderator.audit.dice import bound_dice, bound_die, seed_bytes, seed_hash
from moderator.audit.seal import OrderKey, seal_mac
from moderator.rules import events as ev
from moderator.rules import setup
from moderator.rules.decide import advance
from moderator.rules.evolve import replay
from moderator.schedule.record import GameRecord
from moderator.usecases.games.dice import BoundDice, CountingDice, seal_order, sealed_start

from .conftest import GAME, Played

SEED = 0x5EED_0F_7174_4E_D1CE
MAIL = hashlib.sha256(b"a mail").hexdigest()


def dice_of(event: ev.Event) -> tuple[int, ...]:
    """The dice an event records (written here again, not taken from verify)."""
    if isinstance(event, ev.TowersRolled):
        return tuple(value for _, value in event.rolls)
    if isinstance(event, ev.MovementRolled):
        return (event.roll,)
    if isinstance(event, ev.LegionMoved):
        return () if event.entry_roll is None else (event.entry_roll,)
    if isinstance(event, ev.StrikeRolled):
        return tuple(event.rolls)
    return ()


@pytest.mark.parametrize("trigger", ["start", MAIL, "timeout:42:2026-05-03T18:00:00+00:00"])
@pytest.mark.parametrize("first", [1, 17, 4_000])
def test_wolff_1_3_bound_dice_are_the_bound_die_of_each_place(trigger: str, first: int) -> None:
    dice = bound_dice(SEED, GAME, trigger, first, 12)
    assert dice == tuple(bound_die(SEED, GAME, trigger, first, i) for i in range(12))
    assert all(1 <= d <= 6 for d in dice)
    assert bound_dice(SEED, GAME, trigger, first, 5) == dice[:5]  # more dice, same first ones
    assert bound_dice(SEED, GAME, trigger, first, 0) == ()
    rolled = BoundDice(seed=SEED, game=GAME, trigger=trigger)
    rolled.at(first)
    assert rolled.roll(4) + rolled.roll(1) + rolled.roll(7) == dice
    assert rolled.key() == OrderKey(trigger, first, 12)
    assert rolled.rolled == 12


def test_wolff_1_3_a_die_depends_on_every_part_of_its_place() -> None:
    """The game, the trigger, the order's first event, the die's place and the seed
    each change the dice (20 of them: equal by chance once in 6**20)."""
    base = bound_dice(SEED, GAME, MAIL, 40, 20)
    assert bound_dice(SEED, "g2", MAIL, 40, 20) != base
    assert bound_dice(SEED, GAME, MAIL[::-1], 40, 20) != base
    assert bound_dice(SEED, GAME, MAIL, 41, 20) != base
    assert bound_dice(SEED + 1, GAME, MAIL, 40, 20) != base
    assert tuple(bound_die(SEED, GAME, MAIL, 40, i + 1) for i in range(20)) != base


def test_wolff_1_3_the_seed_is_32_bytes_and_its_hash_is_their_sha256() -> None:
    assert seed_bytes(SEED) == SEED.to_bytes(32, "big") and len(seed_bytes(2**256 - 1)) == 32
    assert seed_hash(SEED) == hashlib.sha256(SEED.to_bytes(32, "big")).hexdigest()


def test_wolff_1_3_a_new_order_starts_its_dice_again_at_its_first_event() -> None:
    dice = BoundDice(seed=SEED, game=GAME, trigger=MAIL, rolled=7)
    dice.at(30)
    dice.roll(3)
    dice.at(35)
    assert dice.key() == OrderKey(MAIL, 35, 0)
    assert dice.roll(2) == bound_dice(SEED, GAME, MAIL, 35, 2)
    assert dice.rolled == 12  # every die is still counted for the record
    assert dice.record().bound and dice.record().rolled == 12


AUDIT_NOTES = (ev.LegionCommitted, ev.CommitmentOpened, ev.SeedCommitted)


def order_trigger(order: int) -> str:
    """The trigger ``play_robot_game`` gives its ``order``-th order (0: the setup)."""
    if order == 0:
        return "start"
    return hashlib.sha256(f"{GAME}:order:{order - 1}".encode()).hexdigest()


def check_order_notes(game: Played) -> tuple[int, int]:
    """
    Every order-sealed note of ``game``: one after every order, in turn, covering the
    events from the end of the notes before it, with exactly the dice those events
    hold, recomputed from the seed; (the number of dice, of orders that rolled none).
    """
    pending: list[tuple[int, int]] = []
    total = quiet = order = 0
    start: int | None = 1  # the first event of the next order (None: notes running)
    for seq, event in enumerate(game.events, start=1):
        if isinstance(event, ev.OrderSealed):
            assert event.first == (seq if start is None else start), (game, seq)
            assert event.trigger == order_trigger(order), (game, seq)
            assert event.count == len(pending), (game, seq)
            assert all(event.first <= where < seq for where, _ in pending), (game, seq)
            want = bound_dice(game.secret, GAME, event.trigger, event.first, event.count)
            assert tuple(die for _, die in pending) == want, (game, seq)
            total += event.count
            quiet += event.count == 0
            order += 1
            pending, start = [], None
        elif not isinstance(event, AUDIT_NOTES) and start is None:
            start = seq
        pending += [(seq, die) for die in dice_of(event)]
    assert not pending, f"{game}: dice after the last order-sealed note"
    assert start is None, f"{game}: events after the last order-sealed note"
    return total, quiet


def test_wolff_1_3_every_order_sealed_note_names_exactly_the_dice_recomputed(
    all_played: list[Played], drawn: list[Played]
) -> None:
    """Orders that rolled no dice are sealed too (with a count of 0), so the notes
    follow the robots' orders one by one, each naming the mail it came in."""
    for game in [*all_played, *drawn]:
        dice, quiet = check_order_notes(game)
        assert dice > 0 and quiet > 0, game
    starts = [next(e for e in g.events if isinstance(e, ev.OrderSealed)) for g in all_played]
    assert all(s.trigger == "start" and s.first == 1 and s.count > 0 for s in starts)


def test_wolff_1_3_the_setup_ends_with_its_order_sealed_note_and_the_seed_hash() -> None:
    dice = BoundDice(seed=SEED, game=GAME, trigger="start")
    dice.at(1)
    events = setup.start_game(["Ann", "Bob", "Cy"], dice)
    events += advance(replay(events))
    sealed, record = sealed_start(events, dice, GameRecord(dice=dice.record()))
    assert sealed[: len(events)] == events
    notes = sealed[len(events) :]
    towers = sum(len(dice_of(e)) for e in events)
    assert notes == [
        ev.OrderSealed(
            trigger="start", first=1, count=towers, order="start",
            mac=seal_mac(SEED, GAME, "", OrderKey("start", 1, towers, None, "start")),
        ),
        ev.SeedCommitted(sha256=seed_hash(SEED)),
    ]
    assert record.commitments == {}  # every legion is known at the start


def test_dice_that_are_not_bound_leave_no_notes() -> None:
    dice = CountingDice(seed=5)
    events = setup.start_game(["Ann", "Bob"], dice)
    record = GameRecord()
    assert sealed_start(events, dice, record) == (list(events), record)
    state = replay(events)
    assert seal_order(state, state, dice, record) == ([], state, record)
