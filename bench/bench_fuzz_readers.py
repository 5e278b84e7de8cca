"""Fuzz every card reader decoder (serial, keyboard mode with kernel overruns, PN532
frames, NDEF, stdin) with 10,000 random and mutated streams each, and print one row per
decoder (companion/devices/emulated/fuzz.py says what is fed and checked). ``make test``
runs the same fuzzers with 3,000 streams and another seed (tests/test_fuzz_readers.py).

PASS when no exception escaped a reader's code and no code the stream did not carry was
accepted as a card. Run as a script, it prints the counts and exits 1 on FAIL.

The streams come from a seeded ``random.Random`` (reproducible; a failure names its seed).
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import row  # noqa: E402

from companion.devices.emulated.fuzz import FUZZERS, run_all, table  # noqa: E402

STREAMS = 10_000
#: run.py --zero runs it once, at full speed: what a decoder accepts does not depend on the speed
SPEED_INDEPENDENT = True

SEED = 10


def rows(quick: bool = False) -> list[dict]:
    n = 1_000 if quick else STREAMS
    out = []
    for name in FUZZERS:
        t0 = time.monotonic()
        counts = run_all(n, seed=SEED, only=name)[name]
        took = time.monotonic() - t0
        bad = counts.escaped + counts.wrongly_accepted
        out.append(row(f"fuzz {name}: {n} streams, exceptions + unsent codes accepted", "0", median=bad,
                       unit="streams", ok=bad == 0 and counts.streams == n, n=n,
                       note=f"reads {counts.reads}, accepted {counts.accepted}, rejected {counts.rejected}, "
                            f"garbled {counts.garbled}, escaped {counts.escaped}, wrongly accepted "
                            f"{counts.wrongly_accepted}; {took:.1f} s; seed {SEED}"))
    return out


def main() -> int:
    t0 = time.monotonic()
    results = run_all(STREAMS, seed=SEED)
    print(f"Reader fuzz: {STREAMS} streams per decoder")
    print(table(results, time.monotonic() - t0))
    bad = [name for name, c in results.items() if c.escaped or c.wrongly_accepted or c.streams != STREAMS]
    print("FAIL: " + ", ".join(bad) if bad else "PASS: no exception escaped, no unsent code accepted")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
