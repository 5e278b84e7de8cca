"""`companion doctor` on a made-up Raspberry Pi (a scratch root with its /proc, /sys and
/dev files): a healthy table is all OK; each broken part is reported with its fix."""

import os

import pytest

from companion.service.doctor import Machine, report, run_checks
from companion.service.doctor_pi import Identity

SERVICE_UP = {("systemctl", "is-enabled", "companion.service"): "enabled",
              ("systemctl", "is-active", "companion.service"): "active",
              ("systemctl", "--version"): "systemd 252 (252.33-1~deb12u1)",
              ("vcgencmd", "get_throttled"): "throttled=0x0"}
#: Checking as the person at the table (``os.access`` answers for the test's own process).
MAYA = Identity.me()


def touch(root, path, data=b""):
    p = root / path.lstrip("/")
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(data)
    return p


@pytest.fixture
def pi(tmp_path):
    """A Pi 4 on Raspberry Pi OS with I2C on at 100 kHz, a display, GPIO and a scanner."""
    root = tmp_path / "pi"
    touch(root, "/proc/device-tree/model", b"Raspberry Pi 4 Model B Rev 1.5\0")
    touch(root, "/etc/rpi-issue", b"Raspberry Pi reference 2024-11-19\n")
    touch(root, "/etc/os-release", b'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\n')
    touch(root, "/dev/dri/card1")
    touch(root, "/dev/input/event0")  # the touchscreen
    touch(root, "/dev/i2c-1")
    touch(root, "/sys/class/i2c-adapter/i2c-1/of_node/clock-frequency", (100_000).to_bytes(4, "big"))
    touch(root, "/dev/gpiochip0")
    touch(root, "/dev/sugar-companion/scanner-1")
    touch(root, "/dev/serial0")  # the PN532 on the UART
    touch(root, "/boot/firmware/cmdline.txt", b"console=tty1 root=PARTUUID=1234-02 rootfstype=ext4 fsck.repair=yes\n")
    touch(root, "/sys/class/drm/card1-DSI-1/status", b"connected\n")
    touch(root, "/sys/class/drm/card1-DSI-1/modes", b"800x480\n")
    touch(root, "/sys/class/drm/card1-HDMI-A-1/status", b"disconnected\n")
    (root / "var/lib/companion").mkdir(parents=True)
    config = tmp_path / "companion.toml"
    config.write_text('[readers]\nscanners = ["serial:/dev/sugar-companion/scanner-1@1", "nfc:/dev/serial0"]\n'
                      '[gpio]\nconfirm = 17\nundo = 27\n[store]\npath = "/var/lib/companion/table.db"\n'
                      '[tray]\nsensor = "i2c:1"\n')
    return root, config


class FakeBus:
    def read_byte_data(self, address, register):
        return 0xE5

    def close(self):
        pass


class FakeChip:
    name, address, id_register, id_register_name, id_value = "ADXL345", 0x53, 0x00, "DEVID", 0xE5

    def read_g(self):
        return 0.0, 0.0, 1.0


def open_adxl(spec, clock):
    return FakeBus(), FakeChip(), "/dev/i2c-1"


def checks_on(root, config, services=SERVICE_UP, environ=None, open_chip=open_adxl, user=MAYA,
              load_lib=lambda name: True, drive=lambda pins: None):
    services = {**SERVICE_UP, **services}
    m = Machine(root, run=lambda argv: services.get(tuple(argv)), user=user)
    checks = run_checks(config, m=m, environ=environ or {"SDL_VIDEODRIVER": "kmsdrm"}, open_chip=open_chip,
                        load_lib=load_lib, drive=drive)
    return {c.name: c for c in checks}, checks


SERVICE_STOPPED = {("systemctl", "is-active", "companion.service"): "inactive"}


def test_a_healthy_pi_is_all_ok(pi):
    by_name, checks = checks_on(*pi, services=SERVICE_STOPPED)  # sensor and pins are tried when the service is off
    assert {c.status for c in checks if c.name != "Service"} == {"ok"}, report(checks)
    assert by_name["Pi model"].detail == "Raspberry Pi 4 Model B Rev 1.5"
    assert by_name["I2C"].detail == "/dev/i2c-1, 100 kHz"
    assert "ADXL345 at 0x53" in by_name["Tray sensor"].detail
    assert by_name["GPIO"].detail.startswith("confirm GPIO17, undo GPIO27 on /dev/gpiochip0")
    assert by_name["Panel"].detail == "connected: DSI-1 800x480"
    by_name, checks = checks_on(*pi)  # the service running: all good, the sensor and pins left to it
    assert {c.status for c in checks if c.name not in ("Tray sensor", "GPIO")} == {"ok"}, report(checks)
    assert report(checks).endswith("All good.")


