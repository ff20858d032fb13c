"""
``titan-moderator status``: the operator's one look at his service, read from the store
(``store.service_status``) without starting it: who polls the mailbox and when it last
said so, the mail by state, the games by state, the next deadlines, the last errors kept
with the mail.  ``mail list`` and ``game list`` show the details.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

import typer

from moderator.cli.common import ConfigOption, DbOption, _config, _store

if TYPE_CHECKING:
    from moderator.store.service_status import Status


def status(config: ConfigOption = None, db: DbOption = None) -> None:
    """The service at a glance: poller, mail by state, games, next deadlines, last errors."""
    from moderator.store import service_status

    with _store(db or _config(config).database.url, create=False) as store, store.reading() as tx:
        found = service_status.status(tx)
    for line in status_lines(found):
        typer.echo(line)


def status_lines(found: Status) -> list[str]:
    """What ``status`` prints, a heading and its lines per part."""
    lines = ["Poller:"]
    for poller in found.pollers:
        lines.append(f"    {poller.mailbox}: {poller.host} pid {poller.pid}, since "
                     f"{_utc(poller.started)}; last heartbeat {_utc(poller.heartbeat)}")
    if not found.pollers:
        lines.append("    no service holds a mailbox (serve is not running, or stopped cleanly)")
    checked = _utc(found.checked) if found.checked else "never"
    lines.append(f"    deadlines last checked {checked}")
    sent_back = {("bounced" if s == "undelivered" else s): n for s, n in found.outbox.items()}
    lines.append(f"Outbox: {_counted(sent_back)}")
    lines.append(f"Inbound: {_counted(found.inbound)}")
    games = ", ".join(f"{n} {state}" for state, n in found.games.items())
    paused = f" (paused: {', '.join(found.paused)})" if found.paused else ""
    lines.append(f"Games: {games}{paused}")
    lines.append("Next deadlines:")
    for due, game, player, kind in found.deadlines:
        lines.append(f"    {_utc(due)}  {game}  {player or '(game)'}  {kind}")
    if not found.deadlines:
        lines.append("    none")
    lines.append("Last errors kept with the mail:")
    for when, what, error in found.errors:
        lines.append(f"    {what}{f' {_utc(when)}' if when else ''}: {error}")
    if not found.errors:
        lines.append("    none")
    return lines


def _counted(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {state}" for state, n in counts.items()) or "empty"


def _utc(moment: datetime) -> str:
    return f"{moment:%Y-%m-%d %H:%M} UTC"
