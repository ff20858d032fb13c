"""
The mail service in one process, with no mail servers: what ``simulate`` plays through.

The store (SQLite in a temporary folder), the mail handler and the clock come from the
composition root's ``App`` (``runtime.bootstrap``), for a configuration like the demo's
(``simulation_config``) without a GnuPG home: players authenticate with a ``secret`` line, in games that allow it.  A
robot's mail is plain RFC 5322 bytes, archived with ``inbox.receive`` and processed by
``processing.process_message``, the very runner the poller calls for each message; the
moderator's answers stay outbox rows (a real sender would sign each one: here they are
counted and read, never sent).  Time is a hand-moved clock (the App's, which the
command line makes a ``SettableClock``); the deadline job (``clock_runner.check_deadlines``) is called at each moment something is due.
"""

from __future__ import annotations

from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

from sqlalchemy import select

from moderator.clock import SettableClock
from moderator.mail import compose
from moderator.records import record
from moderator.rules.state import GameState
from moderator.rules.variant import STANDARD
from moderator.runners import clock as clock_runner
from moderator.runners import mail as processing
from moderator.runners.commands import start_game
from moderator.runtime.bootstrap import App
from moderator.runtime.config import Config, DatabaseSettings, ModeratorSettings, ServiceSettings
from moderator.schedule.limits import TimeLimits
from moderator.store import deadlines, inbox
from moderator.store.eventstore import EventStore
from moderator.store.tables import OUTBOX
from moderator.usecases.mail.handler import MailGameHandler

MODERATOR = "moderator@simulate.invalid"
ROBOT_DOMAIN = "robots.simulate.invalid"
#: When every simulated game starts (a Monday morning; nothing depends on it).
EPOCH = datetime(2024, 7, 1, 9, 0, tzinfo=UTC)


def robot_address(name: str) -> str:
    return f"{name.lower()}@{ROBOT_DOMAIN}"


def secret_of(name: str, game_id: str) -> str:
    """A robot's secret (longer than the sign-on's minimum of eight characters)."""
    return f"{name.lower()}-{game_id}-secret"


@record
class Written:
    """One outbox row, as far as the simulation reads it."""

    id: int
    recipient: str
    kind: str | None
    body: str
    private_body: str | None
    inbound_id: int | None


@record
class Delivered:
    """What became of one robot mail: its status, the runner's note and its answers."""

    status: str
    note: str | None
    mails: list[Written]


def simulation_config(folder: Path) -> Config:
    """The moderator a simulation runs: its database in ``folder``, no keys, no budget."""
    return Config(
        moderator=ModeratorSettings(address=MODERATOR, name="Titan moderator (simulated)"),
        database=DatabaseSettings(url=f"sqlite:///{folder / 'simulate.sqlite'}"),
        # Robots are not runaway mailers: no daily budget gets in their way.
        service=ServiceSettings(reply_budget=1_000_000),
        source="simulate",
    )


class InProcess:
    """A store, a handler and a clock: the service without its mail adapters."""

    def __init__(self, app: App) -> None:
        clock = app.clock
        if not isinstance(clock, SettableClock):
            msg = f"a simulation moves its clock by hand: {clock!r} cannot be set"
            raise TypeError(msg)
        self.app = app
        self.clock: SettableClock = clock
        self.store: EventStore = app.store
        self.handler: MailGameHandler = app.handler
        self._sent = 0
        self._seen = 0

    def close(self) -> None:
        self.app.close()

    # -- mail in ------------------------------------------------------------------------

    def mail(self, name: str, lines: list[str], *, subject: str = "orders") -> Delivered:
        """Deliver a plain mail of ``lines`` from robot ``name`` now and process it."""
        self._sent += 1
        message = EmailMessage(policy=compose.POLICY)
        message["From"] = f"{name} <{robot_address(name)}>"
        message["To"] = MODERATOR
        message["Subject"] = subject
        message["Date"] = format_datetime(self.clock.now())
        message["Message-ID"] = f"<sim-{self._sent}@{ROBOT_DOMAIN}>"
        message.set_content("".join(f"{line}\n" for line in lines))
        message_id = inbox.receive(self.store, message.as_bytes(policy=compose.POLICY))
        status = processing.process_message(self.store, message_id, self.handler)
        with self.store.reading() as tx:
            note = inbox.message(tx, message_id).error
        return Delivered(status, note, self.new_mails())

    def sign_on(self, name: str, game_id: str) -> Delivered:
        """``signon NAME`` with the robot's secret, by mail."""
        lines = [f"signon {name}", f"secret {secret_of(name, game_id)}", "timezone UTC"]
        return self.mail(name, lines, subject="signon")

    # -- the moderator's side -------------------------------------------------------------

    def start(
        self,
        game_id: str,
        names: list[str],
        seed: int,
        limits: TimeLimits,
        *,
        variant: str = STANDARD,
    ) -> GameState:
        """The game started as ``game new`` does (``--variant`` too), with secrets allowed."""
        return start_game(
            self.store,
            game_id,
            [robot_address(n) for n in names],
            sender=MODERATOR,
            seed=seed,
            insecure_seed=True,  # a simulation replays from its seed: never a real game
            allow_secrets=True,
            time_limits=limits,
            variant=variant,
        )

    def state(self, game_id: str) -> GameState:
        return self.store.load_state(game_id).state

    def next_due(self, game_id: str, after: datetime) -> datetime | None:
        """The first moment after ``after`` the deadline job has work for the game."""
        with self.store.reading() as tx:
            rows = deadlines.open_deadlines(tx, game_id)
            limits = tx.record(game_id).time_limits
        moments: list[datetime] = []
        for row in rows:
            moments.append(row.due_at)
            leads = limits.reminders if limits is not None and row.acting else ()
            if row.reminded < len(leads):
                moments.append(row.due_at - leads[row.reminded])
        return min((m for m in moments if m > after), default=None)

    def run_deadlines(self, at: datetime) -> list[Written]:
        """The deadline job at ``at`` (the clock is moved there); the mails it wrote."""
        self.clock.set(max(self.clock.now(), at))
        clock_runner.check_deadlines(self.store, MODERATOR, self.clock.now())
        return self.new_mails()

    def new_mails(self) -> list[Written]:
        """The outbox rows written since the last call."""
        query = select(
            OUTBOX.c.id,
            OUTBOX.c.recipient,
            OUTBOX.c.kind,
            OUTBOX.c.body,
            OUTBOX.c.private_body,
            OUTBOX.c.inbound_id,
        ).where(OUTBOX.c.id > self._seen)
        with self.store.reading() as tx:
            rows = [Written(*row) for row in tx.connection.execute(query.order_by(OUTBOX.c.id))]
        if rows:
            self._seen = rows[-1].id
        return rows
