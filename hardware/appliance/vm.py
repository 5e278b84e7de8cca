"""The Pi-like VM of the appliance check: QEMU with systemd as PID 1, a virtio-gpu panel, a USB
tablet as the touchscreen, a USB-serial and a USB-keyboard scanner fed from the host, no
network, and the disk with cache=none so a kill is a power cut.

    vm = Vm(work, image, kernel, initrd, panel=(800, 480), payload=payload_img)
    vm.start()                      # boots; vm.accel says "kvm" or "tcg"
    vm.wait_agent(300)              # the guest agent (guest_agent.py) answers
    vm.sh("systemctl is-active companion")   # -> (rc, output)
    vm.tap(400, 240); vm.scan_serial("SGR01X"); vm.scan_keyboard("SGR01X"); vm.key("esc")
    vm.screendump(path_png)
    vm.power_cut()                  # kill -9 QEMU: no shutdown, no flush

Standard library only (and Pillow for the PNG conversion in screendump).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

# QEMU's "qcode" names for the characters a card code uses (QMP input-send-event).
QCODES = {**{c: c.lower() for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}, **{d: d for d in "0123456789"},
          "-": "minus", "\n": "ret"}


class VmError(RuntimeError):
    """The VM did not do what the check needed (did not boot, agent silent, QMP error)."""


class Qmp:
    """A QMP client on a unix socket: one command at a time, events skipped."""

    def __init__(self, path: Path, timeout: float = 30):
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(str(path))
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise VmError(f"no QMP socket at {path}")
                time.sleep(0.1)
        self.file = self.sock.makefile("rwb", buffering=0)
        json.loads(self.file.readline())  # greeting
        self.cmd("qmp_capabilities")

    def cmd(self, name: str, **args):
        self.file.write(json.dumps({"execute": name, "arguments": args}).encode() + b"\n")
        while True:
            line = self.file.readline()
            if not line:
                raise VmError(f"QMP closed during {name}")
            reply = json.loads(line)
            if "return" in reply:
                return reply["return"]
            if "error" in reply:
                raise VmError(f"QMP {name}: {reply['error']}")


class Agent:
    """The guest agent on the virtio serial port (one JSON line each way)."""

    def __init__(self, path: Path):
        self.path = path
        self.sock = None
        self.buf = b""
        self.n = 0

    def connect(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(str(self.path))
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise VmError(f"no agent socket at {self.path}")
                time.sleep(0.1)

    def _line(self, deadline: float) -> dict | None:
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                return None
            if not chunk:
                raise VmError("the agent's socket closed (the VM stopped?)")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        try:
            return json.loads(line)
        except ValueError:
            return {}

    def request(self, cmd: str | None, timeout: float) -> dict | None:
        self.n += 1
        n = self.n
        req = {"id": n, "cmd": cmd, "timeout": timeout}
        self.sock.sendall(json.dumps(req).encode() + b"\n")
        deadline = time.monotonic() + timeout + 10
        while True:
            reply = self._line(deadline)
            if reply is None:
                return None
            if reply.get("id") == n:
                return reply


class Vm:
    """One QEMU process; see the module docstring."""

    def __init__(self, work: Path, image: Path, kernel: Path, initrd: Path, panel=(800, 480),
                 payload: Path | None = None, memory_mb: int = 1024, accel: str | None = None):
        self.work, self.image, self.kernel, self.initrd = work, image, kernel, initrd
        self.panel, self.payload, self.memory_mb = panel, payload, memory_mb
        self.accel = accel
        self.proc = None
        self.qmp = None
        self.agent = None
        self.scanner = None
        self.started = 0.0
        work.mkdir(parents=True, exist_ok=True)

    def _args(self, accel: str) -> list[str]:
        w, h = self.panel
        args = ["qemu-system-x86_64", "-accel", accel, "-m", str(self.memory_mb), "-smp", "1",
                "-display", "none", "-vga", "none", "-nic", "none", "-no-reboot",
                "-kernel", str(self.kernel), "-initrd", str(self.initrd),
                "-append", "root=/dev/vda rw console=ttyS0 quiet loglevel=3 systemd.show_status=false",
                "-drive", f"file={self.image},if=virtio,format=qcow2,cache=none,aio=native",
                "-device", f"virtio-gpu-pci,id=panel,xres={w},yres={h}",
                "-device", "qemu-xhci,id=xhci,p2=8,p3=8",  # ports 1-8 take USB 2 devices (hotplug: 5, 6)
                "-device", "usb-tablet,id=touch,bus=xhci.0,port=1",
                # the user's keyboard (Esc); the scanner keyboard is bound to the panel's console
                # so QMP events naming the panel reach it and no other keyboard
                "-device", "usb-kbd,id=userkbd,bus=xhci.0,port=2",
                # its USB serial number names it a barcode scanner, as a real one names itself
                "-device", "usb-kbd,id=scankbd,bus=xhci.0,port=3,display=panel,serial=BARCODE-SCANNER",
                "-chardev", f"socket,id=scan,path={self.work / 'scanner.sock'},server=on,wait=off",
                "-device", "usb-serial,chardev=scan,bus=xhci.0,port=4",
                "-chardev", f"socket,id=agent,path={self.work / 'agent.sock'},server=on,wait=off",
                "-device", "virtio-serial-pci", "-device", "virtserialport,chardev=agent,name=agent",
                "-serial", f"file:{self.work / 'console.log'}",
                "-qmp", f"unix:{self.work / 'qmp.sock'},server=on,wait=off"]
        if self.payload:
            args += ["-drive", f"file={self.payload},if=virtio,format=raw,readonly=on,cache=none,aio=native"]
        return args

    def start(self) -> None:
        for name in ("qmp.sock", "agent.sock", "scanner.sock"):
            (self.work / name).unlink(missing_ok=True)
        order = [self.accel] if self.accel else ["kvm", "tcg"]
        for accel in order:
            self.started = time.monotonic()
            log = open(self.work / "qemu.log", "ab")
            self.proc = subprocess.Popen(self._args(accel), stdout=log, stderr=log)
            try:
                self.qmp = Qmp(self.work / "qmp.sock", timeout=20)
            except VmError:
                self.proc.kill()
                self.proc.wait()
                continue
            self.accel = accel
            self.agent = Agent(self.work / "agent.sock")
            self.agent.connect(20)
            self.scanner = socket.socket(socket.AF_UNIX)
            self.scanner.connect(str(self.work / "scanner.sock"))
            return
        raise VmError("QEMU did not start (see qemu.log)")

    def wait_agent(self, timeout: float) -> float:
        """Wait until the guest agent answers; returns its uptime (s since the kernel started)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise VmError(f"QEMU exited with {self.proc.returncode}")
            reply = self.agent.request(None, timeout=min(5, max(1, deadline - time.monotonic())))
            if reply and reply.get("ready"):
                return reply["uptime"]
        raise VmError(f"the guest agent did not answer within {timeout:.0f} s")

    def sh(self, cmd: str, timeout: float = 60) -> tuple[int, str]:
        reply = self.agent.request(cmd, timeout)
        if reply is None:
            raise VmError(f"no answer to {cmd!r} within {timeout} s")
        return reply.get("rc", -1), reply.get("out", "")

    # ----------------------------------------------------------- the panel and devices
    def screendump(self, png: Path) -> Path:
        from PIL import Image  # the check's only third-party import
        ppm = png.with_suffix(".ppm")
        self.qmp.cmd("screendump", filename=str(ppm))
        Image.open(ppm).save(png)
        ppm.unlink()
        return png

    def tap(self, x: int, y: int) -> None:
        """A finger down and up at panel pixel (x, y): QMP absolute events (0..32767)."""
        w, h = self.panel
        ax, ay = round(x * 32767 / (w - 1)), round(y * 32767 / (h - 1))
        move = [{"type": "abs", "data": {"axis": "x", "value": ax}},
                {"type": "abs", "data": {"axis": "y", "value": ay}}]
        self.qmp.cmd("input-send-event", events=move)
        time.sleep(0.05)
        self.qmp.cmd("input-send-event", events=[{"type": "btn", "data": {"down": True, "button": "left"}}])
        time.sleep(0.1)
        self.qmp.cmd("input-send-event", events=[{"type": "btn", "data": {"down": False, "button": "left"}}])

    def key(self, qcode: str, device: str | None = None) -> None:
        extra = {"device": device} if device else {}
        for down in (True, False):
            self.qmp.cmd("input-send-event", **extra,
                         events=[{"type": "key", "data": {"down": down, "key": {"type": "qcode", "data": qcode}}}])
            time.sleep(0.02)

    def scan_keyboard(self, code: str) -> None:
        """The keyboard-mode scanner types the code and Enter (events reach scankbd only)."""
        for ch in code + "\n":
            if ch.isalpha():
                self.qmp.cmd("input-send-event", device="panel", events=[
                    {"type": "key", "data": {"down": True, "key": {"type": "qcode", "data": "shift"}}}])
            self.key(QCODES[ch], device="panel")
            if ch.isalpha():
                self.qmp.cmd("input-send-event", device="panel", events=[
                    {"type": "key", "data": {"down": False, "key": {"type": "qcode", "data": "shift"}}}])

    # ----------------------------------------------------------- the QEMU monitor
    def hmp(self, command: str) -> str:
        """One QEMU monitor (HMP) command, e.g. ``sendkey ctrl-c``; its printed answer."""
        return self.qmp.cmd("human-monitor-command", **{"command-line": command})

    def device_add(self, driver: str, **props) -> None:
        """Plug a device in while the VM runs (QMP device_add), e.g. a USB keyboard:
        ``device_add("usb-kbd", id="hotkbd", bus="xhci.0", port="5")``."""
        self.qmp.cmd("device_add", driver=driver, **props)

    def device_del(self, dev_id: str) -> None:
        """Unplug the device with this id (QMP device_del)."""
        self.qmp.cmd("device_del", id=dev_id)

    def sendkey(self, code: str, keypad: bool = False, hold: dict[int, int] | None = None) -> float:
        """Type ``code`` and Enter with the monitor's ``sendkey`` (key positions of a US
        keyboard: a US-layout scanner), on the keyboard the monitor's events reach (the one
        plugged in last that no display is bound to). ``keypad``: digits and Enter on the
        keypad; ``hold``: {index: ms} keeps that key down that long (default 100 ms).
        QEMU queues the keys in order; returns the seconds the typing takes."""
        took = 0.0
        for i, ch in enumerate(code + "\n"):
            if ch == "\n":
                key = "kp_enter" if keypad else "ret"
            elif ch.isdigit():
                key = f"kp_{ch}" if keypad else ch
            elif ch.isalpha():
                key = f"shift-{ch.lower()}"
            else:
                key = QCODES[ch]
            ms = (hold or {}).get(i, 100)
            self.hmp(f"sendkey {key} {ms}")
            took += ms / 1000 + 0.03
        return took

    def scan_serial(self, code: str) -> None:
        """The USB-serial scanner sends the code and CR LF."""
        self.scanner.sendall(code.encode() + b"\r\n")

    # ----------------------------------------------------------- ending
    def power_cut(self) -> None:
        """kill -9 QEMU: the guest gets no shutdown and its disk no flush (cache=none)."""
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self._close()

    def shutdown(self, timeout: float = 120) -> None:
        if self.proc and self.proc.poll() is None:
            try:
                self.sh("systemctl poweroff", timeout=5)
            except VmError:
                pass
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.power_cut()
        self._close()

    def _close(self) -> None:
        for s in (self.scanner, self.agent and self.agent.sock, self.qmp and self.qmp.sock):
            try:
                s and s.close()
            except OSError:
                pass
