"""
``titan-moderator demo``: the whole service on one machine, with nothing to set up.

An embedded mail hub (SMTP and IMAP on loopback, ``moderator.testing.hub``), GnuPG keys
made in temporary homes for the moderator and each robot, a SQLite database, and the
service itself (``Service``: the same poller, sender and deadline jobs as ``serve``).
Robot players (``testing.mailrobot``) sign on by mail with their keys, the moderator
starts a game for them (as ``game new`` does), and they play it to the end by mail,
each order signed, each report signed and its private part encrypted to its reader.
They play with the competent robot (``moderator.robots``, deciding from each seat's
view alone) unless told to play random legal orders (``--robot random``).

Everything lands in one folder: every robot's mailbox as an mbox file, the moderator's
incoming mail, and the database (``titan-moderator local history demo --as Ann --db
sqlite:///FOLDER/demo.sqlite`` replays the game as Ann read it).

The same seed plays the same game again: the dice come from the seed (an insecure test
seed, which the reports say), the robots choose with a generator seeded from it, and
their mails are the same bytes in every run (``testing.stamps``: the demo's clock and
the mails' stamps; ``testing.player_keys``: the robots' key pairs), so the dice bound
to each mail's digest repeat.  The game itself is the test support's
(``testing.mailgame``): the tests play by mail the same way, and read what the demo
leaves in its folder.
"""

from __future__ import annotations

import mailbox
import random
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from moderator.demo.keys import keep
from moderator.ports.mail import PENDING
from moderator.rules.state import GameState, Step
from moderator.rules.variant import STANDARD
from moderator.runtime.bootstrap import Overrides, bootstrap
from moderator.store import inbox, outbox
from moderator.store.eventstore import EventStore
from moderator.testing.clocks import DemoClock
from moderator.testing.hub import MailHub
from moderator.testing.mailgame import MailGame, MailSystem, play_by_mail, service_config
from moderator.testing.mailrobot import lf_line_ends, seat_kinds
from moderator.testing.player_keys import PlayerKeys
from moderator.usecases.games.robot_games import DEFAULT_NAMES

GAME_ID = "demo"
#: The demo's robots unless told otherwise: the first competent, the others random.  A
#: game between competent robots is a plausible one but takes thousands of orders, an
#: hour or more by mail; against random robots the competent one wins in minutes.
DEMO_ROBOTS = "competent,random"


@dataclass
class DemoOptions:
    players: int = 3
    seed: int | None = None
    #: Where to keep the mailboxes and the database (default: a new temporary folder).
    folder: Path | None = None
    #: Robots that never order (the deadlines time them out).
    silent: tuple[str, ...] = ()
    #: Give up after this many real seconds: a game between competent robots takes
    #: hundreds of orders by mail, often thousands (a minute or so for a hundred on an
    #: idle machine); one between random robots a few hundred at most.
    timeout: float = 6 * 3600.0
    #: The robot each player plays with: a kind or a comma list, seat by seat
    #: (``testing.mailrobot.seat_kinds``).
    robot: str = DEMO_ROBOTS
    #: The game's variant (``game new --variant``; docs/variants.md).
    variant: str = STANDARD
    #: Stop after this many turns, the game not over (``demo --turns``): a long game's
    #: first turns, to measure what they cost.  None: play to the end.
    turns: int | None = None
    #: Which pictures the robots' reports carry, as each player's ``pictures`` line
    #: chooses (``schedule.pictures``; None: the default, ``changes``).  The same seed
    #: plays the same game whatever the choice: the pictures are drawn from it.
    pictures: str | None = None


@dataclass
class DemoSummary:
    folder: Path
    state: GameState
    orders: int
    mails_sent: int
    #: The robots' mails that carried them (a step's orders go in one mail).
    order_mails: int
    mails_read: int
    seconds: float
    mailboxes: dict[str, Path] = field(default_factory=dict)
    seed: int = 0
    #: The options it was played with (``again`` repeats them).
    options: DemoOptions = field(default_factory=DemoOptions)
    #: The player whose view the replay command shows (the first robot).
    viewer: str = DEFAULT_NAMES[0]

    @property
    def finished(self) -> bool:
        return self.state.step is Step.OVER

    @property
    def stopped(self) -> bool:
        """Whether it stopped, not over, after the turns ``--turns`` asked for."""
        turns = self.options.turns
        return not self.finished and turns is not None and self.state.turn > turns

    @property
    def done(self) -> bool:
        """Whether it did what was asked: the game played to its end, or its turns."""
        return self.finished or self.stopped

    def text(self) -> str:
        scores = ", ".join(f"{p.name} {p.score}" for p in self.state.players)
        winner = self.state.winner or "nobody (a draw)"
        played = "" if self.state.variant_name == STANDARD else f" of {self.state.variant_name}"
        if self.finished:
            outcome = f"Game{played} over after {self.state.turn} turns: winner {winner}; scores: {scores}."
        elif self.stopped:
            turns = self.options.turns
            outcome = (
                f"Game{played} stopped after turn {turns}, as asked (--turns {turns}), not "
                f"over; scores: {scores}."
            )
        else:
            outcome = f"The game{played} did not finish (turn {self.state.turn})."
        lines = [
            outcome,
            (
                f"{self.orders} orders by mail (in {self.order_mails} mails), "
                f"{self.mails_sent} mails from the moderator "
                f"(all signed), {self.mails_read} read by the robots, in {self.seconds:.0f} s "
                f"({60 * self.orders / max(self.seconds, 1e-9):.0f} orders a minute); "
                f"dice seed {self.seed}."
            ),
            "",
            *where_lines(self.folder, self.mailboxes, GAME_ID, self.viewer),
            "Play the same game again (the same turns, dice and orders):",
            f"  {self.again()}",
        ]
        return "\n".join(lines)

    def again(self) -> str:
        """The command that plays this game again."""
        silent = "".join(f" --silent {name}" for name in self.options.silent)
        kind = "" if self.options.robot == DEMO_ROBOTS else f" --robot {self.options.robot}"
        variant = "" if self.options.variant == STANDARD else f" --variant {self.options.variant}"
        turns = "" if self.options.turns is None else f" --turns {self.options.turns}"
        shown = "" if self.options.pictures is None else f" --pictures {self.options.pictures}"
        return (
            f"titan-moderator demo --seed {self.seed} --players {self.options.players}"
            f"{silent}{kind}{variant}{turns}{shown}"
        )


