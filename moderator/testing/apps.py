"""The composition root's App on a clock that is not the machine's (``simulate``, tests)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from moderator.runtime.bootstrap import App, Overrides, bootstrap
from moderator.runtime.config import Config
from moderator.testing.clocks import TEST_START, TestClock


def on_test_clock(start: datetime = TEST_START) -> Callable[[Config], App]:
    """Builds an App whose games run on a new ``TestClock`` from ``start``, moved by hand."""

    def build(config: Config) -> App:
        return bootstrap(config, Overrides(clock=TestClock(start)))

    return build


__all__ = ["on_test_clock"]
