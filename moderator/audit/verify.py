"""
``titan-moderator verify``'s checks on an audit bundle, pure: the seed against the
SHA-256 committed at the start, every die against the seed and the mail that asked for
it and against what it decided (hits, towers, moves), the notes after every order
against those the order calls for (so no commitment is left out and no opening shows
stale contents), every commitment and opening against the contents the events give,
every salt against the seed, and the final state against the bundle's.  The first discrepancy is
named with the event it is in; nothing after it is trusted.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from moderator.audit.bundle import FORMAT, final_summary
from moderator.audit.commitments import commitment_for, salt_for
from moderator.audit.dice import bound_dice, seed_hash
from moderator.audit.seal import DiceKey, seal
from moderator.rules import events as ev
from moderator.rules.codec import decode
from moderator.rules.evolve import evolve
from moderator.rules.movement import legion_moves
from moderator.rules.setup import towers_won
from moderator.rules.state import GameState
from moderator.rules.strikes import hits
from moderator.rules.turn import drawn_side

_HEX64 = re.compile(r"[0-9a-f]{64}")


class Discrepancy(Exception):
    """What does not hold, and the event it is in (0: the bundle as a whole)."""

    def __init__(self, event: int, why: str) -> None:
        super().__init__(why)
        self.event = event
        self.why = why

    def __str__(self) -> str:
        return f"event {self.event}: {self.why}" if self.event else self.why


@dataclass
class Verdict:
    """What was checked, and the first discrepancy (None: everything holds)."""

    checked: list[str] = field(default_factory=list)
    problem: Discrepancy | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None


def dice_of(event: ev.Event) -> tuple[int, ...]:
    """The dice ``event`` records, in the order they were rolled."""
    if isinstance(event, ev.TowersRolled):
        return tuple(value for _, value in event.rolls)
    if isinstance(event, ev.MovementRolled):
        return (event.roll,)
    if isinstance(event, ev.LegionMoved) and event.entry_roll is not None:
        return (event.entry_roll,)
    if isinstance(event, ev.StrikeRolled):
        return event.rolls
    return ()


def cause(trigger: str) -> str:
    """A trigger as a player reads it."""
    if trigger.startswith("timeout:"):
        return f"the timeout {trigger.removeprefix('timeout:')}"
    if trigger == "start":
        return "the start of the game"
    return f"the mail with SHA-256 {trigger}"


def verify(bundle: Mapping[str, Any]) -> Verdict:
    """Every check on ``bundle``; stops at the first discrepancy."""
    verdict = Verdict()
    try:
        _Checker(bundle, verdict.checked).run()
    except Discrepancy as problem:
        verdict.problem = problem
    return verdict


class _Checker:
    def __init__(self, bundle: Mapping[str, Any], checked: list[str]) -> None:
        self.bundle, self.checked = bundle, checked
        try:
            if bundle["format"] != FORMAT:
                raise Discrepancy(0, f"the bundle's format is {bundle['format']!r}, not {FORMAT}")
            self.game = str(bundle["game"])
            if not _HEX64.fullmatch(str(bundle["seed"])):
                raise ValueError("the seed is not 64 hex digits")
            self.seed = int(bundle["seed"], 16)
            self.records = list(bundle["events"])
            self.salts = {int(s["event"]): (s["marker"], s["salt"]) for s in bundle["salts"]}
            self.final = bundle["final"]
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise Discrepancy(0, f"this is not an audit bundle ({FORMAT}): {exc!r}") from exc
        self.state = GameState()
        self.pending: list[tuple[int, int]] = []  # (event, die) not yet bound to a mail
        self.commitments: dict[int, tuple[str, str]] = {}
        self.latest: dict[str, int] = {}
        self.counts = {"dice": 0, "orders": 0, "commitments": 0, "openings": 0}
        self.triggers: set[str] = set()
        self.scripted = False
        self.seed_seen = False
        self.order_start = GameState()  # the game after the last order's notes
        self.opening: ev.Event | None = None  # the first event after them
        self.expected: deque[ev.Event] = deque()  # the notes the order calls for, to come
        self.claimed: dict[str, int] = {}  # each hidden legion's latest commitment, as sealed

    def run(self) -> None:
        if seed_hash(self.seed) != self.bundle.get("seed_sha256"):
            raise Discrepancy(0, "the seed does not hash to the bundle's seed_sha256")
        for seq, record in enumerate(self.records, start=1):
            if not isinstance(record, Mapping) or record.get("seq") != seq:
                raise Discrepancy(seq, "the events are not numbered 1, 2, 3, ... in order")
            try:
                event = decode(dict(record))
            except (KeyError, TypeError, ValueError) as exc:
                raise Discrepancy(seq, f"cannot be read: {exc}") from exc
            if self.state.version == self.order_start.version:
                self.opening = event
            try:
                self.check(seq, event)
                self.follows(seq, event)
            except (TypeError, ValueError, OverflowError, KeyError) as exc:
                raise Discrepancy(seq, f"cannot be checked ({exc!r})") from exc
            self.pending += [(seq, die) for die in dice_of(event)]
            try:
                self.state = evolve(self.state, event)
            except Exception as exc:  # a tampered event may break any rule of the fold
                raise Discrepancy(seq, f"does not follow from the events before it ({exc!r})") from exc
            self.after_notes(seq, event)
        self.finish()

    def check(self, seq: int, event: ev.Event) -> None:
        if isinstance(event, (ev.GameCreated, ev.PositionLoaded)) and event.scripted_dice:
            self.scripted = True
        elif isinstance(event, ev.SeedCommitted):
            if self.seed_seen:
                raise Discrepancy(seq, "the seed's SHA-256 is published a second time")
            if event.sha256 != seed_hash(self.seed):
                raise Discrepancy(seq, "the seed is not the one whose SHA-256 was published here")
            self.seed_seen = True
        elif isinstance(event, ev.OrderSealed):
            self.order_sealed(seq, event)
        elif isinstance(event, ev.LegionCommitted):
            self.committed(seq, event)
        elif isinstance(event, ev.CommitmentOpened):
            self.opened(seq, event)

    def order_sealed(self, seq: int, event: ev.OrderSealed) -> None:
        if self.expected:
            raise Discrepancy(seq, "an order's notes are cut short by another order's")
        start = self.order_start.version
        # An order starts right after the last one's notes, or after the note that a
        # standing order gave it (``service.standing``).
        begins = {start + 1} | ({start + 2} if isinstance(self.opening, ev.StandingOrderUsed) else set())
        if event.first not in begins or not isinstance(event.first, int) or event.first > seq:
            raise Discrepancy(seq, f"says its order began at event {event.first}, which it cannot")
        sealed = seal(
            self.order_start, self.state, game=self.game, seed=self.seed,
            commitments=self.claimed,
            dice=DiceKey(event.trigger, event.first, event.count),
        )
        self.expected = deque(sealed.events)
        self.claimed = sealed.commitments
        early = [s for s, _ in self.pending if s < event.first]
        if early:
            raise Discrepancy(early[0], "a die here is bound to no mail")
        if len(self.pending) != event.count:
            raise Discrepancy(seq, f"says {event.count} dice, the events hold {len(self.pending)}")
        expected = bound_dice(self.seed, self.game, event.trigger, event.first, event.count)
        for index, ((where, die), want) in enumerate(zip(self.pending, expected, strict=True)):
            if die != want:
                raise Discrepancy(
                    where,
                    f"die {index + 1} of the order at event {event.first} is {die}; the seed "
                    f"and {cause(event.trigger)} give {want}",
                )
        self.counts["dice"] += event.count
        self.counts["orders"] += 1
        self.triggers.add(event.trigger)
        self.pending.clear()

    def follows(self, seq: int, event: ev.Event) -> None:
        """The order's notes are the ones it calls for; its dice decided what they say."""
        if self.expected:
            want = self.expected.popleft()
            if event != want:
                raise Discrepancy(
                    seq, f"the order's notes call for {_named(want)} here, the log has {_named(event)}"
                )
        elif isinstance(event, (ev.LegionCommitted, ev.CommitmentOpened)):
            raise Discrepancy(seq, f"{_named(event)} stands outside any order's notes")
        if isinstance(event, ev.StrikeRolled) and event.hits != hits(event.rolls, event.strike_number):
            raise Discrepancy(
                seq, f"{event.hits} hits from {list(event.rolls)} needing {event.strike_number}"
            )
        elif isinstance(event, ev.TowersRolled):
            _check_towers(seq, self.state, event)
        elif isinstance(event, ev.LegionMoved) and self.state.roll is not None:
            _check_move(seq, self.state, event)

    def after_notes(self, seq: int, event: ev.Event) -> None:
        """An order's notes are over: the next order starts from here."""
        if isinstance(event, ev.AUDIT_EVENT_TYPES) and not self.expected:
            self.order_start = self.state

    def committed(self, seq: int, event: ev.LegionCommitted) -> None:
        legion = self.state.legions.get(event.marker)
        if legion is None:
            raise Discrepancy(seq, f"commits to {event.marker}, which is not on the board")
        salt = salt_for(self.seed, self.game, event.marker, seq)
        if self.salts.get(seq) != (event.marker, salt):
            raise Discrepancy(seq, f"the salt listed for {event.marker} is not the one the seed gives")
        if commitment_for(self.game, event.marker, seq, salt, legion.contents) != event.commitment:
            held = ", ".join(legion.contents)
            raise Discrepancy(
                seq, f"the commitment to {event.marker} is not to what the events say it held ({held})"
            )
        self.commitments[seq] = (event.marker, event.commitment)
        self.latest[event.marker] = seq
        self.counts["commitments"] += 1

    def opened(self, seq: int, event: ev.CommitmentOpened) -> None:
        marker = event.marker
        if self.latest.get(marker) != event.seq or event.seq not in self.commitments:
            raise Discrepancy(seq, f"opens a commitment of {marker} at event {event.seq} that is not its latest")
        if event.salt != salt_for(self.seed, self.game, marker, event.seq):
            raise Discrepancy(seq, f"the salt shown for {marker} is not the one the seed gives")
        if commitment_for(self.game, marker, event.seq, event.salt, event.contents) != self.commitments[event.seq][1]:
            raise Discrepancy(seq, f"the contents shown for {marker} are not the ones committed at event {event.seq}")
        self.counts["openings"] += 1

    def finish(self) -> None:
        total = len(self.records)
        if self.expected:
            raise Discrepancy(total, f"the log ends before the notes it calls for ({_named(self.expected[0])})")
        if self.state.version > self.order_start.version and not self.scripted:
            raise Discrepancy(self.order_start.version + 1, "the order from here on has no notes")
        if self.pending and not self.scripted:
            raise Discrepancy(self.pending[0][0], "a die here is bound to no mail")
        if not self.seed_seen:
            raise Discrepancy(0, "no event publishes the seed's SHA-256")
        stray = sorted(set(self.salts) - set(self.commitments))
        if stray:
            raise Discrepancy(stray[0], "a salt is listed for an event that commits to nothing")
        final = final_summary(self.state)
        if final != self.final:
            wrong = sorted(k for k in final if final[k] != self.final.get(k))
            raise Discrepancy(total, f"the events reach another final state than the bundle's ({', '.join(wrong)})")
        c = self.counts
        self.checked += [
            f"seed: its SHA-256 is the one published at the start ({seed_hash(self.seed)[:16]}...)",
            f"events: {total} replayed by the rules, from the start to the final state",
            (f"orders: {c['orders']} sealed, from {len(self.triggers)} mails and timeouts, "
            "each followed by the notes it calls for"),
            (f"dice: {c['dice']} recomputed from the seed and the mail or timeout that asked for "
            "them, with what they decided (hits, towers, moves)"),
            f"commitments: {c['commitments']} to hidden legions match what the events say they held",
            f"salts: {len(self.salts)} derived from the seed",
            f"openings: {c['openings']} show what was committed",
            f"final state: turn {self.state.turn}, {self.state.step.value}; "
            + ", ".join(f"{p.name} {p.score}" for p in self.state.players),
        ]


