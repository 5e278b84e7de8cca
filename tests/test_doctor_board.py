"""``companion doctor`` knows the board (issue 37), on made-up device-tree and sysfs
roots: a Pi 5's UART (pins 8/10 are ttyAMA0 with dtparam=uart0=on; /dev/serial0 is the
debug header), the 600 mA USB limit of a Pi 5 on a 3 A supply, an overlay root whose
changes live in memory, two displays and ``[display] output``, a rotation set twice, and
a GPIO failure that is really an unwritable working folder."""

from __future__ import annotations

import os

import pygame
import pytest

from companion.service import doctor
from companion.service.doctor import Machine, report
from companion.service.doctor_pi import Identity
from test_doctor import SERVICE_STOPPED, checks_on, pi, touch  # noqa: F401  (pi: the fixture)


def _pi5(root, config, scanner="nfc:/dev/serial0"):
    touch(root, "/proc/device-tree/model", b"Raspberry Pi 5 Model B Rev 1.0\0")
    touch(root, "/dev/ttyAMA0")
    config.write_text(config.read_text().replace("nfc:/dev/serial0", scanner))


def _supply(root, ma: int, lifted: int | None = None):
    touch(root, "/proc/device-tree/chosen/power/max_current", ma.to_bytes(4, "big"))
    if lifted is not None:
        touch(root, "/proc/device-tree/chosen/power/usb_max_current_enable", lifted.to_bytes(4, "big"))


def test_on_a_pi_5_serial0_is_the_debug_header_not_the_pn532s_pins(pi):
    root, config = pi
    _pi5(root, config)
    _supply(root, 5000)
    uart = checks_on(root, config)[0]["UART"]
    assert uart.status == "fail" and "debug header" in uart.detail, uart
    assert "nfc:/dev/ttyAMA0" in uart.fix and "dtparam=uart0=on" in uart.fix


def test_on_a_pi_5_ttyama0_needs_dtparam_uart0_on(pi):
    root, config = pi
    _pi5(root, config, "nfc:/dev/ttyAMA0")
    uart = checks_on(root, config)[0]["UART"]
    assert uart.status == "fail" and "dtparam=uart0=on" in uart.fix, uart
    touch(root, "/boot/firmware/config.txt", b"[all]\ndtparam=uart0=on\n")
    uart = checks_on(root, config)[0]["UART"]
    assert uart.status == "ok" and "pins 8/10" in uart.detail, uart


def test_on_a_pi_4_serial0_is_pins_8_and_10(pi):
    uart = checks_on(*pi)[0]["UART"]
    assert uart.status == "ok" and "pins 8/10" in uart.detail, uart


def test_a_pi_5_on_a_3_a_supply_limits_its_usb_ports_to_600_ma_and_doctor_says_so(pi):
    root, config = pi
    _pi5(root, config, "nfc:/dev/ttyAMA0")
    _supply(root, 3000)
    by_name, checks = checks_on(root, config)
    usb = by_name["USB power"]
    assert usb.status == "warn" and "600 mA in all" in usb.detail and "3.0 A" in usb.detail, report(checks)
    assert "5 A" in usb.fix
    _supply(root, 5000)
    assert checks_on(root, config)[0]["USB power"].status == "ok"
    _supply(root, 3000, lifted=1)
    assert checks_on(root, config)[0]["USB power"].detail.startswith("USB ports may draw 1600 mA")


OVERLAY_MOUNTS = (b"/dev/mmcblk0p2 /media/root-ro ext4 ro,relatime 0 0\n"
                  b"tmpfs-root /media/root-rw tmpfs rw,relatime 0 0\n"
                  b"overlayroot / overlay rw,relatime,lowerdir=/media/root-ro,upperdir=/media/root-rw/overlay,"
                  b"workdir=/media/root-rw/overlay-workdir 0 0\n"
                  b"/dev/mmcblk0p1 /boot/firmware vfat rw,relatime 0 0\n")


def test_on_raspi_configs_overlay_root_the_store_is_not_called_writable(pi):
    """The table plays, and after the power cut no store is left: the doctor must not
    say 'writable'."""
    root, config = pi
    touch(root, "/proc/mounts", OVERLAY_MOUNTS)
    by_name, checks = checks_on(root, config)
    store = by_name["Game store"]
    assert store.status == "fail" and "writable" not in store.detail, report(checks)
    assert "power cut" in store.detail and "overlay" in store.detail
    assert "do_overlayfs 1" in store.fix and "data partition" in store.fix
    touch(root, "/proc/mounts", b"/dev/mmcblk0p2 / ext4 rw,noatime 0 0\n")
    assert checks_on(root, config)[0]["Game store"].status == "ok"


def test_a_store_on_a_data_partition_beside_an_overlay_root_is_kept(pi):
    root, config = pi
    touch(root, "/proc/mounts", OVERLAY_MOUNTS + b"/dev/mmcblk0p3 /var/lib/companion ext4 rw,noatime 0 0\n")
    assert checks_on(root, config)[0]["Game store"].status == "ok"


