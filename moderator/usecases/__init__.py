"""
The use cases, grouped by the role that starts them.  They read through the
``moderator.ports.Lookup`` (read-only), name no adapter and read no clock.  Two kinds:

- **deciders**, ``(ask, lookup, now) -> Outcome``: the ask is a value saying what is
  wanted (``NewGame``, ``Relay``, ``Due``, ``OutageGame``, ``StopGame``, an inbound
  message with its game...), ``now`` the runner's moment.  The ``Outcome`` is all they
  change; the runners (``moderator.runners``) own the unit of work that writes it;
- **queries**, ``(lookup, ...) -> view``: what a decider, a runner or the command line
  reads (``reads.show``, ``clockwork.due_now``, ``outages.outage_of``...).  They
  never write (the lookup cannot).

The steps a decider is made of are plain functions of values (``games_directed.
pause_game``), or take the lookup and return a part of its outcome (``notify.settle``,
``bounces.delivered``), never a write of their own.

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
