"""The appliance check's agent inside the VM (test harness only, never installed on a Pi).

Reads one JSON request per line from a virtio serial port and answers one JSON line:

    -> {"id": 3, "cmd": "systemctl is-active companion", "timeout": 30}
    <- {"id": 3, "rc": 0, "out": "active\\n"}

On start it says {"ready": true, "uptime": <seconds since boot>}. Standard library only:
the image has python3 and nothing else of ours.
"""

import json
import os
import subprocess
import sys
import time


def uptime() -> float:
    with open("/proc/uptime") as f:
        return float(f.read().split()[0])


def main(path: str) -> None:
    while not os.path.exists(path):
        time.sleep(0.2)
    fd = os.open(path, os.O_RDWR)
    port = os.fdopen(fd, "r+b", buffering=0)

    def say(obj: dict) -> None:
        data = (json.dumps(obj) + "\n").encode()
        while data:
            data = data[os.write(fd, data):]

    say({"ready": True, "uptime": uptime()})
    buf = b""
    while True:
        chunk = port.read(4096)
        if not chunk:
            time.sleep(0.1)
            continue
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            if not line.strip():
                continue
            try:
                req = json.loads(line)
            except ValueError:
                say({"error": "not json", "line": line[:200].decode(errors="replace")})
                continue
            if req.get("cmd") is None:
                say({"id": req.get("id"), "ready": True, "uptime": uptime()})
                continue
            try:
                done = subprocess.run(["/bin/bash", "-c", req["cmd"]], stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, timeout=req.get("timeout", 60),
                                      stdin=subprocess.DEVNULL)
                say({"id": req.get("id"), "rc": done.returncode, "out": done.stdout.decode(errors="replace")})
            except subprocess.TimeoutExpired as e:
                out = (e.stdout or b"").decode(errors="replace")
                say({"id": req.get("id"), "rc": 124, "out": out + "\n(timed out)"})


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/dev/virtio-ports/agent")
