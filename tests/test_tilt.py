"""The tray tilt detector on generated motion (issue 3, "Done when": detector tests).

Sugar Blast: "Tilt the board in your direction ... Release the board". Each deliberate
tilt is one TrayTilted for the right seat, within 0.35 s of passing 15 degrees, then one
TrayLevel; bumps, knocks, vibration, a lift, a jostled table or drift are nothing.
"""

import math
import tomllib

import pytest

from companion.core.events import TrayLevel, TrayTilted
from companion.devices.tilt import Calibration, TiltConfig, TiltDetector
from tilt_motion import (ON_ITS_SIDE, SKEWED, UPSIDE_DOWN, Knock, Push, Scene, Tilt, Vibration,
                         held, samples)

FLAT = Calibration.default((0.0, 0.0, 1.0))
TIMINGS = [pytest.param(False, id="100Hz"), pytest.param(True, id="irregular")]


def run(scene, calibration=FLAT, config=TiltConfig(), **kw):
    detector = TiltDetector(calibration, config)
    events = []
    for sample in samples(scene, **kw):
        events += detector.feed(*sample)
    return events


def kinds(events):
    return [type(e).__name__ for e in events]


@pytest.mark.parametrize("irregular", TIMINGS)
@pytest.mark.parametrize("ramp_s", [1.0, 0.1], ids=["slow", "fast"])
@pytest.mark.parametrize("angle", [15.0, 25.0, 45.0])
@pytest.mark.parametrize("seat", [1, 2, 3, 4])
def test_a_tilt_held_0_3_s_is_reported_once_for_its_seat_then_level(seat, angle, ramp_s, irregular):
    tilt = Tilt(seat, angle, start=1.0, ramp_s=ramp_s, hold_s=0.3)
    for seed, noise in ((1, 0.01), (2, 0.02)):
        events = run(Scene(tilt.end + 1.5, tilts=(tilt,)), irregular=irregular, noise_g=noise, seed=seed)
        assert kinds(events) == ["TrayTilted", "TrayLevel"], events
        tilted, level = events
        assert isinstance(tilted, TrayTilted) and isinstance(level, TrayLevel)
        assert tilted.seat == seat
        assert 0.0 < tilted.t - tilt.crossing(15.0) <= 0.35
        assert 14.0 <= tilted.angle <= angle + 3
        back_under_6 = tilt.end - ramp_s * 6.0 / angle
        assert back_under_6 + 0.25 <= level.t <= back_under_6 + 0.45  # noise blurs the 6 degree mark


def test_two_tilts_in_a_row_are_two_reports_each_with_its_level():
    scene = Scene(7.0, tilts=(Tilt(1, 25.0, 1.0, 0.3, 1.0), Tilt(3, 30.0, 4.0, 0.2, 1.5)))
    events = run(scene, noise_g=0.02)
    assert kinds(events) == ["TrayTilted", "TrayLevel"] * 2
    assert [e.seat for e in events[::2]] == [1, 3]


@pytest.mark.parametrize("irregular", TIMINGS)
@pytest.mark.parametrize("wobble_hz", [0.7, 1.5, 6.0])
def test_hovering_between_14_and_17_degrees_for_3_s_is_one_tilt(wobble_hz, irregular):
    hover = Tilt(2, 15.5, 1.0, 0.5, 3.0, wobble_deg=1.5, wobble_hz=wobble_hz)
    for seed in (1, 2, 3):
        events = run(Scene(6.0, tilts=(hover,)), irregular=irregular, noise_g=0.02, seed=seed)
        assert kinds(events) == ["TrayTilted", "TrayLevel"]
        assert events[0].seat == 2


AXES = [(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0), (0.0, 0.0, -1.0), (0.6, 0.8, 0.0), (0.6, 0.0, 0.8)]


@pytest.mark.parametrize("irregular", TIMINGS)
@pytest.mark.parametrize("dur_s", [0.02, 0.05])
@pytest.mark.parametrize("peak_g", [0.5, 1.0, 2.0, 3.0, -3.0])
def test_a_knock_of_up_to_3g_and_50ms_reports_nothing(peak_g, dur_s, irregular):
    for axis in AXES:
        assert run(Scene(3.0, knocks=(Knock(1.0, peak_g, dur_s, axis),)), irregular=irregular) == []


def test_a_burst_of_knocks_reports_nothing():
    hard = tuple(Knock(0.5 + 0.37 * i, 3.0 if i % 2 else -2.0, 0.05, AXES[i % len(AXES)]) for i in range(12))
    soft = tuple(Knock(5.5 + 0.2 * i, 0.5, 0.05) for i in range(10))  # pass the magnitude gate
    for seed in (1, 2, 3):
        assert run(Scene(8.0, knocks=hard + soft), seed=seed) == []


