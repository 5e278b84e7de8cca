"""Property tests: random legal and illegal action sequences keep Sugarrr!'s invariants."""

import json
from dataclasses import asdict

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.errors import IllegalAction
from companion.games.sugarrr import rules
from companion.games.sugarrr.parts.cards import CARDS, FRUIT_DECK_SIZE

ALL = sorted(CARDS)
FRUIT_DECK = [c for c in ALL if CARDS[c].kind != "saur"]
SAURS = [c for c in ALL if CARDS[c].kind == "saur"]


def snapshot(state):
    return json.dumps(asdict(state), sort_keys=True)


def candidates(state, draw):
    """A mix of actions: some legal, many not."""
    return [
        rules.StartColumn(draw(st.sampled_from(FRUIT_DECK + SAURS[:3]))),
        rules.PlayCard(draw(st.sampled_from(FRUIT_DECK)), draw(st.integers(-1, 5))),
        rules.ChooseColumn(draw(st.integers(-1, 5))),
        rules.Done(),
        rules.TakeSaur(draw(st.sampled_from(SAURS + FRUIT_DECK[:3]))),
        rules.Swap(draw(st.integers(0, 6))),
        rules.Pass(),
        rules.HandCard(draw(st.sampled_from(FRUIT_DECK))),
        rules.HandDone(),
        rules.SetDeck(draw(st.sampled_from([0, 1, 3, 200]))),
    ]


def check_invariants(state):
    places = rules.all_places(state)  # raises when a card is in two places
    assert sum(1 for c in places if CARDS[c].kind == "saur") == 30
    assert all(CARDS[c].kind == "saur" for c in state.valley)
    seen_fruit = sum(1 for c in places if CARDS[c].kind != "saur")
    assert seen_fruit <= FRUIT_DECK_SIZE
    assert state.deck >= 0 and 0 <= state.market <= rules.MARKET_ROW
    assert len(state.columns) == rules.COLUMNS
    assert state.attract_left >= 0


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_sequences_keep_invariants_and_rejections_change_nothing(data):
    state = rules.new_game(["A", "B", "C"][: data.draw(st.integers(2, 3))])
    for _ in range(data.draw(st.integers(20, 120))):
        options = candidates(state, data.draw)
        legal = []
        for a in options:
            try:
                rules.check(state, a)
                legal.append(a)
            except IllegalAction:
                pass
        if legal and data.draw(st.integers(0, 9)) < 8:
            action = data.draw(st.sampled_from(legal))
        else:
            action = data.draw(st.sampled_from(options))
        before = snapshot(state)
        scores_before = [rules.score_pile(n, p).total for n, p in zip(state.players, state.piles)]
        try:
            new, events = rules.step(state, action)
        except IllegalAction as err:
            assert err.message  # every rejection says why
            assert snapshot(state) == before
            continue
        # Score piles change only for the active player, and only through a rule event.
        for i, (old_pile, new_pile) in enumerate(zip(state.piles, new.piles)):
            if old_pile != new_pile:
                assert i == state.active
                assert isinstance(action, (rules.Done, rules.TakeSaur, rules.HandDone))
                assert set(old_pile) <= set(new_pile)  # nothing ever leaves a score pile
        scores_after = [rules.score_pile(n, p).total for n, p in zip(new.players, new.piles)]
        assert all(a >= b for a, b in zip(scores_after, scores_before))
        state = new
        check_invariants(state)
        if state.phase == rules.OVER:
            assert any(isinstance(e, rules.GameOver) for e in events)
            break
