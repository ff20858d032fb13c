"""
Whole robot games by mail with the private side of a table in them: players pass
messages and show legions to some of the others (Wolff 4.5), and keep standing orders
that answer decisions for them (Wolff 9.4).  Each mail's lines run through
``play.run.run_orders`` and the standing orders through ``service.standing.carry_out``,
as the mail service runs them, with dice bound to a digest per mail, so the log holds
what a real game's does: asides with their seals and openings, standing-order notes,
every order sealed with its line.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field

from moderator import robot
from moderator.audit.bundle import dumps, make_bundle
from moderator.rules import events as ev
from moderator.rules import setup
from moderator.rules.decide import advance
from moderator.rules.evolve import replay
from moderator.rules.legal import to_act
from moderator.rules.state import GameState, Step
from moderator.schedule.record import GameRecord
from moderator.usecases.games.dice import BoundDice, sealed_start
from moderator.usecases.games.run import run_orders
from moderator.usecases.games.standing import carry_out

from .conftest import GAME, MADE, secret_of

NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")
#: Standing orders the robots keep, a few each.
STANDING = (
    "standing when attacked: flee",
    "standing when attacked: fight",
    "standing strikes: auto",
    "standing muster best",
    "standing no concede",
    "standing summon best",
)


@dataclass
class AsideGame:
    """A finished game with asides and standing orders, and its secret seed."""

    seed: int
    players: tuple[str, ...]
    events: list[ev.Event] = field(repr=False)
    state: GameState = field(repr=False)

    @property
    def secret(self) -> int:
        return secret_of(self.seed)

    def bundle(self, reader: str | None) -> dict[str, object]:
        """``reader``'s bundle read back from its JSON, as the attachment holds it."""
        import json

        text = dumps(make_bundle(GAME, self.secret, self.events, MADE, reader))
        result: dict[str, object] = json.loads(text)
        return result

    def __str__(self) -> str:
        return f"aside game {self.seed} ({len(self.players)} players)"


def _aside(state: GameState, player: str, rng: random.Random, serial: int) -> str | None:
    """A message or a show from ``player`` to some of the others still playing."""
    others = [p.name for p in state.live_players if p.name != player]
    if not others:
        return None
    named = ", ".join(rng.sample(others, rng.randint(1, len(others))))
    if rng.random() < 0.5:
        return f"tell {named}: offer {serial}, keep it between us"
    own = sorted(m for m, lg in state.legions.items() if lg.owner == player)
    if not own:
        return None
    marker = rng.choice(own)
    held = state.legions[marker].contents
    if rng.random() < 0.3 and len(held) > 1:  # a part of it only
        return f"show {marker} to {named}: {held[0].lower()}"
    return f"show {marker} to {named}"


def play_with_asides(seed: int, players: int, *, asides: float = 0.08) -> AsideGame:
    """A robot game by mail in which about ``asides`` of the mails also carry an aside."""
    names = NAMES[:players]
    rng = random.Random(f"asides:{seed}")
    dice = BoundDice(seed=secret_of(seed), game=GAME, trigger="start")
    dice.at(1)
    events = setup.start_game(list(names), dice)
    events += advance(replay(events))
    record = GameRecord(dice=dice.record())
    events, record = sealed_start(events, dice, record)
    state = replay(events)
    standing = {name: tuple(rng.sample(STANDING, 2)) for name in names}
    record = record.but(standing=standing)
    for serial in range(100_000):
        player = to_act(state)
        if player is None:
            break
        lines = []
        if rng.random() < asides and (line := _aside(state, player, rng, serial)) is not None:
            lines.append(line)
        lines.append(robot.choose_order(state, rng)[0])
        trigger = hashlib.sha256(f"{GAME}:mail:{serial}".encode()).hexdigest()
        run = run_orders(
            state, record, player, lines, lambda done=events: done, game=GAME, trigger=trigger
        )
        assert run.ok, [r.reason for r in run.refused]
        events += run.events
        carried = carry_out(run.state, run.record, GAME, trigger)
        events += carried.events
        state, record = carried.state, carried.record
    assert state.step is Step.OVER, f"aside game {seed} did not end"
    return AsideGame(seed, names, events, state)
