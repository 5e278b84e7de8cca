"""`companion doctor` says OK only when it should (issue 20, item 11): pins gpiozero can
really drive, the graphics libraries SDL's kmsdrm loads, no desktop holding the display,
a connected panel, no serial console on the PN532's UART, no undervoltage; fix lines name
the real user and installed files; run as root it checks the service user's access; it
leaves the tray sensor the service uses alone; its screen wraps instead of cutting."""

import os

import pytest

from companion.service import doctor
from companion.service.doctor import Machine, report, run_checks
from companion.service.doctor_pi import Identity, drive_pins
from test_doctor import SERVICE_STOPPED, checks_on, open_adxl, pi, touch  # noqa: F401  (pi: the fixture)


def test_gpio_is_not_ok_when_gpiozero_cannot_drive_a_pin(pi):
    """A Pi 5 venv without lgpio: the chip is there and openable, but no pin factory."""
    by_name, _ = checks_on(*pi, services=SERVICE_STOPPED,
                           drive=lambda pins: "BadPinFactory: Unable to load any default pin factory!")
    gpio = by_name["GPIO"]
    assert gpio.status == "fail" and "BadPinFactory" in gpio.detail and "python3-lgpio" in gpio.fix


def test_without_an_injected_driver_the_check_really_asks_gpiozero(pi):
    """On this machine (not a Pi) gpiozero has no pin factory: the old check said OK."""
    root, config = pi
    m = Machine(root, run=lambda argv: {("systemctl", "is-active", "companion.service"): "inactive"}.get(tuple(argv)),
                user=Identity("maya", os.geteuid(), frozenset(os.getgroups()), current=True))
    gpio = doctor.check_gpio(m, {"confirm": 17, "led": 23})
    assert gpio.status == "fail", gpio


def test_drive_pins_claims_each_pin_and_lets_it_go():
    from gpiozero import LED
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    assert drive_pins({"confirm": 17, "led": 23}, factory) is None
    held = LED(23, pin_factory=factory)  # another program holds the LED's pin
    try:
        assert "in use" in (drive_pins({"led": 23}, factory) or "").lower()
    finally:
        held.close()


def test_the_tray_sensor_the_service_is_using_is_not_read(pi):
    opened = []
    by_name, _ = checks_on(*pi, open_chip=lambda spec, clock: opened.append(spec) or open_adxl(spec, clock))
    sensor = by_name["Tray sensor"]
    assert opened == [] and sensor.status == "skip" and "service uses it" in sensor.detail
    assert by_name["GPIO"].status == "skip"  # its pins are the service's too
    by_name, _ = checks_on(*pi, services=SERVICE_STOPPED, open_chip=lambda spec, clock: opened.append(spec)
                           or open_adxl(spec, clock))
    assert opened == ["i2c:1"] and by_name["Tray sensor"].status == "ok"


def test_missing_graphics_libraries_fail_with_the_packages_to_install(pi):
    by_name, _ = checks_on(*pi, load_lib=lambda name: name == "libGLESv2.so.2")
    g = by_name["Graphics libraries"]
    assert g.status == "fail" and "libgbm.so.1, libEGL.so.1 missing" in g.detail
    assert g.fix == "sudo apt install libgbm1 libegl1"


def test_the_graphics_libraries_are_really_loaded_by_default():
    from companion.service.doctor_pi import check_graphics

    assert check_graphics({}, load=lambda name: False).status == "fail"
    assert check_graphics({"SDL_VIDEODRIVER": "x11"}).status == "skip"


def test_a_running_desktop_fails_with_console_boot(pi):
    by_name, _ = checks_on(*pi, services={("systemctl", "is-active", "display-manager.service"): "active"})
    d = by_name["Desktop"]
    assert d.status == "fail" and "do_boot_behaviour B1" in d.fix


def test_no_panel_connected_fails(pi):
    root, config = pi
    touch(root, "/sys/class/drm/card1-DSI-1/status", b"disconnected\n")
    by_name, _ = checks_on(root, config)
    assert by_name["Panel"].status == "fail" and "DSI-1, HDMI-A-1 all disconnected" in by_name["Panel"].detail


def test_a_serial_console_on_the_pn532_uart_fails(pi):
    root, config = pi
    touch(root, "/boot/firmware/cmdline.txt", b"console=serial0,115200 console=tty1 root=PARTUUID=1234-02\n")
    by_name, _ = checks_on(root, config)
    s = by_name["Serial console"]
    assert s.status == "fail" and "console=serial0" in s.detail and "do_serial_cons 1" in s.fix


@pytest.mark.parametrize("throttled, status", [("0x0", "ok"), ("0x50000", "warn"), ("0x50005", "fail")])
def test_undervoltage_from_vcgencmd(pi, throttled, status):
    by_name, _ = checks_on(*pi, services={("vcgencmd", "get_throttled"): f"throttled={throttled}"})
    assert by_name["Power"].status == status


