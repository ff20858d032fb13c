"""The one error of local play, apart from rejected orders (which are replies, not errors)."""

from __future__ import annotations


class GameError(Exception):
    """A local game cannot be created or played as asked (not a rejected order)."""
