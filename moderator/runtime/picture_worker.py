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
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess

from moderator.pictures.cache import PngCache
from moderator.pictures.raster import layers_to_png
from moderator.pictures.spec import Picture, layers

#: Longest wait for one picture before the mail goes without it.
PICTURE_SECONDS = 60.0

#: What makes the worker process: the composition root's ``picture_pool``.
PoolFactory = Callable[[], ProcessPoolExecutor]


class PicturePool:
    """
    The one worker process that draws pictures, started by ``make`` (the composition
    root's) when the first picture is wanted, kept, and replaced when it died.
    """

    def __init__(self, make: PoolFactory) -> None:
        self._make = make
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None

    def draw_png(self, picture_json: str) -> bytes:
        """
        The picture ``Picture.to_json`` wrote (as a JSON string) as a palette PNG.

        Raises:
            ValueError: it is not a picture, or the worker could not draw it.
        """
        pool = self._worker()
        try:
            return pool.submit(draw_here, picture_json).result(timeout=PICTURE_SECONDS)
        except BrokenProcessPool as exc:
            self._forget(pool)
            raise ValueError(f"the picture worker died: {exc}") from exc
        except TimeoutError as exc:
            raise ValueError(f"the picture took longer than {PICTURE_SECONDS:g} s") from exc

    def stop(self) -> None:
        """Stop the worker, if one runs (a stopping service; the next picture starts another)."""
        with self._lock:
            pool = self._pool
        if pool is not None:
            self._forget(pool)

    def _worker(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = self._make()
            return self._pool

    def _forget(self, pool: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pool is pool:
                self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)


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
