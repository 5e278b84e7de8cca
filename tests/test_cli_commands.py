"""The command line loads only the module of the command it runs (a cold start on a Pi
Zero 2 W: ``companion run`` must not import the labels, NFC writing, history export, the
doctor or the screenshots), and its table of commands matches the parsers."""

import subprocess
import sys

import pytest

from companion.cli import COMMANDS, MODULES, build_parser


def _commands(parser) -> set[str]:
    sub = next(a for a in parser._actions if a.dest == "command")
    return set(sub.choices)


def test_every_command_is_in_the_table_and_no_other():
    assert _commands(build_parser()) == set(COMMANDS)
    assert set(COMMANDS.values()) == set(MODULES)


def test_each_command_module_adds_exactly_its_commands():
    for module in MODULES:
        mine = {c for c, m in COMMANDS.items() if m == module}
        for command in mine:
            assert _commands(build_parser(command)) == mine, command


def _loaded_after(argv: list[str]) -> set[str]:
    code = ("import sys\nfrom companion.cli import main\n"
            f"try:\n    main({argv!r})\nexcept SystemExit:\n    pass\n"
            "print(' '.join(sorted(m for m in sys.modules if m.startswith('companion') or m.startswith('reportlab')"
            " or m.startswith('importlib.metadata'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def test_run_loads_only_what_running_needs():
    loaded = _loaded_after(["run", "--help"])
    assert "companion.cli.run" in loaded
    never = {"companion.cli.cards", "companion.cli.nfc", "companion.cli.history", "companion.cli.screenshots",
             "companion.cli.tray", "companion.cli.doctor", "companion.cards.labels", "companion.cards.nfc_write",
             "companion.table.history", "companion.service.doctor", "companion.table.screenshots",
             "importlib.metadata"}
    assert not loaded & never, loaded & never
    assert not any(m.startswith("reportlab") for m in loaded)


def test_version_and_an_unknown_command_still_work():
    out = subprocess.run([sys.executable, "-m", "companion", "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.startswith("companion ")
    bad = subprocess.run([sys.executable, "-m", "companion", "nosuch"], capture_output=True, text=True)
    assert bad.returncode == 2 and "doctor" in bad.stderr  # every command offered


def test_a_table_starts_without_what_only_other_work_needs(tmp_path):
    """``companion run`` up to its first frame loads no calibration statistics, digest
    hashing, systemd socket (not under systemd), trace writer (no --record),
    installed-version lookup or label/PDF, NFC-writing, history-export, doctor or
    screenshot code; and, with no tray, reader, GPIO pin or venue set (issue 24: a Zero 2
    W's cold start), not the tray's, the enrolled tags', GPIO's or the venue's modules,
    the start screen, nor importlib's zip readers (pygame's window icon). The window's
    module is imported first (to see the first frame) after the start-up call that
    ``main`` makes, as bench/firstframe.py does."""
    code = ("import os, sys\nfrom companion.core import startup\nstartup.speed_ups()\n"  # as bench/firstframe.py
            "from companion.ui import app\n"
            "show = app.App.show\n"
            "def first(self, draw):\n"
            "    show(self, draw)\n"
            "    print(' '.join(sorted(sys.modules)), flush=True)\n"
            "    os._exit(0)\n"
            "app.App.show = first\n"
            "from companion.cli import main\n"
            f"sys.exit(main(['run', '--game', 'sugar-blast', '--names', 'Ana,Ben', '--store', {str(tmp_path / 't.db')!r},"
            " '--goal', 'nine-any', '--log-format', 'json']))\n")
    env = {**__import__("os").environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env.pop("NOTIFY_SOCKET", None)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    loaded = set(out.stdout.split())
    assert "pygame" in loaded and "companion.games.sugar_blast.rules" in loaded  # it did start the game
    never = {"statistics", "hashlib", "socket", "companion.table.trace", "importlib.metadata",
             "companion.cards.labels", "companion.cards.nfc_write", "companion.table.history",
             "companion.service.doctor", "companion.table.screenshots", "companion.cli.cards",
             "companion.devices.tilt", "companion.devices.tray", "companion.core.enrolment", "companion.devices.gpio",
             "companion.venue.settings", "companion.ui.start", "zipfile", "shutil", "bz2", "lzma", "pickle"}
    assert not loaded & never, loaded & never
    assert not any(m.startswith("reportlab") for m in loaded)


@pytest.mark.parametrize("columns", ["60", "97", "200", "0", "wide"])
def test_help_is_laid_out_as_argparse_lays_it_out_for_the_terminals_width(columns, monkeypatch):
    """The CLI's own HelpFormatter (which finds the width without importing shutil) gives
    argparse's help, at the width shutil.get_terminal_size gives."""
    import argparse

    from companion.cli import HelpFormatter, build_parser

    monkeypatch.setenv("COLUMNS", columns)
    ours = build_parser("run")
    theirs = build_parser("run")
    for parser in [theirs] + [a for act in theirs._actions if isinstance(act, argparse._SubParsersAction)
                              for a in act.choices.values()]:
        parser.formatter_class = argparse.HelpFormatter
    run_ours, run_theirs = (next(a for a in p._actions if isinstance(a, argparse._SubParsersAction)).choices["run"]
                            for p in (ours, theirs))
    assert run_ours.formatter_class is HelpFormatter
    assert ours.format_help() == theirs.format_help()
    assert run_ours.format_help() == run_theirs.format_help()
    import shutil

    assert run_ours._get_formatter()._width == shutil.get_terminal_size().columns - 2
    assert columns not in ("60", "97", "200") or run_ours._get_formatter()._width == int(columns) - 2


@pytest.mark.parametrize("argv, said", [
    (["run", "--game", "sugar"], "companion run: no game 'sugar': did you mean sugarrr?"),
    (["cards", "swet-deals"], "companion cards: no game 'swet-deals': did you mean sweet-deals?"),
    (["rn"], "companion: no command 'rn': did you mean run?"),
    (["run", "--gaem", "sugarrr"], "companion run: no option --gaem: did you mean --game?"),
    (["run", "--theme", "hihg-contrast"], "companion run: --theme 'hihg-contrast': did you mean --theme high-contrast?"),
])
def test_a_usage_error_is_one_line_with_a_suggestion(argv, said):
    """Issue 38: `--game sugar` printed 17 usage lines before the one that mattered. A
    usage error is one line that says what is wrong and the nearest right word, and
    where the whole usage is; the exit status stays argparse's 2."""
    bad = subprocess.run([sys.executable, "-m", "companion", *argv], capture_output=True, text=True)
    assert bad.returncode == 2
    lines = bad.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(said) and "--help" in lines[0], bad.stderr
