"""systemd/companion.service: every key the Pi install relies on, systemd's own
``systemd-analyze verify`` and ``security`` on it (skipped, with the reason, where systemd is missing)."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parent.parent / "systemd" / "companion.service"
DROPIN = UNIT.parent / "no-network.conf"


def _offline_security() -> bool:
    if shutil.which("systemd-analyze") is None:
        return False
    done = subprocess.run(["systemd-analyze", "--version"], capture_output=True, text=True)
    found = re.match(r"systemd (\d+)", done.stdout)
    return bool(found) and int(found.group(1)) >= 250


OFFLINE_SECURITY = _offline_security()


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
    # Any exit restarts it, a clean one too (Esc used to end it with 0: a dark panel until
    # reboot), and systemd never gives up on it (a config mistake is waited out, not looped).
    assert one(unit, "Service", "Restart") == "always"
    assert one(unit, "Unit", "StartLimitIntervalSec") == "0"
    assert one(unit, "Service", "ExecStart").startswith(
        "/opt/companion/venv/bin/companion run --service --config /etc/companion/companion.toml")
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
                       "PrivateTmp": "yes", "RestrictAddressFamilies": "AF_UNIX AF_NETLINK",
                       "SystemCallArchitectures": "native", "CapabilityBoundingSet": "",
                       "DevicePolicy": "closed", "RestrictNamespaces": "yes", "ProtectKernelTunables": "yes"}.items():
        assert one(unit, "Service", key) == value, key
    assert unit["Service"]["SystemCallFilter"][0] == "@system-service"
    assert "PrivateDevices" not in unit["Service"]  # the scanners, I2C, GPIO and the panel are devices
    allowed = {line.split()[0] for line in unit["Service"]["DeviceAllow"]}
    assert allowed >= {"char-input", "char-drm", "char-tty", "char-ttyUSB", "char-ttyACM", "char-ttyAMA",
                       "char-i2c", "char-gpiochip"}
    assert all(line.split()[1] == "rw" for line in unit["Service"]["DeviceAllow"])
    groups = one(unit, "Service", "SupplementaryGroups").split()
    assert set(groups) >= {"input", "video", "render", "i2c", "gpio", "dialout"}
    assert one(unit, "Service", "User") == "companion"
    assert one(unit, "Install", "WantedBy") == "multi-user.target"


def test_the_no_network_drop_in_closes_the_network():
    dropin = parse_unit(DROPIN.read_text())
    assert "PrivateNetwork" not in dropin.get("Service", {})  # it cut SDL's udev hotplug (issue 37)
    assert one(dropin, "Service", "IPAddressDeny") == "any"
    assert "AF_INET" not in one(dropin, "Service", "RestrictAddressFamilies")


def exposure(tmp_path, text: str) -> float:
    """systemd-analyze security's overall exposure (0 safe .. 10 exposed) of a unit text."""
    exe = tmp_path / "companion"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    text = text.replace("ExecStart=/opt/companion/venv/bin/companion", f"ExecStart={exe}")
    (tmp_path / "companion.service").write_text(text)
    done = subprocess.run(["systemd-analyze", "security", "--offline=true", str(tmp_path / "companion.service")],
                          capture_output=True, text=True, timeout=60)
    found = re.search(r"Overall exposure level for companion.service: ([\d.]+)", done.stdout)
    assert found, done.stdout + done.stderr
    return float(found.group(1))


@pytest.mark.skipif(not OFFLINE_SECURITY, reason="systemd-analyze security --offline needs systemd 250 or later")
def test_systemd_analyze_security_rates_the_unit_safe(tmp_path):
    """The unit opens no socket but AF_UNIX/AF_NETLINK, so network, device and system-call
    restrictions cost nothing: well under the 7.8 EXPOSED it had. The drop-in the
    installer adds when no [venue] is configured no longer lowers it: its PrivateNetwork=yes
    (0.6 then) is gone, because it cut SDL's udev hotplug (issue 37); the network stays
    closed by RestrictAddressFamilies and IPAddressDeny=any, in the unit itself too."""
    bare = exposure(tmp_path, UNIT.read_text())
    with_dropin = exposure(tmp_path, UNIT.read_text() + "\n[Service]" + DROPIN.read_text().split("[Service]", 1)[1])
    assert bare <= 1.2, bare
    assert with_dropin <= bare, with_dropin


@pytest.mark.skipif(not OFFLINE_SECURITY, reason="systemd-analyze security --offline needs systemd 250 or later")
def test_the_security_check_can_fail(tmp_path):
    """Without the hardening block, the same measurement says EXPOSED."""
    text = UNIT.read_text()
    start, end = text.index("NoNewPrivileges=yes"), text.index("[Install]")
    assert exposure(tmp_path, text[:start] + text[end:]) > 7.0


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


