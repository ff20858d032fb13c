"""
The steps of the tournament demo's robots and director: sign on and join by mail,
play every game heard of until the tournament is over, hand a seat to the standby;
and the read-only looks into the store that the steps wait on.

Apart from the run loop (``tournament_demo``), which only sets the parts up, runs these
steps in order and tears everything down.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from moderator.demo.tournament_run import TOURNAMENT, DemoRun
from moderator.ports.players import DIRECTOR
from moderator.rules.state import Step
from moderator.store import outbox, players
from moderator.store import tournaments as stored
from moderator.store.eventstore import EventStore
from moderator.testing.mailrobot import MailRobot
from moderator.tournament.state import TournamentState

#: The first game's step reference at which the director hands a seat over.
REPLACE_AFTER = 12


async def sign_up(run: DemoRun) -> None:
    """Robots sign on, one becomes director and creates the tournament, the rest join."""
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
        f"Joined by mail: {', '.join(b.name for b in run.robots)}; {run.standby.name} on standby."
    )


async def play(run: DemoRun) -> None:
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


def _report(run: DemoRun, tournament: TournamentState) -> None:
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


async def _maybe_replace(run: DemoRun, tournament: TournamentState) -> None:
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


async def _until(run: DemoRun, check: Callable[[], bool], doing: str) -> None:
    while not await asyncio.to_thread(check):
        run.check_time(f"waiting for {doing}")
        await asyncio.sleep(0.1)


# -- the store, read only (as the robots read the game's state) -----------------------------


def _make_director(store: EventStore, address: str) -> None:
    with store.transaction() as tx:
        players.set_roles(tx, address, (DIRECTOR,))


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
