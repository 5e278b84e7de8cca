"""Scoring a Sweet Deals hand full of wild and hybrid cards, as ratios against two baselines.

    .venv/bin/python bench/bench_sweet_deals_score.py [--hands 150] [--repeat 20]

Hands: 7 cards each, 3 to 5 Sprinkles and 1 to 4 hybrids (the rest random), shuffled
from the 63 cards with a fixed seed; scored with hybrids counted "or" (each hybrid is a
choice too: the hardest case) and "and".

Measured: ``scoring.score_hand(hand, hybrid)``, what ``companion score`` and the final
screen call: coins, the best assignment of every Sprinkles and "or" hybrid, the score
sheet.

Baselines, timed alternately with it hand by hand so all see the same machine load:

- **assigned**: the same hand scored with its wilds already assigned (the assignment
  ``score_hand`` found): coins plus the bonus table, no search. The floor any scorer pays;
  the ratio is the price of finding the best assignment. Target: at most 20x.
- **brute force**: ``scoring.brute_force_bonus``, every dessert for every wild and every
  side of every hybrid, one assignment at a time (up to 7^5 x 2^2). Target: the search
  is faster (ratio below 1).

Exits 0 whatever the figures; PASS/FAIL is printed per row.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from companion.games.sweet_deals import scoring
from companion.games.sweet_deals.parts.cards import CARDS

#: run.py --zero runs it once, at full speed: its targets are ratios of two timings the speed scales alike
SPEED_INDEPENDENT = True

FRAME_MS = 1000 / 60


def hands(n: int, seed: int = 12) -> list[list[str]]:
    rng = random.Random(seed)
    wild = [c for c in CARDS if CARDS[c].kind == "wild"]
    hybrid = [c for c in CARDS if CARDS[c].kind == "hybrid"]
    plain = [c for c in CARDS if CARDS[c].kind not in ("wild", "hybrid")]
    out = []
    for _ in range(n):
        k, h = rng.randint(3, 5), rng.randint(1, 4)
        h = min(h, 7 - k)
        out.append(rng.sample(wild, k) + rng.sample(hybrid, h) + rng.sample(plain, 7 - k - h))
    return out


def assigned_total(codes: list[str], hybrid: str, assignment: list[str]) -> int:
    """Coins plus bonuses with every Sprinkles and "or" hybrid already counted as
    ``assignment`` says: the scoring without the search."""
    cards = [CARDS[c] for c in codes]
    counts, _, _ = scoring._split(cards, hybrid)
    for dessert in assignment:
        counts[dessert] += 1
    return sum(c.coins for c in cards) + sum(scoring.bonus_for(n) for n in counts.values())


def timed(fn, repeat: int) -> float:
    t = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - t) / repeat * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=150)
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    sample = [(h, mode) for h in hands(args.hands) for mode in ("or", "and")]
    measured, assigned, brute = [], [], []
    for hand, mode in sample:
        sheet = scoring.score_hand(hand, mode)
        assignment = [d for _, _, d in sheet.choices]
        assert assigned_total(hand, mode, assignment) == sheet.total   # the baseline scores the same hand
        measured.append(timed(lambda: scoring.score_hand(hand, mode), args.repeat))
        assigned.append(timed(lambda: assigned_total(hand, mode, assignment), args.repeat))
        t = time.perf_counter()
        top = scoring.brute_force_bonus(hand, mode)
        brute.append((time.perf_counter() - t) * 1000)
        assert top == sheet.bonus                                        # and the search is right
    m, a, b = statistics.median(measured), statistics.median(assigned), statistics.median(brute)
    p99 = sorted(measured)[int(0.99 * (len(measured) - 1))]
    print(f"{len(sample)} scorings: {args.hands} hands x (or, and), 3-5 Sprinkles and 1-4 hybrids each; "
          f"medians in ms")
    print(f"{'baseline':<14}{'target':>10}{'measured':>11}{'baseline':>11}{'ratio':>9}  verdict")
    rows = [("assigned", 20.0, m, a), ("brute force", 1.0, m, b)]
    for name, target, x, y in rows:
        ratio = x / y
        verdict = "PASS" if ratio <= target else "FAIL"
        print(f"{name:<14}{f'<= {target:g}x':>10}{x:>11.4f}{y:>11.4f}{ratio:>8.3g}x  {verdict}")
    print(f"budget: score_hand p99 {p99:.4f} ms = {p99 / FRAME_MS:.4f} of a 60 Hz frame")
    return 0


def rows(quick: bool = False) -> list[dict]:
    """The bench-table rows (bench/README.md, the protocol): the same measurement as main()."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from benchlib import ratio_row

    repeat = 5 if quick else 20
    measured, assigned, brute = [], [], []
    # The brute force (up to 7^5 x 2^2 assignments a hand) took most of this bench's 25 s
    # for a ratio a hundred times under its target: it runs on every third scoring.
    for i, (hand, mode) in enumerate([(h, mode) for h in hands(40 if quick else 150) for mode in ("or", "and")]):
        sheet = scoring.score_hand(hand, mode)
        assignment = [d for _, _, d in sheet.choices]
        assert assigned_total(hand, mode, assignment) == sheet.total
        measured.append(timed(lambda: scoring.score_hand(hand, mode), repeat))
        assigned.append(timed(lambda: assigned_total(hand, mode, assignment), repeat))
        if i % 3:
            continue
        t = time.perf_counter()
        assert scoring.brute_force_bonus(hand, mode) == sheet.bonus
        brute.append((time.perf_counter() - t) * 1000)
    # judged by the bootstrap interval of the ratio of medians (benchlib.ratio_row)
    return [
        ratio_row("Sweet Deals score_hand vs wilds already assigned", "<= 20x", measured, assigned, 20.0,
                  baseline_name="assigned", seed=12),
        ratio_row("Sweet Deals score_hand vs brute force", "< 1x", measured, brute, 1.0, baseline_name="brute force",
                  seed=13),
    ]


if __name__ == "__main__":
    raise SystemExit(main())
