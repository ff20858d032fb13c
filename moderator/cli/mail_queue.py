"""
``mail list``, ``mail retry REF`` and ``mail drop REF``: the mail that waits for a
person, seen and dealt with without SQL.  The list reads the store; retry and drop are
the operator's word decided by ``usecases.mail.operator_mail`` and written by the
command line's runner, so a row the sender moved meanwhile is decided on again.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Annotated

import typer

from moderator.cli.common import ConfigOption, DbOption, _config, _fail, _store

if TYPE_CHECKING:
    from moderator.store.mail_status import Listed

app = typer.Typer(help="Failed, held, pending and bounced mail.", no_args_is_help=True)

RefArg = Annotated[
    str, typer.Argument(metavar="REF", help="The mail as 'mail list' names it: 42, or in-7 (held).")
]


@app.command("list")
def mail_list(
    held: Annotated[bool, typer.Option("--held", help="Inbound mail held over its sender's "
                                       "reply budget.")] = False,
    failed: Annotated[bool, typer.Option("--failed", help="Outbox mail the sender gave up on.")]
    = False,
    pending: Annotated[bool, typer.Option("--pending", help="Outbox mail still to send.")]
    = False,
    bounced: Annotated[bool, typer.Option("--bounced", help="Mail sent that came back "
                                          "undelivered, with what the service did.")] = False,
    config: ConfigOption = None,
    db: DbOption = None,
) -> None:
    """List failed, held, pending and bounced mail: to whom, what, game, when, tries, why."""
    from moderator.store import mail_status

    flags = (("failed", failed), ("held", held), ("pending", pending), ("bounced", bounced))
    asked = tuple(s for s, on in flags if on)
    with _store(db or _config(config).database.url, create=False) as store, store.reading() as tx:
        found = mail_status.listed(tx, asked or mail_status.SHOWN)
    if not found:
        typer.echo(f"No mail is {' or '.join(asked or ('failed', 'held', 'pending', 'bounced'))}.")
        return
    for mail in found:
        for line in listed_lines(mail):
            typer.echo(line)


@app.command("retry")
def mail_retry(ref: RefArg, config: ConfigOption = None, db: DbOption = None) -> None:
    """Send a failed or pending mail now, tries counted afresh; process a held mail again."""
    _word("retry", ref, config, db)


@app.command("drop")
def mail_drop(ref: RefArg, config: ConfigOption = None, db: DbOption = None) -> None:
    """Never send a failed or pending mail (its row kept, marked dropped by you); or drop a
    held mail unanswered.  No game changes."""
    _word("drop", ref, config, db)


def _word(what: str, ref: str, config: ConfigOption, db: DbOption) -> None:
    from moderator.runners.commands import mail_word
    from moderator.usecases.mail.operator_mail import MailWordError

    with _store(db or _config(config).database.url, create=False) as store:
        try:
            done = mail_word(store, what, ref)
        except MailWordError as exc:
            raise _fail(f"error: {exc}") from None
    for line in done:
        typer.echo(f"{line[:1].upper()}{line[1:]}.")


def listed_lines(mail: Listed) -> list[str]:
    """A mail in two or three lines: what and where, when and how often, why."""
    if mail.state == "bounced":
        return _bounced_lines(mail)
    direction = "from" if mail.state == "held" else "to"
    game = f", game {mail.game}" if mail.game else ""
    lines = [f"{mail.ref}: {mail.state} {mail.kind} {direction} {mail.who}{game}"]
    when = f"    since {_utc(mail.since)}"
    if mail.state != "held":
        when += f"; {mail.attempts} attempt{'s' if mail.attempts != 1 else ''}"
    if mail.due is not None:
        when += f"; next try {_utc(mail.due)}"
    lines.append(when)
    if mail.error:
        lines.append(f"    {'held: ' if mail.state == 'held' else 'last error: '}{mail.error}")
    return lines


def _bounced_lines(mail: Listed) -> list[str]:
    """A bounced mail: what and where, written/sent/bounced, the server's words, what was done."""
    game = f", game {mail.game}" if mail.game else ""
    lines = [f"{mail.ref}: bounced {mail.kind} to {mail.who}{game}"]
    when = f"    written {_utc(mail.since)}"
    if mail.sent is not None:
        when += f"; sent {_utc(mail.sent)}"
    if mail.bounced is not None:
        when += f"; bounced {_utc(mail.bounced)}"
    lines.append(when)
    if mail.error:
        lines.append(f"    the server said: {mail.error}")
    lines.extend(f"    done: {line}" for line in mail.done)
    return lines


def _utc(moment: datetime) -> str:
    return f"{moment:%Y-%m-%d %H:%M} UTC"
