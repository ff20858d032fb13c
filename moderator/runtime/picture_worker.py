"""
Pictures drawn in a worker process of their own.

resvg keeps Python's global lock while it renders (~80 ms a picture, measured: two
threads take as long as one), so a picture drawn in the sender's thread would stall
everything else the service does meanwhile: polling, the deadlines, the other mails.
One worker process (``PicturePool``: the composition root makes it), started the first
time a picture is wanted and kept, draws them instead; on two cores the service goes on
while it works.  The worker keeps the lands' pixels between pictures
(``raster.layers_to_png``) and the finished PNGs by the digest of their spec
(``DRAWN``, ``pictures.cache``), so one picture is drawn once however many mails carry it.  A worker that died is replaced at
the next picture; the one that was being drawn is left out of its mail (logged by
``outgoing``).

A picture is drawn ahead (``prepare``) as soon as the report that carries it is in the
outbox, while the service goes on with the next mails: the sender then finds it drawn,
or being drawn, and does not add the drawing to the time a player waits for his answer.
At most ``AHEAD`` pictures are held for the sender; one it never asks for (its mail was
given up) is forgotten, oldest first, so the memory stays bounded.

The worker's own memory is bounded by retiring it: after ``RETIRE`` pictures the next
one goes to a fresh worker, and the old one ends once it has drawn what it was already
given.  resvg and Pillow leave the worker's heap fragmented, so a worker kept for weeks
grew by a third in two hours of play (measured by ``benchmarks/soak_serve.py``); a
fresh one costs a second of start and the pictures it has not seen yet.  (The standard
library's ``max_tasks_per_child`` would do this, but on Python 3.11 a pool with work
queued when its worker retires never starts another: CPython issue 115634.)

The worker ends with the service, even one killed with SIGKILL, which no handler sees:
a thread of the worker waits on the pipe that only the service holds open
(``multiprocessing.parent_process``), and ends the worker when it closes.  The
resource tracker that multiprocessing starts for the pool's semaphores then ends too:
it waits for its own pipe to close, which the service and the worker hold.  (Linux's
``PR_SET_PDEATHSIG`` would follow the service's thread that started the worker, not
the service, so it is not used.)
"""

from __future__ import annotations

import json
import multiprocessing
import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess

from moderator.pictures.cache import PngCache
from moderator.pictures.raster import layers_to_png
from moderator.pictures.spec import Picture, layers

#: Longest wait for one picture before the mail goes without it.
PICTURE_SECONDS = 60.0
#: Pictures drawn ahead and held for the sender: a round of a six-player game's reports
#: is at most a dozen, so this holds several rounds' (about 55 KB each).
AHEAD = 48
#: Pictures a worker draws before a fresh one takes over (a few hours of a busy service).
RETIRE = 500

#: What makes the worker process: the composition root's ``picture_pool``.
PoolFactory = Callable[[], Executor]


