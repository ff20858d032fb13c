"""
What the operator looks at: ``player list``, ``game list``, ``game show GAME [--as
NAME]`` and ``config example``.  Each only reads; none opens a database that is not
there (a mistyped ``--db`` is an error, not a new empty file).  And what he does to a
game outside tournaments: ``game pause|resume|extend|replace`` (``_operate``).

``game show`` is the game master's view by default: every legion with what it holds,
the proposals of a negotiation, and the service's side of the game (deadline, time
limits, absences, standing orders); ``--as NAME`` shows it as that player sees it, with
what he knows for certain of the others' legions.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any

import typer

from moderator.cli.common import ConfigOption, DbOption, GameArg, _config, _fail, _store

if TYPE_CHECKING:
    from moderator.rules.state import GameState
    from moderator.schedule.record import GameRecord
    from moderator.store import EventStore

config_app = typer.Typer(help="The configuration file.", no_args_is_help=True)


def player_list(config: ConfigOption = None, db: DbOption = None) -> None:
    """List every signed-on player: name, address, how he authenticates, his games."""
    from moderator.store import players

    with _store(db or _config(config).database.url, create=False) as store, store.reading() as tx:
        everyone = players.all_players(tx)
        seats = {p.address: players.games_of(tx, p.address) for p in everyone}
    if not everyone:
        typer.echo("Nobody has signed on yet.")
        return
    for player in everyone:
        how = f"key {player.key_fingerprint}" if player.key_fingerprint else "secret only"
        games = ", ".join(
            game if seat == player.name else f"{game} (as {seat})"
            for game, seat in seats[player.address]
        )
        roles = f"; roles: {', '.join(player.roles)}" if player.roles else ""
        typer.echo(f"{player.name} <{player.address}>")
        typer.echo(f"    {how}; time zone {player.time_zone}{roles}")
        typer.echo(f"    games: {games or 'none'}")


def game_list(config: ConfigOption = None, db: DbOption = None) -> None:
    """List every game: its players, where it stands, who is to act and his deadline."""
    with _store(db or _config(config).database.url, create=False) as store:
        games = store.games()
        if not games:
            typer.echo("There is no game yet.")
            return
        for game_id in games:
            loaded = store.load_state(game_id)
            state, record = loaded.state, loaded.record
            names = ", ".join(p.name for p in state.players) or ", ".join(record.players)
            extra = f"; tournament {record.tournament}" if record.tournament else ""
            typer.echo(f"{game_id}: {names}{extra}")
            typer.echo(f"    {where_it_stands(state)}")
            typer.echo(f"    {deadline_text(record)}")


def game_show(
    game_id: GameArg,
    as_: Annotated[
        str | None,
        typer.Option(
            "--as",
            help="A player's name (or address): the game as he sees it. "
            "Default: the game master's view, every legion's contents.",
        ),
    ] = None,
    json_: Annotated[bool, typer.Option("--json", help="Print the view as JSON.")] = False,
    config: ConfigOption = None,
    db: DbOption = None,
) -> None:
    """Show a game as the game master sees it, or as one player does (--as NAME)."""
    from moderator.letters.reports import status
    from moderator.ports.errors import GameNotFoundError

    with _store(db or _config(config).database.url, create=False) as store:
        try:
            loaded = store.load_state(game_id)
        except GameNotFoundError:
            known = ", ".join(store.games()) or "none"
            raise _fail(f"error: there is no game called {game_id!r} (games: {known})") from None
        state, record = loaded.state, loaded.record
        viewer = None if as_ is None else _seat(store, game_id, state, as_)
        view = master_view(state) if viewer is None else player_seen(store, game_id, viewer)
    if json_:
        typer.echo(json.dumps(view, indent=2, ensure_ascii=False))
        return
    who = "the game master" if viewer is None else viewer
    typer.echo(f"Game {game_id} as {who} sees it")
    typer.echo(deadline_text(record))
    typer.echo("")
    typer.echo(status(view, viewer).rstrip())  # a battle on, drawn with it
    if viewer is None:
        for line in service_lines(record):
            typer.echo(line)


def config_example() -> None:
    """Print the example configuration, every key with a comment (copy it, then edit)."""
    from moderator.runtime.config import ConfigError, example_text

    try:
        typer.echo(example_text(), nl=False)
    except ConfigError as exc:
        raise _fail(f"error: {exc}") from None


config_app.command("example")(config_example)


def game_pause(game_id: GameArg, config: ConfigOption = None, db: DbOption = None) -> None:
    """Stop a game's clock (no reminders, no timeouts) until 'game resume'; orders still count."""
    _operate("pause", game_id, config, db, "paused: no deadline runs until 'game resume'")


def game_resume(game_id: GameArg, config: ConfigOption = None, db: DbOption = None) -> None:
    """Start a paused game's clock again: a fresh deadline, its end date moved on by the pause."""
    _operate("resume", game_id, config, db, "resumed")


def game_extend(
    game_id: GameArg,
    hours: Annotated[int, typer.Argument(help="Hours to move the running deadline on by.")],
    config: ConfigOption = None,
    db: DbOption = None,
) -> None:
    """Move the running deadline of a game on by HOURS."""
    _operate("extend", game_id, config, db, f"deadline moved on by {hours} hours", hours=hours)


def game_replace(
    game_id: GameArg,
    seat: Annotated[str, typer.Argument(help="The seat (the player's name in the game).")],
    address: Annotated[str, typer.Argument(help="The signed-on player who takes it over.")],
    config: ConfigOption = None,
    db: DbOption = None,
) -> None:
    """Hand a seat of a game to another signed-on player; he gets its latest report."""
    _operate("replace", game_id, config, db, f"{seat} is now {address}'s", seat=seat, new=address)


