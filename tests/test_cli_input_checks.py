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
