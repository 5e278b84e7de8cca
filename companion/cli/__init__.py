"""``companion``: the command line. ``companion --help`` lists the commands.

One module per command group; each adds its parsers and does argument handling and
printing only (the work lives in the packages below the CLI). Exit status: 0 done, 1 a
device or store problem, 2 bad input (a bad file, code or option), and never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

#: The command modules, in the order ``companion --help`` lists their commands.
MODULES = ("run", "replay", "cards", "nfc", "history", "screenshots", "tray", "doctor", "venue")
#: Each command -> the module that adds its parser and runs it. Only that module is
#: imported when the command runs, so ``companion run`` never loads the labels (reportlab),
#: NFC writing, history export, the doctor or the screenshots (a cold start on a Pi Zero
#: 2 W, bench/bench_resume.py). tests/test_cli_commands.py checks this table against the
#: parsers the modules add.
COMMANDS = {"run": "run", "demo": "replay", "replay": "replay", "cards": "cards", "score": "cards",
            "labels": "cards", "quickstart": "cards", "hint": "cards", "enroll": "nfc", "nfc": "nfc", "history": "history",
            "screenshots": "screenshots", "calibrate": "tray", "tilt": "tray", "doctor": "doctor",
            "venue": "venue"}


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version  # ~50 ms: only for --version

    try:
        return version("sugar-table-companion")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def _columns() -> int:
    """The terminal's width as :func:`shutil.get_terminal_size` gives it: ``$COLUMNS``,
    else the width of the terminal on stdout, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", 0))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help layout, as wide as the terminal, found without :mod:`shutil`.
    argparse makes a formatter for every option it adds, and its own imports
    :mod:`shutil` (and with it :mod:`bz2` and :mod:`lzma`) for the width: 7 M
    instructions of every cold start (bench/bench_instructions.py) for a help text that
    is rarely printed."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, _columns() - 2 if width is None else width)


class UsageError(argparse.ArgumentError):
    """A bad command line told in one sentence of its own (argparse would prefix
    ``argument --game:`` and list the choices)."""

    def __init__(self, action, message: str) -> None:
        super().__init__(action, message)
        self.said = message

    def __str__(self) -> str:
        return self.said


def closest(value: str, known) -> str | None:
    """The known word nearest ``value`` (a slip of the keyboard or a shortened name), or None.

    >>> closest("sugar", ["sugarrr", "sugar-blast", "sugar-heist", "sweet-deals"])
    'sugarrr'
    >>> closest("rn", ["run", "demo"]), closest("zzz", ["run", "demo"])
    ('run', None)
    """
    import difflib

    known = [str(k) for k in known]
    starts = [k for k in known if k.startswith(value) or value.startswith(k)] if value else []
    near = difflib.get_close_matches(value, known, n=1, cutoff=0.5)
    return near[0] if near else (starts[0] if starts else None)


def unknown_choice(action: argparse.Action, value) -> str:
    """One sentence for a value that is not one of ``action``'s choices, with the nearest
    one as a suggestion: ``no game 'sugar': did you mean sugarrr?``."""
    choices = [str(c) for c in action.choices]
    if isinstance(action, argparse._SubParsersAction):
        what = "command"
    elif action.dest == "game" or action.dest.endswith("_game"):
        what = "game"
    else:
        what = (action.option_strings or [action.dest])[0]
    near = closest(str(value), choices)
    shown = ", ".join(choices)
    if what.startswith("-"):  # an option's value: name the option
        if near is not None:
            return f"{what} {str(value)!r}: did you mean {what} {near}?"
        return f"{what} is one of {shown}, not {str(value)!r}"
    if near is not None:
        return f"no {what} {str(value)!r}: did you mean {near}?"
    return f"no {what} {str(value)!r}: it is one of {shown}"


