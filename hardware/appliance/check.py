"""The appliance check: hardware/install.sh run for real in a Pi-like VM, then the table as a
person at it would find it. `make appliance` runs it (root, x86-64, QEMU; not in `make test`).

    python3 hardware/appliance/check.py [--dist bookworm|trixie] [--cuts 20] [--accel kvm|tcg] [--out out/appliance]

One printed line per check, PASS or FAIL with the measured seconds; exit 1 on any FAIL.
The image (Debian 12, or 13 with --dist trixie, with Raspberry Pi OS Lite's packages, build-image.sh) is built once and
cached in $APPLIANCE_CACHE (default /var/cache/sugar-companion-appliance); the wheelhouse
(make-wheelhouse.sh --arch x86_64) and the .debs install.sh needs (downloaded in a chroot of
that image, as `make-wheelhouse.sh --debs` would on a fresh Lite card) go into the VM on a
second, read-only disk: the VM has no network at all. Screendumps: out/appliance/*.png.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))
from vm import Vm, VmError  # noqa: E402

CACHE = Path(os.environ.get("APPLIANCE_CACHE", "/var/cache/sugar-companion-appliance"))
# --dist: Raspberry Pi OS Bookworm (Debian 12, Python 3.11) or Trixie (Debian 13, Python 3.13).
DISTS = {"bookworm": ("12", "3.11"), "trixie": ("13", "3.13")}
DIST = "bookworm"


def cached(name: str) -> Path:
    """A file of the image cache for DIST: bookworm keeps the names it always had
    (rootfs-amd64, vmlinuz), trixie's are prefixed (rootfs-trixie-amd64, trixie-vmlinuz)."""
    if DIST == "bookworm":
        return CACHE / name
    return CACHE / (name.replace("rootfs-", f"rootfs-{DIST}-").replace("debs-", f"debs-{DIST}-")
                    if name.startswith(("rootfs-", "debs-")) else f"{DIST}-{name}")
DEBS = ["python3-venv", "python3-evdev", "i2c-tools", "libgbm1", "libegl1", "libgles2", "libgl1-mesa-dri", "fontconfig"]
GUEST_SRC = "/home/pi/sugar-table-companion"
CONFIG = "/etc/companion/companion.toml"
DB = "/var/lib/companion/table.db"
# Where the Sugarrr! screen's targets are in the 800x480 design (the panel shows it scaled).
COLUMN_X = {1: 270, 2: 388, 3: 506, 4: 624, 5: 742}
# Pause (top bar) is there in every turn and answers at once (Undo first asks "Take this
# back?" after a restart); the big button's place (686, 422) is Done only while a card
# waits, else Swap.
TARGETS = {**{f"column {n}": (x, 150) for n, x in COLUMN_X.items()}, "done": (686, 422), "menu": (743, 22),
           "menu pause": (252, 172)}  # the Menu's first cell (companion/ui/menu.py at 800x480)

RESULTS: list[tuple[bool, str]] = []
T0 = time.monotonic()


def line(ok: bool, name: str, seconds: float | None, detail: str = "") -> bool:
    text = f"{'PASS' if ok else 'FAIL'}  {name}" + (f"  ({seconds:.1f} s)" if seconds is not None else "")
    text += f"  {detail}" if detail else ""
    print(text, flush=True)
    RESULTS.append((ok, text))
    return ok


def note(text: str) -> None:
    print(f"      {text}", flush=True)


# The host's tools the check runs, and the Debian package each comes in.
TOOLS = {"debootstrap": "debootstrap", "qemu-system-x86_64": "qemu-system-x86", "qemu-img": "qemu-utils",
         "mkfs.ext4": "e2fsprogs", "chroot": "coreutils"}


def missing_packages() -> list[str]:
    """The Debian packages whose tools (TOOLS) are not on this host's PATH, sorted; [] when
    all are there."""
    return sorted({pkg for tool, pkg in TOOLS.items() if not shutil.which(tool)})


def sh(cmd: list[str] | str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, shell=isinstance(cmd, str), check=True, text=True, **kw)


# ------------------------------------------------------------------ host side: what goes in

def build_image() -> float:
    start = time.monotonic()
    sh([str(HERE / "build-image.sh"), "amd64", str(CACHE), DIST], stdout=subprocess.DEVNULL)
    return time.monotonic() - start


def debs() -> Path:
    """The .debs install.sh needs that the Lite image lacks (with their dependencies)."""
    out = cached("debs-amd64")
    if out.with_name(out.name + ".done").exists():
        return out
    root = cached("rootfs-amd64")
    shutil.copy("/etc/resolv.conf", root / "etc/resolv.conf")
    (root / "var/cache/wheelhouse-debs/partial").mkdir(parents=True, exist_ok=True)
    sh(["chroot", str(root), "apt-get", "update", "-q"], stdout=subprocess.DEVNULL)
    sh(["chroot", str(root), "apt-get", "install", "-y", "-q", "--download-only", "--no-install-recommends",
        "-o", "Dir::Cache::archives=/var/cache/wheelhouse-debs", *DEBS], stdout=subprocess.DEVNULL)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    for deb in (root / "var/cache/wheelhouse-debs").glob("*.deb"):
        shutil.move(str(deb), out / deb.name)
    shutil.rmtree(root / "var/cache/wheelhouse-debs")
    out.with_name(out.name + ".done").touch()
    return out


def mosquitto_debs() -> Path:
    """Mosquitto and its clients, with what a fresh Lite image lacks of their dependencies
    (downloaded in a chroot of that image): the venue steps install them in the VM offline."""
    out = cached("mosquitto-debs-amd64")
    done = out.with_name(out.name + ".done")
    if done.exists():
        return out
    root = cached("rootfs-amd64")
    shutil.copy("/etc/resolv.conf", root / "etc/resolv.conf")
    (root / "var/cache/mosquitto-debs/partial").mkdir(parents=True, exist_ok=True)
    sh(["chroot", str(root), "apt-get", "update", "-q"], stdout=subprocess.DEVNULL)
    sh(["chroot", str(root), "apt-get", "install", "-y", "-q", "--download-only", "--no-install-recommends",
        "-o", "Dir::Cache::archives=/var/cache/mosquitto-debs", "mosquitto", "mosquitto-clients"],
       stdout=subprocess.DEVNULL)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    for deb in (root / "var/cache/mosquitto-debs").glob("*.deb"):
        shutil.move(str(deb), out / deb.name)
    shutil.rmtree(root / "var/cache/mosquitto-debs")
    done.touch()
    return out