def _operate(
    what: str, game_id: str, config: Any, db: str | None, done: str, **more: Any
) -> None:
    """The operator's line on a game outside tournaments, the players told it was him."""
    from moderator.ports.errors import GameNotFoundError
    from moderator.runners.commands import operate
    from moderator.usecases.tournaments.operated import Operate, OperatorLineError

    settings = _config(config)
    ask = Operate(what, game_id, settings.moderator.address, **more)
    with _store(db or settings.database.url, create=False) as store:
        try:
            operate(store, ask)
        except GameNotFoundError:
            known = ", ".join(store.games()) or "none"
            raise _fail(f"error: there is no game called {game_id!r} (games: {known})") from None
        except OperatorLineError as exc:
            raise _fail(f"error: {exc}") from None
    typer.echo(f"Game {game_id} {done}; its players are told (the notices are in the outbox).")


def master_view(state: GameState) -> dict[str, Any]:
    """The public view with every legion's contents and the negotiation's proposals."""
    from moderator.reporting.views import player_view

    view = player_view(state, None)
    for legion in view["legions"]:
        legion["contents"] = list(state.legions[legion["marker"]].contents)
    engagement = state.engagement
    if engagement is not None:
        view["engagement"] = player_view(state, engagement.attacker_player)["engagement"]
    return view


def player_seen(store: EventStore, game_id: str, viewer: str) -> dict[str, Any]:
    """``viewer``'s view, what he knows for certain of a legion counted as its contents."""
    from moderator.runners.unit import read
    from moderator.usecases.games.reads import show

    view = read(store, lambda lookup, _now: show(lookup, game_id, viewer))
    for legion in view["legions"]:
        if legion["contents"] is None and legion.get("known"):
            legion["contents"] = list(legion["known"])
    return view


def where_it_stands(state: GameState) -> str:
    """``turn 3, Ann's move step, Ann to act``, or how it ended."""
    from moderator.rules.legal import to_act
    from moderator.rules.state import Step

    if state.step is Step.OVER:
        won = ", ".join(state.winners) if state.winners else "nobody"
        return f"over after turn {state.turn}: won by {won}"
    actor = to_act(state)
    if state.active is None:
        return f"setting up: {state.step.value} step, {actor} to act"
    return f"turn {state.turn}, {state.active}'s turn: {state.step.value} step, {actor} to act"


def deadline_text(record: GameRecord) -> str:
    """The deadline running (UTC), whose and for what, or why there is none."""
    if record.paused is not None:
        by = f"in the tournament {record.tournament}" if record.tournament else "by the operator"
        return f"paused {by} since {_utc(record.paused.at)}"
    deadline = record.deadline
    if deadline is None:
        if record.undelivered:
            return f"no deadline while mail to {', '.join(sorted(record.undelivered))} bounces"
        return "no time limits" if record.time_limits is None else "no deadline running"
    return f"deadline {_utc(deadline.due)} for {deadline.player} ({deadline.kind})"


def service_lines(record: GameRecord) -> list[str]:
    """The service's side of a game, which only the game master sees."""
    lines = ["", "Service:"]
    limits = record.time_limits
    lines.append(
        "  time limits: none (the game waits for its players)"
        if limits is None
        else f"  time limits: setup {limits.setup_hours:g} h, turn {limits.turn_hours:g} h, "
        f"engagement {limits.engagement_hours:g} h, battle {limits.battle_hours:g} h, "
        f"muster {limits.muster_hours:g} h; reminders "
        f"{', '.join(f'{h:g}' for h in limits.reminder_hours) or 'none'} h before"
    )
    if record.ends_at is not None:
        lines.append(f"  end date (Wolff 21.1): {_utc(record.ends_at)}")
    dice = record.dice
    lines.append(
        "  dice: "
        + (
            "scripted (a test)" if dice.scripted
            else "a local seed, not bound to mails" if not dice.bound
            else "NOT secret (a test seed)" if record.insecure_dice
            else "a secret seed, bound to each mail"
        )
        + ("; players may authenticate by secret" if record.allow_secrets else "")
        + ("" if record.relay else "; messages between players off")
    )
    for absence in record.absences:
        lines.append(f"  absence: {absence.player} {absence.first} to {absence.last}")
    for seat, pause in sorted(record.undelivered.items()):
        until = _utc(pause.until) if pause.until is not None else "his next mail"
        lines.append(f"  undelivered: mail to {seat} bounced; deadline paused until {until}")
    for seat, orders in sorted(record.standing.items()):
        if orders:
            lines.append(f"  standing orders of {seat}: {'; '.join(orders)}")
    for seat, choice in sorted(record.notify.items()):
        lines.append(f"  notify {seat}: {choice}")
    return lines


def _seat(store: EventStore, game_id: str, state: GameState, who: str) -> str:
    """The seat ``who`` names (a player's name in any case, or his address)."""
    from moderator.store import players

    with store.reading() as tx:
        seats = players.seats(tx, game_id)
    by_address = {address.lower(): seat for address, seat in seats.items()}
    names = [p.name for p in state.players]
    found = by_address.get(who.strip().lower()) or next(
        (name for name in names if name.lower() == who.strip().lower()), None
    )
    if found is None:
        raise _fail(f"error: {who!r} plays no seat in {game_id}; its players: {', '.join(names)}")
    return found


def _utc(moment: datetime) -> str:
    return f"{moment:%Y-%m-%d %H:%M} UTC"
