"""The mail service: ``serve``, ``worker``, ``check-config``, ``game new`` and ``game relay``."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

import typer

from moderator.cli.common import (
    ConfigOption,
    DbOption,
    GameArg,
    VariantOption,
    _app,
    _config,
    _fail,
    _store,
    checked_variant,
)
from moderator.rules.variant import STANDARD

game_app = typer.Typer(help="Games played by mail.", no_args_is_help=True)


def serve(
    config: ConfigOption = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log every mail.")] = False,
) -> None:
    """Run the moderator: poll the mailbox, play the orders, send the reports, keep time."""
    import asyncio
    import logging
    import signal

    from sqlalchemy.exc import SQLAlchemyError

    from moderator.ports.errors import StoreError
    from moderator.runtime.bootstrap import bootstrap
    from moderator.runtime.config import ConfigError
    from moderator.runtime.service import Service

    settings = _config(config)
    app = bootstrap(settings)
    try:
        _ = (settings.imap_password, settings.smtp_password, settings.gpg_passphrase)
        _ = app.dkim  # a DKIM key that cannot be used stops it here, said plainly
    except ConfigError as exc:
        raise _fail(f"configuration: {exc}") from None
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("moderator").setLevel(logging.INFO)
    logging.getLogger("flufl.bounce").setLevel(logging.WARNING)  # a line per detector

    async def main() -> bool:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        service = Service(app)

        def started() -> None:
            typer.echo(
                f"titan-moderator: serving {settings.moderator.address} "
                f"(imap {settings.imap.host}:{settings.imap.port}, "
                f"smtp {settings.smtp.host}:{settings.smtp.port}); stop with Ctrl-C",
                err=True,
            )

        await service.run(stop, started=started)
        return not service.lost.is_set()

    try:
        clean = asyncio.run(main())
    except (StoreError, SQLAlchemyError) as exc:
        raise _fail(f"error: {exc}") from None
    if not clean:
        raise _fail("error: another moderator took the mailbox over; this one stopped", 1)


def worker(
    config: ConfigOption = None,
    db: DbOption = None,
    loop: Annotated[
        float | None, typer.Option("--loop", help="Keep going, this many seconds apart.")
    ] = None,
) -> None:
    """Process the mails waiting in the database (as serve does, without reading IMAP)."""
    import time

    from moderator.runtime.worker import process_pending

    settings = _config(config)
    gm = settings.moderator.gm_address or None
    with _app(db or settings.database.url, create=False, config=settings) as app:
        while True:
            tally = process_pending(app.store, app.handler, gm_address=gm)
            summary = ", ".join(f"{k} {v}" for k, v in sorted(tally.counts.items()))
            typer.echo(f"worker: {summary or 'nothing to do'}")
            if loop is None:
                return
            time.sleep(loop)


def check_config(config: ConfigOption = None) -> None:
    """Try the database, the mail servers and the moderator's key, as configured."""
    import asyncio

    from moderator.runtime.bootstrap import bootstrap
    from moderator.runtime.selfcheck import check_all

    settings = _config(config)
    typer.echo(f"Configuration: {settings.source}")
    app = bootstrap(settings)
    try:
        results = asyncio.run(check_all(app))
    finally:
        app.close()
    for result in results:
        typer.echo(result.line())
    if not all(r.ok for r in results):
        raise typer.Exit(1)