def payload(work: Path) -> Path:
    """A read-only ext4 disk: the clone (the files git knows, as a user's copy has them), the
    x86-64 wheelhouse with debs/."""
    tree = work / "payload"
    shutil.rmtree(tree, ignore_errors=True)
    (tree / "src").mkdir(parents=True)
    files = subprocess.run(["git", "-C", str(REPO), "ls-files", "-co", "--exclude-standard", "-z"],
                           capture_output=True, check=True).stdout.split(b"\0")
    for f in filter(None, files):
        src = REPO / f.decode()
        if src.is_file():
            dest = tree / "src" / f.decode()
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest)
    sh([str(REPO / "hardware/make-wheelhouse.sh"), str(tree / "wheelhouse"), "--arch", "x86_64",
        "--python", DISTS[DIST][1]],
       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    shutil.copytree(debs(), tree / "wheelhouse" / "debs")
    shutil.copytree(mosquitto_debs(), tree / "mosquitto-debs")  # the venue steps' broker, not install.sh's
    img = work / "payload.img"
    img.unlink(missing_ok=True)
    sh(["mkfs.ext4", "-q", "-d", str(tree), str(img), "400M"])
    return img


# ------------------------------------------------------------------ guest side helpers

class Guest:
    """The VM plus what the check keeps between boots (the accepted inputs so far)."""

    def __init__(self, work: Path, disk: Path, payload_img: Path, accel: str | None):
        self.work, self.disk, self.payload_img, self.accel = work, disk, payload_img, accel
        self.vm: Vm | None = None
        self.panel = (800, 480)
        self.rotation = 0  # the config's [display] rotation

    def boot(self, panel=(800, 480), timeout=400) -> float:
        """Start QEMU and wait for the agent: seconds from QEMU's start."""
        self.panel = panel
        start = time.monotonic()
        # KVM first when not told: /dev/kvm may exist yet hang at "Booting from ROM" (nested
        # virtualisation), so a KVM guest silent for 90 s is stopped and TCG used from then on.
        for accel in ([self.accel] if self.accel else ["kvm", "tcg"]):
            self.vm = Vm(self.work / "vm", self.disk, cached("vmlinuz"), cached("initrd.img"), panel=panel,
                         payload=self.payload_img, accel=accel)
            start = time.monotonic()
            try:
                self.vm.start()
                self.vm.wait_agent(90 if accel == "kvm" and not self.accel else timeout)
            except VmError as err:
                self.vm.power_cut()
                if accel != "kvm" or self.accel:
                    raise
                note(f"KVM did not boot the VM ({err}): TCG from now on")
                continue
            self.accel = accel
            return time.monotonic() - start
        raise VmError("the VM did not boot")

    def sh(self, cmd: str, timeout: float = 120) -> tuple[int, str]:
        return self.vm.sh(cmd, timeout)

    def show(self) -> dict:
        rc, out = self.sh("systemctl show companion -p ActiveState,SubState,MainPID,NRestarts,"
                          "ActiveEnterTimestampMonotonic,Result")
        return dict(kv.split("=", 1) for kv in out.split() if "=" in kv)

    def wait_active(self, timeout: float, not_pid: str | None = None) -> dict | None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            s = self.show()
            if s.get("ActiveState") == "active" and s.get("MainPID", "0") != "0" and s.get("MainPID") != not_pid:
                return s
            time.sleep(1)
        return None

    def journal(self, since_cursor: str | None = None) -> tuple[list[dict], list[str], str]:
        """The companion's JSON log lines and other lines since a cursor, and the new cursor."""
        after = f"--after-cursor='{since_cursor}'" if since_cursor else "-b"
        # -t (the companion's own lines): with PAMName=login they are logged from its
        # session's scope, so `-u companion` shows only systemd's lines about it.
        rc, out = self.sh(f"journalctl -t companion -o json --no-pager {after}")
        records, texts, cursor = [], [], since_cursor
        for raw in out.splitlines():
            try:
                entry = json.loads(raw)
            except ValueError:
                continue
            cursor = entry.get("__CURSOR", cursor)
            msg = entry.get("MESSAGE", "")
            if isinstance(msg, list):
                msg = bytes(msg).decode(errors="replace")
            try:
                rec = json.loads(msg)
                if isinstance(rec, dict):
                    records.append(rec)
                    continue
            except ValueError:
                pass
            texts.append(msg)
        return records, texts, cursor

    def cursor(self) -> str | None:
        return self.journal()[2]

    def wait_records(self, cursor, predicate, timeout: float) -> tuple[list[dict], list[str], str]:
        deadline = time.monotonic() + timeout
        while True:
            recs, texts, new = self.journal(cursor)
            if any(predicate(r) for r in recs) or time.monotonic() > deadline:
                return recs, texts, new
            time.sleep(0.5)

    def write_config(self, text: str) -> None:
        self.sh(f"cat > {CONFIG} <<'EOF'\n{text}\nEOF")

    def png(self, name: str) -> Path:
        return self.vm.screendump(self.work / f"{name}.png")

    def tap(self, command: str) -> None:
        """Tap where ``command``'s button is drawn: the 800x480 design scaled to the panel as
        the players see it (turned by ``self.rotation`` degrees clockwise, as the config's
        [display] rotation says), then back to the panel's own pixels."""
        x, y = TARGETS[command]
        w, h = self.panel if self.rotation in (0, 180) else self.panel[::-1]
        scale = min(w / 800, h / 480)
        vx, vy = (w - 800 * scale) / 2 + x * scale, (h - 480 * scale) / 2 + y * scale
        if self.rotation == 90:
            vx, vy = h - 1 - vy, vx
        elif self.rotation == 270:
            vx, vy = vy, w - 1 - vx
        elif self.rotation == 180:
            vx, vy = w - 1 - vx, h - 1 - vy
        self.vm.tap(round(vx), round(vy))


def picture(png: Path, panel) -> tuple[bool, str]:
    """Not blank, and the picture fills the panel (the drawn area's bounding box covers at
    least 90% of its width and height: not an 800x480 window in a corner)."""
    from PIL import Image, ImageChops
    img = Image.open(png).convert("RGB")
    if img.size != tuple(panel):
        return False, f"framebuffer {img.size[0]}x{img.size[1]}, panel {panel[0]}x{panel[1]}"
    colours = len(img.getcolors(1 << 20) or [])
    bbox = ImageChops.difference(img, Image.new("RGB", img.size, (0, 0, 0))).getbbox()
    if colours < 8 or not bbox:
        return False, f"blank ({colours} colours)"
    w, h = bbox[2] - bbox[0], bbox[3] - bbox[1]
    fills = w >= 0.9 * panel[0] and h >= 0.9 * panel[1]
    return fills, f"{colours} colours, drawn area {w}x{h} of {panel[0]}x{panel[1]}"


def differs(a: Path, b: Path) -> bool:
    from PIL import Image, ImageChops
    return ImageChops.difference(Image.open(a).convert("RGB"), Image.open(b).convert("RGB")).getbbox() is not None


def changed(g: "Guest", before: Path, name: str, within: float = 10.0) -> Path:
    """The panel's screendump ``name`` once it differs from ``before`` (looked at every
    half second, at most ``within`` s: software GL under TCG on a busy host can take
    seconds for a frame); the last one taken if it never does."""
    deadline = time.monotonic() + within
    while True:
        time.sleep(0.5)
        png = g.png(name)
        if differs(before, png) or time.monotonic() > deadline:
            return png


def config(extra: str = "", game: str | None = 'game = "sugarrr"\nnames = ["Mum", "Dad", "Maya", "Leo"]',
           readers: str = "") -> str:
    return "\n".join(["[game]", game or "", "", "[display]", "fullscreen = true", "", "[store]",
                      f'path = "{DB}"', "", "[readers]", readers, "", "[log]", 'format = "json"', "", extra])


def trace_inputs() -> list[tuple[str, str]]:
    """The recorded Sugarrr! family game as (kind, value): ("scan", code) or ("touch", command)."""
    out = []
    for raw in (REPO / "tests/data/sugarrr-family.trace").read_text().splitlines()[1:]:
        item = json.loads(raw)
        if "touch" in item:
            out.append(("touch", item["touch"]))
        elif item.get("device") == "scanner":
            out.append(("scan", item["data"].strip()))
    return out


# ------------------------------------------------------------------ the check

def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--dist", choices=sorted(DISTS), default="bookworm",
                   help="Debian 12 bookworm (default) or 13 trixie, as Raspberry Pi OS Bookworm / Trixie")
    p.add_argument("--cuts", type=int, default=20, help="power cuts (default 20)")
    p.add_argument("--accel", choices=("kvm", "tcg"), help="default: try KVM, fall back to TCG")
    p.add_argument("--out", type=Path, help="default out/appliance (bookworm), out/appliance-trixie")
    p.add_argument("--ready-within", type=float, default=120.0,
                   help="seconds from boot to READY=1 the check allows (default 120, TCG)")
    args = p.parse_args(argv)
    global DIST
    DIST = args.dist
    args.out = args.out or REPO / "out" / ("appliance" if DIST == "bookworm" else f"appliance-{DIST}")
    # Exit status 2, as for a missing root: the check could not run (1 means it ran and
    # something FAILed). One line saying what to install, not a traceback from debootstrap.
    lacking = missing_packages()
    if lacking:
        print(f"check.py: this host lacks {', '.join(lacking)}: sudo apt-get install {' '.join(lacking)}",
              file=sys.stderr)
        return 2
    if os.geteuid() != 0:
        print("check.py: needs root (debootstrap, chroot, mkfs)", file=sys.stderr)
        return 2
    work = args.out
    work.mkdir(parents=True, exist_ok=True)
    for old in work.glob("*.png"):
        old.unlink()

    built = build_image()
    line(True, f"image: Debian {DISTS[DIST][0]} ({DIST}) with Raspberry Pi OS Lite's packages (cached after "
         "the first build)", built, str(CACHE / f"{DIST}-amd64.img"))
    start = time.monotonic()
    payload_img = payload(work)
    line(True, "clone, x86-64 wheelhouse and .debs on a read-only disk", time.monotonic() - start)
    disk = work / "disk.qcow2"
    disk.unlink(missing_ok=True)
    sh(["qemu-img", "create", "-q", "-f", "qcow2", "-b", str(CACHE / f"{DIST}-amd64.img"), "-F", "raw", str(disk)])

    g = Guest(work, disk, payload_img, args.accel)
    try:
        install_checks(g, args)
        game = table_checks(g, args)
        power_cuts(g, args, game)
        hotplug_and_keys(g, args, game)
        venue_checks(g, args, game)
        damaged_store(g, args, game)
        panel_sizes(g, args, game)
    except VmError as err:
        line(False, "the VM", None, str(err))
    finally:
        if g.vm:
            g.vm.power_cut()
    failed = [t for ok, t in RESULTS if not ok]
    print(f"\n{len(RESULTS) - len(failed)} PASS, {len(failed)} FAIL in {time.monotonic() - T0:.0f} s "
          f"(QEMU with {g.accel or '?'})")
    return 1 if failed else 0


