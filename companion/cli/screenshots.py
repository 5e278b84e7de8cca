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
from ..table.screenshots import SIZES, shoot_game, shoot_screen, shoot_shared
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
    from ..service.doctor import draw_report

    for name in sizes:
        w, h, rotation = SIZES[name]
        try:
            shoot_screen(out / "doctor" / name / "01-doctor.png", (w, h), rotation,
                         lambda s: draw_report(s, doctor_sample()), report)
        except OSError as err:
            return fail(f"cannot write the screenshots into {out}: {err.strerror}", DEVICE)
        total += 1
        print(f"Doctor {name}: 1 screen in {out / 'doctor' / name}")
    for line in report:
        print(f"reads badly: {line}")
    from ..ui import theme

    cut = sum(": cut off: " in line for line in report)
    small = sum(" px: " in line for line in report)
    print(f"{total} screenshots; {cut} cut, {small} undersized (under {theme.MIN_SIZE} px em), "
          f"{len(report) - cut - small} overlapping")
    return 0


def doctor_sample():
    """A doctor report as a first run on a Pi shows it: one check to fix, several to look
    at, some fine and some not set up (the longest words the checks use)."""
    from ..service.doctor import Check

    return [Check("Pi model", "warn", "not a Raspberry Pi (no device-tree model)",
                  "fine for a trial run; the table is built for a Pi 4, 5 or Zero 2 W"),
            Check("OS", "warn", "Debian GNU/Linux 12 (bookworm), not Raspberry Pi OS",
                  "hardware/install.sh expects Raspberry Pi OS Bookworm or later"),
            Check("Config", "ok", "no config file: every default (hardware/companion.toml.example lists them)"),
            Check("Display", "warn", "SDL_VIDEODRIVER=dummy: no picture",
                  "unset SDL_VIDEODRIVER (the service sets kmsdrm)"),
            Check("Touch input", "warn", "no /dev/input/event*: no touchscreen, keyboard or mouse found",
                  "check the touchscreen's cable (DSI ribbon or USB for touch)"),
            Check("I2C", "fail", "/dev/i2c-1 missing: I2C is off", "sudo raspi-config nonint do_i2c 0"),
            Check("Tray sensor", "skip", "none configured ([tray] sensor)"),
            Check("Readers", "warn", "none configured and none plugged in",
                  "plug a scanner in, then run doctor again"),
            Check("GPIO", "skip", "no buttons, buzzer or LED configured ([gpio])"),
            Check("Game store", "ok", "/var/lib/companion/table.db writable"),
            Check("Service", "warn", "companion.service is not installed",
                  "sudo hardware/install.sh (or: sudo systemctl enable --now companion)")]


def add_parsers(sub) -> None:
    p = sub.add_parser("screenshots", help="draw every screen of every game to PNG, at each panel size")
    p.add_argument("--out", required=True, type=user_path, help="the folder for the PNG files")
    p.add_argument("--game", choices=game_choices(), help="only this game")
    p.add_argument("--size", action="append", help=f"only this panel size (repeat): {', '.join(SIZES)}")
    p.add_argument("--theme", choices=("default", "high-contrast"), help="draw in this theme")
    p.set_defaults(func=cmd_screenshots)
