"""
The ``titan-moderator`` command line.

``local ...`` plays a game kept in the event store, one order at a time; ``db ...``
creates, upgrades and checks the database; ``play`` runs a whole game between robot
players; ``serve``, ``game``, ``player`` and ``tournament`` run play by mail (the
director role, tournaments created and scored by hand); ``demo`` shows it all on an
embedded mail hub.  The work is done in ``moderator.game`` and ``moderator.store``; this module
only reads options and prints.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from sqlalchemy.exc import SQLAlchemyError

from moderator import game
from moderator.reporting.views import view_text
from moderator.rules.state import GameState, Step
from moderator.store import ENV_VAR, EventStore, StoreError, database_url, inbox, migrate
from moderator.store.tables import SHUNTED

app = typer.Typer(
    help="A play-by-email moderator for the board game Titan.",
    no_args_is_help=True,
    add_completion=False,
)
local_app = typer.Typer(
    help="Play a game kept in a local event store, order by order.", no_args_is_help=True
)
app.add_typer(local_app, name="local")
db_app = typer.Typer(help="Create, upgrade and check the database.", no_args_is_help=True)
app.add_typer(db_app, name="db")

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        envvar=ENV_VAR,
        help=f"Database URL (default: ${ENV_VAR}, else the configuration file, "
        "else sqlite:///titan-moderator.sqlite).",
        show_default=False,
    ),
]
GameArg = Annotated[str, typer.Argument(help="The game's name.")]
AsOption = Annotated[str, typer.Option("--as", help="The player whose view or orders these are.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]


def _fail(message: str, code: int = 2) -> typer.Exit:
    typer.echo(message, err=True)
    return typer.Exit(code)


@contextmanager
def _store(db: str | None, *, create: bool = True) -> Iterator[EventStore]:
    try:
        store = EventStore(database_url(db), create=create)
    except (StoreError, SQLAlchemyError, ValueError) as exc:
        raise _fail(f"error: {exc}") from None
    try:
        yield store
    except (StoreError, game.GameError) as exc:
        raise _fail(f"error: {exc}") from None
    finally:
        store.close()


def _print_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))


@local_app.command("new")
def local_new(
    game_id: GameArg,
    players: Annotated[
        str | None, typer.Option("--players", help="Comma-separated names, e.g. Ann,Bob,Cy.")
    ] = None,
    dice_seed: Annotated[
        int | None, typer.Option("--dice-seed", help="Seed of the game's dice.")
    ] = None,
    dice_script: Annotated[
        Path | None,
        typer.Option("--dice-script", help="File of die values 1..6 to roll, in order (tests)."),
    ] = None,
    from_position: Annotated[
        Path | None, typer.Option("--from-position", help="Start from a position file (JSON).")
    ] = None,
    db: DbOption = None,
) -> None:
    """Create a game: roll for towers, or restore a position."""
    if dice_seed is not None and dice_script is not None:
        raise _fail("error: give --dice-seed or --dice-script, not both")
    names = [n.strip() for n in players.split(",")] if players else None
    script = game.read_dice_script(dice_script.read_text()) if dice_script else None
    position = None
    if from_position is not None:
        try:
            position = json.loads(from_position.read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise _fail(f"error: cannot read {from_position}: {exc}") from None
    if names is None and position is None:
        raise _fail("error: give --players (e.g. --players Ann,Bob,Cy) or --from-position")
    with _store(db) as store:
        try:
            state = game.new_game(store, game_id, names, dice_seed, script, position)
        except game.GameError as exc:
            raise _fail(f"error: {exc}") from None
        typer.echo(f"Game {game_id} created for {', '.join(p.name for p in state.players)}.")
        typer.echo(game.waiting_line(state))


@local_app.command("order")
def local_order(
    game_id: GameArg,
    text: Annotated[str, typer.Argument(help="The orders, one per line.")],
    as_: AsOption,
    db: DbOption = None,
) -> None:
    """Give orders as a player; prints the reply. Exit status 1 if an order is rejected."""
    with _store(db) as store:
        reply, ok = game.order(store, game_id, as_, text)
    typer.echo(reply)
    if not ok:
        raise typer.Exit(1)


@local_app.command("show")
def local_show(
    game_id: GameArg, as_: AsOption, json_: JsonOption = False, db: DbOption = None
) -> None:
    """The game as one player sees it."""
    with _store(db) as store:
        view = game.show(store, game_id, as_)
    if json_:
        _print_json(view)
    else:
        typer.echo(view_text(view, as_))


@local_app.command("legal")
def local_legal(game_id: GameArg, json_: JsonOption = False, db: DbOption = None) -> None:
    """Who is to act and the orders they may give."""
    with _store(db) as store:
        legal = game.legal(store, game_id)
    if json_:
        _print_json(legal)
        return
    if legal["player"] is None:
        typer.echo("Nobody is to act: the game is over.")
        return
    typer.echo(f"{legal['player']} is to act and may order:")
    for action in legal["actions"]:
        typer.echo(f"  {action['order']}")


@local_app.command("history")
def local_history(
    game_id: GameArg,
    as_: AsOption,
    first: Annotated[int | None, typer.Option("--from", help="First turn to show.")] = None,
    last: Annotated[int | None, typer.Option("--to", help="Last turn to show.")] = None,
    db: DbOption = None,
) -> None:
    """The game record as one player may read it."""
    with _store(db) as store:
        lines = game.history(store, game_id, as_, first, last)
    typer.echo("\n".join(lines) if lines else "Nothing to show.")


@local_app.command("games")
def local_games(db: DbOption = None) -> None:
    """List the games in the store."""
    with _store(db) as store:
        for name in store.games():
            typer.echo(name)


@db_app.command("upgrade")
def db_upgrade(db: DbOption = None) -> None:
    """Create the database, or upgrade it to this program's schema (back it up first)."""
    try:
        before, after = migrate.upgrade(database_url(db))
    except (StoreError, SQLAlchemyError) as exc:
        raise _fail(f"error: {exc}") from None
    if before == after:
        typer.echo(f"The database is up to date (schema revision {after}).")
    else:
        typer.echo(f"The database was upgraded from revision {before or 'none'} to {after}.")


