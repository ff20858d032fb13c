"""
``titan-moderator demo --tournament``: a small tournament run by the moderator alone,
on the embedded mail hub, between robot players.

The same parts as ``titan-moderator demo`` (``moderator.demo.mail_demo``: an embedded
SMTP and IMAP hub, GnuPG keys in temporary homes, a SQLite database, the ``Service``
with its poll, send, deadline and tournament jobs, on a fast clock), and:

1. every robot signs on by mail with its key; the operator makes one of them, the
   director, a tournament director (as ``titan-moderator player role ADDRESS
   --director`` does);
2. the director mails ``tournament create ...`` (games of two, a Wolff 21.1 end date a
   game day or so after each game starts, short time limits);
3. the players mail ``join tournament demo``, one more robot ``standby tournament
   demo``;
4. the tournament job forms the games by itself and starts them; the robots play every
   game they are mailed about, each order signed and quoting its step reference;
5. early in the first game the director mails ``replace SEAT in GAME``: the standby
   robot takes the seat over and plays on, the robot it replaced hears no more of it;
6. each game ends by its end date (or before), is scored, and the standings are mailed
   to all; when no more games can be formed the tournament is over.

Everything lands in one folder: each robot's mailbox, the moderator's incoming mail and
the database.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from moderator.demo.mail_demo import (
    DemoKeys,
    FastClock,
    demo_config,
    demo_robot,
    dump_inbox,
    where_lines,
)
from moderator.demo.mailrobot import MailRobot
from moderator.mail.hub import MailHub
from moderator.reporting.render import render
from moderator.rules.state import GameState, Step
from moderator.service.config import (
    Config,
)
from moderator.service.runtime import Service
from moderator.store import outbox, players
from moderator.store import tournaments as stored
from moderator.store.eventstore import EventStore
from moderator.store.tables import PENDING
from moderator.tournament import texts
from moderator.tournament.scoring import DIRECTOR, PLAY, TIME
from moderator.tournament.state import TournamentState

TOURNAMENT = "demo"
#: The robots who play, the director and the one on standby.
PLAYER_NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")
DIRECTOR_NAME = "Tess"
STANDBY_NAME = "Gus"
#: The first game's step reference at which the director hands a seat over.
REPLACE_AFTER = 12
_HOW = {
    TIME: "ended by its end date (Wolff 21.1), scored by 20.5",
    PLAY: "played to its end",
    DIRECTOR: "stopped by the director",
}


@dataclass
class TournamentDemoOptions:
    #: Robots who join (2 to 6).
    players: int = 4
    #: Players per game.
    per_game: int = 2
    #: Games each player plays (the tournament's rounds): the second round's games are
    #: formed when the first round's players are free again, avoiding repeat pairings.
    rounds: int = 2
    #: The games' end date (Wolff 21.1), in game days after each game starts.
    days: int = 1
    #: Game seconds per real second: a game day in 30 s by default.
    speed: float = 2880.0
    #: The time limit of a masterboard turn, in game hours.
    turn_hours: int = 8
    seed: int | None = None
    folder: Path | None = None
    #: Whether the director hands a seat of the first game to the standby robot.
    replace: bool = True
    #: Give up after this many real seconds.
    timeout: float = 900.0


@dataclass
class TournamentDemoSummary:
    folder: Path
    tournament: TournamentState
    games: dict[str, GameState]
    orders: int
    mails_sent: int
    mails_read: int
    seconds: float
    seed: int
    #: Standings mails each robot received (name -> count).
    standings_mailed: dict[str, int] = field(default_factory=dict)
    #: (game, seat, old robot, new robot) of the replacement made.
    replaced: tuple[str, str, str, str] | None = None
    #: Orders each robot mailed (name -> count).
    orders_by: dict[str, int] = field(default_factory=dict)
    #: Mails about the replaced seat's game written to its old robot after the replacement.
    after_replacement: int = 0
    #: Games scored as ended by their end date (Wolff 21.1, rulebook 20.5).
    by_time: list[str] = field(default_factory=list)
    #: Games whose end date came (some then ended by play during the last turns).
    time_called: list[str] = field(default_factory=list)
    mailboxes: dict[str, Path] = field(default_factory=dict)

    @property
    def finished(self) -> bool:
        return self.tournament.finished

    def text(self) -> str:
        state = self.tournament
        lines = [
            f"Tournament {state.name}: "
            + ("over" if self.finished else "NOT finished")
            + f"; {len(self.games)} game(s) formed by the moderator.",
        ]
        for game_id, game in sorted(self.games.items()):
            result = state.games[game_id].result
            how = _HOW.get(result.ended, result.ended) if result is not None else "not scored"
            if game_id in self.time_called and game_id not in self.by_time:
                how += " after time was called"
            holders = dict(state.games[game_id].seats)
            scores = ", ".join(
                f"{p.name} ({holders.get(p.name, '?').split('@')[0]}) {p.score}"
                for p in game.players
            )
            over = (
                f"over after {game.turn} turns, {how}; winner {game.winner or 'nobody'}"
                if game.step is Step.OVER
                else f"not over (turn {game.turn})"
            )
            lines.append(f"  {game_id}: {over}; scores {scores}")
        if self.replaced is not None:
            game_id, seat, old, new = self.replaced
            lines.append(
                f"Replacement: {new} took the seat {seat} in {game_id} from {old} "
                f"(mails to {old} about {game_id} afterwards: {self.after_replacement})."
            )
        mailed = ", ".join(f"{who} {n}" for who, n in sorted(self.standings_mailed.items()))
        standings = render("tournament.standings.txt.j2", **texts.standings_context(state))
        lines += [
            f"Standings mails written: {mailed}.",
            "",
            *(f"  {line}".rstrip() for line in standings.strip().splitlines()),
            "",
            (
                f"{self.orders} orders by mail, {self.mails_sent} mails from the moderator "
                f"(all signed), {self.mails_read} read by the robots, in {self.seconds:.0f} s; "
                f"seed {self.seed}."
            ),
            "",
            *where_lines(self.folder, self.mailboxes, next(iter(sorted(self.games)), "GAME")),
        ]
        return "\n".join(lines)


@dataclass
class _Run:
    """What the demo keeps while it runs."""

    options: TournamentDemoOptions
    progress: Callable[[str], None]
    folder: Path
    seed: int
    started: float
    service: Service
    director: MailRobot
    standby: MailRobot
    robots: list[MailRobot]
    replaced: tuple[str, str, str, str] | None = None
    outbox_at_replacement: int = 0
    reported_over: set[str] = field(default_factory=set)
    reported_formed: set[str] = field(default_factory=set)

    @property
    def everyone(self) -> list[MailRobot]:
        return [*self.robots, self.standby, self.director]

    def check_time(self, doing: str) -> None:
        if time.monotonic() - self.started > self.options.timeout:
            msg = f"the tournament demo did not finish in {self.options.timeout:.0f} s ({doing})"
            raise TimeoutError(msg)


async def run_tournament_demo(
    options: TournamentDemoOptions, progress: Callable[[str], None] = lambda _line: None
) -> TournamentDemoSummary:
    """Run a small tournament by mail on the embedded hub; see the module's text."""
    if not 2 <= options.per_game <= options.players <= len(PLAYER_NAMES):
        msg = f"a tournament demo needs 2 to {len(PLAYER_NAMES)} robots, at least a game's worth"
        raise ValueError(msg)
    started = time.monotonic()
    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(2**31)
    folder = options.folder or Path(tempfile.mkdtemp(prefix="titan-tournament-"))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "mail").mkdir(exist_ok=True)
    names = [*PLAYER_NAMES[: options.players], STANDBY_NAME, DIRECTOR_NAME]
    progress(f"Making GnuPG keys for the moderator and {len(names)} robots ...")
    clock = FastClock(options.speed)
    keys = await DemoKeys.make(names, clock)
    try:
        async with MailHub() as hub:
            return await _run(options, progress, folder, seed, names, hub, keys, started)
    finally:
        keys.drop()


