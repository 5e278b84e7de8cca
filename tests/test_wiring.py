"""wiring/: every SVG is what scripts/make_wiring.py draws from the wire table, each
drawn wire runs from its header pin to its part pin, the README's pin tables say the
same, and the parts share no header pin (all can be fitted at once)."""

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))
import make_wiring as mw  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"


def test_wiring_folder_is_up_to_date_with_the_wire_table():
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "make_wiring.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout


@pytest.mark.parametrize("d", mw.DIAGRAMS, ids=lambda d: d.slug)
def test_each_drawn_wire_runs_from_its_header_pin_to_its_part_pin(d):
    root = ET.parse(REPO / "wiring" / f"{d.slug}.svg").getroot()
    circles = {(float(c.get("cx")), float(c.get("cy"))) for c in root.iter(SVG + "circle")}
    texts = {t.text for t in root.iter(SVG + "text")}
    drawn = []
    for g in root.iter(SVG + "g"):
        if g.get("class") != "wire":
            continue
        pin, to = int(g.get("data-pin")), g.get("data-to")
        drawn.append((pin, g.get("data-part"), to))
        points = [(float(x), float(y)) for x, y in re.findall(r"([\d.]+),([\d.]+)", g.find(SVG + "path").get("d"))]
        steps = re.findall(r"([MHV])([\d.,]+)", g.find(SVG + "path").get("d"))
        x, y = map(float, steps[0][1].split(","))
        px, py = mw.pin_xy(pin)
        assert y == py and abs(x - px) == 9, f"wire {pin} does not start at header pin {pin}"
        for op, value in steps[1:]:
            x, y = (float(value), y) if op == "H" else (x, float(value))
        assert (x, y) in circles, f"wire from pin {pin} ends nowhere"
        assert points  # the path has coordinates
        assert f"pin {pin} {mw.HEADER[pin]}" in texts
        assert to in texts  # the part pin it ends at is labelled
    assert sorted(drawn) == sorted((w.pin, w.part, w.to) for w in d.wires)


def test_the_readme_tables_match_the_wires():
    text = (REPO / "wiring" / "README.md").read_text()
    rows = set(re.findall(r"^\| (\d+) \| ([^|]+) \| ([^|]+) \| ([^|]+) \| (\w+) \|$", text, re.M))
    for d in mw.DIAGRAMS:
        assert f"![{d.title}]({d.slug}.svg)" in text
        for w in d.wires:
            assert (str(w.pin), mw.HEADER[w.pin], w.to, w.part, w.colour) in rows


def test_power_pins_are_power_and_signals_are_on_their_gpio():
    header = mw.HEADER
    for d in mw.DIAGRAMS:
        for w in d.wires:
            if w.to in ("VCC", "VIN"):
                assert header[w.pin] == "3V3", f"{d.slug}: {w.to} must be 3.3 V"
            if w.to in ("GND", "leg 2", "emitter", "cathode"):
                assert header[w.pin] == "GND", f"{d.slug}: {w.to}"
            if w.to == "SDA":
                assert header[w.pin] == "GPIO2 SDA"
            if w.to == "SCL":
                assert header[w.pin] == "GPIO3 SCL"
    pn532 = {w.to: header[w.pin] for w in next(d for d in mw.DIAGRAMS if d.slug == "pn532-uart").wires}
    assert pn532["TXD"] == "GPIO15 RXD" and pn532["RXD"] == "GPIO14 TXD"  # crossed over


def test_the_optional_parts_share_no_header_pin_and_match_the_example_config():
    sensor = {w.pin for w in mw.DIAGRAMS[0].wires}
    others = [{w.pin for w in d.wires} for d in mw.DIAGRAMS[3:]]
    assert not sensor & others[0] and not sensor & others[1] and not others[0] & others[1]
    example = (REPO / "hardware" / "companion.toml.example").read_text()
    panel = next(d for d in mw.DIAGRAMS if d.slug == "buttons-buzzer-led")
    gpio_of = {w.part: mw.HEADER[w.pin] for w in panel.wires if mw.HEADER[w.pin].startswith("GPIO")}
    for key, part in (("confirm", "Confirm button"), ("undo", "Undo button"), ("buzzer", "Buzzer driver (NPN)"),
                      ("led", "Status LED")):
        bcm = int(re.search(rf"^# {key} = (\d+)", example, re.M).group(1))
        assert gpio_of[part] == f"GPIO{bcm}", key


def test_no_part_takes_the_display_power_pins():
    """The Touch Display's (or an HDMI panel's) 5V and GND leads go on header pins 2 and 6:
    a sensor, button or buzzer there leaves the panel without power."""
    assert mw.DISPLAY_POWER_PINS == (2, 6)
    for d in mw.DIAGRAMS:
        used = {w.pin for w in d.wires}
        assert not used & set(mw.DISPLAY_POWER_PINS), f"{d.slug} uses {sorted(used & {2, 6})}"
    readme = (REPO / "wiring" / "README.md").read_text()
    assert "none uses pin 2 (5V) or pin 6 (GND)" in readme
