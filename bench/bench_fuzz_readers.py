"""Fuzz every card reader decoder with 10,000 random and mutated streams each and print
the counts (companion/devices/emulated/fuzz.py says what is fed and checked).

PASS when no exception escaped a reader's code and no code the stream did not carry was
accepted as a card. Exit status 1 on FAIL.
"""

import sys
import time

from companion.devices.emulated.fuzz import run_all, table

STREAMS = 10_000


def main() -> int:
    t0 = time.monotonic()
    results = run_all(STREAMS, seed=10)
    print(f"Reader fuzz: {STREAMS} streams per decoder")
    print(table(results, time.monotonic() - t0))
    bad = [name for name, c in results.items() if c.escaped or c.wrongly_accepted or c.streams != STREAMS]
    print("FAIL: " + ", ".join(bad) if bad else "PASS: no exception escaped, no unsent code accepted")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
