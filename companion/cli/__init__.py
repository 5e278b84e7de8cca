"""``companion``: the command line. ``companion --help`` lists the commands.

One module per command group; each adds its parsers and does argument handling and
printing only (the work lives in the packages below the CLI). Exit status: 0 done, 1 a
device or store problem, 2 bad input (a bad file, code or option), and never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from importlib.metadata import PackageNotFoundError, version

from . import cards, doctor, history, nfc, replay, run, screenshots, tray


def _version() -> str:
    try:
        return version("sugar-table-companion")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="companion", description="Sugar Table Companion: checks plays and keeps score.")
    p.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND",
                           help="one of these (companion COMMAND --help for its options):")
    run.add_parsers(sub)
    replay.add_parsers(sub)
    cards.add_parsers(sub)
    nfc.add_parsers(sub)
    history.add_parsers(sub)
    screenshots.add_parsers(sub)
    tray.add_parsers(sub)
    doctor.add_parsers(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print("companion: stopped (Ctrl-C)", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `companion cards sugarrr | head`
        sys.stderr.close()
        return 0
