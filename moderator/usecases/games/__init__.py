"""
Use cases of one game: starting it (``starting``), planning and reading it
(``planning``), running a message's order lines (``run``, ``messages``), the report
rounds (``notify``, ``reports``), the queries, standing orders, digests, the dice that
keep their place, and whole robot games.
"""