def _named(event: ev.Event) -> str:
    """An audit note (or any event) as a discrepancy names it."""
    marker = getattr(event, "marker", None)
    return f"{event.TYPE} of {marker}" if marker else event.TYPE


def _check_move(seq: int, state: GameState, event: ev.LegionMoved) -> None:
    """A move reaches a land the roll allows; a side drawn by a die is the one it gives."""
    legion = state.legions.get(event.marker)
    options = [o for o in legion_moves(state, legion) if o.land == event.to_land] if legion else []
    if not options:
        raise Discrepancy(
            seq, f"{event.marker} may not move to {event.to_land} on a roll of {state.roll}"
        )
    if event.entry_roll is not None:
        sides = next((o.entries for o in options if o.teleport == event.teleport), ())
        drawn = drawn_side(sides, event.entry_roll) if sides else None
        if drawn != event.entry:
            raise Discrepancy(seq, f"a roll of {event.entry_roll} draws the side {drawn}, not {event.entry}")


def _check_towers(seq: int, state: GameState, event: ev.TowersRolled) -> None:
    """1.3.1: a roll unique in its set that names a free tower takes it; no other does."""
    waiting = [p.name for p in state.players if not p.tower]
    if [name for name, _ in event.rolls] != waiting:
        raise Discrepancy(seq, f"the tower rolls are not those of {', '.join(waiting)} in turn")
    if towers_won(event.rolls, (p.tower for p in state.players if p.tower)) != event.assigned:
        raise Discrepancy(seq, f"the towers {list(event.assigned)} do not follow from the rolls")