def install_checks(g: Guest, args) -> None:
    booted = g.boot()
    note(f"QEMU accelerator: {g.accel}" + (" (KVM did not boot the VM here)" if g.accel == "tcg" and not args.accel else ""))
    line(True, "first boot of the fresh image to a shell", booted)
    rc, out = g.sh("for p in python3-dev python3-evdev libgbm1 libegl1 libgles2 libgl1-mesa-dri fontconfig; do "
                   "dpkg -s $p >/dev/null 2>&1 && echo has $p; done; echo net: $(ls /sys/class/net)")
    line(out.strip() == "net: lo", "the image is Lite-like (no python3-dev, python3-evdev, Mesa, fontconfig) and "
         "has no network (loopback only)", None, out.strip())
    g.sh(f"mkdir -p /mnt/payload && mount -o ro /dev/vdb /mnt/payload && cp -a /mnt/payload/src {GUEST_SRC} "
         f"&& chown -R pi:pi {GUEST_SRC}")
    start = time.monotonic()
    rc, out = g.sh(f"{GUEST_SRC}/hardware/install.sh --force --wheelhouse /mnt/payload/wheelhouse 2>&1", timeout=1500)
    took = time.monotonic() - start
    (g.work / "install-1.log").write_text(out)
    line(rc == 0, "install.sh --wheelhouse (offline, no python3-dev: nothing compiled)", took,
         "log: install-1.log" + ("" if rc == 0 else " | " + " / ".join(out.strip().splitlines()[-4:])))
    rc, version = g.sh("companion --version")
    rc2, evdev = g.sh("/opt/companion/venv/bin/python -c 'import evdev; print(evdev.__file__)'")
    rc3, rooted = g.sh(f"find {GUEST_SRC} -user root; ls -d {GUEST_SRC}/build {GUEST_SRC}/*.egg-info 2>/dev/null")
    line(rc == 0 and evdev.startswith("/usr/lib/python3/dist-packages/evdev") and not rooted.strip(),
         "companion on the PATH; evdev from apt; no root-owned file or build/ left in the user's copy", None,
         f"{version.strip()}; {evdev.strip()}; root-owned: {rooted.split() or 'none'}")
    before = g.show()
    start = time.monotonic()
    rc, out = g.sh(f"{GUEST_SRC}/hardware/install.sh --force --wheelhouse /mnt/payload/wheelhouse 2>&1", timeout=600)
    took = time.monotonic() - start
    (g.work / "install-2.log").write_text(out)
    after = g.show()
    line(rc == 0 and "Done: 0 change(s)." in out and before.get("MainPID") == after.get("MainPID"),
         "install.sh again: no change, no reinstall, no restart", took,
         f"MainPID {before.get('MainPID')} -> {after.get('MainPID')}; " + (out.strip().splitlines() or [""])[-6])
    rc, out = g.sh("systemd-analyze security companion.service --no-pager 2>&1 | tail -1")
    try:
        exposure = float(out.split(":")[1].split()[0])
    except (IndexError, ValueError):
        exposure = 99.0
    line(exposure <= 2.0, "systemd-analyze security of the installed unit", None, out.strip())


