"""
The audit of a game by mail, pure: the dice bound to the mail that asked for them, the
salted commitments to hidden legions, the bundle every player gets when the game ends
and the checks ``titan-moderator verify`` makes on it.  See docs/audit.md.
"""
