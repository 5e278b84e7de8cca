"""``companion doctor``: every check the table needs, printed with the fix for each
problem (and shown or saved as a screen). The checks are :mod:`companion.service.doctor`."""

from __future__ import annotations

import math
import sys
from pathlib import Path

from ..service.config import SYSTEM_CONFIG
from ..service.doctor import draw_report, report, run_checks
from .common import pygame_error, user_path


#: The service's state directory (the unit's StateDirectory= and WorkingDirectory=).
STATE_DIR = "/var/lib/companion"


def writable_folder(state: str = STATE_DIR) -> str:
    """Move to a folder this user may write, unless the current one is: lgpio creates
    its notify file in the working folder, so ``sudo -u companion companion doctor`` run
    from an admin's home would fail GPIO for a reason that is not the table's. The
    state folder first (where the service runs), then the home folder, then /tmp.
    Returns the folder worked in."""
    import os
    import tempfile

    try:
        here = os.getcwd()
        if os.access(here, os.W_OK | os.X_OK):
            return here
    except OSError:  # the folder was removed
        pass
    for folder in (state, os.path.expanduser("~"), tempfile.gettempdir()):
        if os.path.isdir(folder) and os.access(folder, os.W_OK | os.X_OK):
            os.chdir(folder)
            return folder
    return os.getcwd()


def cmd_doctor(args) -> int:
    """Print the report (and show or save it as a screen). 0 when nothing needs fixing,
    1 when something does."""
    if args.screen is not None and not (math.isfinite(args.screen) and 0 < args.screen <= 3600):
        print("companion: --screen is how many seconds to show the report, above 0 and at most 3600",
              file=sys.stderr)
        return 2
    if args.config:  # a FIFO would hang the report, /dev/zero fill the memory: one line, status 2
        from ..core.files import FileProblem, read_bytes

        try:
            read_bytes(args.config, "the config file", 1024 * 1024)
        except FileProblem as exc:
            if not exc.missing:
                print(f"companion: {exc}", file=sys.stderr)
                return 2
    writable_folder()
    config = Path(args.config) if args.config else (SYSTEM_CONFIG if SYSTEM_CONFIG.exists() else None)
    from ..venue.checks import check_venue

    checks = run_checks(config, args.tray, store=getattr(args, "store", None), more=check_venue)
    print(report(checks))
    if args.screen or args.png:
        from ..ui.app import App

        app = App()
        try:
            app.show(lambda s: draw_report(s, checks))
            if args.png:
                try:
                    print(f"screen written to {app.save(args.png)}")
                except (OSError, pygame_error()) as err:
                    print(f"companion: cannot write the screen picture {args.png}: "
                          f"{getattr(err, 'strerror', None) or err}", file=sys.stderr)
                    return 1
            elif args.screen:
                import time

                time.sleep(args.screen)
        finally:
            app.close()
    return 1 if any(c.status == "fail" for c in checks) else 0


def add_parsers(sub) -> None:
    """Add ``doctor`` to the CLI's subparsers."""
    d = sub.add_parser("doctor", help="check everything the table needs, with the fix for each problem")
    d.add_argument("--config", type=user_path, help="the config to check (default /etc/companion/companion.toml if it exists, "
                                    "else ~/.config/sugar-companion/config.toml)")
    d.add_argument("--tray", help="check this tray sensor (i2c:N, or emulated) instead of the config's")
    d.add_argument("--store", type=user_path, help="check this game store file instead of the config's")
    d.add_argument("--png", type=user_path, help="also draw the report as the screen and save it as this PNG")
    d.add_argument("--screen", type=float, metavar="SECONDS", help="also show the report on the screen this long")
    d.set_defaults(func=cmd_doctor)