def wait_verdict(g: Guest, cursor, kind: str, value: str, timeout=30.0):
    """The journal record of this input's verdict, or None. A scan is matched by its code; a
    tap by being the next touch with a verdict (the command it names is the screen's own:
    a column tap that plays a waiting Sugarrr! card is logged as "place N", not the
    recording's "column N")."""
    def match(r):
        if r.get("event") != kind or "verdict" not in r:
            return False
        return kind == "touch" or r.get("code") == value or r.get("command") == value
    recs, texts, cursor = g.wait_records(cursor, match, timeout)
    hit = next((r for r in recs if match(r)), None)
    return hit, cursor


def table_checks(g: Guest, args) -> dict:
    # The scanners, as the service will find them.
    rc, kbd = g.sh("ls /dev/input/by-id/ | grep -- 'BARCODE-SCANNER-event-kbd' | head -1")
    readers = f'scanners = ["serial:/dev/ttyUSB0", "hid:/dev/input/by-id/{kbd.strip()}"]'
    note(f"readers: {readers}")
    # The VM's GPU is virtio-gpu without 3D: Mesa draws in software, and llvmpipe's shader
    # compiler under TCG keeps SDL's first frame minutes away. softpipe (no JIT) opens the
    # screen in about 4 s. A VM-only drop-in (a Pi has its V3D GPU): said, not hidden.
    g.sh("mkdir -p /etc/systemd/system/companion.service.d && printf '[Service]\\nEnvironment=GALLIUM_DRIVER=softpipe\\n'"
         " > /etc/systemd/system/companion.service.d/vm-gpu.conf && systemctl daemon-reload")
    note("VM only: companion.service.d/vm-gpu.conf sets GALLIUM_DRIVER=softpipe (software GL without a JIT)")
    # 1. The start screen: no game in the config, the companion asks on the panel. The
    # table starts empty (install.sh's first start already began a game with the example
    # config's players = 2).
    g.sh("systemctl stop companion; rm -f /var/lib/companion/table.db*")
    g.write_config(config(game="", readers=readers))
    g.vm.shutdown()
    booted_at = time.monotonic()
    g.boot()
    s = g.wait_active(args.ready_within)
    ready = float(s["ActiveEnterTimestampMonotonic"]) / 1e6 if s else None
    # READY=1 means the first frame is drawn; the page flip may land a moment later.
    seen = time.monotonic()
    while True:
        png = g.png("start-800x480")
        ok_pic, why = picture(png, (800, 480))
        if ok_pic or time.monotonic() - seen > 10:
            break
        time.sleep(0.5)
    pic_after = time.monotonic() - seen
    line(s is not None and ready <= args.ready_within,
         f"READY=1 within {args.ready_within:.0f} s of boot (start screen, no players configured)",
         ready if ready else time.monotonic() - booted_at, f"state {g.show().get('ActiveState')}")
    time.sleep(12)  # past WatchdogSec: a start screen sending no pings is killed by now
    s2 = g.show()
    line(s is not None and s2.get("MainPID") == s.get("MainPID") and s2.get("ActiveState") == "active",
         "the start screen keeps running past the watchdog interval", None,
         f"MainPID {s and s.get('MainPID')} -> {s2.get('MainPID')}, NRestarts {s2.get('NRestarts')}")
    line(ok_pic, "the start screen on the panel when systemd has READY=1, filling it (start-800x480.png)",
         pic_after, why)
    # After its first frame the table keeps its compiled dataclass code (companion.core.codecache)
    # in the service's home, the state directory: the next start skips the parse.
    rc, out = g.sh("stat -c '%U %s %n' /var/lib/companion/.cache/sugar-companion/dataclass-code.*.marshal")
    line(rc == 0 and out.split()[:1] == ["companion"],
         "the compiled-code cache is written in the state directory after the first frame", None,
         out.strip()[:160])
    cursor = g.cursor()
    before = g.png("start-before-tap")
    g.vm.tap(205, 145)  # the Sugarrr! button of the start screen (top left)
    time.sleep(3)
    after = g.png("start-after-tap")
    line(differs(before, after), "a tap on the start screen changes the screen", None, "start-after-tap.png")

    # 2. A game: scans on each scanner and a tap give verdicts in the journal and change the screen.
    g.write_config(config(readers=readers))
    pid = g.show().get("MainPID")
    g.sh("systemctl restart companion")
    s = g.wait_active(60, not_pid=pid)
    cursor = g.cursor()
    inputs = trace_inputs()
    game = {"inputs": inputs, "next": 0, "accepted": 0, "cursor": cursor, "readers": readers}
    time.sleep(2)
    shot = g.png("game-0")
    for i, (scanner, how) in enumerate((("USB-serial scanner", g.vm.scan_serial), ("keyboard scanner", g.vm.scan_keyboard))):
        kind, code = inputs[game["next"]]
        start = time.monotonic()
        how(code)
        rec, cursor = wait_verdict(g, cursor, "scan", code)
        took = time.monotonic() - start
        new = changed(g, shot, f"game-scan-{i + 1}")
        line(rec is not None and rec.get("verdict") == "accepted" and differs(shot, new),
             f"a scan on the {scanner}: verdict in the journal, screen changed", took,
             f"{code}: {rec and rec.get('verdict')} (game-scan-{i + 1}.png)")
        shot = new
        count(game, rec)
        game["next"] += 1
    game["cursor"] = cursor
    feed(g, game, until=lambda k, v: k == "touch")  # the set-up scans up to the first tap
    kind, command = inputs[game["next"]]
    time.sleep(2)  # the last scan's frame drawn (TCG is slow)
    start = time.monotonic()
    shot = g.png("game-before-tap")
    g.tap(command)
    rec, cursor = wait_verdict(g, game["cursor"], "touch", command)
    took = time.monotonic() - start
    new = changed(g, shot, "game-after-tap")
    line(rec is not None and differs(shot, new), f"a tap on the panel ({command}): verdict in the journal, screen changed",
         took, f"{rec and rec.get('command')}: {rec and rec.get('verdict')} (game-after-tap.png)")
    count(game, rec)
    game["next"] += 1
    game["cursor"] = cursor

    # 3. Restarts: killed, stopped (watchdog), Esc.
    s = g.show()
    pid = s.get("MainPID")
    start = time.monotonic()
    g.sh(f"kill -9 {pid}")
    s2 = g.wait_active(60, not_pid=pid)
    line(s2 is not None, "the companion killed (SIGKILL) -> restarted by systemd", time.monotonic() - start,
         f"MainPID {pid} -> {s2 and s2.get('MainPID')}")
    pid = (s2 or g.show()).get("MainPID")
    start = time.monotonic()
    g.sh(f"kill -STOP {pid}")
    s3 = g.wait_active(90, not_pid=pid)
    rc, why = g.sh("journalctl -u companion -b --no-pager | grep -i -m1 watchdog")
    line(s3 is not None and "watchdog" in why.lower(), "the companion stopped (SIGSTOP) -> the watchdog restarts it",
         time.monotonic() - start, why.strip()[-90:])
    pid = (s3 or g.show()).get("MainPID")
    g.wait_active(30)
    time.sleep(3)
    g.vm.key("esc")
    time.sleep(6)
    s4 = g.show()
    line(s4.get("MainPID") == pid and s4.get("ActiveState") == "active", "Esc on a keyboard does not end it", None,
         f"MainPID {pid} -> {s4.get('MainPID')}")
    game["cursor"] = g.cursor()

    # 4. The wall clock stepped +2 h during a turn changes no timer. The limit is an hour:
    # the turn the restart resumes is minutes old (its clock survives restarts), so only a
    # timer that read the wall clock (now 2 h later) can run out; the companion tells the
    # journal when a turn's time is up ({"event": "time_up"}), and the panel says it.
    g.write_config(config(readers=readers, extra="[timers]\nturn_limit = 3600"))
    pid = g.show().get("MainPID")
    g.sh("systemctl restart companion")
    g.wait_active(60, not_pid=pid)
    time.sleep(3)
    cursor = g.cursor()
    g.png("clock-before-step")
    g.sh("date -s '+2 hours' >/dev/null")
    time.sleep(6)
    g.png("clock-after-step")
    recs, texts, cursor = g.journal(cursor)
    said = [json.dumps(r) for r in recs if r.get("event") == "time_up"] + [t for t in texts if "time is up" in t.lower()]
    g.sh("date -s '-2 hours' >/dev/null")
    line(not said, "the wall clock stepped +2 h during a turn (turn limit 1 h): no timer runs out", None,
         (said[0][:100] if said else "no time_up in the journal (clock-before-step.png, clock-after-step.png)"))
    game["cursor"] = cursor

    # 5. A config typo: shown on the panel and in the journal, not locked out; fixing it resumes.
    g.write_config(config(readers=readers).replace("[display]", "[display]\nfulscreen = true"))
    pid = g.show().get("MainPID")
    start = time.monotonic()
    g.sh("systemctl restart companion")
    time.sleep(20)
    s = g.show()
    rc, said = g.sh("journalctl -t companion -b --no-pager -n 200 | grep -m1 fulscreen")
    png = g.png("config-typo")
    ok_pic, why = picture(png, (800, 480))
    line(s.get("ActiveState") != "failed" and "fulscreen" in said and ok_pic,
         "a config typo: in the journal and on the panel, the unit not locked out", time.monotonic() - start,
         f"state {s.get('ActiveState')}/{s.get('SubState')}, restarts {s.get('NRestarts')}; panel: {why}; "
         f"journal: {said.strip()[-80:]}")
    g.write_config(config(readers=readers))
    start = time.monotonic()
    recs, texts, cursor = g.wait_records(g.cursor(), lambda r: r.get("event") == "start", 90)
    resumed = next((r for r in recs if r.get("event") == "start"), None)
    line(resumed is not None and resumed.get("resumed_inputs") == game["accepted"],
         "the config fixed: the game resumes by itself", time.monotonic() - start,
         f"{resumed and resumed.get('resumed_inputs')} inputs resumed of {game['accepted']}")
    game["cursor"] = cursor
    return game


