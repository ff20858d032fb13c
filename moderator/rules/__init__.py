"""The pure rules core of Titan."""

from __future__ import annotations
