"""``companion screenshots --out DIR``: every screen of every registered game, as PNG, at
each supported panel size, drawn headless from the games' recorded demo sessions, and
the shared start and history screens.

For each game and size: the first screen of each phase of the demo, each menu its
screen offers there (Swap, Fruit Deck, the Undo dialog...), the paused screen and the
final screen. Each text a widget drew cut off or under the minimum size is listed, so a
screen that reads badly is found without opening every file.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ..games import GAMES
from ..table.screenshots import SIZES, shoot_game, shoot_shared
from ..table.replay import data_dir
from .common import DEVICE, USAGE, fail, game_choices, user_path


def cmd_screenshots(args) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # drawn off screen, whatever the machine has
    out = Path(args.out)
    sizes = args.size or list(SIZES)
    bad = [s for s in sizes if s not in SIZES]
    if bad:
        return fail(f"--size {bad[0]} is not a supported panel: choose from {', '.join(SIZES)}", USAGE)
    if args.theme:
        from ..ui import theme

        theme.use(args.theme)
    games = [GAMES[args.game]] if args.game else [g for g in GAMES.values() if g.demo]
    report: list[str] = []
    total = 0
    finished: dict[str, list] = {name: [] for name in sizes}
    for game in games:
        if not game.demo or not (data_dir() / game.demo).exists():
            print(f"companion: {game.name} has no recorded demo session: no screenshots", file=sys.stderr)
            continue
        for name in sizes:
            w, h, rotation = SIZES[name]
            try:
                files = shoot_game(game, out / game.slug / name, (w, h), rotation, report, finished[name])
            except OSError as err:
                return fail(f"cannot write the screenshots into {out}: {err.strerror}", DEVICE)
            total += len(files)
            print(f"{game.name} {name}: {len(files)} screens in {out / game.slug / name}")
    for name in sizes:
        w, h, rotation = SIZES[name]
        try:
            files = shoot_shared(out / "shared" / name, (w, h), rotation, report, finished[name])
        except OSError as err:
            return fail(f"cannot write the screenshots into {out}: {err.strerror}", DEVICE)
        total += len(files)
        print(f"Start screen and history {name}: {len(files)} screens in {out / 'shared' / name}")
    for line in report:
        print(f"reads badly: {line}")
    from ..ui import theme

    print(f"{total} screenshots; {len(report)} texts cut off, under {theme.MIN_SIZE} px (em) or overlapping")
    return 0


def add_parsers(sub) -> None:
    p = sub.add_parser("screenshots", help="draw every screen of every game to PNG, at each panel size")
    p.add_argument("--out", required=True, type=user_path, help="the folder for the PNG files")
    p.add_argument("--game", choices=game_choices(), help="only this game")
    p.add_argument("--size", action="append", help=f"only this panel size (repeat): {', '.join(SIZES)}")
    p.add_argument("--theme", choices=("default", "high-contrast"), help="draw in this theme")
    p.set_defaults(func=cmd_screenshots)