def count(game: dict, rec: dict | None) -> bool:
    """Keep the number of stored inputs: an accepted input's log line carries its store
    sequence number (seq); a resumed game says how many it replayed (resumed_inputs)."""
    if rec and rec.get("verdict") == "accepted":
        game["accepted"] = max(game["accepted"], int(rec.get("seq", game["accepted"] + 1)))
        return True
    return False


def feed(g: Guest, game: dict, until=None, limit: int | None = None) -> int:
    """Give the next recorded inputs (scans alternating between the scanners, taps on the
    panel) and wait for each verdict; returns how many were accepted."""
    accepted = 0
    n = 0
    while game["next"] < len(game["inputs"]):
        kind, value = game["inputs"][game["next"]]
        if until and until(kind, value):
            break
        if limit is not None and n >= limit:
            break
        if kind == "scan":
            (g.vm.scan_serial if game["next"] % 2 else g.vm.scan_keyboard)(value)
        else:
            g.tap(value)
        rec, game["cursor"] = wait_verdict(g, game["cursor"], kind, value, timeout=30)
        if count(game, rec):
            accepted += 1
        game["next"] += 1
        n += 1
    return accepted


def power_cuts(g: Guest, args, game: dict) -> None:
    fails, boots = [], []
    start_all = time.monotonic()
    for i in range(1, args.cuts + 1):
        feed(g, game, limit=2)
        g.vm.power_cut()  # right after the verdicts: no shutdown, no flush
        start = time.monotonic()
        g.boot()
        s = g.wait_active(args.ready_within)
        boots.append(time.monotonic() - start)
        recs, texts, cursor = g.wait_records(None, lambda r: r.get("event") == "start", 30)
        started = next((r for r in recs if r.get("event") == "start"), None)
        rc, integrity = g.sh(f"python3 -c \"import sqlite3; print(sqlite3.connect('{DB}').execute("
                             f"'PRAGMA integrity_check').fetchone()[0])\"")
        got = started and started.get("resumed_inputs")
        ok = s is not None and got == game["accepted"] and integrity.strip() == "ok"
        if not ok:
            fails.append(f"cut {i}: resumed {got} of {game['accepted']}, integrity {integrity.strip()}, "
                         f"state {s and s.get('ActiveState')}")
        note(f"cut {i}: {game['accepted']} accepted inputs, resumed {got}, integrity {integrity.strip()}, "
             f"boot to active {boots[-1]:.0f} s")
        game["cursor"] = cursor
    g.png("after-power-cuts")
    line(not fails, f"power cut (kill -9 QEMU, cache=none) right after verdicts, {args.cuts} times: every boot "
         "resumes every accepted input, PRAGMA integrity_check ok", time.monotonic() - start_all,
         (fails[0] if fails else f"{game['accepted']} inputs; boot to active {min(boots or [0]):.0f}-"
                                 f"{max(boots or [0]):.0f} s"))


