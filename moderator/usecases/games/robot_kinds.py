"""
The robot kinds a seat of ``play`` may have: a module of its own so that the command
line names them in ``--help`` without importing the robots and the rules they play by.
"""

from __future__ import annotations

#: The robot kinds, as ``play --robots`` names them (``robot_match`` says what each does).
KINDS = ("competent", "random")
