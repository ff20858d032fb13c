"""
The picture worker (``moderator.runtime.picture_worker``) and the resource tracker that
multiprocessing starts beside it end with the process that started them, even one killed
with SIGKILL; the worker outlives the thread that happened to start it.
"""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

from moderator.pictures.spec import report_pictures

from ..pictures.positions import board_view
from . import crashloop

#: A service in miniature: draws a picture from a thread that then ends, says so, waits.
SERVICE = """
import sys, threading, time
from moderator.runtime.bootstrap import picture_pool

draw_png = picture_pool().draw_png

picture = open(sys.argv[1], encoding="utf-8").read()
drawn = []
thread = threading.Thread(target=lambda: drawn.append(draw_png(picture)))
thread.start()
thread.join()
assert drawn[0].startswith(b"\\x89PNG")
print("drawn", flush=True)
time.sleep(120)
"""


def test_a_killed_services_picture_worker_and_resource_tracker_end_with_it(
    tmp_path: Path,
) -> None:
    board = report_pictures(board_view("Ann"), "Ann", "g1")[0]  # the masterboard
    picture = tmp_path / "picture.json"
    picture.write_text(json.dumps(board.to_json()), encoding="utf-8")
    with subprocess.Popen(
        [sys.executable, "-c", SERVICE, str(picture)],
        stdout=subprocess.PIPE,
        env=crashloop.serve_env(),
        cwd=tmp_path,
    ) as service:
        try:
            assert service.stdout is not None
            assert service.stdout.readline() == b"drawn\n"
            time.sleep(0.3)  # the thread that started the worker has ended: it stays
            children = crashloop.descendants(service.pid)
            commands = sorted(child.command for child in children)
            assert len(children) == 2, commands
            assert "multiprocessing.resource_tracker" in commands[0], commands
            assert "multiprocessing.spawn" in commands[1], commands
            assert crashloop.alive(children) == children
            service.send_signal(signal.SIGKILL)
            service.wait()
            left = asyncio.run(crashloop.until_gone(children, within=5.0))
            assert left == [], left
        finally:
            service.kill()