# ------------------------------------------------------------------ issue 37: what people plug in

def next_scan(g: Guest, game: dict) -> str | None:
    """Give the recorded inputs up to the next scan (taps on the panel, scans on the
    scanners) and return that scan's code, not given yet; None at the recording's end."""
    feed(g, game, until=lambda k, v: k == "scan")
    if game["next"] >= len(game["inputs"]):
        return None
    return game["inputs"][game["next"]][1]


def watch_device(g: Guest, link: str, seconds: int) -> str:
    """Copy what the input device at /dev/input/by-id/``link`` sends, for ``seconds``, to a
    file in the guest (read beside the companion, not grabbed); returns the file's path."""
    out = f"/tmp/watch-{link}.bin"
    g.sh(f"rm -f {out}; setsid -f timeout {seconds} cat /dev/input/by-id/{link} > {out} 2>/dev/null < /dev/null")
    return out


def events_in(g: Guest, path: str) -> int:
    """How many input events (24-byte struct input_event) the watched device sent."""
    rc, out = g.sh(f"stat -c %s {path} 2>/dev/null || echo 0")
    return int(out.split()[0] or 0) // 24 if rc == 0 else 0


def typed_scan(g: Guest, game: dict, label: str, keypad: bool = False, hold: dict | None = None,
               watch: str | None = None, also: tuple[bool, str] | None = None) -> bool:
    """The next recorded scan typed on the hotplugged keyboard (QEMU monitor sendkey: key
    positions, a US-layout scanner) into the window: PASS when the journal's verdict is for
    exactly that code, read by the window's keyboard path (reader "keyboard"), and ``also``'s
    condition (with its words first in the detail) holds."""
    code = next_scan(g, game)
    if code is None:
        return line(False, label, None, "the recording has no scan left")
    cursor = g.cursor()
    watched = watch_device(g, watch, 20) if watch else None
    start = time.monotonic()
    g.vm.sendkey(code, keypad=keypad, hold=hold)
    recs, texts, cursor = g.wait_records(cursor, lambda r: r.get("event") == "scan" and "verdict" in r, 30)
    took = time.monotonic() - start
    rec = next((r for r in recs if r.get("event") == "scan" and "verdict" in r), None)
    game["cursor"] = cursor
    if rec and rec.get("code") == code:
        count(game, rec)
        game["next"] += 1
    sent = events_in(g, watched) if watched else None
    ok = rec is not None and rec.get("code") == code and rec.get("reader") == "keyboard" and (sent is None or sent > 0)
    got = rec and (rec.get("raw") or rec.get("code"))
    ok = ok and (also is None or also[0])
    return line(ok, label, took, (f"{also[1]}; " if also else "")
                + f"typed {code}, read {got!r} ({rec and rec.get('reader')}): {rec and rec.get('verdict')}"
                + (f"; {sent} key events from the plugged-in keyboard" if sent is not None else ""))


def set_keymap(g: Guest, layout: str) -> str:
    """The console keymap as Raspberry Pi OS's raspi-config sets it: /etc/default/keyboard,
    then setupcon on tty1 (the kernel's keymap, which SDL's console keyboard reads), then the
    service restarted so the table starts under it. Returns what the kernel's keymap now
    makes of the keys at US Q and Y (keycodes 16 and 21, in that order: "+q +y" is US)."""
    g.sh(f"cat > /etc/default/keyboard <<'EOF'\nXKBMODEL=\"pc105\"\nXKBLAYOUT=\"{layout}\"\nXKBVARIANT=\"\"\n"
         f"XKBOPTIONS=\"\"\nBACKSPACE=\"guess\"\nEOF")
    g.sh("setsid sh -c 'exec setupcon -k --force <> /dev/tty1 >&0 2>&1'", timeout=120)
    rc, keys = g.sh("dumpkeys -f 2>/dev/null | grep -E '^keycode +(21|16) =' | awk '{print $4}' | tr '\n' ' '")
    pid = g.show().get("MainPID")
    g.sh("systemctl restart companion")
    g.wait_active(90, not_pid=pid)
    time.sleep(4)
    return keys.strip()