def _everything_broken(root, config):
    for dev in ("dev/dri/card1", "dev/input/event0", "dev/i2c-1", "dev/gpiochip0", "dev/sugar-companion/scanner-1",
                "dev/serial0"):
        os.chmod(root / dev, 0o600)  # root's only


@pytest.mark.skipif(os.geteuid() != 0, reason="making files owned by others needs root")
def test_fix_lines_name_the_real_user_and_never_the_source_tree(pi):
    root, config = pi
    _everything_broken(root, config)
    maya = Identity("maya", 1000, frozenset({1000}))
    def no_sensor(spec, clock):
        raise OSError("no ACK at 0x53")
    by_name, checks = checks_on(root, config, user=maya, services=SERVICE_STOPPED, open_chip=no_sensor)
    text = report(checks)
    assert "$USER" not in text
    assert by_name["Display"].fix == "sudo usermod -aG video,render maya"
    assert by_name["Touch input"].fix == "sudo usermod -aG input maya"
    assert by_name["I2C"].fix == "sudo usermod -aG i2c maya"
    assert by_name["GPIO"].fix == "sudo usermod -aG gpio maya"
    fixes = [c.fix for c in checks if c.fix]
    assert not [f for f in fixes if "wiring/" in f or "hardware/" in f or "companion.toml.example" in f
                and "/opt/companion/" not in f], fixes


@pytest.mark.skipif(os.geteuid() != 0, reason="the root case needs root")
def test_run_as_root_the_service_users_access_is_checked_not_roots(pi, monkeypatch):
    root, config = pi
    _everything_broken(root, config)
    service_user = Identity("companion", 990, frozenset({990}))
    monkeypatch.setattr(Identity, "of", classmethod(lambda cls, name: service_user))  # the Pi has it
    m = Machine(root, run=lambda argv: None)  # as `sudo companion doctor` makes it
    assert m.user == service_user
    checks = {c.name: c for c in run_checks(config, m=m, environ={"SDL_VIDEODRIVER": "kmsdrm"}, open_chip=open_adxl,
                                            load_lib=lambda n: True, drive=lambda p: None)}
    assert checks["Display"].status == "fail" and "companion" in checks["Display"].fix
    assert checks["I2C"].status == "fail" and checks["Touch input"].status == "fail"
    # The service user's group opens it: then it passes.
    video = Identity("companion", 990, frozenset({44}))
    monkeypatch.undo()
    os.chown(root / "dev/dri/card1", 0, 44)
    os.chmod(root / "dev/dri/card1", 0o660)
    assert doctor.check_display(Machine(root, user=video), {"SDL_VIDEODRIVER": "kmsdrm"}).status == "ok"


def test_the_report_screen_wraps_every_line_and_pages_instead_of_cutting(pi, tmp_path):
    import pygame

    from companion.service.doctor import draw_report, report_pages
    from companion.ui.widgets import record_text

    root, config = pi
    touch(root, "/boot/firmware/cmdline.txt", b"console=serial0,115200 console=tty1\n")
    os.remove(root / "dev/sugar-companion/scanner-1")
    _, checks = checks_on(root, config, load_lib=lambda n: False,
                          services={("vcgencmd", "get_throttled"): "throttled=0x50005",
                                    ("systemctl", "is-active", "display-manager.service"): "active"})
    from companion.ui import theme

    pygame.display.init()
    pygame.font.init()
    theme.clear_fonts()  # fonts made before an earlier test's pygame.quit() are gone
    try:
        surface = pygame.Surface((800, 480))
        pages = report_pages(checks)
        assert len(pages) >= 2
        drawn_names = []
        for page in range(len(pages)):
            with record_text() as drawn:
                draw_report(surface, checks, page)
            cut = [(d.text, d.size) for d in drawn if d.clipped or not d.readable]
            assert not cut, cut
            drawn_names += [d.text for d in drawn]
            pygame.image.save(surface, str(tmp_path / f"doctor-{page + 1}.png"))
        for c in checks:
            if c.status != "ok":
                assert c.name in drawn_names and c.detail in drawn_names
                if c.fix and c.status in ("warn", "fail"):
                    assert "fix: " + c.fix in drawn_names
    finally:
        pygame.quit()


@pytest.mark.skipif(os.geteuid() != 0, reason="the root case needs root")
def test_run_as_root_without_a_service_user_says_it_checks_roots_own_access(pi, monkeypatch):
    monkeypatch.setattr(Identity, "of", classmethod(lambda cls, name: Identity(name, missing=True)))
    m = Machine(pi[0], run=lambda argv: None)
    assert m.user.current and m.user.no_service_user
    from companion.service.doctor_pi import check_user

    assert check_user(m).status == "warn" and "no companion user" in check_user(m).detail