async def _run(
    options: TournamentDemoOptions,
    progress: Callable[[str], None],
    folder: Path,
    seed: int,
    names: list[str],
    hub: MailHub,
    keys: DemoKeys,
    started: float,
) -> TournamentDemoSummary:
    config = demo_config(hub, folder, keys)
    config = replace(
        config,
        moderator=replace(config.moderator, name="Titan moderator (tournament demo)"),
        service=replace(config.service, tournament_seconds=1.0),
        source="tournament demo",
    )
    rng = random.Random(f"tournament-robots:{seed}")
    bots = {
        name: demo_robot(
            name, hub, keys, folder, random.Random(rng.random()), pgp_mime=index % 2 == 0
        )
        for index, name in enumerate(names)
    }
    service = Service(config, clock=keys.clock)
    service.tournament_seed = seed
    await service.start()
    run = _Run(
        options,
        progress,
        folder,
        seed,
        started,
        service,
        director=bots[DIRECTOR_NAME],
        standby=bots[STANDBY_NAME],
        robots=[bots[n] for n in names[: options.players]],
    )
    try:
        progress(f"Mail hub on 127.0.0.1 (SMTP {hub.smtp_port}, IMAP {hub.imap_port}).")
        await _sign_up(run)
        await _play(run)
        await service.send_now()
        for bot in run.everyone:
            await bot.read_mail(0)
    finally:
        await service.stop()
        for bot in bots.values():
            await bot.source.close()
    return _summary(run, config)