def hotplug_and_keys(g: Guest, args, game: dict) -> None:
    """Issue 37 on the installed service: a USB keyboard and a touch panel plugged in after
    the start are used; scans typed into the window under a German and a French keymap and
    with NumLock off read right; a key released 450 ms late is one character; Ctrl+C and
    Ctrl+\\ on tty1 end nothing."""
    s = g.wait_active(60)
    pid = s and s.get("MainPID")
    time.sleep(3)
    # Plugged in while the table runs; the first touch panel unplugged, so only the new one
    # can land a tap. The monitor's keys go to the keyboard plugged in last.
    g.vm.device_add("usb-kbd", id="hotkbd", bus="xhci.0", port="5", serial="HOTPLUG-KBD")
    g.vm.device_add("usb-tablet", id="hottouch", bus="xhci.0", port="6", serial="HOTPLUG-TOUCH")
    g.vm.device_del("touch")
    g.sh("udevadm settle -t 30")
    time.sleep(3)
    rc, links = g.sh("ls /dev/input/by-id/ | grep HOTPLUG")
    note(f"plugged in after the start: {' '.join(links.split())}")
    kbd = next((l for l in links.split() if "HOTPLUG-KBD" in l and l.endswith("event-kbd")), None)
    touch = next((l for l in links.split() if "HOTPLUG-TOUCH" in l), None)
    typed_scan(g, game, "a USB keyboard plugged in after the start (QEMU usb-kbd, device_add): a scan typed on it "
               "gets its verdict", watch=kbd)
    feed(g, game, until=lambda k, v: k == "touch")
    if game["next"] < len(game["inputs"]):
        kind, command = game["inputs"][game["next"]]
        watched = watch_device(g, touch, 15) if touch else None
        time.sleep(2)
        shot = g.png("hotplug-before-tap")
        start = time.monotonic()
        g.tap(command)
        rec, game["cursor"] = wait_verdict(g, game["cursor"], "touch", command)
        took = time.monotonic() - start
        new = changed(g, shot, "hotplug-after-tap")
        sent = events_in(g, watched) if watched else 0
        if count(game, rec) or rec:
            game["next"] += 1
        line(rec is not None and sent > 0 and differs(shot, new), "a touch panel plugged in after the start (QEMU "
             "usb-tablet, device_add; the first one unplugged): a tap on it acts", took,
             f"{command}: {rec and rec.get('verdict')}; {sent} events from it (hotplug-after-tap.png)")
    else:
        line(False, "a touch panel plugged in after the start: a tap on it acts", None, "no tap left in the recording")
    s2 = g.show()
    line(s2.get("MainPID") == pid, "the table saw both without a restart", None,
         f"MainPID {pid} -> {s2.get('MainPID')}, NRestarts {s2.get('NRestarts')}")

    # NumLock off (the Linux console's default; said again to be sure), digits on the keypad.
    g.sh("setleds -D -num < /dev/tty1")
    rc, leds = g.sh("setleds < /dev/tty1 2>&1 | grep -o 'NumLock [a-z]*' | head -1")
    typed_scan(g, game, f"NumLock off ({leds.strip() or '?'}): a scan with its digits and Enter on the keypad reads right",
               keypad=True)
    # A wireless scanner's key-up 450 ms late: the kernel repeats the key meanwhile.
    code = next_scan(g, game)
    typed_scan(g, game, "a key released 450 ms late (sendkey ... 450): one character, not a repeat",
               hold={len(code or "") - 1: 450})
    # The table reads key positions (SDL scan codes), so a scan reads right under any keymap;
    # that proves something only when the keymap was loaded: the kernel's keys at US Q and Y
    # (keycodes 16 and 21, in dumpkeys' order) must be the layout's, else the step FAILs.
    for layout, words, want in (("de", "German", "+q +z"), ("fr", "French", "+a +y")):
        keys = set_keymap(g, layout)
        loaded = keys == want
        typed_scan(g, game, f"a {words} keymap (/etc/default/keyboard XKBLAYOUT={layout}, setupcon; "
                   f"the kernel's keys at US Q, Y must be {want}): a US-layout scanner's scan reads right",
                   also=(loaded, f"keys at US Q, Y: {keys or '?'}" + ("" if loaded else ": the keymap was not loaded")))
    set_keymap(g, "us")

    # Ctrl+C and Ctrl+\ on tty1 (a keyboard, or a scanner's ETX framing).
    s = g.show()
    pid = s.get("MainPID")
    for keys in ("ctrl-c", "ctrl-backslash", "ctrl-c"):
        g.vm.hmp(f"sendkey {keys}")
        time.sleep(1)
    time.sleep(5)
    s2 = g.show()
    line(s2.get("MainPID") == pid and s2.get("ActiveState") == "active",
         "Ctrl+C and Ctrl+\\ typed on tty1 leave the table running", None,
         f"MainPID {pid} -> {s2.get('MainPID')}, {s2.get('ActiveState')}")
    rc, mode = g.sh("stat -c '%a %U' /var/lib/companion/table.db.clock /var/lib/companion/table.db | tr '\n' ' '")
    line(mode.split()[:1] == ["600"] and mode.split()[2:3] == ["600"],
         "the store and its clock file (table.db.clock) are 0600, the service user's", None, mode.strip())


def damaged_store(g: Guest, args, game: dict) -> None:
    """A damaged store under the service: it waits with the mistake on the panel, no
    restart loop (NRestarts stays 0); the store put back, the game goes on."""
    g.sh("systemctl stop companion; rm -rf /root/store-kept && mkdir /root/store-kept && "
         f"cp -a {DB}* /root/store-kept/ && rm -f {DB}-wal {DB}-shm && "
         f"printf 'not a database: a damaged card' | dd of={DB} conv=notrunc status=none")
    start = time.monotonic()
    g.sh("systemctl reset-failed companion; systemctl start companion")
    time.sleep(25)
    s = g.show()
    # The panel and journal say "cannot start: ... is not a companion game store (file is
    # not a database)" (damaged-store.png), not the word "damaged".
    rc, said = g.sh("journalctl -t companion -b --no-pager -n 50 | grep -i -m1 'cannot start'")
    png = g.png("damaged-store")
    ok_pic, why = picture(png, (800, 480))
    time.sleep(10)
    s2 = g.show()
    line(s2.get("NRestarts") == "0" and s2.get("ActiveState") != "failed" and s.get("MainPID") == s2.get("MainPID")
         and "cannot start" in said.lower() and ok_pic,
         "a damaged store (table.db overwritten): the mistake on the panel, waiting, no restart loop "
         "(damaged-store.png)", time.monotonic() - start,
         f"{s2.get('ActiveState')}/{s2.get('SubState')}, NRestarts {s2.get('NRestarts')}, MainPID {s.get('MainPID')} -> "
         f"{s2.get('MainPID')}; panel: {why}; journal: {said.strip()[-110:]}")
    cursor = g.cursor()  # before the start: its "start" line can come before a cursor taken after
    g.sh("systemctl stop companion; cp -a /root/store-kept/* /var/lib/companion/ && systemctl start companion")
    recs, texts, game["cursor"] = g.wait_records(cursor, lambda r: r.get("event") == "start", 90)
    resumed = next((r for r in recs if r.get("event") == "start"), None)
    line(resumed is not None and resumed.get("resumed_inputs") == game["accepted"],
         "the store put back: the game goes on", None,
         f"{resumed and resumed.get('resumed_inputs')} inputs resumed of {game['accepted']}")


