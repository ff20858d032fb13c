"""
Playing Titan games in-process, one job a module: the dice that keep their place
(``dice``), games created and read in an event store (``games``), a message's order
lines run against a game (``run``) and answered as one reply (``messages``), the
queries (``queries``, ``battle_queries``), and whole robot games (``robot_games``).

``moderator.game`` re-exports the names the CLI, the mail service and the tests use.
"""

from __future__ import annotations
