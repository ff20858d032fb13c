"""
The operator's word on a mail that waits for a person (``titan-moderator mail retry|drop
REF``): an outbox mail the sender gave up on (``failed``) or is still trying
(``pending``), or an inbound mail held over its sender's reply budget.

- **retry**: an outbox mail is due again at once, its attempts counted afresh (after the
  operator fixed what made it fail: a key, the SMTP server); a held inbound mail is
  processed again at the next poll (the budget is counted again then).
- **drop**: an outbox mail is never sent; its row stays, ``dropped`` with a note that the
  operator said so, after what error.  A held inbound mail stays rejected, its note
  saying the operator dropped it.  Neither touches a game: a report not sent is a report
  the player can ask for again (``status``, ``history``).

A mail that was sent (or bounced) is not the operator's to retry or drop: the refusal
says what it is.  Nor is a pending mail a sender holds now (its claim's lease running at
the store's time): it may be at the SMTP server this moment, so neither word could be
kept (a drop would not stop it, a retry would send it twice).  The refusal says it is
being sent and to look again; the sender then records it sent, or frees it (a failure,
or a lease run out), and the word applies.  The store writes the word only on a row no
live claim holds, so a claim taken after this decision is decided on again.  ``REF`` is what ``mail list`` prints: ``42`` for outbox mail 42,
``in-7`` for inbound mail 7.
"""

from __future__ import annotations

from datetime import datetime

from moderator.ports import Lookup, MailStatus, Outcome, StoredMail
from moderator.ports.mail import DROPPED, FAILED, HELD, PENDING, RECEIVED, REJECTED
from moderator.ports.writes import MAIL_IN as IN
from moderator.ports.writes import MAIL_OUT as OUT
from moderator.records import record

RETRY, DROP = "retry", "drop"


class MailWordError(ValueError):
    """The operator's word cannot apply to that mail; the message says why and what to do."""


@record
class MailWord:
    """``mail retry REF`` or ``mail drop REF`` (``what``: ``retry`` or ``drop``)."""

    what: str
    ref: str


def parse_ref(ref: str) -> tuple[str, int]:
    """``42`` -> (outbox, 42); ``in-7`` -> (inbound, 7).

    Raises:
        MailWordError: neither form.
    """
    text = ref.strip().lower()
    table = IN if text.startswith("in-") else OUT
    number = text[3:] if table == IN else text.removeprefix("out-")
    if not number.isdigit() or int(number) < 1:
        msg = f"{ref!r} names no mail: write the number 'mail list' shows (42, or in-7 for a held one)"
        raise MailWordError(msg)
    return table, int(number)


def mail_word(ask: MailWord, lookup: Lookup, now: datetime) -> Outcome:
    """
    The operator's retry or drop of one mail, as the row stands now.

    Raises:
        MailWordError: no such mail, or one in a state the word does not fit.
    """
    if ask.what not in (RETRY, DROP):
        raise MailWordError(f"{ask.what!r}: the operator may retry or drop a mail")
    table, number = parse_ref(ask.ref)
    if table == IN:
        return _inbound(ask.what, number, lookup, now)
    mail = lookup.outbox_mail(number)
    if mail is None:
        raise MailWordError(f"there is no outbox mail {number} ('mail list' shows them)")
    if mail.status not in (PENDING, FAILED):
        msg = f"mail {number} to {mail.recipient} is {mail.status}: only pending or failed mail"
        raise MailWordError(f"{msg} can be retried or dropped")
    if _held(mail, now):
        msg = f"mail {number} to {mail.recipient} is being sent now (a sender holds it until"
        msg += f" {mail.claimed_until:%H:%M:%S} UTC): 'mail list' shows in a minute whether it"
        raise MailWordError(f"{msg} was sent or is pending again; {ask.what} it then")
    about = f"mail {number} to {mail.recipient} ({mail.kind or 'mail'}"
    about += f", {mail.game_id})" if mail.game_id else ")"
    if ask.what == RETRY:
        said = MailStatus(OUT, number, mail.status, PENDING)
        return Outcome(statuses=(said,), log=(f"{about}: the operator had it sent again now",))
    note = f"dropped by the operator {_utc(now)}"
    said = MailStatus(OUT, number, mail.status, DROPPED, note)
    return Outcome(statuses=(said,), log=(f"{about}: dropped by the operator, never sent",))


def _held(mail: StoredMail, now: datetime) -> bool:
    """Whether a sender's claim holds ``mail`` at ``now`` (as ``store.outbox`` claims)."""
    until = mail.claimed_until
    return mail.status == PENDING and until is not None and until > now


def _inbound(what: str, number: int, lookup: Lookup, now: datetime) -> Outcome:
    message = lookup.inbound_message(number)
    if message is None:
        raise MailWordError(f"there is no inbound mail {number} ('mail list --held' shows them)")
    note = message.error or ""
    if message.status != REJECTED or not note.startswith(HELD):
        msg = f"inbound mail {number} is not held ({message.status}"
        msg += f": {note})" if note else ")"
        raise MailWordError(f"{msg}; 'db requeue' processes a shunted one again")
    if what == RETRY:
        said = MailStatus(IN, number, REJECTED, RECEIVED)
        return Outcome(statuses=(said,), log=(f"inbound mail {number}: processed again",))
    said = MailStatus(IN, number, REJECTED, REJECTED, f"dropped by the operator {_utc(now)}: {note}")
    return Outcome(statuses=(said,), log=(f"inbound mail {number}: dropped by the operator",))


def _utc(moment: datetime) -> str:
    return f"{moment:%Y-%m-%d %H:%M} UTC"


__all__ = ["DROP", "RETRY", "MailWord", "MailWordError", "mail_word", "parse_ref"]
