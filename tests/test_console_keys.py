"""No key on tty1 ends the table (issue 37): Ctrl+C from a keyboard plugged into the Pi,
or a scanner's ETX framing byte (0x03), was SIGINT and ended the service's table; Ctrl+\\
killed it with SIGQUIT. The service runs here on a pseudo-terminal that is its
controlling terminal and standard input, as tty1 is under the unit."""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import termios
import time

import pytest

ENV = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")


def _on_a_terminal(tmp_path, *args: str) -> tuple[subprocess.Popen, int]:
    """``companion ARGS`` with a new session whose controlling terminal (and stdin,
    stdout, stderr) is a pty; returns the process and the pty's master side."""
    master, slave = os.openpty()

    def own_terminal():  # as systemd does with TTYPath=: a session leader owning the tty
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    proc = subprocess.Popen([sys.executable, "-m", "companion", *args], stdin=slave, stdout=slave, stderr=slave,
                            preexec_fn=own_terminal, env=dict(ENV, XDG_CONFIG_HOME=str(tmp_path / "xdg")),
                            cwd=tmp_path)
    os.close(slave)
    return proc, master


def _read_until(master: int, text: bytes, timeout: float) -> bytes:
    got, deadline = b"", time.monotonic() + timeout
    os.set_blocking(master, False)
    while text not in got and time.monotonic() < deadline:
        try:
            got += os.read(master, 65536)
        except BlockingIOError:
            time.sleep(0.05)
        except OSError:  # the other side closed
            break
    return got


@pytest.mark.parametrize("keys", [b"\x03", b"\x1c", b"SRS41Y\x03\r", b"\x1a"], ids=["ctrl-c", "ctrl-backslash",
                                                                              "etx-framing", "ctrl-z"])
def test_the_service_survives_ctrl_c_and_ctrl_backslash_on_its_terminal(tmp_path, keys):
    cfg = tmp_path / "companion.toml"
    cfg.write_text(f'[game]\nnames = ["Ana", "Ben"]\n[store]\npath = "{tmp_path / "t.db"}"\n')
    proc, master = _on_a_terminal(tmp_path, "run", "--service", "--headless", "--simulate", "--config", str(cfg))
    try:
        said = _read_until(master, b"Ana's turn", 60)
        assert b"Ana" in said and proc.poll() is None, said
        time.sleep(0.5)  # the terminal's settings are made before the table: well before this
        os.write(master, keys)
        time.sleep(1.5)
        assert proc.poll() is None, (proc.returncode, _read_until(master, b"\0", 1))
        state = open(f"/proc/{proc.pid}/stat").read().rsplit(")", 1)[1].split()[0]
        assert state != "T", "stopped by Ctrl+Z"  # (SIGTSTP: alive, but frozen)
        proc.send_signal(signal.SIGTERM)  # systemctl stop still stops it cleanly
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        os.close(master)


def test_a_desk_run_still_stops_at_ctrl_c(tmp_path):
    """Only the service is deaf to the keys: at a desk Ctrl+C still stops the table."""
    proc, master = _on_a_terminal(tmp_path, "run", "--game", "sugarrr", "--names", "Ana,Ben", "--headless", "--simulate",
                                  "--store", str(tmp_path / "t.db"))
    try:
        assert b"Ana" in _read_until(master, b"Ana's turn", 60)
        time.sleep(0.5)
        os.write(master, b"\x03")
        assert proc.wait(30) in (0, 130)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        os.close(master)
