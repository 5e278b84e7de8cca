"""The tray commands as a user runs them, on the emulated sensor."""

import json
import subprocess
import sys
from pathlib import Path

from companion.devices.tray import load_calibration

DATA = Path(__file__).parent / "data"


def companion(*args, timeout=60):
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True, text=True,
                          timeout=timeout)


def test_calibrate_walks_through_level_and_each_seat_and_saves_a_usable_calibration(tmp_path):
    out = tmp_path / "calibration.toml"
    proc = companion("calibrate", "--tray", "emulated", "--seats", "2", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[1].startswith("Leave the tray level")
    assert any("seat 2" in line for line in lines) and "Calibration done." in lines
    cal = load_calibration(out)
    assert set(cal.seats) == {1, 2}
    analysed = companion("tilt", "analyze", str(DATA / "tilt-two-seats.csv"), "--json", "--calibration", str(out))
    events = [json.loads(line) for line in analysed.stdout.splitlines()]
    assert [e["event"] for e in events] == ["tilted", "level", "tilted", "level"]
    assert events[0]["seat"] == 1


def test_doctor_reports_the_chip_and_its_id_register():
    proc = companion("doctor", "--tray", "emulated")
    assert proc.returncode == 0
    assert "ADXL345 at 0x53" in proc.stdout and "read 0xE5, expected 0xE5" in proc.stdout


def test_a_missing_bus_is_a_message_not_a_traceback():
    proc = companion("tilt", "record", "/tmp/never.csv", "--tray", "i2c:9", "--seconds", "0.1")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr and "cannot record" in proc.stderr
    # what to do, not the system's words: "[Errno 2] No such file or directory: '/dev/i2c-9'"
    assert "there is no I2C bus /dev/i2c-9: turn I2C on (sudo raspi-config nonint do_i2c 0" in proc.stderr
    assert "Errno" not in proc.stderr
    proc = companion("calibrate", "--tray", "i2c:9", "--timeout", "1")
    assert proc.returncode == 1 and "cannot calibrate: there is no I2C bus /dev/i2c-9" in proc.stderr