@pytest.mark.parametrize("circular", [False, True], ids=["line", "circle"])
@pytest.mark.parametrize("hz", [10, 15, 20, 30])
def test_vibration_of_0_3g_at_10_to_30_hz_for_2_s_reports_nothing(hz, circular):
    for axis in [(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0), (0.6, 0.8, 0.0)]:
        scene = Scene(4.0, vibrations=(Vibration(1.0, 2.0, 0.3, hz, axis, circular),))
        for irregular in (False, True):
            assert run(scene, irregular=irregular, noise_g=0.02) == []


@pytest.mark.parametrize("irregular", TIMINGS)
def test_lifting_the_tray_at_1_3g_for_0_2_s_reports_nothing(irregular):
    for tilts in ((), (Tilt(2, 4.0, 0.9, 0.1, 0.5),)):  # set down a little crooked, too
        scene = Scene(3.0, tilts=tilts, lift=(1.0, 0.2, 1.3))
        assert run(scene, irregular=irregular) == []


@pytest.mark.parametrize("irregular", TIMINGS)
def test_slow_drift_under_6_degrees_and_a_resting_hand_report_nothing(irregular):
    for seed in (1, 2, 3):
        drift = Scene(14.0, tilts=(Tilt(3, 5.5, 1.0, 5.0, 3.0),))
        hand = Scene(5.0, tilts=(Tilt(4, 4.0, 1.0, 0.2, 3.0),))
        assert run(drift, irregular=irregular, noise_g=0.02, seed=seed) == []
        assert run(hand, irregular=irregular, noise_g=0.02, seed=seed) == []


def test_a_jostled_table_reports_nothing():
    for g in (0.2, 0.3, 0.5):
        for axis in [(1.0, 0.0, 0.0), (0.8, 0.6, 0.0)]:
            assert run(Scene(3.0, pushes=(Push(1.0, g, 0.15, axis),))) == []


def test_a_bump_that_tips_the_tray_for_a_moment_reports_nothing():
    for angle in (20.0, 45.0):
        assert run(Scene(3.0, tilts=(Tilt(1, angle, 1.0, 0.05, 0.1),))) == []


def test_knocks_during_a_held_tilt_add_no_events():
    knocks = (Knock(2.0, 3.0, 0.05), Knock(2.5, 1.0, 0.05, (-1.0, 0.0, 0.0)), Knock(3.0, 2.0, 0.03, (0.0, 0.0, 1.0)))
    events = run(Scene(6.0, tilts=(Tilt(1, 25.0, 1.0, 0.3, 2.5),), knocks=knocks), noise_g=0.02)
    assert kinds(events) == ["TrayTilted", "TrayLevel"] and events[0].seat == 1


@pytest.mark.parametrize("mount", [UPSIDE_DOWN, ON_ITS_SIDE, SKEWED], ids=["upside-down", "on-its-side", "skewed"])
def test_a_breakout_taped_any_way_up_works_after_guided_calibration(mount):
    calibration = Calibration.from_samples(held(0, mount=mount), {s: held(s, mount=mount) for s in (1, 2, 3, 4)})
    for seat in (1, 2, 3, 4):
        for irregular in (False, True):
            tilt = Tilt(seat, 25.0, 1.0, 0.3, 0.5)
            events = run(Scene(3.5, tilts=(tilt,)), calibration, mount=mount, irregular=irregular, noise_g=0.02)
            assert kinds(events) == ["TrayTilted", "TrayLevel"]
            assert events[0].seat == seat and 0 < events[0].t - tilt.crossing() <= 0.35


def test_default_seats_are_the_lowered_edges_whatever_way_up_flat():
    assert FLAT.seats == {1: (-1.0, 0.0, 0.0), 2: (0.0, -1.0, 0.0), 3: (1.0, 0.0, 0.0), 4: (0.0, 1.0, 0.0)}
    upside_down = Calibration.default((0.0, 0.0, -1.0))  # turned over about X: +Y now faces seat 4
    tilt = Tilt(4, 25.0, 1.0, 0.3, 0.5)
    events = run(Scene(3.0, tilts=(tilt,)), upside_down, mount=UPSIDE_DOWN)
    assert [getattr(e, "seat", None) for e in events] == [2, None]  # the sensor's +Y edge went down
    tilted_level = Calibration.default((0.1, 0.0, 0.995))  # a breakout taped a little crooked
    assert all(abs(sum(a * b for a, b in zip(v, tilted_level.level))) < 1e-9 for v in tilted_level.seats.values())


def test_default_seats_refuse_a_breakout_on_its_side():
    with pytest.raises(ValueError, match="X axis is almost vertical.*companion calibrate"):
        Calibration.default((1.0, 0.0, 0.05))


def test_calibration_says_what_went_wrong():
    with pytest.raises(ValueError, match="seat 2: the tray moved only"):
        Calibration.from_samples(held(0), {1: held(1), 2: held(0, seed=5)})
    with pytest.raises(ValueError, match="seats 1 and 2 were tilted the same way"):
        Calibration.from_samples(held(0), {1: held(1), 2: held(1, 30.0, seed=5)})
    with pytest.raises(ValueError, match="0.00 g.*not answering"):
        Calibration((0.0, 0.0, 0.0), {1: (1.0, 0.0, 0.0)})
    with pytest.raises(ValueError, match="seat 1 direction is .*along the level"):
        Calibration((0.0, 0.0, 1.0), {1: (0.0, 0.0, -1.0)})
    with pytest.raises(ValueError, match="needs `level"):
        Calibration.from_dict({"level": [0, 0, 1]})


