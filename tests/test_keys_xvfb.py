"""A US-layout keyboard-mode scanner typing into the real window, under a real X server
(Xvfb) with a German and a French keymap and NumLock off (issue 37).

xdotool presses keys **by key code** (the key's position, as a scanner's USB reports
name it), never by the character, so the X server's keymap turns them into whatever that
layout puts there, exactly as it would for a scanner plugged into a Pi set to that
keymap. ``companion run`` opens its pygame window on SDL's x11 driver and must read the
right card from every scan: the digit row and the letters (German keymap: Y and Z swap;
French: the digit row types ``&é"'(`` without Shift), keypad digits with NumLock off, a key
held 450 ms (the X server repeats it) and "Alt + keypad" codes.

Needs Xvfb, xdotool and setxkbmap (``apt-get install -y xvfb x11-xkb-utils xdotool``;
.ci/run installs them): skipped with that reason when one is missing.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.devices.scan.keys import KEY, US_KEYS

TOOLS = ("Xvfb", "xdotool", "setxkbmap", "xset")
MISSING = [tool for tool in TOOLS if shutil.which(tool) is None]
pytestmark = pytest.mark.skipif(bool(MISSING), reason=f"{', '.join(MISSING)} missing: "
                                "apt-get install -y xvfb x11-xkb-utils xdotool x11-xserver-utils")

#: the scans, each typed a different way, and the card each must read
SCANS = [("SRS41Y", "keys"), ("SRS42W", "keypad"), ("SRS51U", "late key-up"), ("SRS311", "alt")]


def xkey(name: str) -> str:
    """The X key code of a key (X's evdev key codes are Linux's plus 8)."""
    return str(KEY[name] + 8)


_US = {}
for _code, (_plain, _shifted) in US_KEYS.items():
    _US.setdefault(_plain, (_code, False))
    _US.setdefault(_shifted, (_code, True))
_NAMES = {code: name for name, code in KEY.items()}


def typed(text: str, how: str) -> list[str]:
    """xdotool's commands for a US scanner sending ``text`` ``how``, then its terminator."""
    if how == "alt":  # left Alt held over each character's number on the keypad, CR as Alt+013
        out = []
        for char in text + "\r":
            out += ["keydown", xkey("LEFTALT")]
            for digit in f"0{ord(char)}":
                out += ["key", xkey(f"KP{digit}")]
            out += ["keyup", xkey("LEFTALT")]
        return out
    out = []
    for i, char in enumerate(text):
        if how == "keypad" and char.isdigit():
            out += ["key", xkey(f"KP{char}")]
            continue
        code, shift = _US[char]
        key = str(code + 8)
        if shift:
            out += ["keydown", xkey("LEFTSHIFT")]
        if how == "late key-up" and i == len(text) - 1:
            out += ["keydown", key, "sleep", "0.45", "keyup", key]  # the X server repeats it meanwhile
        else:
            out += ["key", key]
        if shift:
            out += ["keyup", xkey("LEFTSHIFT")]
    return out + ["key", xkey("KPENTER" if how == "keypad" else "ENTER")]


@pytest.fixture(scope="module")
def xserver():
    """A private X server (repeating a held key after 200 ms, every 30 ms), not reset
    when its last client goes (else it forgets the keymap set)."""
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-noreset", "-nolisten", "tcp", "-screen", "0",
                               "800x480x24", "-ardelay", "200", "-arinterval", "30"],
                              pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as f:
        display = f.readline().strip()
    if not display:
        server.kill()
        pytest.fail("Xvfb did not start")
    env = dict(os.environ, DISPLAY=f":{display}", SDL_VIDEODRIVER="x11")
    try:
        yield env
    finally:
        server.terminate()
        server.wait(10)


def x(env, *command: str, check: bool = True) -> str:
    return subprocess.run(command, env=env, check=check, capture_output=True, text=True, timeout=30).stdout


def numlock(env) -> bool:
    """Is NumLock on (``xset q``'s XKB indicator)?"""
    return re.search(r"Num Lock:\s+on", x(env, "xset", "q")) is not None


def numlock_off(env) -> None:
    if numlock(env):
        x(env, "xdotool", "key", xkey("NUMLOCK"))
    assert not numlock(env)


def scans_read(env, tmp_path: Path, layout: str) -> list[str]:
    """Start the companion's window, type every scan of :data:`SCANS`, and return the
    card codes it read (its JSON log's ``scan`` lines)."""
    x(env, "setxkbmap", layout)
    assert f"layout:     {layout}" in x(env, "setxkbmap", "-query")
    numlock_off(env)
    config = tmp_path / "config"
    config.mkdir()
    run_env = dict(env, XDG_CONFIG_HOME=str(config))
    out = open(tmp_path / "out.jsonl", "w+")
    table = subprocess.Popen([sys.executable, "-m", "companion", "run", "--game", "sugarrr", "--names", "Ana,Ben",
                              "--store", str(tmp_path / "t.db"), "--log-format", "json"],
                             env=run_env, stdout=out, stderr=open(tmp_path / "err.txt", "w"))
    try:
        window = x(env, "xdotool", "search", "--sync", "--class", ".").split()[0]  # (ours: the only one)
        x(env, "xdotool", "windowfocus", "--sync", window)
        _wait_for(lambda: '"event": "start"' in (tmp_path / "out.jsonl").read_text(), "the table to start")
        for text, how in SCANS:
            x(env, "xdotool", *typed(text, how))
        deadline = time.monotonic() + 8.0  # (a scan lost or cut in two is seen in the list read)
        while len(_codes(tmp_path)) < len(SCANS) and table.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        table.terminate()
        table.wait(20)
    return _codes(tmp_path)


def _codes(tmp_path: Path) -> list[str]:
    lines = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines() if line.startswith("{")]
    return [line["code"] for line in lines if line.get("event") == "scan"]


def _wait_for(condition, what: str, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.05)


@pytest.mark.parametrize("layout", ["de", "fr", "us"])
def test_a_us_scanner_typing_into_the_real_window_reads_right_with_any_keymap(xserver, tmp_path, layout):
    """Issue 37: a US-layout scanner typing into the window on a Pi set to a German
    keymap sent SRS41Z for SRS41Y; with a French keymap every digit was wrong; with NumLock
    off keypad digits vanished; a key-up 450 ms late became key repeat; Alt + keypad codes
    were rejected."""
    assert scans_read(xserver, tmp_path, layout) == [text for text, _ in SCANS]
