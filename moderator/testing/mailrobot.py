"""
A robot player by mail: it signs on, reads its mailbox over IMAP and answers over
SMTP, each order signed with its own key, like a player at a mail client.  The demo
and the tests that play by mail use it (a player, not the moderator: test support).

What it learns from its mail is what a player learns: the step reference of the latest
report or reply, and so whether the mail it would answer is current.  What to order it
decides with a robot of its ``kind``: ``competent`` (``moderator.robots``, the default)
decides from the seat's view alone (``robots.seat_view``: the public record, its own
legions, what it knows for certain of the others), never from what the player cannot
see; ``random`` (``moderator.robot``) picks a random legal order.  Like a player, it
mails the orders of a step it can give at once in one mail (``seat_orders``,
``robots.batch``: up to a die, another player's turn or the step's end).  The robot
reads the game from the moderator's database, read only, and only when its mail says
the game is at the step it last heard of; the competent kind sees only the seat's view
of it.  It never orders on a reference it has not been mailed, so every order it sends
goes the whole way through the service.

Robots sign their mail alternately as PGP/MIME and clearsigned text, the two ways
players' clients sign.  A *silent* robot signs on and reads its mail but never orders
(the deadlines time it out).  With ``stamps`` (the one-game demo) a robot's mail is
the same bytes in every run of a seed: its Message-ID and time come from the stamps,
its MIME boundaries from its Message-ID, and its key signs deterministically (Ed25519)
at the demo clock's time; the dice bound to the mail's digest repeat.
"""

from __future__ import annotations

import asyncio
import mailbox
import random
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from email import policy
from email.message import EmailMessage, MIMEPart
from email.parser import BytesHeaderParser
from email.utils import format_datetime
from pathlib import Path

from moderator import robot, robots
from moderator.clock import Clock, SystemClock
from moderator.mail import compose
from moderator.mail.errors import MailTransportError
from moderator.mail.gpg import Keyring
from moderator.mail.imap import ImapSource
from moderator.mail.smtp import SmtpSession, SmtpSink
from moderator.rules.legal import to_act
from moderator.rules.state import GameState
from moderator.schedule import reference
from moderator.store import players
from moderator.store.eventstore import EventStore
from moderator.testing.player_keys import ROBOT_DOMAIN
from moderator.testing.stamps import MailStamps, boundary_for
from moderator.usecases.games.robot_kinds import KINDS

#: The robots a mail robot plays with (``demo --robot``; ``robot_match.KINDS``): the
#: default first.
ROBOT_KINDS = KINDS
COMPETENT, RANDOM = KINDS

#: How a robot reads a mail's headers: the standard policy with the moderator's header
#: registry (``compose.POLICY``'s: each header's class made once, each header parsed once).
_READING = policy.default.clone(header_factory=compose.POLICY.header_factory)


class ReadersMbox(mailbox.mbox):
    """
    A robot's mailbox file: what it read is handed to the system at each ``flush``, so a
    mail program sees it at once, and forced to the disk (fsync) only at ``close``.  The
    hub keeps the mail, the file is the player's copy; ``mailbox.mbox`` synced it at every
    flush, and a sync waits on the disk (a median half a millisecond, tens of
    milliseconds under others' writes) with every robot of the process stopped.
    """

    _closing = False

    def flush(self) -> None:
        if self._closing or self._pending or not self._pending_sync:  # type: ignore[attr-defined]
            super().flush()  # a rewrite, or the last flush: mailbox.mbox's own
            return
        self._file.flush()  # type: ignore[attr-defined]

    def close(self) -> None:
        self._closing = True
        super().close()


def header_block(raw: bytes) -> bytes:
    """A mail's header lines, up to and with the blank line that ends them (the whole
    mail when it has no body)."""
    ends = [at + len(blank) for blank in (b"\r\n\r\n", b"\n\n") if (at := raw.find(blank)) >= 0]
    return raw[: min(ends)] if ends else raw


def lf_line_ends(raw: bytes) -> bytes:
    """A mail's bytes with LF line ends, as an mbox file on Unix holds them (mail
    programs verify signatures over the canonical CRLF form whatever the file has)."""
    return raw.replace(b"\r\n", b"\n")


def check_kind(kind: str) -> str:
    """``kind`` if it names a robot (``ROBOT_KINDS``), else a ValueError saying which do."""
    if kind not in ROBOT_KINDS:
        raise ValueError(f"unknown robot {kind!r}: use one of {', '.join(ROBOT_KINDS)}")
    return kind


