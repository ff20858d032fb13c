"""
The moderator at work: the configuration, the composition root (``bootstrap``: the
one place that builds the adapters and hands them to the jobs), the jobs themselves
(the poller, the sender, the clock and the tournaments on apscheduler: ``service``),
the worker that drains waiting mail, and the self-check.
"""
