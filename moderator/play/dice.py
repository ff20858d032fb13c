"""
Dice that keep their place between messages: a game stores its seed (or script) and
how many dice it has rolled, and the next message carries on from there.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from moderator.play.errors import GameError
from moderator.rules.dice import ScriptedDice
from moderator.schedule.record import Dice


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


def read_dice_script(text: str) -> list[int]:
    """Whitespace-separated die values 1..6."""
    values: list[int] = []
    for word in text.split():
        if not word.isdigit() or not 1 <= int(word) <= 6:
            raise GameError(f"dice script: {word!r} is not a die value from 1 to 6")
        values.append(int(word))
    return values
