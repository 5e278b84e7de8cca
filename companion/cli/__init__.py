"""``companion``: the command line. ``companion --help`` lists the commands.

One module per command group; each adds its parsers and does argument handling and
printing only (the work lives in the packages below the CLI). Exit status: 0 done, 1 a
device or store problem, 2 bad input (a bad file, code or option), and never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

#: The command modules, in the order ``companion --help`` lists their commands.
MODULES = ("run", "replay", "cards", "nfc", "history", "screenshots", "tray", "doctor")
#: Each command -> the module that adds its parser and runs it. Only that module is
#: imported when the command runs, so ``companion run`` never loads the labels (reportlab),
#: NFC writing, history export, the doctor or the screenshots (a cold start on a Pi Zero
#: 2 W, bench/bench_resume.py). tests/test_cli_commands.py checks this table against the
#: parsers the modules add.
COMMANDS = {"run": "run", "demo": "replay", "replay": "replay", "cards": "cards", "score": "cards",
            "labels": "cards", "hint": "cards", "enroll": "nfc", "nfc": "nfc", "history": "history",
            "screenshots": "screenshots", "calibrate": "tray", "tilt": "tray", "doctor": "doctor"}


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version  # ~50 ms: only for --version

    try:
        return version("sugar-table-companion")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


class _Version(argparse.Action):
    """``--version``: looks the installed version up only when asked."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0,
                         help=help or "show the program's version and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"{parser.prog} {_version()}")  # on stdout, as argparse's own version action
        parser.exit()


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or, for a known ``command``, the parser with only that
    command's module loaded (its parsers are the same either way)."""
    p = argparse.ArgumentParser(prog="companion", description="Sugar Table Companion: checks plays and keeps score.")
    p.add_argument("--version", action=_Version)
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND",
                           help="one of these (companion COMMAND --help for its options):")
    for name in (COMMANDS[command],) if command in COMMANDS else MODULES:
        importlib.import_module(f"{__name__}.{name}").add_parsers(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    command = next((a for a in argv if not a.startswith("-")), None)  # the top level has no valued options
    args = build_parser(command).parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print("companion: stopped (Ctrl-C)", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `companion cards sugarrr | head`
        sys.stderr.close()
        return 0
