"""`companion tilt analyze`: the tilt detector over a recorded CSV (issue 3)."""

import io
import json
import re
from pathlib import Path

import pytest

from companion.devices.tilt import Calibration
from companion.devices.tilt_analyze import analyze, main_analyze, read_calibration
from tilt_motion import TWO_SEATS, samples

TWO_SEATS_CSV = Path(__file__).parent / "data" / "tilt-two-seats.csv"
LINES = TWO_SEATS_CSV.read_text().splitlines()


def test_the_recording_shows_seat_1_then_seat_3_and_the_knock_is_nothing():
    events = analyze(LINES, None, None)
    assert [(e["event"], e.get("seat")) for e in events] == [
        ("tilted", 1), ("level", None), ("tilted", 3), ("level", None)]
    first, _, second, _ = events
    assert 2.0 < first["t"] < 2.6 and 24 <= first["angle_deg"] <= 26
    assert 6.5 < second["t"] < 7.0 and 28 <= second["angle_deg"] <= 31


def test_the_sample_file_is_what_the_motion_generator_writes():
    """Regenerate with `python tests/tilt_motion.py`."""
    rows = [[float(c) for c in line.split(",")] for line in LINES[1:]]
    again = samples(TWO_SEATS, noise_g=0.015, seed=11)
    assert len(rows) == len(again) == 1001
    assert max(abs(a - b) for row, s in zip(rows, again) for a, b in zip(row, s)) < 2e-4


def test_header_blank_lines_and_comments_are_optional():
    bare = ["# recorded under the tray", ""]
    for i, line in enumerate(LINES[1:]):
        bare += [line, "", "   "] if i % 50 == 0 else [line]
    assert analyze(bare, None, None) == analyze(LINES, None, None)


def test_a_calibration_file_names_the_seats(tmp_path):
    # Taped with +X toward seat 3 this time: the file says so.
    swapped = Calibration((0.0, 0.0, 1.0), {1: (1.0, 0.0, 0.0), 2: (0.0, -1.0, 0.0),
                                            3: (-1.0, 0.0, 0.0), 4: (0.0, 1.0, 0.0)})
    path = tmp_path / "companion.toml"
    path.write_text("[tilt]\nthreshold_deg = 15.0\n\n" + swapped.to_toml())
    calibration = read_calibration(path)
    assert [e.get("seat") for e in analyze(LINES, calibration, None)] == [3, None, 1, None]


@pytest.mark.parametrize("bad, line", [
    ("1.20,0.01,0.02", 3),
    ("1.20,0.01,zero,1.0", 3),
    ("1.20,0.01,0.02,1.0,7", 3),
    ("1.20,nan,0.0,1.0", 3),
])
def test_a_malformed_line_is_named_by_its_number(bad, line):
    rows = ["t,ax,ay,az", "1.10,0.0,0.0,1.0", bad, "1.30,0.0,0.0,1.0"]
    with pytest.raises(ValueError, match=f"line {line}: expected t,ax,ay,az"):
        analyze(rows, None, None)


def test_a_header_is_only_allowed_first_and_time_must_not_go_back():
    with pytest.raises(ValueError, match="line 3"):
        analyze(["0.0,0,0,1", "", "t,ax,ay,az"], None, None)
    with pytest.raises(ValueError, match="line 2: time 0.5 s goes back"):
        analyze(["1.0,0,0,1", "0.5,0,0,1"], None, None)


def test_json_output_is_one_object_per_line():
    out = io.StringIO()
    assert main_analyze(TWO_SEATS_CSV, None, True, out) == 0
    events = [json.loads(line) for line in out.getvalue().splitlines()]
    assert events == analyze(LINES, None, None)
    assert set(events[0]) == {"t", "event", "seat", "angle_deg"} and set(events[1]) == {"t", "event"}


def test_plain_output_reads_like_a_sentence():
    out = io.StringIO()
    assert main_analyze(str(TWO_SEATS_CSV), None, False, out) == 0
    lines = out.getvalue().splitlines()
    assert len(lines) == 4
    assert "tilted toward seat 1 (" in lines[0] and lines[1].endswith("level again")


def test_a_quiet_recording_says_so(tmp_path):
    path = tmp_path / "quiet.csv"
    path.write_text("\n".join(f"{i / 100},0.01,0.0,0.99" for i in range(300)))
    out = io.StringIO()
    assert main_analyze(path, None, False, out) == 0 and out.getvalue() == "no tilts found\n"
    out = io.StringIO()
    assert main_analyze(path, None, True, out) == 0 and out.getvalue() == ""


@pytest.mark.parametrize("content, message", [
    (None, "cannot analyze .*No such file"),
    ("t,ax,ay,az\n0.0,0,0,1\n0.01,0,0\n", "line 3"),
    ("t,ax,ay,az\n", "no samples"),
    ("".join(f"{i / 100},0,0,0\n" for i in range(200)), "0.00 g.*not answering"),
    ("".join(f"{i / 100},1,0,0.05\n" for i in range(200)), "X axis is almost vertical.*companion calibrate"),
])
def test_an_unusable_recording_exits_2_saying_why(tmp_path, content, message):
    path = tmp_path / "rec.csv"
    if content is not None:
        path.write_text(content)
    out, err = io.StringIO(), io.StringIO()
    assert main_analyze(path, None, False, out, err=err) == 2
    assert out.getvalue() == ""
    assert err.getvalue().startswith("companion: ") and re.search(message, err.getvalue())


@pytest.mark.parametrize("content, message", [
    ("[calibration]\nlevel = [0, 0, 1]\n", "needs `level"),
    ("level = [0, 0, 1]\n", "no \\[calibration\\] table"),
    ("[calibration\n", "Expected"),
    ("[calibration]\nlevel = [0, 0, 1]\n[calibration.seats]\n1 = [0, 0, 1]\n", "seat 1 direction"),
])
def test_an_unusable_calibration_file_exits_2_saying_why(tmp_path, content, message):
    path = tmp_path / "cal.toml"
    path.write_text(content)
    err = io.StringIO()
    assert main_analyze(TWO_SEATS_CSV, path, True, io.StringIO(), err=err) == 2
    assert "cannot use the calibration" in err.getvalue()
    assert re.search(message, err.getvalue()), err.getvalue()