def test_two_displays_without_an_output_setting_warn_and_the_setting_is_checked(pi):
    root, config = pi
    touch(root, "/sys/class/drm/card1-HDMI-A-1/status", b"connected\n")
    display = checks_on(root, config)[0]["Display output"]
    assert display.status == "warn" and "DSI-1, HDMI-A-1" in display.detail, display
    assert '[display] output = "DSI-1"' in display.fix
    config.write_text(config.read_text() + '[display]\noutput = "HDMI-A-1"\n')
    assert checks_on(root, config)[0]["Display output"].status == "ok"
    config.write_text(config.read_text().replace("HDMI-A-1", "HDMI-A-2"))
    assert checks_on(root, config)[0]["Display output"].status == "fail"


@pytest.mark.parametrize("where, text", [
    ("/boot/firmware/cmdline.txt", b"console=tty1 root=PARTUUID=1234-02 video=DSI-1:800x480@60,rotate=180\n"),
    ("/boot/firmware/config.txt", b"dtoverlay=vc4-kms-dsi-7inch,rotation=90\n"),
    ("/boot/firmware/config.txt", b"display_rotate=2\n"),
])
def test_a_rotation_in_the_boot_files_and_the_companions_is_turned_twice(pi, where, text):
    root, config = pi
    touch(root, where, text)
    assert checks_on(root, config)[0]["Rotation"].status == "ok"  # the system's alone
    config.write_text(config.read_text() + "[display]\nrotation = 180\n")
    rotation = checks_on(root, config)[0]["Rotation"]
    assert rotation.status == "warn" and "turned twice" in rotation.detail, rotation
    assert "rotation = 0" in rotation.fix


def test_a_gpio_failure_in_an_unwritable_working_folder_names_that_not_the_lgpio_package(pi, tmp_path, monkeypatch):
    """``sudo -u companion companion doctor`` from an admin's home: lgpio cannot create
    its notify file there, gpiozero falls back, and the doctor blamed python3-lgpio."""
    root, _ = pi
    locked = tmp_path / "admin-home"
    locked.mkdir(mode=0o755)
    monkeypatch.chdir(locked)
    someone = Identity("companion", uid=os.geteuid() + 4242, gids=frozenset({os.getegid() + 4242}))
    touch(root, "/dev/gpiochip0").chmod(0o666)
    m = Machine(root, run=lambda argv: SERVICE_STOPPED.get(tuple(argv)), user=someone)
    gpio = doctor.check_gpio(m, {"confirm": 17}, drive=lambda pins: "BadPinFactory: Unable to load any default pin factory!")
    assert gpio.status == "fail" and "notify file" in gpio.detail and str(locked) in gpio.detail, gpio
    assert "python3-lgpio" not in gpio.fix and "/var/lib/companion" in gpio.fix


def test_doctor_moves_to_a_writable_folder_first(tmp_path, monkeypatch):
    from companion.cli.doctor import writable_folder

    state, gone = tmp_path / "state", tmp_path / "gone"
    state.mkdir()
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()  # a folder that cannot be written (here: no longer there)
    assert writable_folder(str(state)) == str(state) and os.getcwd() == str(state)
    assert writable_folder(str(tmp_path)) == str(state)  # already writable: stays


def test_the_output_setting_picks_the_sdl_display_of_that_name():
    from companion.ui.outputs import display_index

    assert display_index(None, names=["a", "b"]) == 0
    assert display_index("HDMI-A-1", names=["DSI-1", "HDMI-A-1"]) == 1
    assert display_index("DSI-1", names=["0: DSI-1 800x480", "HDMI-A-1"]) == 0
    assert display_index("HDMI-A-1", names=["", ""], connectors=["DSI-1", "HDMI-A-1"]) == 1  # by position
    assert display_index("HDMI-A-2", names=["x"], connectors=["DSI-1"]) == 0  # none matches: the first


def test_the_table_opens_on_the_output_the_config_names(tmp_path, monkeypatch):
    from companion.service.config import apply_to_run
    from companion.cli import build_parser
    from companion.table.plan import make_plan
    from companion.ui import app as app_module, outputs

    cfg = tmp_path / "c.toml"
    cfg.write_text('[game]\nnames = ["Ana", "Ben"]\n[display]\noutput = "HDMI-A-1"\n')
    args = build_parser("run").parse_args(["run", "--simulate", "--config", str(cfg), "--store", str(tmp_path / "t.db")])
    plan = make_plan(args, apply_to_run(args, "unused"), False)
    assert plan.output == "HDMI-A-1"
    monkeypatch.setattr(outputs, "sdl_display_names", lambda: ["DSI-1", "HDMI-A-1"])
    seen = {}
    real = pygame.display.set_mode
    monkeypatch.setattr(pygame.display, "set_mode", lambda size, flags=0, **kw: (seen.update(kw), real(size, flags))[1])
    app = app_module.App(output=plan.output)
    app.close()
    assert seen.get("display") == 1
