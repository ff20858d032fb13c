"""
The use cases, grouped by the role that starts them.  Each decides and returns an
``Outcome``; the runners (``moderator.runners``) own the unit of work that writes it.
They read through the ``moderator.ports.Lookup`` and name no adapter.

- ``mail``: one inbound mail: intake, authentication, replay seals, orders, answers,
  sign-on, address changes, bounces, tournament lines;
- ``clock``: what time does: deadlines, reminders, timeouts, absences, bounce pauses,
  outages;
- ``tournaments``: forming, directing and scoring a tournament's games;
- ``games``: one game: starting it, running order lines, the report rounds, the
  queries, standing orders, digests, dice, robot games;
- ``players``: who a sender is (signatures, secrets), signing on, reliability.

Layered top to bottom as listed (``clock`` may end a bounce pause, so it sits above
``mail``); import-linter keeps it so.
"""
