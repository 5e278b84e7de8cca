"""hardware/install.sh into a scratch root (--root): every file it writes, what it
refuses, that a second run changes nothing, and --uninstall. Under --root no command
that changes the system runs: apt-get, useradd, raspi-config, udevadm, systemctl and pip
are replaced by stand-ins that record any call, and none may be called."""

import os
import stat
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "hardware" / "install.sh"
CMDLINE = "console=serial0,115200 console=tty1 root=PARTUUID=1234-02 rootfstype=ext4 fsck.repair=yes rootwait"
TOOLS = ("apt-get", "useradd", "usermod", "userdel", "raspi-config", "udevadm", "systemctl", "pip", "python3")


@pytest.fixture
def fake_bin(tmp_path):
    """Stand-ins for every system-changing tool, logging their calls."""
    bin_dir, log = tmp_path / "bin", tmp_path / "calls.log"
    bin_dir.mkdir()
    for tool in TOOLS:
        exe = bin_dir / tool
        exe.write_text(f"#!/bin/sh\necho {tool} \"$@\" >> {log}\n")
        exe.chmod(0o755)
    return bin_dir, log


def pi_root(path: Path) -> Path:
    """A scratch root that looks like a fresh Raspberry Pi OS card."""
    (path / "etc").mkdir(parents=True)
    (path / "etc" / "rpi-issue").write_text("Raspberry Pi reference 2024-11-19\n")
    (path / "etc" / "os-release").write_text('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n')
    (path / "boot" / "firmware").mkdir(parents=True)
    (path / "boot" / "firmware" / "cmdline.txt").write_text(CMDLINE + "\n")
    return path


def install(root: Path, fake_bin, *options: str) -> subprocess.CompletedProcess:
    bin_dir, _ = fake_bin
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    return subprocess.run(["bash", str(SCRIPT), "--root", str(root), *options], capture_output=True, text=True,
                          env=env, timeout=60)


def files_under(root: Path) -> dict[str, Path]:
    return {"/" + str(p.relative_to(root)): p for p in sorted(root.rglob("*")) if p.is_file() or p.is_symlink()}


BEFORE = {"/etc/rpi-issue", "/etc/os-release", "/boot/firmware/cmdline.txt"}
WRITTEN = {
    "/etc/systemd/system/companion.service": REPO / "systemd" / "companion.service",
    "/etc/udev/rules.d/99-sugar-companion.rules": REPO / "hardware" / "99-sugar-companion.rules",
    "/etc/companion/companion.toml": REPO / "hardware" / "companion.toml.example",
    "/opt/companion/companion.toml.example": REPO / "hardware" / "companion.toml.example",
    "/opt/companion/README.md": REPO / "README.md",
    "/etc/systemd/system/companion.service.d/no-network.conf": REPO / "systemd" / "no-network.conf",
}
LINK = "/usr/local/bin/companion"
STAMP = "/opt/companion/installed-source.sha256"
WANTS = "/etc/systemd/system/multi-user.target.wants/companion.service"


def test_it_refuses_a_machine_that_is_not_raspberry_pi_os(tmp_path, fake_bin):
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "etc" / "os-release").write_text('PRETTY_NAME="Ubuntu 24.04 LTS"\n')
    done = install(root, fake_bin)
    assert done.returncode == 1
    assert "this is Ubuntu 24.04 LTS, not Raspberry Pi OS" in done.stderr and "--force" in done.stderr
    assert set(files_under(root)) == {"/etc/os-release"}  # nothing written


def test_force_installs_anyway_and_says_so(tmp_path, fake_bin):
    root = tmp_path / "root"
    root.mkdir()
    done = install(root, fake_bin, "--force")
    assert done.returncode == 0, done.stderr
    assert "not Raspberry Pi OS: carrying on because of --force" in done.stdout
    assert "console blanking left as it is" in done.stdout  # no cmdline.txt on this machine
    assert set(files_under(root)) == set(WRITTEN) | {WANTS, LINK, STAMP}


