"""systemd/companion.service: every key the Pi install relies on, and systemd's own
``systemd-analyze verify`` on it (skipped, with the reason, where systemd is missing)."""

import shutil
import subprocess
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parent.parent / "systemd" / "companion.service"


def parse_unit(text: str) -> dict[str, dict[str, list[str]]]:
    """A unit file as {section: {key: [values in order]}}: keys may repeat (After=,
    Environment=), comments start with # or ;, no line continuations are used."""
    sections: dict[str, dict[str, list[str]]] = {}
    current = None
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        assert not line.endswith("\\"), f"line {n}: no continuation lines, please"
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        assert current is not None and "=" in line, f"line {n}: {raw!r} is not KEY=VALUE in a section"
        key, value = line.split("=", 1)
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


@pytest.fixture(scope="module")
def unit():
    return parse_unit(UNIT.read_text())


def one(unit, section, key):
    values = unit[section].get(key, [])
    assert len(values) == 1, f"[{section}] {key}= should appear once, found {values}"
    return values[0]


def test_it_is_a_notify_service_with_a_watchdog_and_start_limits(unit):
    assert one(unit, "Service", "Type") == "notify"
    assert one(unit, "Service", "NotifyAccess") == "main"
    assert 5 <= int(one(unit, "Service", "WatchdogSec")) <= 30
    assert one(unit, "Service", "Restart") == "on-failure"
    assert int(one(unit, "Unit", "StartLimitBurst")) >= 3
    assert int(one(unit, "Unit", "StartLimitIntervalSec")) >= 60
    assert one(unit, "Service", "ExecStart").startswith(
        "/opt/companion/venv/bin/companion run --config /etc/companion/companion.toml")
    assert 2 < int(one(unit, "Service", "TimeoutStopSec")) <= 10  # we exit in 2 s; systemd waits a little more


def test_state_and_config_directories_and_the_working_directory(unit):
    assert one(unit, "Service", "StateDirectory") == "companion"
    assert one(unit, "Service", "ConfigurationDirectory") == "companion"
    assert one(unit, "Service", "WorkingDirectory") == "/var/lib/companion"  # lgpio writes files here


def test_the_console_pattern_gives_sdl_kmsdrm_the_display(unit):
    conflicts = " ".join(unit["Unit"].get("Conflicts", [])).split()
    assert "getty@tty1.service" in conflicts
    assert one(unit, "Service", "TTYPath") == "/dev/tty1"
    assert one(unit, "Service", "PAMName") == "login"
    env = [e for line in unit["Service"]["Environment"] for e in line.split()]
    assert "SDL_VIDEODRIVER=kmsdrm" in env and "PYTHONUNBUFFERED=1" in env
    assert one(unit, "Service", "StandardOutput") == "journal"
    assert one(unit, "Service", "StandardError") == "journal"


def test_hardening_keeps_device_access(unit):
    for key, value in {"NoNewPrivileges": "yes", "ProtectSystem": "strict", "ProtectHome": "yes",
                       "PrivateTmp": "yes"}.items():
        assert one(unit, "Service", key) == value, key
    assert "PrivateDevices" not in unit["Service"] and "DevicePolicy" not in unit["Service"]
    groups = one(unit, "Service", "SupplementaryGroups").split()
    assert set(groups) >= {"input", "video", "render", "i2c", "gpio", "dialout"}
    assert one(unit, "Service", "User") == "companion"
    assert one(unit, "Install", "WantedBy") == "multi-user.target"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_systemd_analyze_verify_finds_nothing(tmp_path):
    """systemd checks every key and value itself. The one change: ExecStart points at a
    stand-in executable, since /opt/companion exists only on an installed Pi."""
    exe = tmp_path / "companion"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    text = UNIT.read_text().replace("ExecStart=/opt/companion/venv/bin/companion", f"ExecStart={exe}")
    assert str(exe) in text
    (tmp_path / "companion.service").write_text(text)
    done = subprocess.run(["systemd-analyze", "verify", "--man=no", str(tmp_path / "companion.service")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr.strip() == "", done.stderr


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_systemd_analyze_catches_a_misspelt_key(tmp_path):
    """The check above can fail: a typo in a key is reported."""
    exe = tmp_path / "companion"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    text = UNIT.read_text().replace("ExecStart=/opt/companion/venv/bin/companion", f"ExecStart={exe}")
    (tmp_path / "companion.service").write_text(text.replace("NoNewPrivileges=", "NoNewPrivilege="))
    done = subprocess.run(["systemd-analyze", "verify", "--man=no", str(tmp_path / "companion.service")],
                          capture_output=True, text=True, timeout=60)
    assert "NoNewPrivilege" in done.stderr
