"""Peak memory (RSS) of a whole game with the screen (issue 15).

    .venv/bin/python bench/bench_memory.py

For every game in ``companion.games.GAMES``, a fresh process replays its demo trace
(``tests/data/<slug>-family.trace``) through the whole stack with the window on
(:func:`companion.table.replay.replay`: pseudo-terminal scanner, emulated tray, real Runner and
App at 800x480, an on-disk store) and reports its peak resident set size
(``getrusage(RUSAGE_SELF).ru_maxrss``). Baseline, the same way: a fresh Python that
imports pygame-ce, opens the same 800x480 window and draws one frame with text. Target:
peak RSS <= 60 MB.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import ROOT, demo_trace, main, row  # noqa: E402

LIMIT_MB = 60.0

GAME = """
import resource, sys
from companion.core import startup
startup.speed_ups()  # as `companion` starts the table
from companion.table.replay import replay
runner = replay(sys.argv[1], store=sys.argv[2], window=True)
assert runner.session.over, "the demo game did not finish"
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""

BARE = """
import resource, pygame
pygame.display.init(); pygame.font.init()
s = pygame.display.set_mode((800, 480))
s.fill((30, 30, 40)); s.blit(pygame.font.Font(None, 40).render("Sugar Table", True, (255, 255, 255)), (10, 10))
pygame.display.flip()
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


#: run.py --zero runs it once, at full speed: peak RSS does not depend on the CPU's speed
SPEED_INDEPENDENT = True


def peak_mb(code: str, *args: str) -> float:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1",
               PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, check=True)
    return int(out.stdout.strip().splitlines()[-1]) / 1024  # ru_maxrss is in KiB on Linux


def rows(quick: bool = False) -> list[dict]:
    from companion.games import GAMES

    base = peak_mb(BARE)
    out = []
    for slug in GAMES:
        with tempfile.TemporaryDirectory(prefix="bench-memory-") as tmp:
            mb = peak_mb(GAME, str(demo_trace(slug)), str(Path(tmp) / "table.db"))
        out.append(row(f"peak RSS, whole game with the screen: {slug}", f"<= {LIMIT_MB:g} MB", median=mb, unit="MB",
                       baseline=base, baseline_name="bare pygame window", ok=mb <= LIMIT_MB))
    return out


if __name__ == "__main__":
    sys.exit(main(rows, "memory"))
