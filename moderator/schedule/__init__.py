"""
When players must act, as pure policy over a game's state and a given moment: time
limits and deadlines (``timing``), step references (``reference``) and absences
(``absence``).  No clock, no store, no mail: the shell passes ``now`` in and writes what
comes out.
"""

from __future__ import annotations
