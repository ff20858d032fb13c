"""Use cases of a tournament: forming its games, the director's commands, scoring."""