@db_app.command("check")
def db_check(
    game_id: Annotated[str | None, typer.Argument(help="The game (default: every game).")] = None,
    db: DbOption = None,
) -> None:
    """Replay games from their first event and compare with their snapshots."""
    with _store(db, create=False) as store:
        results = [store.check(g) for g in ([game_id] if game_id else store.games())]
    for result in results:
        typer.echo(result.line())
    if not all(r.ok for r in results):
        raise typer.Exit(1)


@db_app.command("shunted")
def db_shunted(db: DbOption = None) -> None:
    """List the inbound messages that failed and wait for a person."""
    with _store(db, create=False) as store, store.reading() as tx:
        shunted = inbox.messages(tx, SHUNTED)
    for message in shunted:
        typer.echo(
            f"{message.id}\t{message.received_at:%Y-%m-%d %H:%M}\t{message.message_id or '-'}"
            f"\t{message.error}"
        )
    if not shunted:
        typer.echo("No message is shunted.")


@db_app.command("requeue")
def db_requeue(
    message_id: Annotated[int, typer.Argument(help="The inbound message's number.")],
    db: DbOption = None,
) -> None:
    """Put a shunted message back in the queue, to be processed again."""
    with _store(db, create=False) as store:
        if not inbox.requeue(store, message_id):
            raise _fail(f"error: message {message_id} is not shunted")
    typer.echo(f"Message {message_id} will be processed again.")


def _progress_line(state: GameState) -> str:
    live = state.live_players
    scores = ", ".join(f"{p.name} {p.score}" for p in live)
    if state.step is Step.OVER:
        return f"Turn {state.turn:>3}: game over; {len(live)} left ({scores})"
    return f"Turn {state.turn:>3}: {len(live)} players left; scores: {scores}"


