"""
``titan-moderator verify``'s checks on an audit bundle, pure.  The game is played again
from its start: every order is decided again by the rules from what its seal says it
was (``moderator.audit.redecide``) with the dice the seed gives for it, and must give
exactly the events the log holds; every die is checked against the seed and the mail
that asked for it, the notes after every order against those the order calls for (so
no commitment is left out and no opening shows stale contents), every seal against the
chain of seals, every commitment and opening against the contents the events give,
every salt against the seed, and the final state against the bundle's.  The first
discrepancy is named with the event it is in; nothing after it is trusted.

A player's bundle leaves out what only others may see of the game's asides (Wolff 4.5:
shows and messages passed between other players) and of their standing orders (Wolff
9.4): each such stretch is a placeholder with its length, and an aside's the seal that
the chain goes on from.  Nothing the game's own events decide hangs on them.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from moderator.audit.bundle import FORMAT, FORMATS, final_summary
from moderator.audit.commitments import commitment_for, salt_for
from moderator.audit.dice import bound_dice, seed_hash
from moderator.audit.redecide import NotDecided, redecide
from moderator.audit.seal import (
    OPERATOR,
    OrderKey,
    lateness_of_start,
    operator_line,
    robot_seat_of,
    seal,
)
from moderator.audit.verify_checks import (
    Discrepancy,
    check_battleland,
    check_lateness,
    check_move,
    check_towers,
    differs,
    install_bundle_variant,
    lateness_name,
    named,
)
from moderator.records import replace
from moderator.rules import events as ev
from moderator.rules.codec import decode
from moderator.rules.evolve import evolve
from moderator.rules.lateness import WOLFF, policy_of_trigger
from moderator.rules.state import GameState
from moderator.rules.strikes import hits

_HEX64 = re.compile(r"[0-9a-f]{64}")
_HEX32 = re.compile(r"[0-9a-f]{32}")


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
    if isinstance(event, ev.LateMoveDrawn):
        return event.rolls
    if isinstance(event, ev.LegionMoved) and event.entry_roll is not None:
        return (event.entry_roll,)
    if isinstance(event, ev.StrikeRolled):
        return event.rolls
    if isinstance(event, ev.BattleStarted) and event.battleland_roll is not None:
        return (event.battleland_roll,)
    return ()


def cause(trigger: str) -> str:
    """A trigger as a player reads it."""
    if trigger.startswith("timeout:"):
        return f"the timeout {trigger.removeprefix('timeout:')}"
    if trigger.startswith("timeout-21.2:"):
        return f"the timeout {trigger.removeprefix('timeout-21.2:')} (rulebook 21.2)"
    if trigger == "start":
        return "the start of the game"
    if trigger == OPERATOR:
        return "the operator's line"
    if trigger.startswith("local:"):
        return f"the game master's command {trigger.removeprefix('local:')}"
    if robot_seat_of(trigger) is not None:
        return f"the robot's order for {robot_seat_of(trigger)} ({trigger})"
    return f"the mail with SHA-256 {trigger}"


def giver(event: ev.OrderSealed, head: ev.Event | None) -> str:
    """Who gave a sealed order, as the summary names him: the player himself, the robot
    holding his seat, his standing orders, the refusal defaults of a timeout, or the
    moderator's own step."""
    if event.player is None:
        return "the operator" if operator_line(event.order) is not None else "the moderator"
    if isinstance(head, ev.StandingOrderUsed):
        return f"{event.player}'s standing orders"
    if robot_seat_of(event.trigger) is not None:
        return f"the robot for {event.player}"
    if policy_of_trigger(event.trigger) is not None:
        return f"the timeout defaults for {event.player}"
    return event.player


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
            if bundle["format"] not in FORMATS:
                raise Discrepancy(0, f"the bundle's format is {bundle['format']!r}, not {FORMAT}")
            self.game = str(bundle["game"])
            if not _HEX64.fullmatch(str(bundle["seed"])):
                raise ValueError("the seed is not 64 hex digits")
            self.seed = int(bundle["seed"], 16)
            self.records = list(bundle["events"])
            self.salts = {int(s["event"]): (s["marker"], s["salt"]) for s in bundle["salts"]}
            self.final = bundle["final"]
            self.reader = bundle.get("reader")
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise Discrepancy(0, f"this is not an audit bundle ({FORMAT}): {exc!r}") from exc
        install_bundle_variant(bundle)  # a group's own variant travels in the bundle
        self.state = GameState()
        self.pending: list[tuple[int, int]] = []  # (event, die) not yet bound to a mail
        self.commitments: dict[int, tuple[str, str]] = {}
        self.latest: dict[str, int] = {}
        self.counts = {"dice": 0, "orders": 0, "decided": 0, "commitments": 0, "openings": 0}
        self.hidden = {"asides": 0, "notes": 0}
        self.triggers: set[str] = set()
        self.givers: dict[str, int] = {}  # who gave the orders (``giver``), how many
        self.seed_seen = False
        self.order_start = GameState()  # the game after the last order's notes
        self.order: list[tuple[int, ev.Event | None]] = []  # this order's events (None: hidden)
        self.expected: deque[ev.Event] = deque()  # the notes the order calls for, to come
        self.claimed: dict[str, int] = {}  # each hidden legion's latest commitment, as sealed
        self.last_seal = ""  # the chain's last seal
        self.chained = False  # an order with a recorded line was seen: no older kind after it
        self.lateness = WOLFF  # the lateness policy the start's seal names
        self.timeouts = 0

    def run(self) -> None:
        if seed_hash(self.seed) != self.bundle.get("seed_sha256"):
            raise Discrepancy(0, "the seed does not hash to the bundle's seed_sha256")
        seq = 1
        for record in self.records:
            if not isinstance(record, Mapping) or record.get("seq") != seq:
                raise Discrepancy(seq, "the events are not numbered 1, 2, 3, ... in order")
            if "hidden" in record:
                seq = self.hidden_stretch(seq, record)
                continue
            try:
                event = decode(dict(record))
            except (KeyError, TypeError, ValueError) as exc:
                raise Discrepancy(seq, f"cannot be read: {exc}") from exc
            if not isinstance(event, ev.AUDIT_EVENT_TYPES) and not self.expected:
                self.order.append((seq, event))
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
            self.after_notes(event)
            seq += 1
        self.finish()

    def hidden_stretch(self, seq: int, record: Mapping[str, Any]) -> int:
        """A stretch only others may see: a whole aside with its seal, or a private note."""
        count, sealed = record["hidden"], record.get("seal")
        if self.expected or self.state.version != self.order_start.version:
            raise Discrepancy(seq, "a hidden stretch stands inside an order")
        if sealed is None:  # another player's standing order's note, at the head of his order
            if count != 1:
                raise Discrepancy(seq, "a hidden note is one event long")
            self.order.append((seq, None))
            self.hidden["notes"] += 1
        else:  # an aside between other players: its events, its seal and its openings
            legacy = sealed == "" and not self.chained  # sealed before seals were chained
            if not isinstance(count, int) or count < 2 or not (
                legacy or _HEX32.fullmatch(str(sealed))
            ):
                raise Discrepancy(seq, "a hidden aside is not an aside and its seal")
            if not legacy:
                self.last_seal, self.chained = str(sealed), True
            self.hidden["asides"] += 1
        self.state = replace(self.state, version=self.state.version + count)
        if sealed is not None:
            self.order_start = self.state
        return seq + int(count)

    def check(self, seq: int, event: ev.Event) -> None:
        if isinstance(event, ev.SeedCommitted):
            if self.seed_seen:
                raise Discrepancy(seq, "the seed's SHA-256 is published a second time")
            if event.sha256 != seed_hash(self.seed) or event.visible_to is not None:
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
        head = self.order[0][1] if self.order else None
        noted = bool(self.order) and (head is None or isinstance(head, ev.StandingOrderUsed))
        # An order starts right after the last one's notes, or after the note that a
        # standing order gave it (``service.standing``).
        if event.first != start + 1 + noted or event.first > seq:
            raise Discrepancy(seq, f"says its order began at event {event.first}, which it cannot")
        self.check_dice(seq, event)
        if event.first == 1:
            self.lateness = lateness_of_start(event.order) or WOLFF
        check_lateness(seq, event.trigger, self.lateness)
        self.timeouts += policy_of_trigger(event.trigger) is not None
        decided = [e for _, e in self.order[noted:] if e is not None]
        key = OrderKey(event.trigger, event.first, event.count, event.player, event.order)
        legacy = not event.mac and not event.order and event.player is None
        if legacy and self.chained:
            raise Discrepancy(seq, "an order sealed without its line follows sealed lines")
        if not legacy:
            used = head if isinstance(head, ev.StandingOrderUsed) else None
            self.decided_again(seq, event, decided, used)
        sealed = seal(
            self.order_start, self.state, game=self.game, seed=self.seed,
            commitments=self.claimed, dice=key, events=decided,
            last="" if legacy else self.last_seal,
        )
        notes = list(sealed.events)
        if legacy:  # sealed as before orders were recorded: no line, no chain, seen by all
            notes[0] = ev.OrderSealed(trigger=event.trigger, first=event.first, count=event.count)
        else:
            self.chained = True
            self.last_seal = sealed.mac
            self.counts["decided"] += 1
        self.expected = deque(notes)
        self.claimed = sealed.commitments
        self.counts["dice"] += event.count
        self.counts["orders"] += 1
        self.triggers.add(event.trigger)
        who = giver(event, head)
        self.givers[who] = self.givers.get(who, 0) + 1
        self.pending.clear()

    def check_dice(self, seq: int, event: ev.OrderSealed) -> None:
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

    def decided_again(
        self,
        seq: int,
        event: ev.OrderSealed,
        decided: list[ev.Event],
        used: ev.StandingOrderUsed | None,
    ) -> None:
        """The rules, given the order the seal names, give exactly the order's events."""
        before = replace(self.order_start, version=event.first - 1)  # after a standing note
        try:
            done = redecide(before, event, decided, seed=self.seed, game=self.game, standing=used)
        except NotDecided as exc:
            raise Discrepancy(event.first, f"the order sealed at event {seq}: {exc}") from exc
        for offset, (want, got) in enumerate(zip(done.events, decided)):
            if want != got:
                raise Discrepancy(event.first + offset, differs(want, got))
        if len(done.events) != len(decided):
            where = event.first + min(len(done.events), len(decided))
            more = done.events[len(decided):]
            why = (f"the rules give {named(more[0])} here, the log has the order's seal"
                   if more else f"the rules give nothing more, the log has {named(decided[len(done.events)])}")
            raise Discrepancy(where, f"{why} ({event.player or 'the moderator'}: {event.order!r})")
        if done.dice != event.count:
            raise Discrepancy(seq, f"the order rolls {done.dice} dice, its seal says {event.count}")

    def follows(self, seq: int, event: ev.Event) -> None:
        """The order's notes are the ones it calls for; its dice decided what they say."""
        if self.expected:
            want = self.expected.popleft()
            if event != want:
                raise Discrepancy(
                    seq, f"the order's notes call for {named(want)} here, the log has {named(event)}"
                )
        elif isinstance(event, (ev.LegionCommitted, ev.CommitmentOpened)):
            raise Discrepancy(seq, f"{named(event)} stands outside any order's notes")
        if isinstance(event, ev.StrikeRolled) and event.hits != hits(event.rolls, event.strike_number):
            raise Discrepancy(
                seq, f"{event.hits} hits from {list(event.rolls)} needing {event.strike_number}"
            )
        elif isinstance(event, ev.TowersRolled):
            check_towers(seq, self.state, event)
        elif isinstance(event, ev.LegionMoved) and self.state.roll is not None:
            check_move(seq, self.state, event)
        elif isinstance(event, ev.BattleStarted):
            check_battleland(seq, self.state, event)

    def after_notes(self, event: ev.Event) -> None:
        """An order's notes are over: the next order starts from here."""
        if isinstance(event, ev.AUDIT_EVENT_TYPES) and not self.expected:
            self.order_start = self.state
            self.order = []

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
        total = self.state.version
        if self.expected:
            raise Discrepancy(total, f"the log ends before the notes it calls for ({named(self.expected[0])})")
        if self.state.version > self.order_start.version:
            raise Discrepancy(self.order_start.version + 1, "the order from here on has no notes")
        if self.pending:
            raise Discrepancy(self.pending[0][0], "a die here is bound to no mail")
        if not self.seed_seen:
            raise Discrepancy(0, "no event publishes the seed's SHA-256")
        stray = sorted(set(self.salts) - set(self.commitments))
        if stray:
            raise Discrepancy(stray[0], "a salt is listed for an event that commits to nothing")
        said = self.bundle.get("variant", self.state.variant_name)  # older bundles name none
        if said != self.state.variant_name:
            raise Discrepancy(0, f"the bundle says the game is {said!r}, its events {self.state.variant_name!r}")
        late = self.bundle.get("lateness", self.lateness)  # older bundles name none
        if late != self.lateness:
            raise Discrepancy(
                0, f"the bundle says the game's lateness is {late!r}; its start was sealed "
                f"with {self.lateness!r} ({lateness_name(self.lateness)})"
            )
        players = [p.name for p in self.state.players]
        if self.reader is not None and self.reader not in players:
            raise Discrepancy(0, f"the bundle is made for {self.reader!r}, who is not a player")
        final = final_summary(self.state)
        if final != self.final:
            wrong = sorted(k for k in final if final[k] != self.final.get(k))
            raise Discrepancy(total, f"the events reach another final state than the bundle's ({', '.join(wrong)})")
        self.checked += self.summary(total)

    def summary(self, total: int) -> list[str]:
        c, h = self.counts, self.hidden
        older = c["orders"] - c["decided"]
        lines = [
            f"seed: its SHA-256 is the one published at the start ({seed_hash(self.seed)[:16]}...)",
            f"events: {total} replayed by the rules, from the start to the final state",
            (f"orders: {c['orders']} sealed, from {len(self.triggers)} mails and timeouts, "
             "each followed by the notes it calls for"),
            (f"orders decided again: {c['decided']} from the lines their seals record, each "
             "giving exactly the events the log holds; the seals form one chain"
             + (f" ({older} sealed before lines were recorded: dice and notes only)" if older else "")),
            (f"dice: {c['dice']} recomputed from the seed and the mail or timeout that asked for "
             "them, with what they decided (hits, towers, moves)"),
            f"commitments: {c['commitments']} to hidden legions match what the events say they held",
            f"salts: {len(self.salts)} derived from the seed",
            f"openings: {c['openings']} show what was committed",
        ]
        if h["asides"] or h["notes"]:
            lines.append(
                f"left out for you: {h['asides']} asides between other players (or "
                f"messages sealed with their words) and {h['notes']} notes of their "
                "standing orders (Wolff 4.5, 9.4)"
            )
        lines.append(
            "who gave the orders: "
            + ", ".join(f"{who} {n}" for who, n in sorted(self.givers.items()))
        )
        lines.append(
            f"lateness: {lateness_name(self.lateness)}, sealed at the start; "
            f"{self.timeouts} orders given at a timeout, each its default"
        )
        lines.append(
            f"final state: turn {self.state.turn}, {self.state.step.value}; "
            + ", ".join(f"{p.name} {p.score}" for p in self.state.players)
            + f" (variant {self.state.variant_name})"
        )
        return lines