# ------------------------------------------------------------------ issue 40: venue mode in the VM

VENUE = '[venue]\nbroker = "mqtt://127.0.0.1"\ntable = "table-1"\nname = "vmcafe"'


def venue_checks(g: Guest, args, game: dict) -> None:
    """Mosquitto (its .debs from the payload disk: no network) on the VM's loopback,
    `companion venue enable`, the installed service publishing its game, the dashboard in
    the VM showing it; `companion venue disable`: the panel says the venue is blocked."""
    start = time.monotonic()
    # The payload disk was mounted on the first boot only (the power cuts came since).
    rc, out = g.sh("(mountpoint -q /mnt/payload || mount -o ro /dev/vdb /mnt/payload) && "
                   "DEBIAN_FRONTEND=noninteractive dpkg -i /mnt/payload/mosquitto-debs/*.deb >/tmp/mosquitto-dpkg.log "
                   "2>&1; echo dpkg $?; systemctl is-active mosquitto; mosquitto -h 2>&1 | head -1", timeout=300)
    line("dpkg 0" in out and "\nactive" in out, "Mosquitto installed from .debs on the payload disk (offline), "
         "running on the VM's loopback", time.monotonic() - start, " / ".join(out.split("\n")[:3]))
    g.sh("setsid -f sh -c 'echo $$ > /tmp/dashboard.pid; exec sudo -u pi companion venue --broker mqtt://127.0.0.1 --venue-name vmcafe --listen 127.0.0.1:8080 "
         "--store /tmp/venue-vmcafe.db' > /tmp/dashboard.log 2>&1 < /dev/null")
    g.write_config(config(readers=game["readers"], extra=VENUE))
    start = time.monotonic()
    pid = g.show().get("MainPID")
    rc, out = g.sh("companion venue enable --config /etc/companion/companion.toml 2>&1", timeout=120)
    s = g.wait_active(90, not_pid=pid)
    rc2, unit = g.sh("systemctl show companion -p RestrictAddressFamilies,IPAddressAllow")
    line(rc == 0 and s is not None and "AF_INET" in unit, "companion venue enable: the service restarted with "
         "AF_INET to the broker", time.monotonic() - start, " ".join(unit.split())[:160])
    game["cursor"] = g.cursor()
    time.sleep(3)
    feed(g, game, limit=2)
    start = time.monotonic()
    state, table = {}, None
    while time.monotonic() - start < 60:
        rc, body = g.sh("curl -s -m 5 http://127.0.0.1:8080/state.json")
        try:
            state = json.loads(body)
        except ValueError:
            state = {}
        table = next((t for t in state.get("tables", []) if t.get("table") == "table-1"), None)
        if table and table.get("last_seq") and table.get("game"):
            break
        time.sleep(2)
    (g.work / "venue-state.json").write_text(json.dumps(state, indent=1))
    rc, page = g.sh("curl -s -m 5 -o /dev/null -w '%{http_code} %{size_download}' http://127.0.0.1:8080/")
    line(bool(table and table.get("game") and table.get("last_seq")) and page.startswith("200"),
         "the dashboard in the VM shows the installed table's game (curl /state.json, venue-state.json)",
         time.monotonic() - start, f"table-1: game {table and table.get('game')!r}, online {table and table.get('online')}, "
         f"{table and table.get('events')} events, last seq {table and table.get('last_seq')}; page: {page.strip()}")
    cursor = g.cursor()
    pid = g.show().get("MainPID")
    start = time.monotonic()
    rc, out = g.sh("companion venue disable 2>&1", timeout=120)
    g.wait_active(90, not_pid=pid)

    def blocked(r):
        return r.get("event") == "device" and r.get("device") == "venue" and "blocked" in str(r.get("detail")).lower()
    recs, texts, cursor = g.wait_records(cursor, blocked, 60)
    said = next((r for r in recs if blocked(r)), None)
    time.sleep(3)
    png = g.png("venue-blocked")
    line(rc == 0 and said is not None, "companion venue disable: the panel's status line says the venue is blocked "
         "(venue-blocked.png)", time.monotonic() - start, f"{said and said.get('detail')!r} {said and said.get('status')}")
    g.sh("systemctl stop mosquitto; kill $(cat /tmp/dashboard.pid) || true")
    g.write_config(config(readers=game["readers"]))
    pid = g.show().get("MainPID")
    g.sh("systemctl restart companion")
    g.wait_active(90, not_pid=pid)
    game["cursor"] = g.cursor()


def panel_sizes(g: Guest, args, game: dict) -> None:
    """Touch Display 2 (720x1280, portrait by birth) on its side, as a maker sets it up:
    [display] rotation = 90. The picture fills the panel turned, and a tap lands on the
    button drawn there."""
    g.write_config(config(readers=game["readers"]).replace("[display]", "[display]\nrotation = 90"))
    g.vm.shutdown()
    start = time.monotonic()
    g.boot(panel=(720, 1280))
    g.rotation = 90
    s = g.wait_active(args.ready_within)
    time.sleep(3)
    png = g.png("game-720x1280")
    ok, why = picture(png, (720, 1280))
    line(s is not None and ok, "a 720x1280 panel turned 90 degrees (rotation = 90): the picture fills it "
         "(game-720x1280.png)", time.monotonic() - start, why)
    cursor = g.cursor()
    # Menu is drawn in every turn, however many power cuts came before (Done is not); Pause
    # is the first cell of the menu it opens.
    g.tap("menu")
    time.sleep(5)  # the menu's frame, turned, in software GL under TCG
    g.tap("menu pause")
    rec, _ = wait_verdict(g, cursor, "touch", "pause")
    time.sleep(3)  # a turned 720x1280 frame takes a while in software GL under TCG
    after = g.png("game-720x1280-after-tap")
    line(rec is not None and rec.get("command") == "pause" and differs(png, after),
         "a tap on the 720x1280 panel lands on the button drawn there", None,
         f"{rec and rec.get('command')}: {rec and rec.get('verdict')} (game-720x1280-after-tap.png)")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
