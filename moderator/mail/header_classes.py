"""
The email header registry of the mails we compose (``compose.POLICY``), each header's
class made once rather than for every header of every mail.
"""

from __future__ import annotations

from email.headerregistry import BaseHeader, HeaderRegistry

#: Header names whose classes are kept: ours are a few dozen; a parsed mail may name
#: any number, which are then made as the standard library makes them.
KEPT = 128


class HeaderClasses(HeaderRegistry):
    """
    The standard library's header registry, each header's class made once.  Its
    ``__getitem__`` builds a new class for every header it is asked for (a mail asks for
    forty), which cost about a fifth of composing a report (2 of 11 ms) and left a class
    and its cycles for the garbage collector each time.  The classes are the same; at
    most ``KEPT`` names are kept.
    """

    def __init__(self) -> None:
        super().__init__()
        self._made: dict[str, type[BaseHeader]] = {}

    def __getitem__(self, name: str) -> type[BaseHeader]:
        made = self._made.get(name.lower())
        if made is None:
            made = super().__getitem__(name)
            if len(self._made) < KEPT:
                self._made[name.lower()] = made
        return made