def test_calibration_survives_a_knock_while_calibrating():
    level = held(0)
    level[10:13] = [(2.5, 0.3, 1.9)] * 3
    calibration = Calibration.from_samples(level, {s: held(s) for s in (1, 2, 3, 4)})
    assert math.degrees(math.acos(calibration.level[2] / math.dist(calibration.level, (0, 0, 0)))) < 1.5


def test_calibration_round_trips_through_the_config_file():
    calibration = Calibration.from_samples(held(0, mount=SKEWED), {s: held(s, mount=SKEWED) for s in (1, 2, 3)})
    again = Calibration.from_dict(tomllib.loads(calibration.to_toml())["calibration"])
    assert again.seats.keys() == {1, 2, 3}
    assert math.dist(again.level, calibration.level) < 1e-5
    assert all(math.dist(again.seats[s], calibration.seats[s]) < 1e-5 for s in again.seats)


@pytest.mark.parametrize("changes, message", [
    ({"threshold_deg": 95}, "between 0 and 90"),
    ({"hold_s": -1}, "must not be negative"),
    ({"level_deg": 15}, "flap"),
    ({"quiet_deg": 14.5}, "above quiet_deg"),
    ({"magnitude_tol": 1.5}, "fraction of 1 g"),
    ({"lowpass_s": "fast"}, "must be a number"),
    ({"hold_s": 0.05}, "dwell_slack_s"),
])
def test_config_rejects_settings_that_cannot_work(changes, message):
    with pytest.raises(ValueError, match=message):
        TiltConfig(**changes)


def test_config_from_the_file_rejects_unknown_settings_and_changes_behaviour():
    with pytest.raises(ValueError, match="unknown tilt setting.*threshold"):
        TiltConfig.from_dict({"treshold_deg": 20})
    steep = TiltConfig.from_dict({"threshold_deg": 30})
    assert run(Scene(3.0, tilts=(Tilt(1, 25.0, 1.0, 0.3, 0.6),)), config=steep) == []
    assert kinds(run(Scene(3.0, tilts=(Tilt(1, 40.0, 1.0, 0.3, 0.6),)), config=steep)) == ["TrayTilted", "TrayLevel"]


def test_state_and_angle_for_the_doctor_screen():
    detector = TiltDetector(FLAT)
    assert (detector.state, detector.angle_deg, detector.seat) == ("unknown", None, None)
    states = []
    for t, x, y, z in samples(Scene(3.0, tilts=(Tilt(2, 25.0, 0.5, 0.2, 0.8),)), noise_g=0.0):
        detector.feed(t, x, y, z)
        if not states or states[-1] != detector.state:
            states.append(detector.state)
        if abs(t - 1.0) < 1e-9:
            assert detector.seat == 2 and detector.angle_deg == pytest.approx(25.0, abs=0.1)
    assert states == ["level", "tilting", "tilted", "levelling", "level"]


def test_time_going_backwards_is_an_error():
    detector = TiltDetector(FLAT)
    detector.feed(1.0, 0.0, 0.0, 1.0)
    with pytest.raises(ValueError, match="backwards"):
        detector.feed(0.5, 0.0, 0.0, 1.0)


def test_a_sensor_gap_restarts_the_dwell():
    """No samples for a while (sensor offline): the tray may have moved unseen."""
    detector, a = TiltDetector(FLAT), math.radians(25)
    events = [e for i in range(100) for e in detector.feed(i / 100, 0.0, 0.0, 1.0)]
    events += [e for i in range(100, 110) for e in detector.feed(i / 100, -math.sin(a), 0.0, math.cos(a))]
    first_back = [e for e in detector.feed(2.0, -math.sin(a), 0.0, math.cos(a))]
    later = [e for i in range(201, 240) for e in detector.feed(i / 100, -math.sin(a), 0.0, math.cos(a))]
    assert events == [] and first_back == []
    assert len(later) == 1 and later[0].t == pytest.approx(2.24)


def test_rejected_samples_do_not_move_the_reading():
    detector = TiltDetector(FLAT)
    detector.feed(0.0, 0.0, 0.0, 1.0)
    assert detector.feed(0.01, 2.0, 0.0, 1.0) == [] and detector.angle_deg == 0.0
    assert detector.feed(0.02, 0.0, 0.0, 0.0) == [] and detector.angle_deg == 0.0  # free fall
    assert detector.feed(0.03, math.nan, 0.0, 1.0) == [] and detector.angle_deg == 0.0
    detector.feed(0.2, 0.0, 0.0, 1.0)
    assert detector.angle_deg == 0.0 and detector.state == "level"
