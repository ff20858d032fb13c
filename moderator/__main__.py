"""``python -m moderator``: the ``titan-moderator`` command line."""

from __future__ import annotations

from moderator.cli import app

app(prog_name="titan-moderator")