def test_install_writes_exactly_these_files_and_runs_no_system_command(tmp_path, fake_bin):
    root = pi_root(tmp_path / "root")
    done = install(root, fake_bin)
    assert done.returncode == 0, done.stderr
    found = files_under(root)
    assert set(found) == BEFORE | set(WRITTEN) | {WANTS, LINK, STAMP}
    for dest, source in WRITTEN.items():
        assert found[dest].read_bytes() == source.read_bytes(), dest
        assert stat.S_IMODE(found[dest].stat().st_mode) == 0o644, dest
    assert os.readlink(found[WANTS]) == "/etc/systemd/system/companion.service"
    assert os.readlink(found[LINK]) == "/opt/companion/venv/bin/companion"  # `companion` on the PATH
    assert (root / "boot/firmware/cmdline.txt").read_text() == CMDLINE + " consoleblank=0\n"
    # The commands a real install runs are printed, not run.
    for command in ("apt-get install -y --no-install-recommends python3-venv python3-evdev python3-lgpio i2c-tools "
                    "libgbm1 libegl1 libgles2 libgl1-mesa-dri fontconfig",
                    "useradd --system --home-dir /var/lib/companion",
                    "usermod -aG input,video,render,i2c,gpio,dialout companion",
                    "install -d -o companion -g companion -m 0750 /var/lib/companion",
                    "python3 -m venv --system-site-packages /opt/companion/venv",
                    "raspi-config nonint do_i2c 0", "udevadm control --reload-rules",
                    "systemctl restart companion.service"):
        assert f"not run (--root): {command}" in done.stdout, command
    assert not fake_bin[1].exists(), fake_bin[1].read_text()
    # and every change is listed
    assert "Done: 9 change(s)." in done.stdout
    for dest in WRITTEN:
        assert f"changed: wrote {dest}" in done.stdout


def test_a_second_run_changes_nothing_and_keeps_an_edited_config(tmp_path, fake_bin):
    root = pi_root(tmp_path / "root")
    assert install(root, fake_bin).returncode == 0
    config = root / "etc/companion/companion.toml"
    config.write_text('[game]\nnames = ["Mum", "Dad"]\n')
    again = install(root, fake_bin)
    assert again.returncode == 0, again.stderr
    assert "Done: 0 change(s)." in again.stdout and "changed:" not in again.stdout
    assert config.read_text() == '[game]\nnames = ["Mum", "Dad"]\n'
    assert (root / "boot/firmware/cmdline.txt").read_text().count("consoleblank=0") == 1


def test_an_updated_unit_is_rewritten_and_reported(tmp_path, fake_bin):
    root = pi_root(tmp_path / "root")
    assert install(root, fake_bin).returncode == 0
    (root / "etc/systemd/system/companion.service").write_text("[Service]\nExecStart=/bin/old\n")
    again = install(root, fake_bin)
    assert "Done: 1 change(s)." in again.stdout and "changed: wrote /etc/systemd/system/companion.service" in again.stdout
    assert (root / "etc/systemd/system/companion.service").read_bytes() == WRITTEN[
        "/etc/systemd/system/companion.service"].read_bytes()


def test_uninstall_removes_what_it_installed_and_keeps_config_and_history(tmp_path, fake_bin):
    root = pi_root(tmp_path / "root")
    assert install(root, fake_bin).returncode == 0
    (root / "var/lib/companion").mkdir(parents=True)
    (root / "var/lib/companion/table.db").write_bytes(b"games")
    done = install(root, fake_bin, "--uninstall")
    assert done.returncode == 0, done.stderr
    assert set(files_under(root)) == BEFORE | {"/etc/companion/companion.toml", "/var/lib/companion/table.db"}
    assert (root / "boot/firmware/cmdline.txt").read_text() == CMDLINE + "\n"
    assert "not run (--root): systemctl disable --now companion.service" in done.stdout
    # tty1's login prompt comes back (the unit conflicted with it)
    assert "not run (--root): systemctl start getty@tty1.service" in done.stdout
    # the user stays, owning the history that stays: nothing is left to a deleted user
    assert "userdel" not in done.stdout.replace("sudo userdel companion", "")
    assert "Kept /etc/companion/companion.toml (your settings), /var/lib/companion (the game history) and the user " \
           "companion" in done.stdout
    assert "Kept /etc/companion/companion.toml" in done.stdout
    assert not fake_bin[1].exists()
    again = install(root, fake_bin, "--uninstall")
    assert "0 change(s)." in again.stdout