async def _sign_up(run: _Run) -> None:
    store = run.service.store
    options = run.options
    progress = run.progress
    progress("Robots sign on by mail with their public keys ...")
    for bot in run.everyone:
        await bot.sign_on()
    await _until(run, lambda: _registered(store, run.everyone), "sign-ons")
    for bot in run.everyone:
        await bot.read_mail(0)  # the welcome
    director = run.director
    await asyncio.to_thread(_make_director, store, director.address)
    progress(f"The operator makes {director.name} a tournament director.")
    create = (
        f"tournament create {TOURNAMENT} players {options.per_game} rounds {options.rounds} "
        f"games 1 days {options.days} timing turn={options.turn_hours}"
    )
    progress(f"{director.name} mails: {create}")
    await director.send_lines([create], f"tournament {TOURNAMENT}")
    await _until(run, lambda: _exists(store), "the tournament's creation")
    for bot in run.robots:
        await bot.join_tournament(TOURNAMENT)
    await run.standby.join_tournament(TOURNAMENT, standby=True)
    progress(
        f"Joined by mail: {', '.join(b.name for b in run.robots)}; "
        f"{run.standby.name} on standby."
    )


async def _play(run: _Run) -> None:
    """Robots play every game they hear of until the tournament is over."""
    store = run.service.store
    while True:
        tournament = await asyncio.to_thread(_tournament, store)
        if tournament is not None:
            _report(run, tournament)
            if tournament.finished:
                run.progress("The tournament is over.")
                return
            if run.options.replace and run.replaced is None:
                await _maybe_replace(run, tournament)
        run.check_time("playing")
        acted = False
        for bot in [*run.robots, run.standby]:
            for game_id in bot.games_heard_of():
                acted |= await bot.play_seat(store, game_id)
        waits = [bot.read_mail(0.0 if acted else 0.3) for bot in run.everyone]
        await asyncio.gather(*waits)


def _report(run: _Run, tournament: TournamentState) -> None:
    for game_id, game in sorted(tournament.games.items()):
        if game_id not in run.reported_formed:
            run.reported_formed.add(game_id)
            seats = ", ".join(f"{seat} ({who})" for seat, who in game.seats)
            run.progress(f"The moderator formed and started {game_id}: {seats}.")
        if game.finished and game_id not in run.reported_over:
            run.reported_over.add(game_id)
            result = game.result
            how = result.ended if result is not None else "?"
            run.progress(f"{game_id} is over ({how}); the standings are mailed to all.")