class PicturePool:
    """
    The one worker process that draws pictures, started by ``make`` (the composition
    root's) when the first picture is wanted, kept, and replaced when it died.
    """

    def __init__(self, make: PoolFactory, *, ahead: int = AHEAD, retire: int = RETIRE) -> None:
        self._make = make
        self._lock = threading.Lock()
        self._pool: Executor | None = None
        self._retire = max(1, retire)
        #: Pictures handed to the current worker (it retires at ``retire``).
        self._given = 0
        #: Workers started, the first included (a retired or dead one is replaced).
        self.started = 0
        self._ahead_max = max(1, ahead)
        #: Pictures handed to the worker ahead of their mail, by their spec (canonical).
        self._ahead: OrderedDict[str, tuple[Executor, Future[bytes]]] = OrderedDict()

    def prepare(self, picture_json: str) -> None:
        """
        Start drawing a picture a mail will carry (its report was just queued), without
        waiting; ``draw_png`` of the same picture then takes it.  A picture not readable
        as JSON is left for ``draw_png`` to refuse.
        """
        try:
            key = _canonical(picture_json)
        except ValueError:
            return
        with self._lock:
            if key in self._ahead:
                return
        pool = self._worker()
        try:
            future = pool.submit(draw_here, key)
        except (BrokenProcessPool, RuntimeError):
            self._forget(pool)  # the next picture starts a new worker
            return
        with self._lock:
            self._ahead[key] = (pool, future)
            while len(self._ahead) > self._ahead_max:
                self._ahead.popitem(last=False)

    def draw_png(self, picture_json: str) -> bytes:
        """
        The picture ``Picture.to_json`` wrote (as a JSON string) as a palette PNG: the
        one drawn ahead by ``prepare`` if there is one, else drawn now.

        Raises:
            ValueError: it is not a picture, or the worker could not draw it.
        """
        key = _canonical(picture_json)
        with self._lock:
            ahead = self._ahead.pop(key, None)
        pool, future = ahead if ahead is not None else (self._worker(), None)
        try:
            if future is None:
                future = pool.submit(draw_here, key)
            return future.result(timeout=PICTURE_SECONDS)
        except BrokenProcessPool as exc:
            self._forget(pool)
            raise ValueError(f"the picture worker died: {exc}") from exc
        except TimeoutError as exc:
            raise ValueError(f"the picture took longer than {PICTURE_SECONDS:g} s") from exc

    @property
    def held(self) -> int:
        """Pictures drawn (or being drawn) ahead that no mail has taken yet."""
        with self._lock:
            return len(self._ahead)

    def stop(self) -> None:
        """
        Stop the worker, if one runs (a stopping service; the next picture starts
        another), and wait for it to end: a pool left ending as the interpreter exits
        races Python 3.11's exit hook for its wake-up pipe (an OSError at exit).
        """
        with self._lock:
            pool = self._pool
        if pool is not None:
            self._forget(pool, wait=True)

    def _worker(self) -> Executor:
        """The worker for the next picture: a fresh one when the last has drawn its share."""
        retired: Executor | None = None
        with self._lock:
            if self._pool is not None and self._given >= self._retire:
                retired, self._pool = self._pool, None
            if self._pool is None:
                self._pool = self._make()
                self._given = 0
                self.started += 1
            self._given += 1
            pool = self._pool
        if retired is not None:
            retired.shutdown(wait=False)  # draws what it holds (held ahead too), then ends
        return pool

    def _forget(self, pool: Executor, *, wait: bool = False) -> None:
        with self._lock:
            if self._pool is pool:
                self._pool = None
            for key in [k for k, (p, _) in self._ahead.items() if p is pool]:
                del self._ahead[key]
        pool.shutdown(wait=wait, cancel_futures=True)


#: The PNGs this process drew, by the digest of their spec (``pictures.cache``): in the
#: worker, every report's pictures pass here, so a picture seen before is not drawn again.
DRAWN = PngCache()


def draw_here(picture_json: str) -> bytes:
    """
    Draw and rasterise in this process (in the worker; or where no worker is wanted),
    unless the same picture was drawn here lately.
    """
    return DRAWN.get_or_draw(_canonical(picture_json), _draw)


def _canonical(picture_json: str) -> str:
    """The spec with its keys sorted, so one picture has one digest however written."""
    try:
        return json.dumps(json.loads(picture_json), sort_keys=True)
    except ValueError as exc:
        raise ValueError(f"not a picture: {exc}") from exc


def _draw(picture_json: str) -> bytes:
    return layers_to_png(layers(Picture.from_json(json.loads(picture_json))))


def spawn_context() -> BaseContext:
    """spawn: a fork of a process with threads (the sender's) may inherit held locks."""
    return multiprocessing.get_context("spawn")


def follow_parent() -> None:
    """In the worker, first: end the worker when the service ends (the module's text)."""
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(
            target=_end_with, args=(parent,), name="follow-parent", daemon=True
        ).start()


def start_worker(variants: str = "") -> None:
    """The worker's start: follow the parent, and know the groups' own variants too."""
    follow_parent()
    from moderator.runtime.variants import install_own_variants

    install_own_variants(variants)


def _end_with(parent: BaseProcess) -> None:
    parent.join()  # returns once the service's end of the pipe is closed: it is gone
    os._exit(0)
