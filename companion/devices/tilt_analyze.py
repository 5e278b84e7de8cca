"""`companion tilt analyze FILE.csv [--calibration FILE] [--json]`: the detector over a recording.

A recording is a CSV of ``t,ax,ay,az`` (seconds, g), header optional, blank lines and
``#`` comments ignored (issue 3). Without a calibration, level is the mean of the first
second of the file and seats 1-4 are the default edges (:meth:`Calibration.default`).

>>> rows = ["t,ax,ay,az"] + [f"{i / 100},0,0,1" for i in range(100)]
>>> rows += [f"{i / 100},-0.5,0,0.866" for i in range(100, 200)]
>>> rows += [f"{i / 100},0,0,1" for i in range(200, 300)]
>>> for event in analyze(rows):
...     print(event)
{'t': 1.25, 'event': 'tilted', 'seat': 1, 'angle_deg': 30.0}
{'t': 2.33, 'event': 'level'}
"""

from __future__ import annotations

import io
import json
import math
import sys
import tomllib
from pathlib import Path
from typing import IO, Any, Iterable

from companion.core.events import TrayTilted
from companion.devices.tilt import Calibration, TiltConfig, TiltDetector

Sample = tuple[float, float, float, float]


def read_samples(lines: Iterable[str]) -> list[Sample]:
    """``(t, x, y, z)`` per data line. A malformed line raises ValueError naming its number;
    so does time going backwards. Only the first non-blank line may be a header."""
    samples: list[Sample] = []
    seen_any = False
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        first, seen_any = not seen_any, True
        cells = [c.strip() for c in line.split(",")]
        try:
            values = tuple(float(c) for c in cells)
        except ValueError:
            if first and any(c[:1].isalpha() for c in cells):
                continue  # the header, e.g. "t,ax,ay,az"
            values = ()
        if len(values) != 4 or not all(math.isfinite(v) for v in values):
            raise ValueError(f"line {number}: expected t,ax,ay,az (seconds and g, 4 numbers), got {line!r}")
        if samples and values[0] < samples[-1][0]:
            raise ValueError(f"line {number}: time {values[0]} s goes back before {samples[-1][0]} s")
        samples.append(values)  # type: ignore[arg-type]
    return samples


def level_from_first_second(samples: list[Sample]) -> tuple[float, float, float]:
    """Mean reading (g) over the first second. Samples far from the median magnitude (a
    knock while the recording started) are left out, if any others remain."""
    if not samples:
        raise ValueError("the file has no samples")
    start = samples[0][0]
    first = [s[1:] for s in samples if s[0] - start < 1.0]
    sizes = [math.dist(v, (0.0, 0.0, 0.0)) for v in first]
    middle = sorted(sizes)[len(sizes) // 2]
    steady = [v for v, size in zip(first, sizes) if abs(size - middle) <= 0.1 * max(middle, 1e-9)] or first
    return tuple(sum(v[i] for v in steady) / len(steady) for i in range(3))  # type: ignore[return-value]


def analyze(lines: Iterable[str], calibration: Calibration | None = None,
            config: TiltConfig | None = None) -> list[dict[str, Any]]:
    """Events in file order: ``{"t", "event": "tilted", "seat", "angle_deg"}`` or
    ``{"t", "event": "level"}`` (t in the file's seconds, rounded to ms; angle to 0.1 deg).

    Raises ValueError for a malformed file or a first second that cannot be level.
    """
    samples = read_samples(lines)
    if calibration is None:
        calibration = Calibration.default(level_from_first_second(samples))
    detector = TiltDetector(calibration, config or TiltConfig())
    events: list[dict[str, Any]] = []
    for sample in samples:
        for e in detector.feed(*sample):
            if isinstance(e, TrayTilted):
                events.append({"t": round(e.t, 3), "event": "tilted", "seat": e.seat, "angle_deg": round(e.angle, 1)})
            else:
                events.append({"t": round(e.t, 3), "event": "level"})
    return events


def read_calibration(path: str | Path) -> Calibration:
    """The ``[calibration]`` table of a TOML file (``level = [x, y, z]`` and
    ``[calibration.seats]`` ``1 = [x, y, z]`` ...), as ``companion calibrate`` writes it."""
    from ..core.files import read_bytes

    data = tomllib.loads(read_bytes(path, "the calibration", 1024 * 1024).decode("utf-8", "replace"))
    if "calibration" not in data:
        raise ValueError("no [calibration] table in it: run `companion calibrate`, or see "
                         "`companion tilt analyze --help` for the format")
    return Calibration.from_dict(data["calibration"])


def describe(event: dict[str, Any]) -> str:
    """One readable line: ``  2.750 s  tilted toward seat 1 (24.8°)``."""
    if event["event"] == "tilted":
        return f"{event['t']:9.3f} s  tilted toward seat {event['seat']} ({event['angle_deg']:.1f}°)"
    return f"{event['t']:9.3f} s  level again"


def main_analyze(path: str | Path, calibration_path: str | Path | None = None, as_json: bool = False,
                 out: IO[str] | None = None, *, config: TiltConfig | None = None,
                 err: IO[str] | None = None) -> int:
    """Run :func:`analyze` on a file and print the events; return the exit status:
    0 done (even with no events), 2 the recording or the calibration file is unusable."""
    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    calibration = None
    if calibration_path is not None:
        try:
            calibration = read_calibration(calibration_path)
        except (OSError, ValueError, tomllib.TOMLDecodeError) as exc:
            print(f"companion: cannot use the calibration {calibration_path}: {exc}", file=err)
            return 2
    try:
        from ..core.files import read_bytes

        text = read_bytes(path, "the recording", 64 * 1024 * 1024).decode("utf-8", "replace")  # a file, bounded
        events = analyze(io.StringIO(text), calibration, config)
    except (OSError, ValueError) as exc:
        print(f"companion: cannot analyze {path}: {exc}", file=err)
        return 2
    for event in events:
        print(json.dumps(event) if as_json else describe(event), file=out)
    if not events and not as_json:
        print("no tilts found", file=out)
    return 0
