"""
Letters: every text a player, game master or director is mailed, rendered over the
templates in ``templates/`` (``templates.Templates``, the one Jinja2 environment).

One function per letter, each marked with the templates it renders (``@letter``):
``reports`` (reports, game records, the board and battle as text), ``answers`` (the
answer to an order mail, refusals, the welcome), ``notices`` (reminders, timeouts,
absences, the end date and result, outages), ``address`` (a change of address),
``audits``, ``bounces`` (to the game master) and ``tournaments`` (game start, notices,
the answer to tournament lines, standings).  A letter takes plain values the use case
computed (moments and deadlines come in as arguments, ``moments`` words them) and gives
text (``texts.Texts``: subject, signed part, private part, pictures).  Nothing here
reads a store, the clock or a mailbox: an import-linter contract keeps it so, and keeps
Jinja2 out of every other package.
"""