@app.command("play")
def play(
    players: Annotated[int, typer.Option("--players", min=2, max=6, help="2 to 6 robots.")] = 6,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for dice and robots.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress lines.")] = False,
) -> None:
    """Play a whole game between robot players choosing random legal orders."""

    def progress(state: GameState) -> None:
        if not quiet:
            typer.echo(_progress_line(state))

    if seed is None:
        seed = secrets.randbelow(2**31)
    names = ", ".join(game.DEFAULT_NAMES[:players])
    typer.echo(f"Robot game: {players} players ({names}), seed {seed}")
    summary = game.play_robot_game(players, seed, progress=progress)
    typer.echo("")
    typer.echo(summary.text())


# -- the mail service --------------------------------------------------------------------

ConfigOption = Annotated[
    Path | None,
    typer.Option(
        "--config",
        "-c",
        envvar="TITAN_MODERATOR_CONFIG",
        help="The configuration file (TOML; see deploy/config.example.toml). "
        "Every key can be overridden as TITAN_<SECTION>_<KEY>.",
        show_default=False,
    ),
]


def _config(path: Path | None) -> Any:
    from moderator.service.config import ConfigError, load_config

    try:
        return load_config(path)
    except ConfigError as exc:
        raise _fail(f"configuration: {exc}") from None


@app.command("serve")
def serve(
    config: ConfigOption = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log every mail.")] = False,
) -> None:
    """Run the moderator: poll the mailbox, play the orders, send the reports, keep time."""
    import asyncio
    import logging
    import signal

    from moderator.service.config import ConfigError
    from moderator.service.runtime import Service

    settings = _config(config)
    try:
        _ = (settings.imap_password, settings.smtp_password, settings.gpg_passphrase)
    except ConfigError as exc:
        raise _fail(f"configuration: {exc}") from None
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("moderator").setLevel(logging.INFO)

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        service = Service(settings)
        typer.echo(
            f"titan-moderator: serving {settings.moderator.address} "
            f"(imap {settings.imap.host}:{settings.imap.port}, "
            f"smtp {settings.smtp.host}:{settings.smtp.port}); stop with Ctrl-C",
            err=True,
        )
        await service.run(stop)

    try:
        asyncio.run(main())
    except (StoreError, SQLAlchemyError) as exc:
        raise _fail(f"error: {exc}") from None


@app.command("check-config")
def check_config(config: ConfigOption = None) -> None:
    """Try the database, the mail servers and the moderator's key, as configured."""
    import asyncio

    from moderator.service.selfcheck import check_all

    settings = _config(config)
    typer.echo(f"Configuration: {settings.source}")
    results = asyncio.run(check_all(settings))
    for result in results:
        typer.echo(result.line())
    if not all(r.ok for r in results):
        raise typer.Exit(1)


game_app = typer.Typer(help="Games played by mail.", no_args_is_help=True)
app.add_typer(game_app, name="game")


