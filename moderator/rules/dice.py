"""The dice port: the core never rolls, it asks the shell's dice and records the result."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol


class Dice(Protocol):
    """Anything that rolls ``count`` six-sided dice."""

    def roll(self, count: int = 1) -> tuple[int, ...]:
        """Return ``count`` results, each 1..6."""
        ...


class ScriptedDice:
    """
    Dice that return a fixed sequence: for tests and puzzles only.

    Raises ``IndexError`` when the script runs out, so a test never rolls
    a value it did not write down.
    """

    def __init__(self, values: Iterable[int]) -> None:
        self._values: Iterator[int] = iter(list(values))

    def roll(self, count: int = 1) -> tuple[int, ...]:
        out = []
        for _ in range(count):
            try:
                value = next(self._values)
            except StopIteration:
                msg = "scripted dice ran out of values"
                raise IndexError(msg) from None
            if not 1 <= value <= 6:
                msg = f"scripted die value {value!r} is not 1..6"
                raise ValueError(msg)
            out.append(value)
        return tuple(out)


class NoDice:
    """Dice for commands that must not roll; rolling is a programming error."""

    def roll(self, count: int = 1) -> tuple[int, ...]:
        msg = "this command may not roll dice"
        raise RuntimeError(msg)
