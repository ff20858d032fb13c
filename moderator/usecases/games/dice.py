"""
Dice that keep their place between messages: a game stores its seed (or script) and
how many dice it has rolled, and the next message carries on from there.

A game played by mail has ``BoundDice``: each die is derived from the game's secret
seed, the game, the number of the event being decided, the digest of the mail (or
timeout) that asked for it, and its place among that order's dice, by HMAC-SHA256.
Nobody can know a roll before the mail that causes it exists (its digest is part of
it), and the moderator cannot draw again after seeing one: the seed's SHA-256 is
published in the game's first report and the seed itself in the audit after the game,
so anybody can recompute every roll (Wolff 1.3: no die is rolled in advance).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence

from moderator.audit.dice import bound_die, seed_hash
from moderator.audit.seal import OrderKey, seal, sealed_line, start_order
from moderator.rules import events as ev
from moderator.rules.dice import ScriptedDice
from moderator.rules.evolve import replay
from moderator.rules.lateness import WOLFF
from moderator.rules.state import GameState
from moderator.schedule.record import Dice, GameRecord
from moderator.usecases.games.errors import GameError


class CountingDice:
    """
    Dice whose position survives between calls: a seeded ``random.Random`` that is
    fast-forwarded past the dice already rolled, or a fixed script.
    """

    def __init__(
        self, *, seed: int | None = None, script: Sequence[int] | None = None, rolled: int = 0
    ) -> None:
        if (seed is None) == (script is None):
            raise ValueError("give a dice seed or a dice script, not both or neither")
        self.seed = seed
        self.script = list(script) if script is not None else None
        self.rolled = rolled
        if self.script is not None:
            self._scripted: ScriptedDice | None = ScriptedDice(self.script[rolled:])
            self._rng: random.Random | None = None
        else:
            self._scripted = None
            self._rng = random.Random(seed)
            for _ in range(rolled):
                self._rng.randint(1, 6)

    @property
    def scripted(self) -> bool:
        return self.script is not None

    def roll(self, count: int = 1) -> tuple[int, ...]:
        if self._scripted is not None:
            values = self._scripted.roll(count)
        else:
            assert self._rng is not None
            values = tuple(self._rng.randint(1, 6) for _ in range(count))
        self.rolled += count
        return values

    def record(self) -> Dice:
        """Where these dice are, as the game's record keeps it."""
        script = tuple(self.script) if self.script is not None else None
        return Dice(seed=self.seed, script=script, rolled=self.rolled)

    @classmethod
    def from_record(cls, dice: Dice) -> CountingDice:
        """The game's dice where its record left them."""
        if dice.script is not None:
            return cls(script=dice.script, rolled=dice.rolled)
        return cls(seed=dice.seed or 0, rolled=dice.rolled)

    def at(self, seq: int) -> None:
        """The next dice are for the event numbered ``seq`` (bound dice use it)."""


class BoundDice(CountingDice):
    """
    Dice bound to what asked for them (see the module's doc): ``trigger`` is the digest
    of the mail or timeout being carried out; ``at(seq)`` names the first event of the
    order being decided, before each order.  ``rolled`` still counts every die, for the
    record; ``key`` tells the audit which dice the order used.
    """

    def __init__(self, *, seed: int, game: str, trigger: str, rolled: int = 0) -> None:
        super().__init__(seed=seed, rolled=0)
        self.rolled = rolled
        self.game, self.trigger = game, trigger
        self.seq, self.index = 0, 0

    def at(self, seq: int) -> None:
        self.seq, self.index = seq, 0  # even a refused order's dice are not used again

    def key(self, player: str | None = None, order: str = "") -> OrderKey:
        """The order being decided, as the audit names it: its dice, whose, what it said."""
        return OrderKey(self.trigger, self.seq, self.index, player, order)

    def roll(self, count: int = 1) -> tuple[int, ...]:
        assert self.seed is not None
        values = []
        for _ in range(count):
            values.append(bound_die(self.seed, self.game, self.trigger, self.seq, self.index))
            self.index += 1
        self.rolled += count
        return tuple(values)

    def record(self) -> Dice:
        return Dice(seed=self.seed, rolled=self.rolled, bound=True)


def seal_order(
    before: GameState,
    after: GameState,
    dice: CountingDice,
    record: GameRecord,
    *,
    player: str | None = None,
    order: str = "",
    events: Sequence[ev.Event] = (),
) -> tuple[list[ev.Event], GameState, GameRecord]:
    """
    The audit's notes after one order decided with ``dice`` (``moderator.audit.seal``):
    none unless the game's dice are bound.  ``player`` gave the order, which said
    ``order`` (its line as ``render_order`` writes it, or the moderator's step; a
    message's words are left out, ``audit.seal.sealed_line``) and decided ``events``.
    Gives the notes, the state after them and the record with the legions' latest
    commitments and the seal the next one chains to.
    """
    if not isinstance(dice, BoundDice) or dice.seed is None:
        return [], after, record
    sealed = seal(
        before, after, game=dice.game, seed=dice.seed, commitments=record.commitments,
        dice=dice.key(player, sealed_line(order, events)), events=events, last=record.last_seal,
    )
    return list(sealed.events), replay(sealed.events, after), record.but(
        commitments=sealed.commitments, last_seal=sealed.mac
    )


def sealed(
    before: GameState,
    new: Sequence[ev.Event],
    record: GameRecord,
    game: str,
    trigger: str,
    order: str,
) -> tuple[list[ev.Event], GameState, GameRecord]:
    """
    ``new`` events the moderator decided without an order's dice (``order``: time
    called, a game stopped by its director), sealed as an order of their own when the
    game's dice are bound: (the events and their notes, the state after them, the record).
    """
    dice = dice_for(record.dice, game, trigger)
    dice.at(before.version + 1)
    notes, after, record = seal_order(
        before, replay(new, before), dice, record, order=order, events=new
    )
    return [*new, *notes], after, record


def sealed_start(
    events: Sequence[ev.Event], dice: CountingDice, record: GameRecord, lateness: str = WOLFF
) -> tuple[list[ev.Event], GameRecord]:
    """
    A new game's setup ``events`` with the audit's notes after them, when its dice are
    bound: the tower rolls' dice, commitments to any hidden legion (a restored
    position), and the seed's SHA-256, which the first reports publish.  The start's
    seal names the game's ``lateness`` policy (``audit.seal.start_order``).
    """
    if not isinstance(dice, BoundDice) or dice.seed is None:
        return list(events), record
    notes, _, record = seal_order(
        GameState(), replay(events), dice, record, order=start_order(lateness), events=events
    )
    return [*events, *notes, ev.SeedCommitted(sha256=seed_hash(dice.seed))], record


def dice_for(dice: Dice, game: str, trigger: str) -> CountingDice:
    """The game's dice as its record keeps them: bound to ``trigger`` if the game's are."""
    if dice.bound and dice.script is None:
        return BoundDice(seed=dice.seed or 0, game=game, trigger=trigger, rolled=dice.rolled)
    return CountingDice.from_record(dice)


def new_seed() -> int:
    """A secret seed for bound dice: 256 random bits."""
    return secrets.randbits(256)


def read_dice_script(text: str) -> list[int]:
    """Whitespace-separated die values 1..6."""
    values: list[int] = []
    for word in text.split():
        if not word.isdigit() or not 1 <= int(word) <= 6:
            raise GameError(f"dice script: {word!r} is not a die value from 1 to 6")
        values.append(int(word))
    return values