def test_unknown_option_and_help(tmp_path, fake_bin):
    assert install(tmp_path, fake_bin, "--frobnicate").returncode == 2
    helped = subprocess.run(["bash", str(SCRIPT), "--help"], capture_output=True, text=True)
    assert helped.returncode == 0 and "--uninstall" in helped.stdout and "--root DIR" in helped.stdout


def test_the_script_parses_and_is_executable():
    assert subprocess.run(["bash", "-n", str(SCRIPT)]).returncode == 0
    assert os.access(SCRIPT, os.X_OK)


def test_a_32_bit_system_is_refused_with_what_to_do(tmp_path, fake_bin):
    """32-bit Raspberry Pi OS (armhf, even on a 64-bit kernel): PyPI has no pygame-ce wheel."""
    bin_dir, _ = fake_bin
    (bin_dir / "dpkg").write_text("#!/bin/sh\n[ \"$1\" = --print-architecture ] && echo armhf\n")
    (bin_dir / "dpkg").chmod(0o755)
    root = pi_root(tmp_path / "root")
    done = install(root, fake_bin)
    assert done.returncode == 1
    assert "32-bit system (armhf)" in done.stderr and "Raspberry Pi OS Lite (64-bit)" in done.stderr
    assert "Raspberry Pi" in done.stderr and "Imager" in done.stderr
    assert set(files_under(root)) == BEFORE  # nothing written
    assert install(root, fake_bin, "--force").returncode == 1  # --force cannot make a wheel appear


def test_a_64_bit_system_is_accepted(tmp_path, fake_bin):
    bin_dir, _ = fake_bin
    (bin_dir / "dpkg").write_text("#!/bin/sh\n[ \"$1\" = --print-architecture ] && echo arm64\n")
    (bin_dir / "dpkg").chmod(0o755)
    assert install(pi_root(tmp_path / "root"), fake_bin).returncode == 0


def test_a_desktop_image_is_switched_to_console_boot_and_back(tmp_path, fake_bin):
    """The display manager holds the screen kmsdrm needs: boot to the console, as a kiosk
    does; --uninstall gives the desktop back."""
    root = pi_root(tmp_path / "root")
    system = root / "etc/systemd/system"
    system.mkdir(parents=True)
    (system / "default.target").symlink_to("/lib/systemd/system/graphical.target")
    (system / "display-manager.service").symlink_to("/lib/systemd/system/lightdm.service")
    done = install(root, fake_bin)
    assert done.returncode == 0, done.stderr
    assert os.readlink(system / "default.target") == "/lib/systemd/system/multi-user.target"
    assert "boots to the console now, not the desktop" in done.stdout
    assert "not run (--root): systemctl stop display-manager.service" in done.stdout
    again = install(root, fake_bin)
    assert "Done: 0 change(s)." in again.stdout
    gone = install(root, fake_bin, "--uninstall")
    assert os.readlink(system / "default.target") == "/lib/systemd/system/graphical.target"
    assert "boots to the desktop again" in gone.stdout


def test_a_lite_image_stays_as_it_boots(tmp_path, fake_bin):
    root = pi_root(tmp_path / "root")
    system = root / "etc/systemd/system"
    system.mkdir(parents=True)
    (system / "default.target").symlink_to("/lib/systemd/system/multi-user.target")
    done = install(root, fake_bin)
    assert "already right: boots to the console (multi-user.target, no display manager)" in done.stdout
    assert os.readlink(system / "default.target") == "/lib/systemd/system/multi-user.target"


