"""Fuzz every reader decoder (a short run; `bench/bench_fuzz_readers.py` runs 10,000
streams each): no exception escapes a reader's code, and no code the stream did not
carry is ever accepted as a card."""

import pytest

from companion.devices.emulated.fuzz import FUZZERS, Counts, mutate, run_all, table

SHORT_RUN = 3000  # a few thousand streams per decoder, seed fixed: the same streams every run


@pytest.fixture(scope="module")
def results():
    found = run_all(SHORT_RUN, seed=2026)
    print("\n" + table(found))
    return found


@pytest.mark.parametrize("decoder", sorted(FUZZERS))
def test_no_exception_escapes_and_nothing_unsent_is_accepted(results, decoder):
    counts: Counts = results[decoder]
    assert counts.streams == SHORT_RUN
    assert counts.escaped == 0
    assert counts.wrongly_accepted == 0
    # the run reaches every outcome, so it tests something: good codes and bad reads
    assert counts.accepted > 0 and counts.garbled + counts.rejected > 0


def test_the_oracle_catches_a_decoder_that_invents_a_code():
    """A decoder that accepted a code the stream never held would be counted."""
    from companion.devices.emulated import fuzz

    counts = Counts()
    from companion.core.events import CardScanned

    fuzz._judge(counts, [CardScanned("SRS71M", "x", 0.0)], lambda code: False)
    assert counts.accepted == 1 and counts.wrongly_accepted == 1


def test_mutate_changes_the_bytes_reproducibly():
    import random

    assert mutate(random.Random(1), b"SRS71M\r\n") == mutate(random.Random(1), b"SRS71M\r\n")
    assert {mutate(random.Random(i), b"SRS71M\r\n") for i in range(20)} != {b"SRS71M\r\n"}
