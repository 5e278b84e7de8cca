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
}
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
    assert set(files_under(root)) == set(WRITTEN) | {WANTS}


def test_install_writes_exactly_these_files_and_runs_no_system_command(tmp_path, fake_bin):
    root = pi_root(tmp_path / "root")
    done = install(root, fake_bin)
    assert done.returncode == 0, done.stderr
    found = files_under(root)
    assert set(found) == BEFORE | set(WRITTEN) | {WANTS}
    for dest, source in WRITTEN.items():
        assert found[dest].read_bytes() == source.read_bytes(), dest
        assert stat.S_IMODE(found[dest].stat().st_mode) == 0o644, dest
    assert os.readlink(found[WANTS]) == "/etc/systemd/system/companion.service"
    assert (root / "boot/firmware/cmdline.txt").read_text() == CMDLINE + " consoleblank=0\n"
    # The commands a real install runs are printed, not run.
    for command in ("apt-get install -y --no-install-recommends python3-venv python3-pip python3-lgpio i2c-tools",
                    "useradd --system --home-dir /var/lib/companion",
                    "usermod -aG input,video,render,i2c,gpio,dialout companion",
                    "install -d -o companion -g companion -m 0750 /var/lib/companion",
                    "python3 -m venv --system-site-packages /opt/companion/venv",
                    "raspi-config nonint do_i2c 0", "udevadm control --reload-rules",
                    "systemctl restart companion.service"):
        assert f"not run (--root): {command}" in done.stdout, command
    assert not fake_bin[1].exists(), fake_bin[1].read_text()
    # and every change is listed
    assert "Done: 7 change(s)." in done.stdout
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
