"""Draw the wiring diagrams (wiring/*.svg) and their pin tables (wiring/README.md) from one
table of wires, so a picture and its table can never disagree.

    python scripts/make_wiring.py            # rewrite wiring/
    python scripts/make_wiring.py --check    # exit 1 if wiring/ is not what this draws

Each diagram shows the Pi's whole 40-pin header (pin numbers, the used pins coloured),
the part(s) on the right, and one coloured wire per connection, labelled with the header
pin and its signal. Every wire is an SVG group with ``data-pin`` and ``data-to`` so the
tests can read the picture back.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

OUT = Path(__file__).resolve().parent.parent / "wiring"

#: Header pins the display's power leads take (the Touch Display's red 5V and black GND
#: jumpers; Raspberry Pi's display documentation): no diagram may use them.
DISPLAY_POWER_PINS = (2, 6)

#: The 40-pin header of every Raspberry Pi since the B+ (Pi 4, Pi 5, Zero 2 W), by physical pin.
HEADER = {
    1: "3V3", 2: "5V", 3: "GPIO2 SDA", 4: "5V", 5: "GPIO3 SCL", 6: "GND", 7: "GPIO4", 8: "GPIO14 TXD",
    9: "GND", 10: "GPIO15 RXD", 11: "GPIO17", 12: "GPIO18", 13: "GPIO27", 14: "GND", 15: "GPIO22",
    16: "GPIO23", 17: "3V3", 18: "GPIO24", 19: "GPIO10", 20: "GND", 21: "GPIO9", 22: "GPIO25", 23: "GPIO11",
    24: "GPIO8", 25: "GND", 26: "GPIO7", 27: "ID_SD", 28: "ID_SC", 29: "GPIO5", 30: "GND", 31: "GPIO6",
    32: "GPIO12", 33: "GPIO13", 34: "GND", 35: "GPIO19", 36: "GPIO16", 37: "GPIO26", 38: "GPIO20",
    39: "GND", 40: "GPIO21",
}
COLOURS = {"red": "#d62828", "black": "#222222", "blue": "#1d6fd6", "yellow": "#e0a800", "green": "#2a9d3a",
           "orange": "#f07c00", "purple": "#8e44ad", "white": "#9aa0a6", "brown": "#8b5a2b"}


@dataclass(frozen=True)
class Wire:
    pin: int          # physical header pin
    part: str         # the part's name (one of the diagram's parts)
    to: str           # the part's pin label
    colour: str       # a key of COLOURS: the wire colour we suggest


@dataclass(frozen=True)
class Diagram:
    slug: str
    title: str
    parts: tuple[tuple[str, tuple[str, ...]], ...]   # (part name, its pins top to bottom)
    wires: tuple[Wire, ...]
    notes: tuple[str, ...]
    on_board: tuple[str, ...] = field(default=())     # set-up on the part itself (address, mode)


I2C_NOTES = (
    "3.3 V only: power the breakout from pin 1 (3V3), never from 5 V. The Pi's GPIO pins are 3.3 V "
    "and a breakout powered from 5 V pulls SDA and SCL up to 5 V, which damages the Pi.",
    "Pull-ups: the Pi already has 1.8 kOhm pull-ups on SDA and SCL (pins 3 and 5), and most breakouts "
    "add their own; add none. Keep the cable to the tray under 1 m, SDA and SCL each twisted with a GND.",
    "Turn I2C on: sudo raspi-config nonint do_i2c 0 (install.sh does it). Check: i2cdetect -y 1, "
    "then companion doctor.",
)

DIAGRAMS = (
    Diagram(
        "adxl345", "ADXL345 tray sensor on I2C bus 1",
        (("ADXL345 breakout", ("VCC", "GND", "SDA", "SCL", "CS", "SDO")),),
        (Wire(1, "ADXL345 breakout", "VCC", "red"), Wire(9, "ADXL345 breakout", "GND", "black"),
         Wire(3, "ADXL345 breakout", "SDA", "blue"), Wire(5, "ADXL345 breakout", "SCL", "yellow")),
        I2C_NOTES,
        ("CS to VCC on the breakout: I2C mode (many boards do this already)",
         "SDO to GND: address 0x53 (SDO to VCC: 0x1D; both are found)"),
    ),
    Diagram(
        "mpu6050", "MPU-6050 tray sensor on I2C bus 1",
        (("MPU-6050 breakout (GY-521)", ("VCC", "GND", "SCL", "SDA", "XDA", "XCL", "AD0", "INT")),),
        (Wire(1, "MPU-6050 breakout (GY-521)", "VCC", "red"), Wire(9, "MPU-6050 breakout (GY-521)", "GND", "black"),
         Wire(5, "MPU-6050 breakout (GY-521)", "SCL", "yellow"), Wire(3, "MPU-6050 breakout (GY-521)", "SDA", "blue")),
        I2C_NOTES,
        ("AD0 open or to GND: address 0x68 (AD0 to VCC: 0x69; both are found)",
         "XDA, XCL and INT stay unconnected"),
    ),
    Diagram(
        "lis3dh", "LIS3DH tray sensor on I2C bus 1",
        (("LIS3DH breakout", ("VIN", "3Vo", "GND", "SCL", "SDA", "SDO", "CS", "INT")),),
        (Wire(1, "LIS3DH breakout", "VIN", "red"), Wire(9, "LIS3DH breakout", "GND", "black"),
         Wire(5, "LIS3DH breakout", "SCL", "yellow"), Wire(3, "LIS3DH breakout", "SDA", "blue")),
        I2C_NOTES,
        ("SDO open or to GND: address 0x18 (SDO to 3V: 0x19; both are found)",
         "CS open (pulled up on the breakout: I2C mode); 3Vo and INT unconnected"),
    ),
    Diagram(
        "pn532-uart", "PN532 NFC reader on the Pi's UART",
        (("PN532 module (HSU mode)", ("VCC", "GND", "TXD", "RXD")),),
        (Wire(17, "PN532 module (HSU mode)", "VCC", "red"), Wire(25, "PN532 module (HSU mode)", "GND", "black"),
         Wire(10, "PN532 module (HSU mode)", "TXD", "green"), Wire(8, "PN532 module (HSU mode)", "RXD", "white")),
        ("Crossed over: the PN532's TXD goes to the Pi's RXD (pin 10) and its RXD to the Pi's TXD (pin 8).",
         "3.3 V: power the module from pin 17 (3V3) so its TXD never drives 5 V into the Pi's RXD.",
         "Pi 4, Pi 3, Zero 2 W: turn the UART on and its login console off: sudo raspi-config nonint "
         "do_serial_hw 0 and do_serial_cons 1, reboot; pins 8/10 are then /dev/serial0: give "
         "nfc:/dev/sugar-companion/nfc (or nfc:/dev/serial0).",
         "Pi 5: pins 8/10 are ttyAMA0, off until dtparam=uart0=on is in /boot/firmware/config.txt (add it, "
         "reboot); /dev/serial0 there is the debug header (the 3-pin socket between the HDMI ports), not these "
         "pins: give nfc:/dev/sugar-companion/nfc (or nfc:/dev/ttyAMA0). companion doctor checks which."),
        ("Mode switches to HSU (on the Elechouse V3: both OFF, 0 0)",),
    ),
    Diagram(
        "buttons-buzzer-led", "Confirm and Undo buttons, buzzer and status LED",
        (("Confirm button", ("leg 1", "leg 2")),
         ("Undo button", ("leg 1", "leg 2")),
         ("Buzzer driver (NPN)", ("+5V", "base (1 kOhm)", "emitter")),
         ("Status LED", ("anode (330 Ohm)", "cathode"))),
        (Wire(11, "Confirm button", "leg 1", "green"), Wire(14, "Confirm button", "leg 2", "black"),
         Wire(13, "Undo button", "leg 1", "orange"), Wire(20, "Undo button", "leg 2", "black"),
         Wire(4, "Buzzer driver (NPN)", "+5V", "red"), Wire(12, "Buzzer driver (NPN)", "base (1 kOhm)", "purple"),
         Wire(30, "Buzzer driver (NPN)", "emitter", "black"),
         Wire(16, "Status LED", "anode (330 Ohm)", "brown"), Wire(34, "Status LED", "cathode", "black")),
        ("Buttons need no resistor: the Pi's internal pull-up holds the pin at 3.3 V, a press pulls it to GND.",
         "Buzzer: a 5 V active buzzer from 5V (pin 4) to the collector of a BC337 or 2N2222 NPN; emitter to GND; "
         "base through 1 kOhm to GPIO18. A GPIO pin gives at most 16 mA, too little to drive a buzzer itself.",
         "LED: GPIO23 through a 330 Ohm resistor to the long leg (anode); short leg to GND (about 5 mA).",
         "Pins in the config: [gpio] confirm = 17, undo = 27, buzzer = 18, led = 23 (BCM numbers, not pin numbers)."),
    ),
)

# ---------------------------------------------------------------- drawing

W, H = 960, 760
PIN_X = {1: 250, 0: 280}          # odd pins (inner row) left, even pins right
TOP, STEP = 150, 22               # y of pins 1 and 2, and the row spacing
PART_X = 640


def pin_xy(pin: int) -> tuple[int, int]:
    return PIN_X[pin % 2], TOP + (pin - 1) // 2 * STEP


def kind(pin: int) -> str:
    name = HEADER[pin]
    return "power" if name in ("3V3", "5V") else "ground" if name == "GND" else "gpio"


def text(x, y, s, size=13, anchor="start", weight="normal", fill="#222") -> str:
    return (f'<text x="{x}" y="{y}" font-family="DejaVu Sans, Arial, sans-serif" font-size="{size}" '
            f'text-anchor="{anchor}" font-weight="{weight}" fill="{fill}">{escape(s)}</text>')


def wrap(s: str, width: int) -> list[str]:
    lines, line = [], ""
    for word in s.split():
        if len(line) + len(word) + 1 > width and line:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return lines + [line]


def draw(d: Diagram) -> str:
    used = {w.pin: w for w in d.wires}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}">',
           f'<rect width="{W}" height="{H}" fill="#ffffff"/>',
           text(20, 32, d.title, 22, weight="bold"),
           text(20, 54, "Raspberry Pi 40-pin header (Pi 4, Pi 5, Zero 2 W). Pin 1 is the square pad at the "
                        "corner farthest from the USB ports.", 12, fill="#555")]
    # the header
    out.append(f'<rect x="232" y="{TOP - 16}" width="66" height="{20 * STEP + 10}" rx="4" fill="#1b1b1b"/>')
    for pin in range(1, 41):
        x, y = pin_xy(pin)
        fill = {"power": "#d62828", "ground": "#555555", "gpio": "#e8e8e8"}[kind(pin)]
        shape = (f'<rect x="{x - 8}" y="{y - 8}" width="16" height="16" fill="{fill}"/>' if pin == 1
                 else f'<circle cx="{x}" cy="{y}" r="8" fill="{fill}"/>')
        ring = f' stroke="{COLOURS[used[pin].colour]}" stroke-width="3"' if pin in used else ""
        out.append(shape.replace("/>", f"{ring}/>"))
        colour = "#fff" if kind(pin) != "gpio" else "#222"
        out.append(text(x, y + 4, str(pin), 9, "middle", "bold", colour))
        # the pin's name beside the header, outside (odd on the left, even on the right);
        # a used pin's name sits just above its wire
        nx, anchor = (x - 24, "end") if pin % 2 else (x + 24, "start")
        if pin in used:
            out.append(text(nx, y - 4, HEADER[pin], 10, anchor, "bold", "#222"))
        elif kind(pin) != "gpio" or pin in (3, 5, 8, 10):
            out.append(text(nx, y + 4, HEADER[pin], 10, anchor, "normal", "#999"))
    # the parts, stacked on the right
    part_pins: dict[tuple[str, str], tuple[int, int]] = {}
    y = TOP - 10
    for name, pins in d.parts:
        height = 34 + len(pins) * 26
        out.append(f'<rect x="{PART_X}" y="{y}" width="250" height="{height}" rx="8" fill="#eef6ee" '
                   f'stroke="#2a6f3a" stroke-width="2"/>')
        out.append(text(PART_X + 125, y + 22, name, 14, "middle", "bold"))
        for i, label in enumerate(pins):
            py = y + 46 + i * 26
            part_pins[(name, label)] = (PART_X, py)
            out.append(f'<circle cx="{PART_X}" cy="{py}" r="5" fill="#c9a227" stroke="#555"/>')
            out.append(text(PART_X + 12, py + 4, label, 12))
        y += height + 14
    # the wires: even pins leave to the right; odd pins leave to the left, climb above the
    # header and cross it. Each wire has its own vertical lane: the wire whose part pin is
    # highest gets the lane farthest right, so the last legs never cross.
    by_target = sorted(d.wires, key=lambda w: part_pins[(w.part, w.to)][1])
    lane = {w.pin: PART_X - 40 - i * 18 for i, w in enumerate(by_target)}
    odd = sorted((w for w in d.wires if w.pin % 2), key=lambda w: -lane[w.pin])
    for i, w in enumerate(d.wires):
        x, y0 = pin_xy(w.pin)
        tx, ty = part_pins[(w.part, w.to)]
        lx = lane[w.pin]
        if w.pin % 2:
            k = odd.index(w)  # 0: the lane farthest right, which climbs highest
            top_y, left_x = TOP - 50 + k * 10, 90 + (len(odd) - 1 - k) * 14
            path = f"M{x - 9},{y0} H{left_x} V{top_y} H{lx} V{ty} H{tx}"
        else:
            path = f"M{x + 9},{y0} H{lx} V{ty} H{tx}"
        out.append(wire_group(w, path, lx, ty))
    # set-up on the part, and the notes
    if d.on_board:
        out.append(text(PART_X, y + 10, "On the board:", 12, weight="bold"))
        y += 28
        for line in d.on_board:
            for j, piece in enumerate(wrap(line, 40)):
                out.append(text(PART_X, y, ("- " if j == 0 else "  ") + piece, 12))
                y += 16
    ny = TOP + 20 * STEP + 30
    for note in d.notes:
        for j, piece in enumerate(wrap(note, 130)):
            out.append(text(20, ny, ("- " if j == 0 else "  ") + piece, 12))
            ny += 16
        ny += 4
    out.append("</svg>")
    return "\n".join(out) + "\n"


def wire_group(w: Wire, path: str, lx: int, ty: int) -> str:
    colour = COLOURS[w.colour]
    label = f"pin {w.pin} {HEADER[w.pin]}"
    return (f'<g class="wire" data-pin="{w.pin}" data-to="{escape(w.to)}" data-part="{escape(w.part)}">'
            f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="3" stroke-linejoin="round"/>'
            + text(PART_X - 8, ty - 5, label, 10, "end", fill=colour if w.colour not in ("white", "yellow") else "#555")
            + "</g>")


def table(d: Diagram) -> str:
    rows = ["| header pin | Pi signal | goes to | on | wire |", "|---|---|---|---|---|"]
    for w in sorted(d.wires, key=lambda w: w.pin):
        rows.append(f"| {w.pin} | {HEADER[w.pin]} | {w.to} | {w.part} | {w.colour} |")
    return "\n".join(rows)


def readme() -> str:
    parts = ["# Wiring\n",
             "Generated by `scripts/make_wiring.py` from one table of wires: each picture and its table "
             "say the same. Pin numbers are the physical pins of the 40-pin header (pin 1 is the square "
             "pad, at the corner farthest from the USB ports); the config uses BCM GPIO numbers "
             "(GPIO17 is pin 11). Parts and prices: `hardware/BOM.md`.\n",
             "Use one tray sensor (any of the three), and any of the rest. Everything fits on the header at "
             "once: the pins below never overlap, and none uses pin 2 (5V) or pin 6 (GND), which the "
             "Raspberry Pi Touch Display's power leads (or an HDMI panel's) take.\n"]
    for d in DIAGRAMS:
        parts.append(f"## {d.title}\n\n![{d.title}]({d.slug}.svg)\n\n{table(d)}\n")
        if d.on_board:
            parts.append("On the board: " + "; ".join(d.on_board) + ".\n")
        parts.append("\n".join(f"- {n}" for n in d.notes) + "\n")
    return "\n".join(parts)


def files() -> dict[str, str]:
    out = {f"{d.slug}.svg": draw(d) for d in DIAGRAMS}
    out["README.md"] = readme()
    return out


def main(argv: list[str]) -> int:
    wanted = files()
    if "--check" in argv:
        stale = [name for name, body in wanted.items()
                 if not (OUT / name).exists() or (OUT / name).read_text() != body]
        if stale:
            print(f"wiring/ is out of date: {', '.join(stale)}: run python scripts/make_wiring.py")
            return 1
        return 0
    OUT.mkdir(exist_ok=True)
    for name, body in wanted.items():
        (OUT / name).write_text(body)
    print(f"wrote {len(wanted)} files in {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
