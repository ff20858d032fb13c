"""
Playing Titan games in-process, one job a module: the dice that keep their place
(``dice``), games created and read in an event store (``games``), a message's order
lines run against a game (``run``) and answered as one reply (``messages``), the
queries (``queries``, ``battle_queries``), and whole robot games (``robot_games``).

The CLI, the mail service and the tests import from these modules directly.
"""

from __future__ import annotations
