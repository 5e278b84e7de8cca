"""The dashboard's event numbers as runs (companion/venue/numbers.py): the same answers as
a set and a list, in the room of the holes only."""

import random

from companion.venue.dashboard import Dashboard
from companion.venue.numbers import Counted, RunSet


def test_a_run_set_answers_as_a_set_does_whatever_order_the_numbers_come_in():
    rng = random.Random(5)
    for _ in range(200):
        got, same = RunSet(), set()
        for _ in range(rng.randint(0, 60)):
            seq = rng.randint(1, 40)
            got.add(seq)
            same.add(seq)
            if rng.random() < 0.05:
                since = rng.randint(1, 40)
                got.drop_below(since)
                same = {s for s in same if s >= since}
        assert len(got) == len(same) and all((n in got) == (n in same) for n in range(0, 42))
        assert [n for a, b in got.runs for n in range(a, b + 1)] == sorted(same)
        assert all(a <= b and b + 1 < c for (a, b), (c, _) in zip(got.runs, got.runs[1:]))  # disjoint, apart
        base, newest = rng.randint(1, 20), rng.randint(20, 45)
        holes = [n for a, b in got.missing(base, newest) for n in range(a, b + 1)]
        assert holes == [n for n in range(base, newest + 1) if n not in same]


def test_counted_numbers_equal_the_list_of_them_repeats_and_all():
    rng = random.Random(6)
    for _ in range(100):
        counted, same = Counted(), []
        for _ in range(rng.randint(0, 50)):
            seq = rng.choice([same[-1] + 1] if same and rng.random() < 0.7 else [rng.randint(1, 30)])
            counted.append(seq)
            same.append(seq)
        assert counted == same and len(counted) == len(same) and list(counted) == same
        assert counted != same + [1]


def test_a_months_long_stream_holds_one_run_not_every_number():
    d = Dashboard(None, "cafe")
    view = d._table("table-1", ("cafe", "table-1"))
    for seq in range(1, 200_001):
        d._event(view, {"seq": seq, "stream": "s"})
    assert view.have.runs == [(1, 200_000)] and view.seqs.runs == [(1, 200_000)]
    assert len(view.seqs) == 200_000 and view.holes() == []
    d._event(view, {"seq": 200_005, "stream": "s"})
    d._event(view, {"seq": 3, "stream": "s"})  # a repeat is not counted again
    assert view.holes() == [(200_001, 200_004)] and view.repeats == 1 and len(view.seqs) == 200_001