def test_wheelhouse_installs_offline_from_its_wheels_and_debs(tmp_path, fake_bin):
    root = pi_root(tmp_path / "root")
    house = tmp_path / "house"
    (house / "debs").mkdir(parents=True)
    (house / "pygame_ce-2.5.2-cp311-cp311-manylinux2014_aarch64.whl").write_bytes(b"")
    done = install(root, fake_bin, "--wheelhouse", str(house))
    assert done.returncode == 0, done.stderr
    assert "apt-get update" not in done.stdout  # no network needed
    assert f"apt-get install -y --no-install-recommends -o APT::Sandbox::User=root {house}/debs/*.deb" in done.stdout
    assert f"wheel --no-deps --wheel-dir TMP/dist --no-index --find-links {house} TMP/src" in done.stdout
    assert f"install --upgrade --no-index --find-links {house} TMP/dist/*.whl" in done.stdout


def test_a_wheelhouse_without_wheels_is_a_usage_error(tmp_path, fake_bin):
    root = pi_root(tmp_path / "root")
    (tmp_path / "empty").mkdir()
    for house in (tmp_path / "empty", tmp_path / "missing"):
        done = install(root, fake_bin, "--wheelhouse", str(house))
        assert done.returncode == 2 and "has no wheels" in done.stderr and "make-wheelhouse.sh" in done.stderr
    assert set(files_under(root)) == BEFORE
    assert install(root, fake_bin, "--wheelhouse").returncode == 2


def test_the_network_stays_open_only_for_a_venue(tmp_path, fake_bin):
    root = pi_root(tmp_path / "root")
    assert install(root, fake_bin).returncode == 0
    dropin = root / "etc/systemd/system/companion.service.d/no-network.conf"
    assert "IPAddressDeny=any" in dropin.read_text()
    config = root / "etc/companion/companion.toml"
    config.write_text(config.read_text() + '\n[venue]\nbroker = "cafe.local"\n')
    again = install(root, fake_bin)
    assert not dropin.exists() and "has a [venue]: the network is opened to its broker only" in again.stdout
    assert "changed: removed /etc/systemd/system/companion.service.d/no-network.conf" in again.stdout
    # The drop-in that opens it to the broker is `companion venue enable`'s (the installed
    # program: under --root only printed; tests/test_systemd_unit.py checks what it writes).
    assert ("not run (--root): /opt/companion/venv/bin/companion venue enable --config /etc/companion/companion.toml "
            "--no-restart") in again.stdout
    # Without the [venue] again, the network is closed again (and a venue drop-in removed).
    opened = root / "etc/systemd/system/companion.service.d/venue-network.conf"
    opened.write_text("[Service]\nRestrictAddressFamilies=AF_INET\n")
    config.write_text(config.read_text().replace('broker = "cafe.local"', ""))
    closed = install(root, fake_bin)
    assert dropin.exists() and not opened.exists(), closed.stdout
    assert "changed: removed /etc/systemd/system/companion.service.d/venue-network.conf" in closed.stdout


def test_the_wheelhouse_maker_parses_and_refuses_bad_arguments(tmp_path):
    maker = REPO / "hardware" / "make-wheelhouse.sh"
    assert subprocess.run(["bash", "-n", str(maker)]).returncode == 0 and os.access(maker, os.X_OK)
    assert subprocess.run(["bash", str(maker)], capture_output=True).returncode == 2
    bad = subprocess.run(["bash", str(maker), str(tmp_path), "--arch", "armv7l"], capture_output=True, text=True)
    assert bad.returncode == 2 and "aarch64 or x86_64" in bad.stderr
    helped = subprocess.run(["bash", str(maker), "--help"], capture_output=True, text=True)
    assert "install.sh --wheelhouse" in helped.stdout and "pip download" in helped.stdout
