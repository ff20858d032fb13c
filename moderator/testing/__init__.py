"""
What the tests, the benchmarks and the demo run the moderator against: real
components started for the occasion, and fakes of our own ports, never mocks of what
we ship against.

- ``memory``: ``MemoryLookup``, the ``Lookup`` port over plain dictionaries, which the
  store's contract tests (``tests/store/test_lookup_contract.py``) hold to the SQL
  store's answers;
- ``recording``: ``RecordingUnitOfWork``, which applies a use case's ``Outcome`` (or
  ``Work``) to the memory as the store's unit of work applies it to the tables;
- ``hub``: an embedded mail hub (aiosmtpd SMTP in, pymap IMAP out) on loopback;
- ``pgtemp``: a throw-away PostgreSQL server in a temporary folder;
- ``stores``: an event store on a test database, and an emptied PostgreSQL database;
- ``gnupg``: temporary GnuPG homes (short paths for gpg-agent's socket) with keys;
- ``connections``: a player's IMAP and SMTP connections;
- ``clocks``: the test clock (moved by hand) and the demo clock; ``apps``: an App on
  a test clock.

The product does not import this package (an import-linter contract): only the
command line (the demo, ``simulate``) and the demo do.
"""
