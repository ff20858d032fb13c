"""
Pictures drawn in a worker process of their own.

resvg keeps Python's global lock while it renders (~80 ms a picture, measured: two
threads take as long as one), so a picture drawn in the sender's thread would stall
everything else the service does meanwhile: polling, the deadlines, the other mails.
One worker process, started the first time a picture is wanted and kept, draws them
instead; on two cores the service goes on while it works.  The worker keeps the lands'
pixels between pictures (``raster.layers_to_png``).  A worker that died is replaced at
the next picture; the one that was being drawn is left out of its mail (logged by
``outgoing``).
"""

from __future__ import annotations

import json
import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from moderator.pictures.raster import layers_to_png
from moderator.pictures.spec import Picture, layers

#: Longest wait for one picture before the mail goes without it.
PICTURE_SECONDS = 60.0

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None


def draw_png(picture_json: str) -> bytes:
    """
    The picture ``Picture.to_json`` wrote (as a JSON string) as a palette PNG.

    Raises:
        ValueError: it is not a picture, or the worker could not draw it.
    """
    pool = _worker()
    try:
        return pool.submit(_draw, picture_json).result(timeout=PICTURE_SECONDS)
    except BrokenProcessPool as exc:
        _forget(pool)
        raise ValueError(f"the picture worker died: {exc}") from exc
    except TimeoutError as exc:
        raise ValueError(f"the picture took longer than {PICTURE_SECONDS:g} s") from exc


def _draw(picture_json: str) -> bytes:
    """In the worker: draw and rasterise."""
    return layers_to_png(layers(Picture.from_json(json.loads(picture_json))))


def _worker() -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            # spawn: a fork of a process with threads (the sender's) may inherit held locks
            _pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        return _pool


def _forget(pool: ProcessPoolExecutor) -> None:
    global _pool
    with _lock:
        if _pool is pool:
            _pool = None
    pool.shutdown(wait=False, cancel_futures=True)


def stop() -> None:
    """Stop the worker, if one runs (a stopping service; the next picture starts another)."""
    with _lock:
        pool = _pool
    if pool is not None:
        _forget(pool)