def where_lines(
    folder: Path, mailboxes: Mapping[str, Path], replay: str, viewer: str
) -> list[str]:
    """
    The end of a demo's summary: where every mailbox and the database are, and how to
    read game ``replay`` as ``viewer`` (one of its players) read it.
    """
    db = folder / "demo.sqlite"
    return [
        f"Everything is in {folder}:",
        *(f"  {who:<10} {path}" for who, path in mailboxes.items()),
        f"  database   {db}",
        "",
        f"  keys       {folder / 'players'} (GnuPG homes), {folder / 'moderator.asc'}",
        "",
        f"How to read a mailbox with mutt or gpg: {folder / 'README.txt'}.",
        f"Replay game {replay} move by move as {viewer} read it:",
        f"  titan-moderator local history {replay} --as {viewer} --db sqlite:///{db}",
    ]


async def run_demo(
    options: DemoOptions,
    progress: Callable[[str], None] = lambda _line: None,
) -> DemoSummary:
    """Play one game by mail on the embedded hub; see the module's text."""
    started = time.monotonic()
    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(2**31)
    folder = options.folder or Path(tempfile.mkdtemp(prefix="titan-demo-"))
    folder.mkdir(parents=True, exist_ok=True)
    names = list(DEFAULT_NAMES[: options.players])
    seat_kinds(options.robot, options.players)
    unknown = [n for n in options.silent if n not in names]
    if unknown:
        msg = f"--silent names no robot of this game: {', '.join(unknown)} (robots: {names})"
        raise ValueError(msg)
    progress(f"Making the moderator's GnuPG key; the {len(names)} robots' are shipped ...")
    clock = DemoClock()
    keys = await PlayerKeys.make(names, clock)
    game = MailGame(
        game_id=GAME_ID,
        names=names,
        seed=seed,
        silent=options.silent,
        robot=options.robot,
        timeout=options.timeout,
        started=started,
        variant=options.variant,
        turns=options.turns,
        pictures=options.pictures,
    )
    try:
        async with MailHub() as hub:
            return await _play(options, progress, folder, game, hub, keys, clock)
    finally:
        keep(keys, folder, GAME_ID)
        keys.drop()


async def _play(
    options: DemoOptions,
    progress: Callable[[str], None],
    folder: Path,
    game: MailGame,
    mail: MailSystem,
    keys: PlayerKeys,
    clock: DemoClock,
) -> DemoSummary:
    config = service_config(mail, folder, keys)
    robots = await play_by_mail(game, config, mail, keys, clock, folder, progress)
    after = bootstrap(config, Overrides(clock=clock))
    try:
        store = after.store
        state = store.load_state(GAME_ID).state
        mailboxes = {bot.name: bot.mbox_path for bot in robots}
        mailboxes["moderator"] = dump_inbox(store, folder / "mail" / "moderator.mbox")
        with store.reading() as tx:
            sent = len(outbox.mails(tx)) - len(outbox.mails(tx, status=PENDING))
    finally:
        after.close()
    return DemoSummary(
        folder=folder,
        state=state,
        orders=sum(bot.tally.orders_sent for bot in robots),
        order_mails=sum(bot.tally.order_mails for bot in robots),
        mails_sent=sent,
        mails_read=sum(bot.tally.mails_read for bot in robots),
        seconds=time.monotonic() - game.started,
        mailboxes=mailboxes,
        seed=game.seed,
        options=options,
        viewer=game.names[0],
    )


def dump_inbox(store: EventStore, path: Path) -> Path:
    """The moderator's incoming mail, as archived, into an mbox file."""
    box = mailbox.mbox(path)
    try:
        with store.reading() as tx:
            for message in inbox.messages(tx):
                box.add(lf_line_ends(message.raw))
    finally:
        box.close()
    return path
