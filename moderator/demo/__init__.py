"""
The demos: the whole service on an embedded mail hub with robot players.

- ``mail_demo``: ``titan-moderator demo``, robots sign on and play one game by mail;
- ``tournament_demo``: ``titan-moderator demo --tournament``, a small tournament;
- ``keys``: the moderator's and the robots' GnuPG homes, and what is kept of them.

The robot players (``testing.mailrobot.MailRobot``), their shipped keys and their
mails' stamps are test support (``moderator.testing``): the tests play by mail with
them too, and never import this package.

Nothing of the product imports this package except the CLI.
"""
