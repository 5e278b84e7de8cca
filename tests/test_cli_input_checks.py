"""Bad input to the CLI gets one clear line and exit status 2, never a traceback (issue
23, item 15): trace headers with unknown or wrongly typed options, a deeply nested JSON
line, names that could drive a terminal, --version with something after it, an empty
--out."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

ENV = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")


def companion(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "companion", *args], input=stdin, capture_output=True, text=True,
                          timeout=120, env=ENV)


def refused(proc, *words) -> None:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr and proc.stderr.startswith("companion: "), proc.stderr
    for word in words:
        assert word in proc.stderr, proc.stderr


def trace(tmp_path, header: dict, *lines: str):
    path = tmp_path / "t.trace"
    path.write_text("\n".join([json.dumps({"trace": 1, **header}), *lines]) + "\n")
    return str(path)


@pytest.mark.parametrize("options, words", [
    ({"zzz": 1}, ["no option 'zzz'"]),
    ({"solo": [1, 2]}, ["yes or no"]),
    ({"goal": {"a": 1}}, ["not one of"]),
])
def test_replay_refuses_unknown_or_wrongly_typed_header_options(tmp_path, options, words):
    game = "sugar-blast"
    refused(companion("replay", trace(tmp_path, {"game": game, "players": ["A", "B"], "options": options})), *words)


def test_replay_refuses_a_deeply_nested_json_line(tmp_path):
    path = trace(tmp_path, {"game": "sugarrr", "players": ["A", "B"]}, "[" * 100_000 + "]" * 100_000)
    refused(companion("replay", path), "line 2", "nested too deeply")


@pytest.mark.parametrize("name", ["Mum\x1b[2J", "Da\rd", "Maya\u202e", "x" * 100_000])
def test_replay_refuses_names_that_could_drive_a_terminal_or_overflow(tmp_path, name):
    proc = companion("replay", trace(tmp_path, {"game": "sugarrr", "players": ["Ana", name]}))
    refused(proc, "line 1")
    assert "\x1b" not in proc.stderr and "\r" not in proc.stderr and len(proc.stderr) < 400


@pytest.mark.parametrize("name", ["Mum\x1b[2J", "Maya\u202e", "x" * 100_000])
def test_score_refuses_the_same_names(name):
    proc = companion("score", "sugarrr", "-", stdin=f"{name}: SRS71M\nBen: SRS72Y\n")
    refused(proc, "line 1")
    assert "\x1b" not in proc.stderr and len(proc.stderr) < 400


def test_emoji_joined_with_a_zero_width_joiner_are_a_name(tmp_path):
    family = "\U0001F469\u200d\U0001F467"  # woman, ZWJ, girl: one emoji
    proc = companion("run", "--game", "sugarrr", "--names", f"{family},Ben", "--headless", "--simulate",
                     "--store", str(tmp_path / "t.db"), stdin="")
    assert proc.returncode == 0, proc.stderr
    assert family in proc.stdout
    bad = companion("run", "--game", "sugarrr", "--names", "Mum\x1b[2J,Ben", "--headless", "--simulate",
                    "--store", str(tmp_path / "u.db"), stdin="")
    refused(bad, "control character")


def test_version_with_something_after_it_is_a_usage_error():
    assert companion("--version").returncode == 0
    refused(companion("--version", "extra"), "--version")


def test_labels_with_an_empty_out_is_a_usage_error():
    refused(companion("labels", "sugarrr", "--out", ""), "--out")


# ---------------------------------------------------------------- files that are not files (issue 37)

LONG = "a" * 300  # one path part over the 255 bytes every Linux file system allows


def _quick(*args, cwd=None):
    """``companion ARGS`` that must answer at once: a hang on a FIFO or /dev/zero fails it
    in 20 s (subprocess.TimeoutExpired), not 120."""
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=20, env=ENV, cwd=cwd)


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return str(path)


@pytest.mark.parametrize("command", [["score", "sugarrr"], ["doctor", "--config"], ["tilt", "analyze"]])
@pytest.mark.parametrize("which", ["fifo", "/dev/zero", "folder"])
def test_a_fifo_a_device_or_a_folder_given_as_a_file_is_one_line_not_a_hang(command, which, fifo, tmp_path):
    """A FIFO waits for a writer for ever and /dev/zero never ends: the file must be a
    regular file, looked at with os.stat before it is opened."""
    path = {"fifo": fifo, "/dev/zero": "/dev/zero", "folder": str(tmp_path)}[which]
    refused(_quick(*command, path), path, "not a file")


def test_a_calibration_or_a_password_file_that_is_a_device_is_refused(tmp_path):
    csv = tmp_path / "m.csv"
    csv.write_text("0,0,0,1\n")
    refused(_quick("tilt", "analyze", str(csv), "--calibration", "/dev/zero"), "/dev/zero", "not a file")
    refused(_quick("run", "--game", "sugarrr", "--names", "A,B", "--headless", "--simulate", "--store",
                   str(tmp_path / "t.db"), "--venue", "mqtt://localhost", "--table", "t1",
                   "--venue-password-file", "/dev/zero"), "password file /dev/zero", "not a file")


def test_a_file_bigger_than_any_score_sheet_is_refused_unread(tmp_path):
    big = tmp_path / "big.txt"
    with open(big, "wb") as f:
        f.truncate(64 * 1024 * 1024)  # sparse: 64 MiB of nothing, over the 16 MiB limit
    refused(_quick("score", "sugarrr", str(big)), "too big")


@pytest.mark.parametrize("option", ["--store", "--record"])
def test_a_file_name_over_255_bytes_is_one_line(tmp_path, option):
    args = {"--store": str(tmp_path / "t.db"), "--record": None}
    args[option] = str(tmp_path / LONG)
    extra = ["--record", args["--record"]] if args["--record"] else []
    proc = _quick("run", "--game", "sugarrr", "--names", "A,B", "--headless", "--simulate", "--store",
                  args["--store"], *extra)
    refused(proc, "too long")
    assert len(proc.stderr.splitlines()) == 1


def test_score_of_a_file_name_over_255_bytes_is_one_line(tmp_path):
    refused(_quick("score", "sugarrr", str(tmp_path / LONG)), "too long")


def test_a_symlink_loop_for_record_is_one_line(tmp_path):
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    proc = _quick("run", "--game", "sugarrr", "--names", "A,B", "--headless", "--simulate", "--store",
                  str(tmp_path / "t.db"), "--record", str(tmp_path / "a"))
    refused(proc, "loop")


def test_the_store_its_resume_point_and_the_trace_are_created_readable_by_their_owner_only(tmp_path):
    """They hold every card played, secret hands and face-down Battle Cards too: 0600,
    whatever the umask of the desk run that made them."""
    db, rec = tmp_path / "t.db", tmp_path / "t.trace"
    old = os.umask(0o022)
    try:
        proc = subprocess.run([sys.executable, "-m", "companion", "run", "--game", "sugarrr", "--names", "A,B",
                               "--headless", "--simulate", "--store", str(db), "--record", str(rec)],
                              input="SRS71M\n", capture_output=True, text=True, timeout=60, env=ENV)
    finally:
        os.umask(old)
    assert proc.returncode == 0, proc.stderr
    made = [p for p in tmp_path.iterdir() if p.name.startswith("t.") and not p.name.endswith(".clock")]
    assert db in made and rec in made
    for path in made:
        assert path.stat().st_mode & 0o777 == 0o600, (path, oct(path.stat().st_mode))