def seat_kinds(spec: str, seats: int) -> list[str]:
    """
    The robot of each of ``seats`` seats from ``spec``: one kind for every seat, or a
    comma list, seat by seat, whose last kind plays the seats it does not name
    (``competent,random``: the first seat competent, the others random).

    Raises:
        ValueError: a kind no robot has, or more kinds than seats.
    """
    kinds = [check_kind(kind.strip()) for kind in spec.split(",") if kind.strip()]
    if not kinds:
        raise ValueError(f"name a robot: one of {', '.join(ROBOT_KINDS)}, or a comma list")
    if len(kinds) > seats:
        raise ValueError(f"{len(kinds)} robots named for {seats} seats: {spec}")
    return kinds + [kinds[-1]] * (seats - len(kinds))


def seat_order(kind: str, state: GameState, seat: str, rng: random.Random) -> str:
    """
    The one order line a robot of ``kind`` gives for ``seat`` (which must be to act):
    for a harness that measures the moderator's work per order mail (bench_mail).
    """
    if check_kind(kind) == RANDOM:
        return robot.choose_order(state, rng)[0]
    return robots.order(robots.seat_view(state, seat), rng)[0]


def seat_orders(kind: str, state: GameState, seat: str, rng: random.Random) -> list[str]:
    """
    The order lines a robot of ``kind`` mails at once for ``seat`` (which must be to
    act), as a player writes a step's orders in one mail (``robots.batch``).  The
    competent robot is handed the seat's view only, so what the seat cannot see (the
    contents of others' legions it does not know) cannot change its orders.
    """
    if check_kind(kind) == RANDOM:
        return robots.batch(state, seat, lambda now: robot.choose_order(now, rng))
    return robots.orders(robots.seat_view(state, seat), rng)


@dataclass
class RobotTally:
    """What a robot did: mails read, orders sent and the mails that carried them."""

    mails_read: int = 0
    orders_sent: int = 0
    order_mails: int = 0


