"""``python -m firstframe ARGS...``: ``companion ARGS...`` that exits as soon as the first
frame is on the screen, printing ``FIRST-FRAME`` on stdout. Used by bench_resume.py to
time a fresh process from its start to its first drawn frame; nothing else changes."""

import os
import sys

from companion.ui import app as _app

_show = _app.App.show


def _show_once(self, draw):
    _show(self, draw)
    sys.stdout.write("FIRST-FRAME\n")
    sys.stdout.flush()
    os._exit(0)


_app.App.show = _show_once

if __name__ == "__main__":
    from companion.cli import main

    sys.exit(main(sys.argv[1:]))
