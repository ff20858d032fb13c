"""Dice bound to the mail that asked for them (issue 16; Wolff 1.3: no roll in advance)."""

from __future__ import annotations

import hashlib
import math
from collections import Counter

from moderator.audit.dice import bound_die
from moderator.reporting.views import legal_orders
from moderator.rules import events as ev
from moderator.rules.legal import to_act
from moderator.runners.commands import start_game
from moderator.schedule.record import Dice, GameRecord
from moderator.store import EventStore, inbox, outbox, players
from moderator.usecases.games.dice import BoundDice, dice_for
from moderator.usecases.mail.handler import MailGameHandler

from .conftest import MODERATOR, Table, address, secret_of

SEED = 0x5EED_0F_7174_4E_D1CE


def test_wolff_1_3_a_roll_depends_on_the_mail_that_asked_for_it() -> None:
    """The same game, event and seed with another mail's digest gives other dice: no
    roll can be known before the mail that causes it exists."""
    first = BoundDice(seed=SEED, game="g1", trigger="a" * 64)
    second = BoundDice(seed=SEED, game="g1", trigger="b" * 64)
    first.at(40)
    second.at(40)
    assert first.roll(20) != second.roll(20)
    again = BoundDice(seed=SEED, game="g1", trigger="a" * 64)
    again.at(40)
    first_again = again.roll(20)
    replay = BoundDice(seed=SEED, game="g1", trigger="a" * 64)
    replay.at(40)
    assert replay.roll(20) == first_again  # recomputable by anybody with the seed


def test_the_dice_are_uniform() -> None:
    """Chi-square over 100,000 dice (5 degrees of freedom: 20.5 is the 0.1% point)."""
    counts = Counter(bound_die(SEED, "g1", "mail", seq, i) for seq in range(20_000)
                     for i in range(5))
    expected = 100_000 / 6
    chi2 = sum((counts[face] - expected) ** 2 / expected for face in range(1, 7))
    assert set(counts) == {1, 2, 3, 4, 5, 6} and chi2 < 20.5, (chi2, counts)


def test_the_dice_are_independent_of_the_digests_bits() -> None:
    """A die's face is as likely whatever a bit of the mail's digest is: for each of the
    first 16 bits, the faces under digests with it set and clear agree (chi-square)."""
    digests = [hashlib.sha256(str(n).encode()).hexdigest() for n in range(6_000)]
    for bit in range(16):
        split: dict[bool, Counter[int]] = {True: Counter(), False: Counter()}
        for digest in digests:
            on = bool(int(digest, 16) >> (255 - bit) & 1)
            split[on][bound_die(SEED, "g1", digest, 7, 0)] += 1
        table = [[split[on][face] for face in range(1, 7)] for on in (True, False)]
        total = sum(map(sum, table))
        chi2 = 0.0
        for row in table:
            for face in range(6):
                column = table[0][face] + table[1][face]
                expected = sum(row) * column / total
                chi2 += (row[face] - expected) ** 2 / expected
        assert chi2 < 20.5 + 5 * math.sqrt(2 * 5), (bit, chi2)  # generous: 16 tests


def test_the_seed_is_committed_to_and_the_record_keeps_the_dice_bound() -> None:
    dice = Dice(seed=SEED, rolled=3, bound=True)
    assert dice.commitment == hashlib.sha256(SEED.to_bytes(32, "big")).hexdigest()
    stored = GameRecord.from_json(GameRecord(dice=dice).to_json())
    assert stored.dice == dice
    rolled = dice_for(stored.dice, "g1", "x")
    assert isinstance(rolled, BoundDice)
    rolled.roll(2)
    assert rolled.record() == Dice(seed=SEED, rolled=5, bound=True)
    assert not isinstance(dice_for(Dice(seed=5), "g1", "x"), BoundDice)  # older games


def test_a_game_by_mail_publishes_its_commitment_and_binds_its_rolls(store: EventStore) -> None:
    """start_game: the first reports carry the seed's SHA-256; a roll ordered by mail is
    the die computed from the seed, the game, the event's number and the mail's digest."""
    with store.transaction() as tx:
        for name in ("Ann", "Bob"):
            players.add_player(tx, name, address(name), secret=secret_of(name))
    start_game(store, "g1", [address("Ann"), address("Bob")], sender=MODERATOR,
               allow_secrets=True)
    record = store.record("g1")
    assert record.dice.bound and record.dice.seed is not None
    with store.reading() as tx:
        first = outbox.mails(tx)
    assert all(record.dice.commitment in m.body for m in first if m.kind == "report")
    table = Table(store, MailGameHandler(None, MODERATOR))
    state = table.state
    while True:  # colours, the first split, then the movement roll
        actor = to_act(state)
        assert actor is not None
        legal = [o for o in legal_orders(state, actor) if not o.startswith("withdraw")]
        if state.step.value == "split":
            eight = any(len(lg.contents) == 8 for lg in state.legions_of(actor))
            line = next(o for o in legal if o.startswith("split")) if eight else "roll"
        else:
            line = legal[0]
        before = state.version
        sent = table.orders(actor, line)
        assert sent.status == inbox.PROCESSED and not sent.note, sent.note
        state = table.state
        if line == "roll":
            break
    with store.reading() as tx:
        raw = inbox.message(tx, sent.id).raw
    (rolled,) = [e for e in store.load("g1")[before:] if isinstance(e, ev.MovementRolled)]
    digest = hashlib.sha256(raw).hexdigest()
    assert rolled.roll == bound_die(record.dice.seed, "g1", digest, before + 1, 0)
