"""``python -m moderator``: the ``titan-moderator`` command line."""

from __future__ import annotations

from moderator.cli import main

main()