@game_app.command("new")
def game_new(
    game_id: GameArg,
    player: Annotated[
        list[str],
        typer.Option("--player", "-p", help="A signed-on player's address; 2 to 6, in seat order."),
    ],
    allow_secrets: Annotated[
        bool, typer.Option("--allow-secrets", help="Let players authenticate by secret lines.")
    ] = False,
    seed: Annotated[int | None, typer.Option("--seed", help="Dice seed (default: random).")] = None,
    limit: Annotated[
        list[str] | None,
        typer.Option(
            "--limit",
            help="Change a time limit, KIND=HOURS (setup, turn, engagement, battle, muster, "
            "minimum) or absences/absence_days/absence_total_days=NUMBER; repeatable.",
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
    config: ConfigOption = None,
    db: DbOption = None,
) -> None:
    """Start a game by mail for players who signed on; each gets his first report."""
    from moderator.service.games import StartError, start_game
    from moderator.service.timing import TimeLimits

    if no_time_limits and (limit or reminders):
        raise _fail("error: --no-time-limits with --limit or --reminders")
    try:
        limits = None if no_time_limits else TimeLimits.parse(limit or (), reminders)
    except ValueError as exc:
        raise _fail(f"error: {exc}") from None
    settings = _config(config)
    with _store(db or settings.database.url) as store:
        try:
            state = start_game(
                store,
                game_id,
                player,
                sender=settings.moderator.address,
                seed=seed,
                allow_secrets=allow_secrets,
                time_limits=limits,
                ends_at=ends.replace(tzinfo=UTC) if ends is not None else None,
            )
        except StartError as exc:
            raise _fail(f"error: {exc}") from None
    clocks = "no time limits" if limits is None else f"a {limits.turn_hours:g} h turn limit"
    typer.echo(
        f"Game {game_id} started for {', '.join(p.name for p in state.players)} with "
        f"{clocks}; the reports are in the outbox (serve sends them)."
    )


@app.command("demo")
def demo(
    players: Annotated[
        int | None,
        typer.Option(
            "--players", min=2, max=6, help="2 to 6 robots (default: 3; 4 with --tournament)."
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Dice and robots' seed.")] = None,
    keep: Annotated[
        Path | None, typer.Option("--keep", help="Folder for the mailboxes and the database.")
    ] = None,
    silent: Annotated[
        list[str] | None, typer.Option("--silent", help="A robot that never answers (repeatable).")
    ] = None,
    speed: Annotated[
        float | None,
        typer.Option("--speed", help="Game seconds per real second (default: 1, or 7200 "
                     "with --silent so that deadlines pass quickly)."),
    ] = None,
    tournament: Annotated[
        bool,
        typer.Option(
            "--tournament",
            help="Run a small tournament instead: robots sign up by mail, the moderator forms "
            "and starts 2-player games, a seat is handed to a standby, games end by their "
            "end date (Wolff 21.1), standings are mailed (--players robots join, default 4; "
            "--speed default 2880: a game day in 30 s).",
        ),
    ] = False,
) -> None:
    """Play a whole game (or a small tournament) by mail between robots on an embedded hub."""
    import asyncio

    from moderator.service.demo import DemoOptions, run_demo

    if tournament:
        if silent:
            raise _fail("demo: --silent is for the one-game demo, not with --tournament")
        _tournament_demo(players, seed, keep, speed)
        return

    options = DemoOptions(
        players=players if players is not None else 3,
        seed=seed,
        folder=keep,
        silent=tuple(silent or ()),
        speed=speed if speed is not None else (7200.0 if silent else 1.0),
    )
    try:
        summary = asyncio.run(run_demo(options, typer.echo))
    except (ValueError, TimeoutError) as exc:
        raise _fail(f"demo: {exc}") from None
    typer.echo("")
    typer.echo(summary.text())
    if not summary.finished:
        raise typer.Exit(1)


def _tournament_demo(
    players: int | None, seed: int | None, keep: Path | None, speed: float | None
) -> None:
    import asyncio

    from moderator.service.tournament_demo import TournamentDemoOptions, run_tournament_demo

    options = TournamentDemoOptions(
        players=players if players is not None else TournamentDemoOptions.players,
        seed=seed,
        folder=keep,
        speed=speed if speed is not None else TournamentDemoOptions.speed,
    )
    try:
        summary = asyncio.run(run_tournament_demo(options, typer.echo))
    except (ValueError, TimeoutError) as exc:
        raise _fail(f"demo: {exc}") from None
    typer.echo("")
    typer.echo(summary.text())
    if not summary.finished:
        raise typer.Exit(1)


# -- players and tournaments ------------------------------------------------------------------

player_app = typer.Typer(help="Players who signed on by mail.", no_args_is_help=True)
app.add_typer(player_app, name="player")
tournament_app = typer.Typer(help="Tournaments run by mail.", no_args_is_help=True)
app.add_typer(tournament_app, name="tournament")


@player_app.command("role")
def player_role(
    address: Annotated[str, typer.Argument(help="The player's registered address.")],
    director: Annotated[
        bool | None,
        typer.Option(
            "--director/--no-director",
            help="Grant (or revoke) the tournament director role: create tournaments and "
            "direct their games by mail.",
        ),
    ] = None,
    config: ConfigOption = None,
    db: DbOption = None,
) -> None:
    """Show a player's roles, or grant or revoke the director role."""
    from moderator.store import players

    with _store(db or _config(config).database.url) as store, store.transaction() as tx:
        player = players.player_by_address(tx, address)
        if player is None:
            raise _fail(f"error: nobody is registered with {address}: he signs on by mail first")
        roles = set(player.roles)
        if director is True:
            roles.add(players.DIRECTOR)
        elif director is False:
            roles.discard(players.DIRECTOR)
        if director is not None:
            players.set_roles(tx, player.address, tuple(sorted(roles)))
    shown = ", ".join(sorted(roles)) or "none"
    typer.echo(f"{player.name} <{player.address}>: roles {shown}")


@tournament_app.command("create")
def tournament_create(
    name: Annotated[str, typer.Argument(help="The tournament's name (its games are NAME-1, ...).")],
    director: Annotated[
        str, typer.Option("--director", help="The director's registered address (a director).")
    ],
    settings: Annotated[
        list[str] | None,
        typer.Argument(
            help="Settings as in the mail line 'tournament create NAME ...': players N, "
            "rounds N, games N, days N or to-the-end, reliability PERCENT, scoring "
            "places|winner, secrets yes|no, timing KEY=VALUE..., absence KEY=VALUE...",
        ),
    ] = None,
    config: ConfigOption = None,
    db: DbOption = None,
) -> None:
    """Create a tournament, as its director's mail 'tournament create ...' would."""
    from moderator.service import tournaments
    from moderator.store import outbox, players

    cfg = _config(config)
    line = " ".join(["tournament", "create", name, *(settings or [])])
    with _store(db or cfg.database.url) as store, store.transaction() as tx:
        player = players.player_by_address(tx, director)
        if player is None:
            raise _fail(f"error: nobody is registered with {director}")
        out = tournaments.carry_out(
            tx, player, [line], moderator_address=cfg.moderator.address, now=tx.now()
        )
        outbox.add_mails(tx, out.mails)
    text = out.mails[0].body if out.mails else ""
    typer.echo(text.rstrip())
    if "Refused (" in text:
        raise typer.Exit(1)


@tournament_app.command("standings")
def tournament_standings(
    name: Annotated[str, typer.Argument(help="The tournament's name.")],
    config: ConfigOption = None,
    db: DbOption = None,
) -> None:
    """Print a tournament's standings (as 'standings NAME' mails them)."""
    from moderator.reporting.render import render
    from moderator.store import tournaments as stored
    from moderator.tournament import texts

    with _store(db or _config(config).database.url) as store, store.reading() as tx:
        try:
            state = stored.load(tx, name.lower()).state
        except stored.TournamentNotFoundError as exc:
            raise _fail(f"error: {exc}") from None
    typer.echo(render("tournament.standings.txt.j2", **texts.standings_context(state, None)))


@tournament_app.command("run")
def tournament_run(config: ConfigOption = None, db: DbOption = None) -> None:
    """Once, by hand: score finished games and form new ones (serve does it by itself)."""
    from moderator.service import tournaments

    cfg = _config(config)
    with _store(db or cfg.database.url) as store:
        address = cfg.moderator.address
        now = datetime.now(UTC)
        lines = tournaments.finish_games(store, address)
        lines += tournaments.form_games(store, address, now, secrets.randbelow(2**31))
    typer.echo("\n".join(lines) if lines else "Nothing to do.")
