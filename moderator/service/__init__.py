"""
The use cases of the mail service: what happens between "a raw inbound mail is
archived" and "its answers and reports are decided", and the service's clock and
tournaments.  They decide and return; ``moderator.store.unit_of_work`` writes.  They
name no adapter: the keyring, the IMAP and SMTP connections and the scheduler are
built by ``moderator.runtime.bootstrap`` and handed in.

- ``handler.MailGameHandler``: the handler of one mail (intake, authentication, step
  references, orders, reports, sign-on, tournament lines);
- ``processing.process_message``: one archived mail claimed, decided and written in
  one transaction;
- ``clockwork``: deadlines, reminders, timeouts, absences, the end date;
- ``tournaments``/``tournament_games``: the shell of the tournament core.
"""

from __future__ import annotations

from moderator.service.handler import ANSWER_KINDS, DEFAULT_BUDGET, MailGameHandler

__all__ = ["ANSWER_KINDS", "DEFAULT_BUDGET", "MailGameHandler"]
