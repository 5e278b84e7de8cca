"""Bad command-line input found by a new user's trial: each gets one clear line, exit
status 2, and changes nothing (no traceback, no file written or overwritten)."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

import pytest

from companion.core.store import EventStore


def companion(*args, stdin="", env=None):
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", **(env or {})})


def run_headless(store, *args, stdin=""):
    return companion("run", "--game", "sugarrr", "--names", "A,B", "--headless", "--simulate",
                     "--store", str(store), *args, stdin=stdin)


def refused(proc, start: str) -> None:
    """One line on stderr starting with ``start``, exit status 2, no traceback."""
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr + proc.stdout
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert proc.stderr.startswith(f"companion: {start}"), proc.stderr


# ---------------------------------------------------------------- --record

def test_record_onto_the_store_itself_is_refused_and_the_store_is_untouched(tmp_path):
    store = tmp_path / "table.db"
    assert run_headless(store, stdin="SRS215\n").returncode == 0
    before = store.read_bytes()
    link = tmp_path / "link.db"
    link.symlink_to(store)
    for record in (store, link, tmp_path / "." / "table.db"):
        refused(run_headless(store, "--record", str(record), stdin="SRS223\n"), f"--record {record} is the game store")
    assert store.read_bytes() == before
    assert [g.inputs for g in EventStore(store, readonly=True).games()] == [1]


def test_record_onto_the_store_before_it_exists_is_refused(tmp_path):
    store = tmp_path / "new.db"
    refused(run_headless(store, "--record", str(store)), f"--record {store} is the game store")
    assert not store.exists()


def test_record_onto_a_file_that_is_not_a_trace_is_refused(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("milk\neggs\n")
    refused(run_headless(tmp_path / "t.db", "--record", str(notes)), f"--record {notes} already exists and is not a trace")
    assert notes.read_text() == "milk\neggs\n"
    assert not (tmp_path / "t.db").exists()


def test_record_may_replace_a_trace_or_fill_an_empty_file(tmp_path):
    trace = tmp_path / "game.trace"
    trace.write_text("")
    assert run_headless(tmp_path / "a.db", "--record", str(trace), stdin="SRS215\n").returncode == 0
    assert json.loads(trace.read_text().splitlines()[0])["trace"] == 1
    proc = run_headless(tmp_path / "b.db", "--record", str(trace), stdin="SRS223\n")  # another game: replaced
    assert proc.returncode == 0, proc.stderr
    assert "SRS223" in trace.read_text() and "SRS215" not in trace.read_text()


def test_record_help_says_what_happens_to_an_existing_file():
    out = " ".join(companion("run", "--help").stdout.split())
    assert "added to" in out and "replaced" in out and "other existing file is refused" in out


# ---------------------------------------------------------------- timers

@pytest.mark.parametrize("option, value, words", [
    ("--turn-limit", "inf", "--turn-limit is seconds per turn, above 0 and at most 86400 (24 hours), not inf"),
    ("--turn-limit", "nan", "--turn-limit is seconds per turn"),
    ("--turn-limit", "86401", "--turn-limit is seconds per turn"),
    ("--chess-clock", "1e308", "--chess-clock is minutes per player, above 0 and at most 1440 (24 hours), not 1e+308"),
    ("--chess-clock", "-1", "--chess-clock is minutes per player, above 0 and at most 1440 (24 hours), not -1"),
    ("--chess-clock", "0", "--chess-clock is minutes per player"),
    ("--bid-seconds", "inf", "--bid-seconds is seconds for each bid, above 0 and at most 86400 (24 hours), not inf"),
])
def test_a_timer_that_is_not_a_number_of_seconds_up_to_a_day_is_refused_naming_only_its_option(
        tmp_path, option, value, words):
    proc = run_headless(tmp_path / "t.db", option, value, stdin="SRS215\n")
    refused(proc, words)
    others = {"--turn-limit", "--chess-clock", "--bid-seconds"} - {option}
    assert not any(o in proc.stderr for o in others)
    assert not (tmp_path / "t.db").exists()


def test_a_day_long_timer_is_allowed(tmp_path):
    proc = run_headless(tmp_path / "t.db", "--turn-limit", "86400", "--chess-clock", "1440", stdin="SRS215\n")
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("line, words", [
    ("turn_limit = inf", "turn_limit"),
    ("turn_limit = nan", "turn_limit"),
    ("turn_limit = 1e308", "turn_limit"),
    ("chess_clock = 1e308", "chess_clock"),
    ("chess_clock = 1441", "chess_clock"),
])
def test_a_config_timer_that_is_not_finite_or_over_a_day_is_refused(tmp_path, line, words):
    from companion.service.config import ConfigError, parse
    import tomllib

    with pytest.raises(ConfigError, match=words):
        parse(tomllib.loads(f"[timers]\n{line}\n"), "companion.toml")
    config = tmp_path / "companion.toml"
    config.write_text(f"[timers]\n{line}\n")
    proc = run_headless(tmp_path / "t.db", "--config", str(config))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and words in proc.stderr


# ---------------------------------------------------------------- traces

HEADER = '{"trace": 1, "game": "sugarrr", "players": ["A", "B"]}\n'


@pytest.mark.parametrize("record, words", [
    ('{"t": 1e309, "touch": "done"}', 'line 2: "t" must be a number of seconds from the start, not Infinity'),
    ('{"t": NaN, "touch": "done"}', 'line 2: "t" must be a number of seconds from the start, not NaN'),
    ('{"t": -Infinity, "touch": "done"}', 'line 2: "t" must be a number'),
    ('{"t": "9", "touch": "done"}', 'line 2: "t" must be a number of seconds from the start, not "9"'),
    ('{"touch": "done"}', 'line 2: a record needs "t"'),
    ('{"t": 1, "device": "toaster", "data": "SRS215\\r"}', 'line 2: unknown device "toaster"'),
    ('{"t": 1, "device": "toaster", "touch": "done"}', 'line 2: unknown device "toaster"'),
    ("oops", "line 2: not a JSON record (expecting value at character 1)"),
])
def test_a_bad_trace_record_is_refused_with_its_line_in_words(tmp_path, record, words):
    path = tmp_path / "bad.trace"
    path.write_text(HEADER + record + "\n")
    refused(companion("replay", str(path)), f"{path}, {words}")


def test_a_trace_that_is_not_json_at_all_says_so_in_words(tmp_path):
    path = tmp_path / "bad.trace"
    path.write_text("\n")
    path.write_text("hello\n")
    proc = companion("replay", str(path))
    refused(proc, f"{path}, line 1: not a JSON record (expecting value at character 1)")
    assert "Expecting value: line 1 column 1 (char 0)" not in proc.stderr


def test_every_device_run_record_writes_is_read_back(tmp_path):
    from companion.table.trace import read

    path = tmp_path / "ok.trace"
    path.write_text(HEADER + "".join(
        f'{{"t": {i}, "device": "{d}", "data": "x"}}\n'
        for i, d in enumerate(("scanner", "scanner2", "scanner12", "keyboard", "nfc", "tray"), 1)))
    assert [r.device for r in read(path).records] == ["scanner", "scanner2", "scanner12", "keyboard", "nfc", "tray"]


# ---------------------------------------------------------------- nfc write

@pytest.mark.parametrize("code, words", [
    ("BAD CODE!", "'BAD CODE!' is not a card code: a code is 6 letters and digits, such as SRS71M"),
    ("SRS71N", "'SRS71N' is not a card code: its last character does not match"),
])
def test_nfc_write_of_a_bad_code_says_what_a_code_looks_like_not_to_scan_again(code, words):
    proc = companion("nfc", "write", code, "--nfc", "/dev/null")
    refused(proc, words)
    assert "scan" not in proc.stderr.lower() and proc.stdout == ""


def test_nfc_write_to_a_reader_that_is_not_there_says_where_to_look():
    proc = companion("nfc", "write", "SRS71M", "--nfc", "/dev/serial/by-id/no-such-reader", "--wait", "1")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr and "Errno" not in proc.stderr
    assert ("no NFC reader found at /dev/serial/by-id/no-such-reader: check its USB cable, and the path "
            "(ls /dev/serial/by-id/)") in proc.stderr


def test_doctor_screen_for_ever_is_refused_not_a_crash():
    refused(companion("doctor", "--screen", "inf"), "--screen is how many seconds")


# ---------------------------------------------------------------- --help

def _parsers(parser: argparse.ArgumentParser, name: str = "companion"):
    """Every parser of the CLI, with the command that reaches it."""
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                yield from _parsers(sub, f"{name} {sub_name}")


def test_every_option_of_every_command_has_a_help_line():
    from companion.cli import build_parser

    missing = []
    seen = 0
    for name, parser in _parsers(build_parser()):
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            seen += 1
            label = "/".join(action.option_strings) or action.dest
            if not (action.help or "").strip() or action.help == argparse.SUPPRESS:
                missing.append(f"{name} {label}")
            if isinstance(action, argparse._SubParsersAction):  # each command in the list has a line too
                missing += [f"{name} {c.dest}" for c in action._choices_actions if not (c.help or "").strip()]
    assert seen > 80  # every command's options were walked
    assert missing == []


# ---------------------------------------------------------------- ~ in paths

def test_a_quoted_tilde_in_store_record_and_config_paths_is_the_home_folder(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    (home / "companion.toml").write_text('[game]\nnames = ["A", "B"]\n')
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--headless", "--simulate",
                           "--store", "~/q.db", "--record", "~/q.trace", "--config", "~/companion.toml"],
                          input="SRS215\n", capture_output=True, text=True, timeout=60, cwd=work,
                          env={**os.environ, "HOME": str(home), "SDL_VIDEODRIVER": "dummy"})
    assert proc.returncode == 0, proc.stderr
    assert (home / "q.db").exists() and (home / "q.trace").exists()
    assert not (work / "~").exists()
    hist = subprocess.run([sys.executable, "-m", "companion.cli", "history", "--store", "~/q.db", "--json"],
                          capture_output=True, text=True, timeout=60, cwd=work, env={**os.environ, "HOME": str(home)})
    assert [g["players"] for g in json.loads(hist.stdout)["games"]] == [["A", "B"]]


def test_every_path_option_expands_a_tilde(monkeypatch, tmp_path):
    from companion.cli import build_parser

    monkeypatch.setenv("HOME", str(tmp_path))
    p = build_parser()
    cases = [
        (["run", "--store", "~/a.db", "--record", "~/a.trace", "--config", "~/c.toml"], ("store", "record", "config")),
        (["history", "--store", "~/a.db"], ("store",)),
        (["enroll", "sugarrr", "--nfc", "emulated", "--store", "~/a.db"], ("store",)),
        (["replay", "~/a.trace", "--out", "~/out"], ("trace", "out")),
        (["demo", "--out", "~/out"], ("out",)),
        (["score", "sugarrr", "~/hands.txt"], ("file",)),
        (["labels", "sugarrr", "--out", "~/l.pdf"], ("out",)),
        (["screenshots", "--out", "~/shots"], ("out",)),
        (["calibrate", "--out", "~/cal.toml", "--screen-png", "~/cal.png"], ("out", "screen_png")),
        (["tilt", "analyze", "~/t.csv", "--calibration", "~/cal.toml"], ("file", "calibration")),
        (["tilt", "record", "~/t.csv"], ("file",)),
        (["doctor", "--config", "~/c.toml", "--store", "~/a.db", "--png", "~/d.png"], ("config", "store", "png")),
    ]
    for argv, names in cases:
        args = p.parse_args(argv)
        for name in names:
            assert getattr(args, name).startswith(str(tmp_path) + "/"), (argv, name)


def test_a_tilde_in_the_configs_store_path_is_the_home_folder(monkeypatch, tmp_path):
    from companion.service.config import parse

    monkeypatch.setenv("HOME", str(tmp_path))
    cfg = parse({"store": {"path": "~/table.db"}, "tray": {"calibration": "~/cal.toml"}}, "companion.toml")
    assert cfg["store"]["path"] == str(tmp_path / "table.db")
    assert cfg["tray"]["calibration"] == str(tmp_path / "cal.toml")


def test_goal_random_or_left_out_draws_a_goal_card_headless(tmp_path):
    """The trial: --help offers "Random" but --goal random was refused, and leaving --goal
    out was refused headless ("Players choose or take 1 random Goal Card")."""
    import json
    import os
    import subprocess
    import sys

    from companion.core.store import EventStore
    from companion.games.sugar_blast import GOAL_NAMES
    from companion.games.sugar_blast import rules as R

    for n, extra in enumerate((["--goal", "random"], [])):
        db = tmp_path / f"t{n}.db"
        proc = subprocess.run([sys.executable, "-m", "companion", "run", "--game", "sugar-blast", "--names", "Ana,Ben",
                               "--headless", "--simulate", "--store", str(db), *extra], input="/help\n",
                              capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, SDL_VIDEODRIVER="dummy"))
        assert proc.returncode == 0, proc.stderr
        goal = EventStore(db).games()[0].config["goal"]
        assert goal in GOAL_NAMES and f"(--goal {goal})" in proc.stderr
        # the card drawn, in its printed words (rulebook, "Goal Cards"), not its code name
        assert f"drawn at random: Goal Card: {R.GOALS[goal]['text']}" in proc.stderr
    solo = subprocess.run([sys.executable, "-m", "companion", "run", "--game", "sugar-blast", "--names", "Ana",
                           "--solo", "--headless", "--simulate", "--store", str(tmp_path / "solo.db")], input="",
                          capture_output=True, text=True, timeout=120, env=dict(os.environ, SDL_VIDEODRIVER="dummy"))
    assert solo.returncode == 0 and "drawn at random" not in solo.stderr  # solo plays without a Goal Card
    assert json.dumps(EventStore(tmp_path / "solo.db").games()[0].config["goal"]) == "null"


@pytest.mark.parametrize("path", ["/etc/passwd/ttyUSB0", "/tmp", "/dev/null"])
def test_nfc_write_to_a_path_that_is_no_reader_says_what_to_do_not_errno(path):
    # A mistyped path (a file where a folder should be), a folder, or a device that is
    # not a serial port: each is a wrong --nfc path, said without the system's codes.
    proc = companion("nfc", "write", "SRS71M", "--nfc", path, "--wait", "1")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "Errno" not in proc.stderr and "ioctl" not in proc.stderr, proc.stderr
    assert "ls /dev/serial/by-id/" in proc.stderr, proc.stderr
