"""
The mail service: what happens between "a raw inbound mail is archived" and "its
answers and reports are in the outbox", and how an outbox row becomes the mail sent.

- ``handler.MailGameHandler``: the ``moderator.store.inbox.Handler`` of the service
  (intake, authentication, step references, orders, reports, sign-on);
- ``outgoing.render_outgoing``: an outbox row as the signed PGP/MIME mail to send.
"""

from __future__ import annotations

from moderator.service.handler import ANSWER_KINDS, DEFAULT_BUDGET, MailGameHandler
from moderator.service.outgoing import render_outgoing

__all__ = ["ANSWER_KINDS", "DEFAULT_BUDGET", "MailGameHandler", "render_outgoing"]
