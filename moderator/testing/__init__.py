"""
What the tests run the moderator against, never mocks of what we ship against.

- ``memory``: ``MemoryLookup``, the ``Lookup`` port over plain dictionaries, which the
  store's contract tests (``tests/store/test_lookup_contract.py``) hold to the SQL
  store's answers;
- ``recording``: ``RecordingUnitOfWork``, which applies a use case's ``Outcome`` (or
  ``Work``) to the memory as the store's unit of work applies it to the tables.

The product does not import this package.
"""