class ArgumentParser(argparse.ArgumentParser):
    """:class:`argparse.ArgumentParser` with :class:`HelpFormatter`; its sub-commands'
    parsers are made by this class too (``add_subparsers`` makes its own kind).

    A usage error is one line with a suggestion (issue 38: ``--game sugar`` printed 17
    usage lines before the one that mattered), exit status 2 as argparse's; ``--help``
    still prints the whole usage."""

    def __init__(self, *args, formatter_class=HelpFormatter, **kwargs) -> None:
        super().__init__(*args, formatter_class=formatter_class, **kwargs)

    def _check_value(self, action, value):  # argparse's hook for ``choices``
        if action.choices is not None and value not in action.choices:
            raise UsageError(action, unknown_choice(action, value))

    def _options_known(self) -> list[str]:
        """Every option string of this parser and of its sub-commands' parsers."""
        out = list(self._option_string_actions)
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                for parser in dict.fromkeys(action.choices.values()):
                    out += list(parser._option_string_actions)
        return out

    def error(self, message: str):
        """Print ``message`` as one line (with the nearest option for one that is not
        known) and where the whole usage is, then exit with status 2."""
        if message.startswith("unrecognized arguments: "):
            first = message.split(": ", 1)[1].split()[0]
            near = None
            if first.startswith("-"):  # compared without the dashes every option shares
                bare = {o.lstrip("-"): o for o in self._options_known()}
                near = bare.get(closest(first.split("=")[0].lstrip("-"), bare) or "")
            message = f"no option {first}" if first.startswith("-") else f"{first!r} is not understood here"
            if near is not None:
                message += f": did you mean {near}?"
        self.exit(2, f"{self.prog}: {message} ({self.prog} --help lists what it takes)\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or, for a known ``command``, the parser with only that
    command's module loaded (its parsers are the same either way)."""
    p = ArgumentParser(prog="companion", description="Sugar Table Companion: checks plays and keeps score.")
    p.add_argument("--version", action="store_true", help="print the version and exit (nothing may follow it)")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND",
                           help="one of these (companion COMMAND --help for its options):")
    for name in (COMMANDS[command],) if command in COMMANDS else MODULES:
        importlib.import_module(f"{__name__}.{name}").add_parsers(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); the exit status.

    The start-up speed-ups (:func:`companion.core.startup.speed_ups`: the dataclass code
    cache and the lean pygame import) are switched on first, before a command's module,
    the first to define a dataclass or import pygame, is imported."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if "--service" in argv:  # first of all: no key on tty1 may end the table (Ctrl+C, a scanner's ETX)
        from ..service.console import keys_cannot_signal

        keys_cannot_signal()
    from ..core import startup

    startup.speed_ups()
    if argv[:1] == ["--version"]:
        if len(argv) > 1:  # argparse's version action printed and exited 0 whatever followed
            print(f"companion: --version takes nothing after it (got {' '.join(argv[1:])[:60]!r})", file=sys.stderr)
            return 2
        print(f"companion {_version()}")
        return 0
    command = next((a for a in argv if not a.startswith("-")), None)  # the top level has no valued options
    parser = build_parser(command)
    args, extra = parser.parse_known_args(argv)
    if extra:  # told by the command's own parser, which knows its options
        subs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        subs.choices.get(args.command, parser).error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print("companion: stopped (Ctrl-C)", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `companion cards sugarrr | head`
        sys.stderr.close()
        return 0
    except (OSError, RuntimeError) as exc:  # a file name no file system takes, a symlink loop
        import errno

        if isinstance(exc, OSError) and exc.errno not in (errno.ENAMETOOLONG, errno.ELOOP):
            raise
        if isinstance(exc, RuntimeError) and "Symlink loop" not in str(exc):  # pathlib before 3.13
            raise
        from ..core.files import why_not

        name = getattr(exc, "filename", None) or str(exc).rpartition(" ")[2].strip("'")
        reason = why_not(exc) if isinstance(exc, OSError) else "it is a symbolic link that leads back to itself (a loop)"
        print(f"companion: cannot use {str(name)[:80]}: {reason}", file=sys.stderr)
        return 2