# ------------------------------------------------------------ venue mode: the network opened to the broker only

from companion.venue import unit as venue_unit  # noqa: E402

VENUE_CONFIG = '[venue]\nbroker = "{url}"\ntable = "table-3"\n'


def _root(tmp_path, url: str | None = "mqtt://192.168.1.20", resolv: str = "nameserver 192.168.1.1\n") -> Path:
    root = tmp_path / "root"
    (root / "etc/companion").mkdir(parents=True)
    (root / "etc/companion/companion.toml").write_text(VENUE_CONFIG.format(url=url) if url else "")
    (root / "etc/resolv.conf").write_text(resolv)
    folder = root / venue_unit.DROPIN_DIR.lstrip("/")
    folder.mkdir(parents=True)
    (folder / "no-network.conf").write_text(DROPIN.read_text())
    return root


def _enable(root, resolve=None):
    def unresolvable(host, port):
        raise OSError("no such name")

    return venue_unit.enable(Path("/etc/companion/companion.toml"), root, resolve=resolve or unresolvable)


def _venue_dropin(root) -> dict:
    return parse_unit((root / venue_unit.DROPIN_DIR.lstrip("/") / "venue-network.conf").read_text())


def test_the_packaged_no_network_drop_in_is_the_shipped_one():
    """`companion venue disable` puts no-network.conf back from the package: the same text."""
    assert venue_unit.NO_NETWORK == DROPIN.read_text()


def test_venue_enable_opens_inet_to_the_brokers_address_only(tmp_path):
    """With [venue] configured the unit's AF_UNIX AF_NETLINK stayed in force and the
    publisher thread died with Errno 97: the drop-in adds AF_INET/AF_INET6, denies every
    IP address but localhost (paho-mqtt's socket pair on 127.0.0.1) and the broker."""
    root = _root(tmp_path)
    said = _enable(root)
    service = _venue_dropin(root)["Service"]
    assert service["RestrictAddressFamilies"][0] == ""  # reset, then the whole list again
    assert service["RestrictAddressFamilies"][1].split() == ["AF_UNIX", "AF_NETLINK", "AF_INET", "AF_INET6"]
    assert service["IPAddressDeny"] == ["any"]
    assert service["IPAddressAllow"] == ["localhost", "192.168.1.20"]
    assert "PrivateNetwork" not in service
    assert not (root / venue_unit.DROPIN_DIR.lstrip("/") / "no-network.conf").exists()
    assert "not run (--root): systemctl daemon-reload" in said
    assert "not run (--root): systemctl try-restart companion.service" in said
    again = _enable(root)
    assert not any(line.startswith("not run") for line in again)  # nothing changed: no reload
    assert venue_unit.installed_allow(root) == ("open", ["localhost", "192.168.1.20"])


def test_venue_enable_pins_a_name_to_what_it_resolves_to_and_the_name_servers(tmp_path):
    root = _root(tmp_path, "mqtts://broker.local:8883", "nameserver 127.0.0.53\nnameserver 192.168.1.1\n")
    said = _enable(root, resolve=lambda host, port: ["192.168.1.7"] if (host, port) == ("broker.local", 8883) else [])
    assert _venue_dropin(root)["Service"]["IPAddressAllow"] == ["localhost", "192.168.1.1", "192.168.1.7"]
    assert any("if the broker's address changes, run `sudo companion venue enable` again" in line for line in said)


def test_venue_enable_allows_only_private_networks_for_a_name_that_does_not_resolve(tmp_path):
    root = _root(tmp_path, "mqtt://cafe-broker")
    said = _enable(root)
    allowed = _venue_dropin(root)["Service"]["IPAddressAllow"]
    assert allowed[0] == "localhost" and set(venue_unit.PRIVATE) <= set(allowed) and "192.168.1.1" in allowed
    assert not any(entry in ("any", "0.0.0.0/0", "::/0") for entry in allowed)
    assert any("does not resolve now" in line for line in said)


def test_venue_enable_needs_a_broker_and_disable_closes_the_network_again(tmp_path):
    root = _root(tmp_path, url=None)
    with pytest.raises(venue_unit.VenueUnitError, match=r"has no \[venue\] broker"):
        _enable(root)
    root = _root(tmp_path / "b")
    _enable(root)
    venue_unit.disable(root)
    folder = root / venue_unit.DROPIN_DIR.lstrip("/")
    assert (folder / "no-network.conf").read_text() == DROPIN.read_text()
    assert not (folder / "venue-network.conf").exists()
    assert venue_unit.installed_allow(root) == ("closed", [])


