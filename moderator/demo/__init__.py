"""
The demos: the whole service on an embedded mail hub with robot players.

- ``mail_demo``: ``titan-moderator demo``, robots sign on and play one game by mail;
- ``tournament_demo``: ``titan-moderator demo --tournament``, a small tournament;
- ``mailrobot.MailRobot``: a robot player that plays by signed mail.

Nothing of the product imports this package except the CLI.
"""