async def _maybe_replace(run: _Run, tournament: TournamentState) -> None:
    """Once the first game is under way, its first seat goes to the standby."""
    first = min(tournament.games, default=None)
    if first is None or tournament.games[first].finished:
        return
    state = await asyncio.to_thread(lambda: run.service.store.load_state(first).state)
    if state.step in (Step.COLOUR, Step.OVER) or state.version < REPLACE_AFTER:
        return
    seat, address = tournament.games[first].seats[0]
    old = next(bot for bot in run.robots if bot.address == address)
    line = f"replace {seat} in {first}"
    run.progress(f"{run.director.name} mails: {line} (the standby {run.standby.name} takes it).")
    await run.director.send_lines([line], f"[titan {first}] replacement")
    await _until(run, lambda: _holder(run.service.store, first, seat) != address, "replacement")
    run.outbox_at_replacement = await asyncio.to_thread(_last_mail_id, run.service.store)
    run.replaced = (first, seat, old.name, run.standby.name)


async def _until(run: _Run, check: Callable[[], bool], doing: str) -> None:
    while not await asyncio.to_thread(check):
        run.check_time(f"waiting for {doing}")
        await asyncio.sleep(0.1)


# -- the store, read only (as the robots read the game's state) -----------------------------


def _make_director(store: EventStore, address: str) -> None:
    with store.transaction() as tx:
        players.set_roles(tx, address, (players.DIRECTOR,))


def _registered(store: EventStore, bots: list[MailRobot]) -> bool:
    with store.reading() as tx:
        return all(players.player_by_address(tx, bot.address) is not None for bot in bots)


def _exists(store: EventStore) -> bool:
    with store.reading() as tx:
        return stored.exists(tx, TOURNAMENT)


def _tournament(store: EventStore) -> TournamentState | None:
    with store.reading() as tx:
        if not stored.exists(tx, TOURNAMENT):
            return None
        return stored.load(tx, TOURNAMENT).state


def _last_mail_id(store: EventStore) -> int:
    with store.reading() as tx:
        return max((m.id for m in outbox.mails(tx)), default=0)


def _holder(store: EventStore, game_id: str, seat: str) -> str | None:
    with store.reading() as tx:
        return next((a for a, s in players.seats(tx, game_id).items() if s == seat), None)


def _summary(run: _Run, config: Config) -> TournamentDemoSummary:
    from moderator.rules.events import TimeCalled

    store = EventStore(config.database.url)
    try:
        with store.reading() as tx:
            tournament = stored.load(tx, TOURNAMENT).state
            sent = len(outbox.mails(tx)) - len(outbox.mails(tx, status=PENDING))
            mails = outbox.mails(tx)
        games = {g: store.load_state(g).state for g in tournament.games}
        called = [g for g in games if any(isinstance(e, TimeCalled) for e in store.load(g))]
        by_time = [
            g for g, game in tournament.games.items() if game.result and game.result.ended == TIME
        ]
        mailboxes = {bot.name: bot.mbox_path for bot in run.everyone}
        mailboxes["moderator"] = dump_inbox(store, run.folder / "mail" / "moderator.mbox")
    finally:
        store.close()
    standings = {
        bot.name: sum(
            1 for m in mails if m.recipient == bot.address and "standings" in m.subject
        )
        for bot in run.everyone
    }
    after = 0
    if run.replaced is not None:
        game_id, _seat, old_name, _new = run.replaced
        old = next(bot for bot in run.robots if bot.name == old_name)
        after = sum(
            1
            for m in mails
            if m.id > run.outbox_at_replacement
            and m.recipient == old.address
            and f"[titan {game_id}]" in m.subject
        )
    return TournamentDemoSummary(
        folder=run.folder,
        tournament=tournament,
        games=games,
        orders=sum(bot.tally.orders_sent for bot in run.everyone),
        orders_by={bot.name: bot.tally.orders_sent for bot in run.everyone},
        mails_sent=sent,
        mails_read=sum(bot.tally.mails_read for bot in run.everyone),
        seconds=time.monotonic() - run.started,
        seed=run.seed,
        standings_mailed=standings,
        replaced=run.replaced,
        after_replacement=after,
        by_time=by_time,
        time_called=called,
        mailboxes=mailboxes,
    )


__all__ = [
    "TOURNAMENT",
    "TournamentDemoOptions",
    "TournamentDemoSummary",
    "run_tournament_demo",
]