@dataclass
class MailRobot:
    """One robot player (see the module's text)."""

    name: str
    address: str
    keyring: Keyring
    fingerprint: str
    source: ImapSource
    sink: SmtpSink
    moderator: str
    mbox_path: Path
    rng: random.Random
    silent: bool = False
    pgp_mime: bool = True
    #: The robot that decides its orders (``ROBOT_KINDS``).
    kind: str = COMPETENT
    #: Message-IDs and times that repeat from run to run (None: random ids, ``clock``'s
    #: time).
    stamps: MailStamps | None = None
    #: The time a mail is dated and signed at without ``stamps`` (the demo's clock).
    clock: Clock = field(default_factory=SystemClock)
    tally: RobotTally = field(default_factory=RobotTally)
    #: The newest step reference mailed to this robot, per game.
    heard: dict[str, int] = field(default_factory=dict)
    #: The reference of the robot's last order, per game (not ordered again on it).
    ordered_on: dict[str, int] = field(default_factory=dict)
    #: The Message-ID of the robot's last order, per game (its answer refers to it).
    order_ids: dict[str, str] = field(default_factory=dict)
    _uid: int | None = None
    _validity: int | None = None
    #: The mailbox file, open from the first mail read to ``close``.
    _box: ReadersMbox | None = None
    #: The SMTP connection kept from the first mail sent to ``close`` (a mail program
    #: keeps its own too: a connection, greeting and EHLO per order cost the mail server
    #: more than the order).
    _smtp: SmtpSession | None = None

    def __post_init__(self) -> None:
        check_kind(self.kind)

    @property
    def read_upto(self) -> int | None:
        """The UID of the last mail read from the robot's INBOX (None: none yet)."""
        return self._uid

    # -- mail out ---------------------------------------------------------------------------

    async def sign_on(self) -> None:
        """Mail ``signon NAME`` with the robot's public key, signed by that key."""
        stamp = self._stamp()
        key = MIMEPart(policy=compose.POLICY)
        key.set_content(
            self.keyring.export_public(self.fingerprint).encode(),
            maintype="application",
            subtype="pgp-keys",
            disposition="attachment",
            filename="key.asc",
        )
        text = f"signon {self.name}\ntimezone UTC\n"
        # The signed entity made here, so that its boundary too is the stamp's.
        entity = MIMEPart(policy=compose.POLICY)
        entity.add_header("Content-Type", "multipart/mixed", boundary=boundary_for(stamp[0] + "+"))
        entity.attach(compose.text_part(text))
        entity.attach(key)
        message = await asyncio.to_thread(
            compose.signed_mime, [entity], self.keyring, self.fingerprint
        )
        await self._send(message, "signon", stamp)

    async def send_lines(self, lines: Sequence[str], subject: str) -> str:
        """
        Mail ``lines`` signed (PGP/MIME or clearsigned, see ``pgp_mime``); returns the
        mail's Message-ID.
        """
        text = "".join(f"{line}\n" for line in lines)
        stamp = self._stamp()
        if self.pgp_mime:
            message = await asyncio.to_thread(
                compose.signed_mime, [text], self.keyring, self.fingerprint
            )
        else:
            signed = await asyncio.to_thread(self.keyring.clearsign, text, self.fingerprint)
            message = EmailMessage(policy=compose.POLICY)
            message.set_content(signed.decode("ascii"))
        return await self._send(message, subject, stamp)

    async def order(self, game_id: str, version: int, orders: str | Sequence[str]) -> None:
        """Mail ``orders`` (a line or lines) for ``game_id`` in one mail, quoting its
        step reference."""
        orders = [orders] if isinstance(orders, str) else list(orders)
        lines = [f"game {game_id}", f"ref {game_id}-{version}", *orders]
        more = f" (+{len(orders) - 1} more)" if len(orders) > 1 else ""
        subject = f"[titan {game_id}] {orders[0]}{more}"
        self.order_ids[game_id] = await self.send_lines(lines, subject)
        self.ordered_on[game_id] = version
        self.tally.orders_sent += len(orders)
        self.tally.order_mails += 1

    def _stamp(self) -> tuple[str, datetime]:
        """The next mail's Message-ID and time (taken before it is signed at that time)."""
        if self.stamps is not None:
            return self.stamps.next(self.name)
        return f"<{uuid.uuid4().hex}@{ROBOT_DOMAIN}>", self.clock.now()

    async def _send(
        self, message: EmailMessage, subject: str, stamp: tuple[str, datetime]
    ) -> str:
        """Address and send ``message`` with its ``stamp``; returns its Message-ID."""
        message_id, when = stamp
        if message.is_multipart():
            message.set_boundary(boundary_for(message_id))  # outside the signed part
        message["From"] = f"{self.name} <{self.address}>"
        message["To"] = self.moderator
        message["Subject"] = subject
        message["Date"] = format_datetime(when)
        message["Message-ID"] = message_id
        data = message.as_bytes(policy=compose.POLICY)
        if self._smtp is None:
            self._smtp = self.sink.session()
        try:
            await self._smtp.send(data, self.address, [self.moderator])
        except MailTransportError as exc:
            if exc.permanent:
                raise
            # The kept connection may have been dropped by the server while idle: the
            # session opens a new one, once.
            await self._smtp.send(data, self.address, [self.moderator])
        return message_id

    # -- mail in ------------------------------------------------------------------------------

    async def read_mail(self, wait: float) -> int:
        """
        Wait up to ``wait`` seconds for mail, file what came and note its references.  A
        server with IDLE that announced nothing in the wait is not asked again (a robot
        waiting for its answer costs the server one command a wait, not four).
        """
        if wait > 0 and not await self.source.idle_wait(wait) \
                and "IDLE" in self.source.capabilities:
            return 0
        found = await self.source.fetch_new(self._uid, self._validity)
        self._validity = found.uidvalidity
        if not found.messages:
            return 0
        self._uid = found.last_uid
        box = self._mailbox()
        try:
            for _uid, raw in found.messages:
                box.add(lf_line_ends(raw))
                self._note(raw)
        finally:
            box.flush()
        self.tally.mails_read += len(found.messages)
        return len(found.messages)

    def _mailbox(self) -> ReadersMbox:
        """The robot's mailbox file, kept open: a ``mailbox.mbox`` opened anew reads the
        whole file before its first ``add``, which over a game cost more than the mail."""
        if self._box is None:
            self._box = ReadersMbox(self.mbox_path)
        return self._box

    def start_mailbox(self) -> None:
        """Begin the mailbox file afresh (a harness keeping only a game's mail): the kept
        file is closed before it goes, or mail would be added to a file no longer named."""
        if self._box is not None:
            self._box.close()
            self._box = None
        self.mbox_path.unlink(missing_ok=True)

    async def close(self) -> None:
        """Close the robot's IMAP and SMTP connections and its mailbox file (all it read
        is in it)."""
        try:
            if self._smtp is not None:
                session, self._smtp = self._smtp, None
                await session.close()
            await self.source.close()
        finally:
            if self._box is not None:
                self._box.close()
                self._box = None

    def _note(self, raw: bytes) -> None:
        # Only the header block is parsed: the header parser still splits a whole body
        # into lines, and a report's board picture is a thousand of them.
        headers = BytesHeaderParser(policy=_READING).parsebytes(header_block(raw))
        ref = reference.subject_ref(str(headers.get("Subject", "")))
        if ref is None:
            return
        if ref.version > self.heard.get(ref.game, -1):
            self.heard[ref.game] = ref.version
        elif (
            ref.version == self.ordered_on.get(ref.game)
            and str(headers.get("In-Reply-To", "")).strip() == self.order_ids.get(ref.game)
        ):
            # The answer to our order, and the game has not moved: it was refused.
            # (A report of the move comes with the same reference as the answer to it,
            # and may come second: only the answer tells of a refusal.)
            del self.ordered_on[ref.game]

    # -- play -------------------------------------------------------------------------------

    def choose(self, game_id: str, state: GameState) -> str | None:
        """One order to mail now, or None: not our move, or not told of this step (a
        harness that measures one order a mail; a player's mail is ``choose_as``'s)."""
        if not self.ready(game_id, self.name, state):
            return None
        return seat_order(self.kind, state, self.name, self.rng)

    async def play_once(self, store: EventStore, game_id: str) -> bool:
        """Order if it is our move by our latest mail; True when an order went out."""

        def look() -> tuple[GameState, list[str] | None]:
            state = store.load_state(game_id).state
            # a decision may take a while
            return state, self.choose_as(game_id, self.name, state)

        state, lines = await asyncio.to_thread(look)
        if lines is None:
            return False
        await self.order(game_id, state.steps_seen(self.name), lines)
        return True

    async def play_on(self, game_id: str, state: GameState) -> bool:
        """
        ``play_once`` on ``state``, the game as its loop has just read it for all the
        robots: a robot orders only on what its mail told it (``choose``), so reading
        the game again for each robot would change nothing but the cost (the store's
        read of a game is most of a demo's robot side).  True when an order went out.
        """
        if not self.ready(game_id, self.name, state):
            return False
        lines = await asyncio.to_thread(seat_orders, self.kind, state, self.name, self.rng)
        await self.order(game_id, state.steps_seen(self.name), lines)
        return True

    # -- tournaments (issue 7): lines that are not orders, and more than one game ---------

    async def join_tournament(self, tournament: str, *, standby: bool = False) -> None:
        """``join tournament T`` (or ``standby tournament T``) by signed mail."""
        word = "standby" if standby else "join"
        await self.send_lines([f"{word} tournament {tournament}"], f"{word} {tournament}")

    def games_heard_of(self) -> list[str]:
        """The games whose reports this robot was mailed (their step references)."""
        return sorted(self.heard)

    def choose_as(self, game_id: str, seat: str, state: GameState) -> list[str] | None:
        """
        The orders of one mail for the seat ``seat`` (in a tournament it may differ from
        the name), or None: all a player would give at once (``seat_orders``).
        """
        if not self.ready(game_id, seat, state):
            return None
        return seat_orders(self.kind, state, seat, self.rng)

    def ready(self, game_id: str, seat: str, state: GameState) -> bool:
        """Whether ``seat`` is to act in ``state`` and this robot's mail told it so, and
        it has not ordered on that step reference yet."""
        if self.silent or to_act(state) != seat:
            return False
        if self.heard.get(game_id) != state.steps_seen(seat):
            return False  # our mail has not caught up with the game
        # Ordered on this reference already: its answer is on its way.
        return self.ordered_on.get(game_id) != state.steps_seen(seat)

    async def play_seat(self, store: EventStore, game_id: str) -> bool:
        """
        ``play_once`` for whichever seat of ``game_id`` the robot holds now (none: a seat
        handed to another player is no longer the robot's to play).
        """

        def look() -> tuple[int, list[str] | None]:
            with store.reading() as tx:
                seat = players.seats(tx, game_id).get(self.address)
                state = tx.load(game_id).state
            if seat is None:
                return 0, None
            return state.steps_seen(seat), self.choose_as(game_id, seat, state)

        version, lines = await asyncio.to_thread(look)
        if lines is None:
            return False
        await self.order(game_id, version, lines)
        return True

