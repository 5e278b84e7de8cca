"""``python -m firstframe [--start-screen] ARGS...``: ``companion ARGS...`` that exits as
soon as the first frame is on the screen, printing ``FIRST-FRAME`` on stdout. Used by
bench_resume.py to time a fresh process from its start to its first drawn frame; nothing
else changes.

``--start-screen``: the benches' SDL dummy driver is an invisible screen, on which
``companion run`` never shows the start screen (nobody could tap it); this flag makes the
table treat the dummy window as a screen people see, so ``run`` with no game and no names
opens the start screen as it does on the Pi's panel."""

import os
import sys

from companion.core import startup

startup.speed_ups()  # as `companion` does first: before pygame and the first dataclass (below)

from companion.ui import app as _app  # noqa: E402

_show = _app.App.show


def _show_once(self, draw):
    _show(self, draw)
    sys.stdout.write("FIRST-FRAME\n")
    sys.stdout.flush()
    from companion.core import codecache

    codecache.save()  # as the table's turn after its first frame does (the exit skips it)
    os._exit(0)


_app.App.show = _show_once

if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--start-screen"]:
        args = args[1:]
        from companion.table import build

        build.virtual_screen = lambda: False
    from companion.cli import main

    sys.exit(main(args))