def _with_venue_dropin(tmp_path, text: str) -> Path:
    """The unit (ExecStart on a stand-in) with ``text`` as its venue-network.conf drop-in."""
    exe = tmp_path / "companion"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    unit = tmp_path / "companion.service"
    unit.write_text(UNIT.read_text().replace("ExecStart=/opt/companion/venv/bin/companion", f"ExecStart={exe}"))
    (tmp_path / "companion.service.d").mkdir(exist_ok=True)
    (tmp_path / "companion.service.d" / "venue-network.conf").write_text(text)
    return unit


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_systemd_analyze_verify_takes_the_venue_drop_in(tmp_path):
    """systemd reads the unit with the drop-in next to it (companion.service.d/) and finds
    nothing wrong; the same check reports a misspelt key in the drop-in (it can fail)."""
    text = venue_unit.dropin_text("mqtt://192.168.1.20", ["192.168.1.20"], "the broker's address 192.168.1.20")
    unit = _with_venue_dropin(tmp_path, text)
    done = subprocess.run(["systemd-analyze", "verify", "--man=no", str(unit)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and done.stderr.strip() == "", done.stderr
    _with_venue_dropin(tmp_path, text.replace("IPAddressDeny=", "IPAddressDenny="))
    done = subprocess.run(["systemd-analyze", "verify", "--man=no", str(unit)], capture_output=True, text=True,
                          timeout=60)
    assert "IPAddressDenny" in done.stderr


@pytest.mark.skipif(not OFFLINE_SECURITY, reason="systemd-analyze security --offline needs systemd 250 or later")
def test_systemd_analyze_security_sees_internet_sockets_only_with_the_venue_drop_in(tmp_path):
    """systemd's own reading of unit + drop-in: Internet sockets allowed with the venue
    drop-in (so the reset-and-list took effect), not without it; still rated OK."""
    def families(unit: Path) -> tuple[str, float]:
        done = subprocess.run(["systemd-analyze", "security", "--offline=true", str(unit)], capture_output=True,
                              text=True, timeout=60)
        line = next(x for x in done.stdout.splitlines() if "RestrictAddressFamilies=~AF_(INET|INET6)" in x)
        level = float(re.search(r"Overall exposure level for companion.service: ([\d.]+)", done.stdout).group(1))
        return line.split()[0], level

    text = venue_unit.dropin_text("mqtt://192.168.1.20", ["192.168.1.20"], "the broker's address 192.168.1.20")
    (tmp_path / "open").mkdir()
    mark, level = families(_with_venue_dropin(tmp_path / "open", text))
    assert mark == "✗" and level <= 2.0, (mark, level)
    (tmp_path / "closed").mkdir()
    bare, _ = families(_with_venue_dropin(tmp_path / "closed", "[Service]\n"))
    assert bare == "✓"


def test_companion_venue_enable_and_disable_on_the_command_line(tmp_path, capsys):
    from companion.cli import main

    root = _root(tmp_path)
    assert main(["venue", "enable", "--root", str(root), "--no-restart"]) == 0
    out = capsys.readouterr().out
    assert "wrote " in out and "venue-network.conf" in out and "try-restart" not in out
    assert _venue_dropin(root)["Service"]["IPAddressAllow"] == ["localhost", "192.168.1.20"]
    assert main(["venue", "disable", "--root", str(root)]) == 0
    assert "removed " in capsys.readouterr().out
    assert main(["venue", "enable", "--root", str(root), "--config", "/etc/none.toml"]) == 2
    assert "has no [venue] broker" in capsys.readouterr().err


def test_no_private_network_so_sdl_sees_hotplugged_touch_panels_and_keyboards(tmp_path):
    """PrivateNetwork=yes (the no-network drop-in) also cut the kernel's udev netlink
    events: a touch panel or keyboard plugged in after the start was never seen. The
    network stays closed without it: no IP socket family, every IP address denied,
    AF_NETLINK kept for libudev; the unit with either drop-in says the same."""
    unit = parse_unit(UNIT.read_text())
    venue = parse_unit(venue_unit.dropin_text("mqtt://192.168.1.20", ["192.168.1.20"], "the broker"))
    for text in (UNIT.read_text(), DROPIN.read_text()):
        assert "PrivateNetwork" not in parse_unit(text).get("Service", {})
    assert "PrivateNetwork" not in venue["Service"]
    assert one(unit, "Service", "IPAddressDeny") == "any"
    assert one(unit, "Service", "RestrictAddressFamilies").split() == ["AF_UNIX", "AF_NETLINK"]
    assert "AF_NETLINK" in venue["Service"]["RestrictAddressFamilies"][-1].split()
    assert one(unit, "Service", "StandardInput") == "tty-fail"  # the session's tty; the keys' signals are off


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_systemd_analyze_verify_takes_the_no_network_drop_in(tmp_path):
    unit = _with_venue_dropin(tmp_path, DROPIN.read_text())  # (the same folder, the other drop-in's text)
    done = subprocess.run(["systemd-analyze", "verify", "--man=no", str(unit)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and done.stderr.strip() == "", done.stderr