def test_no_input_devices_warns_and_unreadable_ones_fail_with_the_group_to_join(pi):
    root, config = pi
    os.remove(root / "dev/input/event0")
    by_name, _ = checks_on(root, config)
    assert by_name["Touch input"].status == "warn" and "no /dev/input/event*" in by_name["Touch input"].detail
    touch(root, "/dev/input/event0")
    by_name, _ = checks_on(root, config)
    assert by_name["Touch input"].status == "ok" and by_name["Touch input"].detail.startswith("1 of 1")
    if os.geteuid() == 0:
        return  # root reads every device: the unreadable case needs an ordinary user
    os.chmod(root / "dev/input/event0", 0)
    by_name, _ = checks_on(root, config)
    assert by_name["Touch input"].status == "fail" and by_name["Touch input"].fix == f"sudo usermod -aG input {MAYA.name}"


def test_i2c_off_names_the_raspi_config_command(pi):
    root, config = pi
    os.remove(root / "dev/i2c-1")
    by_name, _ = checks_on(root, config)
    assert by_name["I2C"].status == "fail" and by_name["I2C"].fix.startswith("sudo raspi-config nonint do_i2c 0")


def test_a_fast_i2c_bus_is_a_warning(pi):
    root, config = pi
    touch(root, "/sys/class/i2c-adapter/i2c-1/of_node/clock-frequency", (1_000_000).to_bytes(4, "big"))
    by_name, _ = checks_on(root, config)
    assert by_name["I2C"].status == "warn" and "i2c_arm_baudrate" in by_name["I2C"].fix


def test_a_missing_sensor_says_check_the_wiring(pi):
    from companion.devices.accel import AccelError

    def nothing(spec, clock):
        raise AccelError("no accelerometer found on /dev/i2c-1")
    by_name, _ = checks_on(*pi, open_chip=nothing, services=SERVICE_STOPPED)
    assert by_name["Tray sensor"].status == "fail" and "i2cdetect -y 1" in by_name["Tray sensor"].fix


def test_an_unplugged_reader_and_no_display(pi):
    root, config = pi
    os.remove(root / "dev/sugar-companion/scanner-1")
    os.remove(root / "dev/dri/card1")
    by_name, checks = checks_on(root, config)
    reader = by_name["Reader serial:/dev/sugar-companion/scanner-1@1"]
    assert reader.status == "fail" and "99-sugar-companion.rules" in reader.fix
    assert by_name["Display"].status == "fail" and "vc4-kms-v3d" in by_name["Display"].fix
    assert "fix: " in report(checks) and "2 problem(s) to fix" in report(checks)


def test_a_bad_config_fails_and_the_rest_is_still_checked(pi):
    root, config = pi
    config.write_text("[gpio]\nundo = 99\n")
    by_name, checks = checks_on(root, config)
    assert by_name["Config"].status == "fail" and "[gpio] undo = 99" in by_name["Config"].detail
    assert by_name["Pi model"].status == "ok" and len(checks) >= 10


def test_a_stopped_service_points_to_the_journal(pi):
    by_name, _ = checks_on(*pi, services={("systemctl", "is-enabled", "companion.service"): "enabled",
                                           ("systemctl", "is-active", "companion.service"): "failed"})
    assert by_name["Service"].status == "fail" and "journalctl -u companion" in by_name["Service"].fix


def test_gpio_not_openable_names_the_group(pi):
    root, config = pi
    if os.geteuid() == 0:
        pytest.skip("root can open everything")
    os.chmod(root / "dev/gpiochip0", 0o000)
    by_name, _ = checks_on(root, config)
    assert by_name["GPIO"].fix == f"sudo usermod -aG gpio {MAYA.name}"


def test_the_report_screen_draws(pi, tmp_path):
    import pygame

    from companion.service.doctor import draw_report
    _, checks = checks_on(*pi)
    pygame.display.init()
    pygame.font.init()
    try:
        surface = pygame.Surface((800, 480))
        assert draw_report(surface, checks) == []
        marks = {tuple(surface.get_at((x, y))[:3]) for x in range(16, 76) for y in range(54, 480)}
        assert (40, 200, 90) in marks  # the green OK marks
        checks[4] = type(checks[4])("I2C", "fail", "off", "sudo raspi-config nonint do_i2c 0")
        draw_report(surface, checks)
        marks = {tuple(surface.get_at((x, y))[:3]) for x in range(16, 76) for y in range(54, 480)}
        assert (235, 60, 60) in marks  # a red FAIL
    finally:
        pygame.quit()


def test_a_store_folder_that_does_not_exist_yet_names_the_command_that_makes_it(pi, monkeypatch):
    import shutil

    from companion.service import doctor

    root, config = pi
    shutil.rmtree(root / "var/lib/companion")
    monkeypatch.setattr(doctor.os, "access", lambda path, mode: False)  # as a user who may not write /var/lib
    check = doctor.check_store(doctor.Machine(root), "/var/lib/companion/table.db")
    assert check.status == "fail" and "/var/lib/companion does not exist" in check.detail
    assert check.fix.startswith("sudo install -d -o companion -g companion -m 0750 ")
