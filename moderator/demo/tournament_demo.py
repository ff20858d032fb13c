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

import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from moderator.clock import SystemClock
from moderator.demo.keys import keep
from moderator.demo.tournament_run import (
    DIRECTOR_NAME,
    PLAYER_NAMES,
    STANDBY_NAME,
    DemoRun,
    TournamentDemoOptions,
)
from moderator.demo.tournament_steps import play, sign_up
from moderator.demo.tournament_summary import TournamentDemoSummary, summarise
from moderator.runtime.bootstrap import Overrides, bootstrap
from moderator.runtime.service import Service
from moderator.testing.clocks import DemoClock
from moderator.testing.hub import MailHub
from moderator.testing.mailgame import mail_robot, service_config
from moderator.testing.mailrobot import seat_kinds
from moderator.testing.player_keys import PlayerKeys


async def run_tournament_demo(
    options: TournamentDemoOptions, progress: Callable[[str], None] = lambda _line: None
) -> TournamentDemoSummary:
    """Run a small tournament by mail on the embedded hub; see the module's text."""
    if not 2 <= options.per_game <= options.players <= len(PLAYER_NAMES):
        msg = f"a tournament demo needs 2 to {len(PLAYER_NAMES)} robots, at least a game's worth"
        raise ValueError(msg)
    seat_kinds(options.robot, options.players)
    started = time.monotonic()
    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(2**31)
    folder = options.folder or Path(tempfile.mkdtemp(prefix="titan-tournament-"))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "mail").mkdir(exist_ok=True)
    names = [*PLAYER_NAMES[: options.players], STANDBY_NAME, DIRECTOR_NAME]
    progress(f"Making GnuPG keys for the moderator and {len(names)} robots ...")
    clock = DemoClock.running(options.speed, SystemClock().now())
    keys = await PlayerKeys.make(names, clock)
    try:
        async with MailHub() as hub:
            return await _run(options, progress, folder, seed, names, hub, keys, clock, started)
    finally:
        keep(keys, folder)
        keys.drop()


async def _run(
    options: TournamentDemoOptions,
    progress: Callable[[str], None],
    folder: Path,
    seed: int,
    names: list[str],
    hub: MailHub,
    keys: PlayerKeys,
    clock: DemoClock,
    started: float,
) -> TournamentDemoSummary:
    config = service_config(hub, folder, keys, "tournament demo")
    config = replace(
        config,
        moderator=replace(config.moderator, name="Titan moderator (tournament demo)"),
        service=replace(config.service, tournament_seconds=1.0),
    )
    rng = random.Random(f"tournament-robots:{seed}")
    kinds = seat_kinds(options.robot, len(names))
    bots = {
        name: mail_robot(
            name,
            hub,
            keys,
            folder,
            random.Random(rng.random()),
            pgp_mime=index % 2 == 0,
            kind=kinds[index],
        )
        for index, name in enumerate(names)
    }
    service = Service(bootstrap(config, Overrides(clock=clock)))
    service.tournament_seed = seed
    await service.start()
    run = DemoRun(
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
        await sign_up(run)
        await play(run)
        await service.send_now()
        for bot in run.everyone:
            await bot.read_mail(0)
    finally:
        await service.stop()
        for bot in bots.values():
            await bot.close()
    return summarise(run, config)


__all__ = ["run_tournament_demo"]
