"""
The email header registry of the mails we compose (``compose.POLICY``), each header's
class made once rather than for every header of every mail, and each header parsed
once for the few times a mail's rendering writes it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from email.headerregistry import BaseHeader, HeaderRegistry

#: Header names whose classes are kept: ours are a few dozen; a parsed mail may name
#: any number, which are then made as the standard library makes them.
KEPT = 128
#: Parsed headers kept, the least recently used dropped: the headers of the mails a
#: few workers are rendering at once, and the ones every mail repeats.
HEADERS = 256


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
        self._parsed: OrderedDict[tuple[str, str], BaseHeader] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, name: str, value: str) -> BaseHeader:
        """
        The header ``name: value``, parsed once.  The standard library parses a header
        again each time a message is written (a report's signed part is written three
        times: to sign it, to check it writes the same again, and to send it) and for
        every mail that repeats it (content types, encodings, descriptions): a fifth of
        composing a report.  A header is a value that writing only reads, so one made
        before is handed out again.
        """
        if not isinstance(value, str):
            return super().__call__(name, value)
        key = (name, value)
        with self._lock:
            made = self._parsed.get(key)
            if made is not None:
                self._parsed.move_to_end(key)
                return made
        made = super().__call__(name, value)
        with self._lock:
            self._parsed[key] = made
            while len(self._parsed) > HEADERS:
                self._parsed.popitem(last=False)
        return made

    def __getitem__(self, name: str) -> type[BaseHeader]:
        made = self._made.get(name.lower())
        if made is None:
            made = super().__getitem__(name)
            if len(self._made) < KEPT:
                self._made[name.lower()] = made
        return made
