"""
The service's record of a game beside its events: who sits in it, where its dice are,
its time limits and the deadline running, the players' absences, a tournament's pause,
whether secrets may authenticate mail, and how far each player has been reported.

The rules never read it: it is the shell's bookkeeping, written with the events in
the same transaction (``moderator.store.eventstore.Tx.append``).  It is typed (every
reader names a field) and stored as JSON under a schema number: ``from_json`` upcasts
an older record (schema 0 was the untyped options of the first releases) and
``to_json`` always writes the newest schema, so a record is read by the code of its
day and migrated forward when it is written again.  Keys added within a schema (the
notification choices, standing orders, undelivered mail, bounce pauses, the seats
the robot keeps) are optional:
a record without them reads as their defaults, so they need no new schema number.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Iterator, Mapping
from dataclasses import field
from datetime import UTC, datetime
from typing import Any

from moderator.records import record
from moderator.rules.variant import STANDARD
from moderator.schedule import holders
from moderator.schedule.limits import TimeLimits
from moderator.schedule.record_upcast import upcast_0

#: The schema ``to_json`` writes.
SCHEMA = 1


def moment(value: Any) -> datetime | None:
    """An ISO 8601 moment as stored (UTC if it has no zone), or None."""
    if not value:
        return None
    try:
        found = datetime.fromisoformat(str(value))
    except ValueError:
        return None
    return found if found.tzinfo is not None else found.replace(tzinfo=UTC)


def iso(when: datetime) -> str:
    return when.astimezone(UTC).isoformat()


@record
class Deadline:
    """
    The deadline running: what it times (the step key, the player to act, the kind of
    step), when it started and when it falls.  A deadline of a game without time limits
    (set by hand) is shown in reports and never enforced.
    """

    key: str
    player: str
    kind: str
    started: datetime
    due: datetime


@record
class Dice:
    """
    Where the game's dice are: a seed or a script of values, and how many rolled.
    ``bound``: every roll is derived from the (secret) seed, the game, the event's
    number and the digest of the mail or timeout that asked for it
    (``moderator.audit.dice``); the seed's SHA-256 is published at the start.
    """

    seed: int | None = None
    script: tuple[int, ...] | None = None
    rolled: int = 0
    bound: bool = False

    @property
    def commitment(self) -> str:
        """The SHA-256 of the seed (32 bytes, big-endian), published before any roll."""
        return hashlib.sha256((self.seed or 0).to_bytes(32, "big")).hexdigest()

    @property
    def scripted(self) -> bool:
        return self.script is not None


@record
class Absence:
    """One absence: from and to (UTC moments), and the days as the player wrote them."""

    player: str
    begins: datetime
    ends: datetime
    first: str
    last: str

    @property
    def key(self) -> str:
        """What names it (the ``deadline`` table's ``step`` of its end)."""
        return f"absence:{self.first}"


@record
class Pause:
    """A tournament game's pause: since when, and the time limits it resumes with."""

    at: datetime
    time_limits: TimeLimits | None


@record
class Undelivered:
    """
    A seat whose mail bounced (``moderator.usecases.mail.bounces``): his deadline is paused
    from ``since`` until ``until`` at the latest, or until a mail of his shows he reads
    his mail again.  ``held``: the deadline that ran against him when the pause began,
    which then runs on with the time it had left; ``told``: who heard of the pause, and
    hears of its end.  ``until`` None: a pause written before pauses had an end (it ends
    with his next mail).
    """

    since: datetime
    until: datetime | None = None
    held: Deadline | None = None
    told: tuple[str, ...] = ()


@record
class GameRecord:
    """What the service keeps about a game beside its events (see the module's doc)."""

    players: tuple[str, ...] = ()
    from_position: bool = False
    dice: Dice = Dice(seed=0)
    time_limits: TimeLimits | None = None
    deadline: Deadline | None = None
    #: Wolff 21.1: the game's end date, if it has one.
    ends_at: datetime | None = None
    absences: tuple[Absence, ...] = ()
    paused: Pause | None = None
    tournament: str | None = None
    allow_secrets: bool = False
    #: The version each player was last reported up to.
    reported: Mapping[str, int] = field(default_factory=dict)
    #: Where each player's last report began (a ``report`` query sends it again).
    report_from: Mapping[str, int] = field(default_factory=dict)
    #: How each player wants to hear of the others' play (``schedule.notify``); a
    #: player not named has the default, ``turn``.
    notify: Mapping[str, str] = field(default_factory=dict)
    #: Which pictures each player's reports carry (``schedule.pictures``); a player not
    #: named has the default, ``changes``.
    pictures: Mapping[str, str] = field(default_factory=dict)
    #: The version each player's last masterboard showed: what his next one is compared with.
    boards: Mapping[str, int] = field(default_factory=dict)
    #: The same for his last battle picture.
    battles: Mapping[str, int] = field(default_factory=dict)
    #: The local day (ISO date) each ``digest`` player was last sent his digest.
    digest_sent: Mapping[str, str] = field(default_factory=dict)
    #: Each player's standing orders, as the lines he wrote (``orders.standing``): private
    #: to the moderator, never shown to another player (Wolff 9.4).
    standing: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: Players whose mail bounced, and their deadline's pause: an undelivered report is
    #: not a late player, so his deadline waits, for a bounded time.
    undelivered: Mapping[str, Undelivered] = field(default_factory=dict)
    #: The step key of the last deadline a bounce paused for each player: a deadline is
    #: paused once at most.
    bounce_paused: Mapping[str, str] = field(default_factory=dict)
    #: Each hidden legion's latest commitment (marker -> the event carrying it), so the
    #: commitment can be opened when the legion is shown (``moderator.audit.seal``).
    commitments: Mapping[str, int] = field(default_factory=dict)
    #: The last order's seal (``OrderSealed.mac``): the next one chains to it.
    last_seal: str = ""
    #: Whether players may pass messages through the moderator (Wolff 4.5; the game
    #: master may turn it off), and how many each passed on which day (UTC; "DAY N").
    relay: bool = True
    relayed: Mapping[str, str] = field(default_factory=dict)
    #: How many times each player showed a legion on which day (UTC; "DAY N"), for the
    #: daily allowance of shows as ``relayed`` is for messages.
    shown: Mapping[str, str] = field(default_factory=dict)
    #: The mails the moderator sent at once because of one player's shows and messages
    #: to another, a day: "AUTHOR>RECIPIENT" -> "DAY N" (capped: ``service.notify``).
    aside_mails: Mapping[str, str] = field(default_factory=dict)
    #: The dice seed was given by the operator (``game new --seed`` with
    #: ``--insecure-test-seed``), not drawn in secret: whoever knows or guesses it can
    #: compute every roll and every salt, so every report says the dice are not secret.
    insecure_dice: bool = False
    #: The variant the game is played in (its setup event names it too); older records
    #: name none and are of the standard game.
    variant: str = STANDARD
    #: What happens to a seat whose player missed ``keep_after`` deadlines in a row or
    #: left (``schedule.seats``): ``defaults`` (Wolff 20.4 goes on), ``robot`` or
    #: ``standby`` (the robot holds the seat until a standby takes it).
    seat_keeping: str = "defaults"
    keep_after: int = 2
    #: Minutes a robot waits before it acts (0: at once, in the change that made it its turn).
    robot_delay: int = 0
    #: Deadlines each seat's player missed in a row (a mail of his sets it back to 0).
    missed: Mapping[str, int] = field(default_factory=dict)
    #: Seats the robot holds, and why (``schedule.seats``: kept, standby, robot's own).
    robots: Mapping[str, str] = field(default_factory=dict)
    #: Seats whose player withdrew and that nobody took since: the defaults play them,
    #: and he is neither reminded nor told of his own timeouts (``schedule.seats``).
    left: tuple[str, ...] = ()
    #: Who held a seat before it was handed over, and when (``schedule.holders``).
    former: tuple[holders.FormerHolder, ...] = ()

    def but(self, **changes: Any) -> GameRecord:
        """The record with ``changes`` (``dataclasses.replace``)."""
        return dataclasses.replace(self, **changes)

    def relayed_on(self, player: str, day: str) -> int:
        """How many messages ``player`` passed on on ``day`` (an ISO date, UTC)."""
        return count_on(self.relayed, player, day)

    def shown_on(self, player: str, day: str) -> int:
        """How many times ``player`` showed a legion on ``day`` (an ISO date, UTC)."""
        return count_on(self.shown, player, day)

    def absences_of(self, player: str) -> list[Absence]:
        """``player``'s absences, earliest first."""
        return sorted((a for a in self.absences if a.player == player), key=lambda a: a.begins)

    # -- storage ---------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The record as stored (schema ``SCHEMA``)."""
        deadline = self.deadline
        paused = self.paused
        return {
            "schema": SCHEMA,
            "players": list(self.players),
            "from_position": self.from_position,
            "dice": {
                "seed": self.dice.seed,
                "script": list(self.dice.script) if self.dice.script is not None else None,
                "rolled": self.dice.rolled,
                "bound": self.dice.bound,
            },
            "time_limits": self.time_limits.to_json() if self.time_limits else None,
            "deadline": _deadline_json(deadline),
            "ends_at": iso(self.ends_at) if self.ends_at is not None else None,
            "absences": [
                {
                    "player": a.player,
                    "from": iso(a.begins),
                    "to": iso(a.ends),
                    "first": a.first,
                    "last": a.last,
                }
                for a in self.absences
            ],
            "paused": None
            if paused is None
            else {
                "at": iso(paused.at),
                "time_limits": paused.time_limits.to_json() if paused.time_limits else None,
            },
            "tournament": self.tournament,
            "allow_secrets": self.allow_secrets,
            "reported": dict(self.reported),
            "report_from": dict(self.report_from),
            "notify": dict(self.notify),
            "pictures": dict(self.pictures),
            "boards": dict(self.boards),
            "battles": dict(self.battles),
            "digest_sent": dict(self.digest_sent),
            "standing": {seat: list(lines) for seat, lines in self.standing.items()},
            "undelivered": {
                seat: {
                    "since": iso(pause.since),
                    "until": iso(pause.until) if pause.until is not None else None,
                    "held": _deadline_json(pause.held),
                    "told": list(pause.told),
                }
                for seat, pause in self.undelivered.items()
            },
            "bounce_paused": dict(self.bounce_paused),
            "commitments": dict(self.commitments),
            "last_seal": self.last_seal,
            "relay": self.relay,
            "relayed": dict(self.relayed),
            "shown": dict(self.shown),
            "aside_mails": dict(self.aside_mails),
            "insecure_dice": self.insecure_dice,
            "variant": self.variant,
            "seat_keeping": self.seat_keeping,
            "keep_after": self.keep_after,
            "robot_delay": self.robot_delay,
            "missed": dict(self.missed),
            "robots": dict(self.robots),
            "left": list(self.left),
            "former": holders.to_json(self.former),
        }

    @classmethod
    def from_json(cls, stored: Mapping[str, Any] | None) -> GameRecord:
        """A stored record of any schema so far, upcast to this one."""
        raw = dict(stored or {})
        if int(raw.get("schema", 0)) == 0:
            raw = upcast_0(raw)
        dice = dict(raw.get("dice") or {})
        script = dice.get("script")
        deadline = raw.get("deadline")
        paused = raw.get("paused")
        return cls(
            players=tuple(str(p) for p in raw.get("players") or ()),
            from_position=bool(raw.get("from_position")),
            dice=Dice(
                seed=None if script is not None else int(dice.get("seed") or 0),
                script=tuple(int(v) for v in script) if script is not None else None,
                rolled=int(dice.get("rolled") or 0),
                bound=bool(dice.get("bound")),
            ),
            time_limits=TimeLimits.from_json(raw.get("time_limits")),
            deadline=_deadline(deadline) if isinstance(deadline, Mapping) else None,
            ends_at=moment(raw.get("ends_at")),
            absences=tuple(_absences(raw.get("absences") or ())),
            paused=None
            if not isinstance(paused, Mapping)
            else Pause(
                moment(paused.get("at")) or datetime.fromtimestamp(0, UTC),
                TimeLimits.from_json(paused.get("time_limits")),
            ),
            tournament=str(raw["tournament"]) if raw.get("tournament") else None,
            allow_secrets=bool(raw.get("allow_secrets")),
            reported={str(k): int(v) for k, v in dict(raw.get("reported") or {}).items()},
            report_from={str(k): int(v) for k, v in dict(raw.get("report_from") or {}).items()},
            notify={str(k): str(v) for k, v in dict(raw.get("notify") or {}).items()},
            pictures={str(k): str(v) for k, v in dict(raw.get("pictures") or {}).items()},
            boards={str(k): int(v) for k, v in dict(raw.get("boards") or {}).items()},
            battles={str(k): int(v) for k, v in dict(raw.get("battles") or {}).items()},
            digest_sent={str(k): str(v) for k, v in dict(raw.get("digest_sent") or {}).items()},
            standing={
                str(k): tuple(str(line) for line in v)
                for k, v in dict(raw.get("standing") or {}).items()
            },
            undelivered={
                str(k): pause
                for k, v in dict(raw.get("undelivered") or {}).items()
                if (pause := _undelivered(v)) is not None
            },
            bounce_paused={str(k): str(v) for k, v in dict(raw.get("bounce_paused") or {}).items()},
            commitments={str(k): int(v) for k, v in dict(raw.get("commitments") or {}).items()},
            last_seal=str(raw.get("last_seal") or ""),
            relay=bool(raw.get("relay", True)),
            relayed={str(k): str(v) for k, v in dict(raw.get("relayed") or {}).items()},
            shown={str(k): str(v) for k, v in dict(raw.get("shown") or {}).items()},
            aside_mails={str(k): str(v) for k, v in dict(raw.get("aside_mails") or {}).items()},
            insecure_dice=bool(raw["insecure_dice"]) if "insecure_dice" in raw else _weak_seed(dice),
            variant=str(raw.get("variant") or STANDARD),
            seat_keeping=str(raw.get("seat_keeping") or "defaults"),
            keep_after=int(raw.get("keep_after") or 2),
            robot_delay=int(raw.get("robot_delay") or 0),
            missed={str(k): int(v) for k, v in dict(raw.get("missed") or {}).items()},
            robots={str(k): str(v) for k, v in dict(raw.get("robots") or {}).items()},
            left=tuple(str(seat) for seat in raw.get("left") or ()),
            former=holders.from_json(raw.get("former")),
        )


def count_on(counts: Mapping[str, str], key: str, day: str) -> int:
    """The count a "DAY N" mapping holds for ``key`` on ``day`` (0 for another day)."""
    on, _, count = counts.get(key, "").partition(" ")
    return int(count) if on == day and count.isdigit() else 0


def counted(counts: Mapping[str, str], key: str, day: str, more: int) -> dict[str, str]:
    """A "DAY N" mapping with ``more`` added to ``key``'s count of ``day``."""
    return {**counts, key: f"{day} {count_on(counts, key, day) + more}"}


def _weak_seed(dice: Mapping[str, Any]) -> bool:
    """
    Whether the bound dice of a record stored before ``insecure_dice`` existed have a
    seed nobody drew in secret: a game started with ``--seed`` then has one of at most
    64 bits, which ``play.dice.new_seed`` (256 random bits) gives with odds of 2**-192.
    """
    seed = dice.get("seed")
    return bool(dice.get("bound")) and dice.get("script") is None and int(seed or 0) < 2**64


def _deadline_json(deadline: Deadline | None) -> dict[str, str] | None:
    if deadline is None:
        return None
    return {
        "key": deadline.key,
        "player": deadline.player,
        "kind": deadline.kind,
        "started": iso(deadline.started),
        "due": iso(deadline.due),
    }


def _undelivered(stored: Any) -> Undelivered | None:
    """A seat's pause as stored; a bare moment is a pause of before pauses had an end."""
    if not isinstance(stored, Mapping):
        since = moment(stored)
        return Undelivered(since) if since is not None else None
    since = moment(stored.get("since"))
    if since is None:
        return None
    held = stored.get("held")
    return Undelivered(
        since,
        moment(stored.get("until")),
        _deadline(held) if isinstance(held, Mapping) else None,
        tuple(str(address) for address in stored.get("told") or ()),
    )


def _deadline(stored: Mapping[str, Any]) -> Deadline | None:
    due = moment(stored.get("due"))
    if due is None:
        return None
    return Deadline(
        str(stored.get("key") or ""),
        str(stored.get("player") or ""),
        str(stored.get("kind") or ""),
        moment(stored.get("started")) or due,
        due,
    )


def _absences(stored: Any) -> Iterator[Absence]:
    for entry in stored:
        begins, ends = moment(entry.get("from")), moment(entry.get("to"))
        if begins is None or ends is None:
            continue
        yield Absence(
            str(entry["player"]), begins, ends, str(entry["first"]), str(entry["last"])
        )


__all__ = [
    "SCHEMA",
    "Absence",
    "Deadline",
    "Dice",
    "GameRecord",
    "Pause",
    "Undelivered",
    "count_on",
    "counted",
    "iso",
    "moment",
    "upcast_0",
]
