"""The appliance checks on a host without their tools: one line naming the Debian packages
to install and exit status 2 (the check could not run; 1 is kept for a FAIL), not a
traceback (issue 37: "`make appliance` on a machine without debootstrap ends in a
traceback instead of one line naming the packages to install")."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _bare_path(tmp_path: Path, keep: tuple[str, ...]) -> str:
    """A PATH holding only the programs ``keep`` (what the scripts need before they look)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in keep:
        (bin_dir / tool).symlink_to(shutil.which(tool))
    return str(bin_dir)


def test_check_py_names_the_packages_to_install_and_exits_2(tmp_path):
    env = {**os.environ, "PATH": _bare_path(tmp_path, ())}
    done = subprocess.run([sys.executable, str(REPO / "hardware/appliance/check.py")], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    said = done.stderr.strip().splitlines()
    assert len(said) == 1
    assert "apt-get install" in said[0]
    for package in ("debootstrap", "qemu-system-x86", "qemu-utils"):
        assert package in said[0]


def test_arm64_check_names_the_packages_to_install_and_exits_2(tmp_path):
    env = {**os.environ, "PATH": _bare_path(tmp_path, ("dirname",))}
    done = subprocess.run([shutil.which("bash"), str(REPO / "hardware/appliance/arm64-check.sh")], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    said = done.stderr.strip().splitlines()
    assert len(said) == 1
    for package in ("debootstrap", "qemu-user-static", "binfmt-support"):
        assert package in said[0]