@game_app.command("new")
def game_new(
    game_id: GameArg,
    player: Annotated[
        list[str],
        typer.Option(
            "--player", "-p", metavar="ADDRESS",
            help="A signed-on player's address; 1 to 6 (2 to 6 with the robots), in seat order.",
        ),
    ],
    robots: Annotated[
        int,
        typer.Option(
            "--robots", min=0, max=5,
            help="Seats the robot plays from the start (play against robots by mail).",
        ),
    ] = 0,
    seat_keeping: Annotated[
        str,
        typer.Option(
            "--seat-keeping", metavar="defaults|robot|standby",
            help="A seat whose player missed --keep-after deadlines in a row: refusal "
            "defaults only (Wolff 20.4), the robot plays it until he is back, or the robot "
            "holds it until a standby takes it.",
        ),
    ] = "defaults",
    keep_after: Annotated[
        int, typer.Option("--keep-after", min=1, help="Deadlines missed in a row (default 2).")
    ] = 2,
    robot_delay: Annotated[
        int,
        typer.Option(
            "--robot-delay", min=0, metavar="MINUTES",
            help="Minutes a robot waits before it acts (default 0: at once).",
        ),
    ] = 0,
    allow_secrets: Annotated[
        bool, typer.Option("--allow-secrets", help="Let players authenticate by secret lines.")
    ] = False,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            help="Dice seed, for a test game only, and only with --insecure-test-seed "
            "(default: a secret 256-bit seed).",
        ),
    ] = None,
    insecure_test_seed: Annotated[
        bool,
        typer.Option(
            "--insecure-test-seed",
            help="Take --seed although players could then find it and open every hidden "
            "legion; every report of the game says its dice are not secret.",
        ),
    ] = False,
    limit: Annotated[
        list[str] | None,
        typer.Option(
            "--limit",
            metavar="KIND=HOURS",
            help="Change a time limit, KIND=HOURS (setup, turn, engagement, battle, muster, "
            "minimum) or absences/absence_days/absence_total_days=NUMBER, or what a missed "
            "deadline means: lateness=wolff (Wolff 20.4, the default) or lateness=21.2 "
            "(rulebook 21.2: a legion moved at random); repeatable.",
        ),
    ] = None,
    reminders: Annotated[
        str | None, typer.Option("--reminders", help="Hours before a deadline, e.g. 24,4.")
    ] = None,
    no_time_limits: Annotated[
        bool, typer.Option("--no-time-limits", help="No deadlines: the game waits for players.")
    ] = False,
    ends: Annotated[
        datetime | None,
        typer.Option(
            "--ends",
            formats=["%Y-%m-%d", "%Y-%m-%dT%H:%M"],
            help="End date (UTC; Wolff 21.1): then every player has one more turn and "
            "the game is scored by 20.5.",
        ),
    ] = None,
    variant: VariantOption = STANDARD,
    config: ConfigOption = None,
    db: DbOption = None,
) -> None:
    """Start a game by mail for players who signed on; each gets his first report."""
    from moderator.runners.commands import start_game
    from moderator.schedule.timing import TimeLimits
    from moderator.usecases.games.starting import StartError

    if no_time_limits and (limit or reminders):
        raise _fail("error: --no-time-limits with --limit or --reminders")
    if seed is not None and not insecure_test_seed:
        raise _fail(
            "error: --seed is refused for a game by mail: from a seed that was chosen, any "
            "player can find it (its SHA-256 and the commitments are in his reports), open "
            "every hidden legion and foretell the dice. Leave --seed out (the game draws a "
            "secret 256-bit seed), or for a test game add --insecure-test-seed (every report "
            "then says the dice are not secret)."
        )
    if insecure_test_seed and seed is None:
        raise _fail("error: --insecure-test-seed goes with --seed")
    try:
        limits = None if no_time_limits else TimeLimits.parse(limit or (), reminders)
    except ValueError as exc:
        raise _fail(f"error: {exc}") from None
    settings = _config(config)
    checked_variant(variant, settings)
    with _store(db or settings.database.url, create=False) as store:
        try:
            state = start_game(
                store,
                game_id,
                player,
                sender=settings.moderator.address,
                seed=seed,
                insecure_seed=insecure_test_seed,
                allow_secrets=allow_secrets,
                time_limits=limits,
                ends_at=ends.replace(tzinfo=UTC) if ends is not None else None,
                variant=variant,
                seat_keeping=seat_keeping,
                keep_after=keep_after,
                robot_delay=robot_delay,
                robots=robots,
            )
        except StartError as exc:
            raise _fail(f"error: {exc}") from None
    clocks = "no time limits" if limits is None else f"a {limits.turn_hours:g} h turn limit"
    robot_seats = f" (robots: {robots})" if robots else ""
    typer.echo(
        f"Game {game_id} started for {', '.join(p.name for p in state.players)}{robot_seats} "
        f"with {clocks}; the reports are in the outbox (serve sends them)."
    )
    if insecure_test_seed:
        typer.echo(f"Warning: the dice of {game_id} are not secret (seed {seed}): a test game only.")


@game_app.command("relay")
def game_relay(
    game_id: GameArg,
    setting: Annotated[str, typer.Argument(help="'on' or 'off'.")],
    config: ConfigOption = None,
    db: DbOption = None,
) -> None:
    """Let players pass messages through the moderator in a game (Wolff 4.5), or stop it."""
    from moderator.ports import GameNotFoundError
    from moderator.runners.commands import set_relay

    if setting.lower() not in ("on", "off"):
        raise _fail("error: write 'on' or 'off'")
    on = setting.lower() == "on"
    settings = _config(config)
    with _store(db or settings.database.url, create=False) as store:
        try:
            changed = set_relay(store, game_id, on)
        except GameNotFoundError:
            raise _fail(f"error: there is no game called {game_id!r}") from None
    state = "may" if on else "may no longer"
    typer.echo(f"Players {state} pass messages in {game_id}" + ("." if changed else " (so it was)."))
