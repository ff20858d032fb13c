"""Mail: the pure intake of incoming mail (``intake``), outgoing mail and the GnuPG adapter."""

from __future__ import annotations
