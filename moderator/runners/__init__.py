"""
The runners: the only code that opens a unit of work.  Each begins a transaction,
builds the read-only lookup, lets a use case decide (``(context, lookup, now) ->
Outcome``), applies the outcome through ``store.unit_of_work.write``, commits, and
decides again when a stream moved on meanwhile (``ConflictError``).  The use cases in
``moderator.usecases`` read and decide; they never write.

``unit`` is the boundary itself; ``mail`` runs an archived mail (the poller and the
worker call it), ``clock`` the jobs of the clock, ``tournaments`` the tournament job,
``commands`` what the command line asks for.
"""
