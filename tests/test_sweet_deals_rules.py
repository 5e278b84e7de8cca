"""Sweet Deals rules: the worked auction, bids and swaps, Grab & Go, Bake Sale, Close
Early and Sweet Six, with tracked and open hands."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.errors import CompanionError, IllegalAction
from companion.core.events import CardScanned, GameOver, Revealed, Touch, TurnEnded
from companion.games.sweet_deals import flow, rules
from companion.games.sweet_deals.parts.cards import CARDS, code_for
from companion.games.sweet_deals.rules import (AskClose, Bid, Choose, Done, Draw, FaceUp, Grab, GrabCard, HandCard,
                                               Offer, Pass, Reveal, ShoutSweetSix, StartBakeSale, SwapCard, Take,
                                               Vote)

C = code_for
PLAYERS = ["Shawn", "Jillian", "Tim", "April"]
SHAWN, JILLIAN, TIM, APRIL = range(4)
# Four hands from the 48-card deck (no Chocolate or Popsicle with 4 players); Tim's is the
# rulebook's example hand with its Chocolate 2 swapped for a Donut 1.
HANDS = [
    [C("Pie", 1, 2), C("Cupcake", 1, 1), C("Strudel", 1, 1), C("Donut", 1, 1), C("Ice Cream", 1, 1),
     C("Grab & Go", copy=1), C("Sprinkles", copy=1)],
    [C("Cupcake", 1, 2), C("Donut", 2, 1), C("Strudel", 3), C("Ice Cream", 3), C("Pie", 3), C("Mochi"),
     C("Grab & Go", copy=2)],
    [C("Pie", 1, 1), C("Pie", 2, 1), C("Pie & Ice Cream"), C("Ice Cream", 2, 1), C("Cupcake", 4),
     C("Donut", 1, 2), C("Strudel", 2, 1)],
    [C("Donut", 4), C("Donut", 3), C("Cupcake", 3), C("Strudel", 4), C("Ice Cream", 4), C("Pie", 4),
     C("Sprinkles", copy=2)],
]


def deal(hands=HANDS, players=PLAYERS, **options) -> rules.State:
    s = rules.new_game(players, **options)
    for seat, hand in enumerate(hands):
        for code in hand:
            s, _ = rules.step(s, HandCard(seat, code))
    return s


def play(s, *actions):
    events = []
    for a in actions:
        s, ev = rules.step(s, a)
        events.extend(ev)
    return s, events


def refused(s, action, match):
    """The action is illegal, and checking it changes nothing."""
    before = s
    with pytest.raises(IllegalAction, match=match):
        rules.check(s, action)
    with pytest.raises(IllegalAction):
        rules.step(s, action)
    assert s == before


# ---------------------------------------------------------------- set-up

def test_new_game_checks_players_and_options():
    with pytest.raises(ValueError, match="2 to 8"):
        rules.new_game(["Ana"])
    with pytest.raises(ValueError, match="2 to 8"):
        rules.new_game([f"P{i}" for i in range(9)])
    with pytest.raises(ValueError, match="mode"):
        rules.new_game(["Ana", "Ben"], mode="closed")
    with pytest.raises(ValueError, match="hybrid"):
        rules.new_game(["Ana", "Ben"], hybrid="xor")
    with pytest.raises(ValueError, match="different name"):
        rules.new_game(["Ana", "Ana"])
    assert len(rules.new_game(["Ana", "Ben", "Cy"]).deck) == 33
    assert "Take out all 7 Chocolate" in rules.setup_message(rules.new_game(PLAYERS))


def test_deal_takes_exactly_7_cards_per_hand():
    s = deal()
    assert s.phase == rules.OFFER and [len(h) for h in s.hands] == [7, 7, 7, 7]
    partial = deal([HANDS[0]])
    refused(partial, HandCard(SHAWN, C("Donut", 3, 1)), "already has 7 cards")
    refused(partial, HandCard(JILLIAN, HANDS[0][0]), "already in a hand")
    refused(partial, HandCard(JILLIAN, C("Chocolate", 2)), "not used with 4 players")


# ---------------------------------------------------------------- the worked auction

def test_shawns_auction_tracked_hands():
    """Rulebook, "On Your Turn", example: Jillian 1, Tim 2, April passes, Jillian matches
    2, Tim does not raise; they reveal a Donut and a Strudel; Shawn takes the Strudel."""
    s = deal()
    s, ev = play(s, Offer(SHAWN, "Pie"), Bid(JILLIAN, 1), Bid(TIM, 2), Pass(APRIL), Bid(JILLIAN, 2))
    assert s.phase == rules.BID and s.bidding.to_act == TIM
    s, ev = play(s, Pass(TIM))
    assert s.phase == rules.REVEAL and s.tied == (JILLIAN, TIM) and s.price == 2
    s, ev = play(s, Reveal(JILLIAN, C("Donut", 2, 1)), Reveal(TIM, C("Strudel", 2, 1)))
    assert all(isinstance(e, Revealed) for e in ev)
    assert "Jillian shows a Donut 2" in ev[0].message and "Tim shows a Strudel 2" in ev[1].message
    assert s.phase == rules.CHOOSE
    s, ev = play(s, Choose(TIM), SwapCard(SHAWN, C("Pie", 1, 2)))
    assert C("Strudel", 2, 1) in s.hands[SHAWN] and C("Pie", 1, 2) not in s.hands[SHAWN]
    assert C("Pie", 1, 2) in s.hands[TIM] and C("Strudel", 2, 1) not in s.hands[TIM]
    assert s.hands[JILLIAN] == tuple(HANDS[JILLIAN])          # Jillian keeps her Donut
    assert isinstance(ev[-1], TurnEnded) and s.active == JILLIAN and s.turn == 2
    assert all(len(h) == 7 for h in s.hands)


def test_a_tied_bidder_with_no_card_worth_the_bid_drops_out_and_the_others_go_on():
    """Rulebook, "On Your Turn": "players with tied high bids must reveal the desserts on
    their cards. The player offering gets to choose which card they want." Jillian and
    Tim tie at 3, and neither holds a card worth 3: bids are checked when the card is
    shown, so each taps Pass and drops out; with nobody left, the offered card goes face
    up as when everyone passes. Once a card is face up Undo cannot pass it, so Pass is
    the way on. A Pass is never refused because of what the hand holds: that refusal
    would tell the table the hand has the card."""
    s = deal()
    s, _ = play(s, Offer(SHAWN, "Pie"), Bid(JILLIAN, 3), Bid(TIM, 3), Pass(APRIL), Pass(JILLIAN))
    assert s.phase == rules.REVEAL and s.tied == (JILLIAN, TIM)
    refused(s, Reveal(JILLIAN, C("Donut", 2, 1)), "not worth 3 coins")
    s, ev = play(s, Pass(JILLIAN))
    assert ev[0].message == "Jillian has no card worth 3 coins and drops out."
    assert s.phase == rules.REVEAL and s.tied == (TIM,)
    refused(s, Reveal(TIM, C("Cupcake", 4)), "not worth 3 coins")
    s, ev = play(s, Pass(TIM))                     # Tim has no 3 either: nobody showed a card
    assert s.phase == rules.DISCARD and "put the Pie face up" in ev[0].message
    s, ev = play(s, Pass(SHAWN))                   # Shawn holds a Pie, but a Pass is not checked
    assert s.phase == rules.OFFER and s.active == JILLIAN and "no Pie to put face up" in ev[0].message
    assert [len(h) for h in s.hands] == [7, 7, 7, 7]


def test_shawns_auction_open_hands():
    s = rules.new_game(PLAYERS, mode="open")
    s, _ = play(s, Offer(SHAWN, "Pie"), Bid(JILLIAN, 1), Bid(TIM, 2), Pass(APRIL), Bid(JILLIAN, 2), Pass(TIM))
    assert s.phase == rules.CHOOSE and s.tied == (JILLIAN, TIM)
    refused(s, Choose(APRIL), "April is not tied")
    s, ev = play(s, Choose(TIM))
    assert "Shawn takes Tim's card" in ev[0].message and s.active == JILLIAN


def test_one_high_bidder_wins_and_swaps_secretly():
    s = deal()
    s, ev = play(s, Offer(SHAWN, "Pie"), Bid(JILLIAN, 1), Bid(TIM, 2), Pass(APRIL), Pass(JILLIAN))
    assert s.phase == rules.SWAP and s.winner == TIM and s.price == 2
    s, ev = play(s, SwapCard(TIM, C("Pie", 2, 1)), SwapCard(SHAWN, C("Pie", 1, 2)))
    assert C("Pie", 2, 1) in s.hands[SHAWN] and C("Pie", 1, 2) in s.hands[TIM]
    assert not any(isinstance(e, Revealed) for e in ev)
    said = " ".join(e.message for e in ev)
    assert "Shawn and Tim have swapped" in said and "Pie 1" not in said and "Pie 2" not in said


def test_everyone_passes_the_dessert_goes_face_up_and_a_new_card_is_drawn():
    s = deal()
    s, _ = play(s, Offer(SHAWN, "Pie"), Pass(JILLIAN), Pass(TIM), Pass(APRIL))
    assert s.phase == rules.DISCARD
    refused(s, FaceUp(SHAWN, C("Donut", 1, 1)), "not the Pie")
    s, ev = play(s, FaceUp(SHAWN, C("Pie", 1, 2)))
    assert isinstance(ev[0], Revealed) and s.discards == (C("Pie", 1, 2),) and s.phase == rules.DRAW
    refused(s, Draw(SHAWN, C("Pie", 1, 2)), "face up on the discard pile")
    refused(s, Draw(SHAWN, HANDS[TIM][0]), "in a hand")
    refused(s, Draw(SHAWN, C("Chocolate", 1, 1)), "not used with 4 players")
    refused(s, Draw(JILLIAN, C("Pie", 1, 3)), "Shawn who draws")
    s, ev = play(s, Draw(SHAWN, C("Pie", 1, 3)))
    assert C("Pie", 1, 3) in s.hands[SHAWN] and len(s.hands[SHAWN]) == 7 and s.active == JILLIAN


# ---------------------------------------------------------------- bids and swaps refused

def test_bids_refused_for_each_reason():
    s = deal()
    refused(s, Bid(JILLIAN, 1), "Not now")                        # nothing offered yet
    s, _ = play(s, Offer(SHAWN, "Pie"))
    refused(s, Bid(SHAWN, 1), "not your turn")                    # the offerer never bids
    refused(s, Bid(TIM, 2), "not your turn")                      # Jillian bids first
    refused(s, Bid(JILLIAN, 6), "0 to 5")
    refused(s, Bid(JILLIAN, -1), "0 to 5")
    # Tracked: Jillian has no 4-coin card, but the table hears only "4" ("Only say the coin
    # value when bidding"): her swap card is checked when she scans it (issue 21, item 10).
    assert rules.step(s, Bid(JILLIAN, 4))[0].bidding.high == 4
    s, _ = play(s, Bid(JILLIAN, 2))
    refused(s, Bid(TIM, 1), "high bid is 2")                      # must match or raise
    s, _ = play(s, Bid(TIM, 2), Bid(APRIL, 3))
    refused(s, Bid(JILLIAN, 2), "high bid is 3")
    s, _ = play(s, Pass(JILLIAN))                                 # Jillian is out
    assert s.bidding.to_act == TIM
    refused(s, Bid(JILLIAN, 3), "not your turn")                  # out for good
    s, _ = play(s, Pass(TIM))
    assert s.phase == rules.SWAP and s.winner == APRIL            # out-bid players dropped out
    refused(s, Bid(JILLIAN, 4), "Not now")


def test_holding_the_high_bid_you_raise_or_stand():
    s = deal(mode="tracked")
    s, _ = play(s, Offer(SHAWN, "Pie"), Bid(JILLIAN, 1), Bid(TIM, 1), Pass(APRIL))
    assert s.bidding.to_act == JILLIAN
    refused(s, Bid(JILLIAN, 1), "already bid 1")
    s, _ = play(s, Bid(JILLIAN, 2))
    assert s.bidding.to_act == TIM


def test_offers_refused_for_each_reason():
    s = deal()
    refused(s, Offer(JILLIAN, "Pie"), "Shawn's turn")
    refused(s, Offer(SHAWN, "Chocolate"), "no Chocolate in the deck for 4")
    # Tracked: Shawn has no Mochi, but "say (only) the name of it": the offer stands until
    # the card is scanned (issue 21, item 10).
    assert rules.step(s, Offer(SHAWN, "Mochi"))[0].offer == "Mochi"


def test_swaps_refused_for_each_reason():
    s = deal()
    s, _ = play(s, Offer(SHAWN, "Pie"), Bid(JILLIAN, 1), Bid(TIM, 2), Pass(APRIL), Pass(JILLIAN))
    refused(s, SwapCard(TIM, C("Cupcake", 4)), "not worth 2 coins")          # not the bid
    refused(s, SwapCard(TIM, C("Donut", 2, 1)), "not in Tim's hand")          # Jillian's card
    refused(s, SwapCard(APRIL, C("Donut", 4)), "Only Shawn and Tim swap")
    refused(s, SwapCard(SHAWN, C("Donut", 1, 1)), "not the Pie you offered")
    refused(s, SwapCard(SHAWN, C("Pie", 1, 1)), "not in Shawn's hand")       # Tim's Pie
    s, _ = play(s, SwapCard(SHAWN, C("Pie", 1, 2)))
    refused(s, SwapCard(SHAWN, C("Pie", 1, 2)), "already scanned")
    s, _ = play(s, SwapCard(TIM, C("Ice Cream", 2, 1)))
    assert C("Ice Cream", 2, 1) in s.hands[SHAWN] and C("Pie", 1, 2) in s.hands[TIM]


def test_reveal_refused_unless_a_tied_bidder_shows_a_card_worth_the_bid():
    s = deal()
    s, _ = play(s, Offer(SHAWN, "Pie"), Bid(JILLIAN, 1), Bid(TIM, 2), Pass(APRIL), Bid(JILLIAN, 2), Pass(TIM))
    refused(s, Reveal(APRIL, C("Donut", 4)), "Only Jillian and Tim")
    refused(s, Reveal(JILLIAN, C("Mochi")), "not worth 2 coins")
    refused(s, Reveal(JILLIAN, C("Strudel", 2, 1)), "not in Jillian's hand")


# ---------------------------------------------------------------- Grab & Go

def test_grab_and_go_interrupts_bidding():
    s = deal()
    s, _ = play(s, Offer(SHAWN, "Pie"), Bid(JILLIAN, 1))
    refused(s, Grab(SHAWN), "you offered")
    # Tim holds no Grab & Go: the grab is checked when he scans it (issue 21, item 10).
    tim, _ = play(s, Grab(TIM))
    refused(tim, SwapCard(TIM, C("Cupcake", 4)), "not a Grab & Go")
    s, ev = play(s, Grab(JILLIAN))
    assert s.phase == rules.SWAP and s.winner == JILLIAN and s.grab
    refused(s, SwapCard(JILLIAN, C("Mochi")), "not a Grab & Go")
    s, _ = play(s, SwapCard(JILLIAN, C("Grab & Go", copy=2)), SwapCard(SHAWN, C("Pie", 1, 2)))
    assert C("Grab & Go", copy=2) in s.hands[SHAWN] and C("Pie", 1, 2) in s.hands[JILLIAN]
    assert s.active == JILLIAN


def test_grab_and_go_only_interrupts_bidding_or_a_bake_sale():
    refused(deal(), Grab(JILLIAN), "only interrupt")


# ---------------------------------------------------------------- Bake Sale

def test_bake_sale_step_by_step_with_tracked_hands():
    s = deal()
    s, _ = play(s, StartBakeSale(SHAWN))
    assert s.phase == rules.BAKE_DRAW and s.bake_used == (True, False, False, False)
    s, _ = play(s, Draw(SHAWN, C("Cupcake", 2, 1)))
    assert len(s.hands[SHAWN]) == 8 and s.phase == rules.BAKE_DISCARD
    refused(s, FaceUp(JILLIAN, C("Mochi")), "Shawn who puts")
    s, ev = play(s, FaceUp(SHAWN, C("Ice Cream", 1, 1)))
    assert isinstance(ev[0], Revealed) and s.phase == rules.BAKE_TAKE and s.bake.decider == JILLIAN
    refused(s, Take(TIM), "Jillian's turn to take")
    s, _ = play(s, Pass(JILLIAN), Take(TIM))
    assert C("Ice Cream", 1, 1) in s.hands[TIM] and len(s.hands[TIM]) == 8 and s.discards == ()
    s, _ = play(s, FaceUp(TIM, C("Donut", 1, 2)))
    assert s.bake.decider == APRIL and s.bake.top_owner == TIM
    s, _ = play(s, Pass(APRIL), Pass(SHAWN))
    assert s.bake.decider == JILLIAN         # the dessert changed: Jillian may take it now
    s, ev = play(s, Pass(JILLIAN))
    assert "Bake Sale is over" in ev[0].message and s.active == JILLIAN and s.bake is None
    assert all(len(h) == 7 for h in s.hands)


def test_bake_sale_once_per_player_per_game():
    s = rules.new_game(PLAYERS, mode="open")
    s, _ = play(s, StartBakeSale(SHAWN), Done(SHAWN), Pass(JILLIAN), Pass(TIM), Pass(APRIL))
    assert s.active == JILLIAN and s.bake_used == (True, False, False, False)
    for seat in (JILLIAN, TIM, APRIL):        # a round of offers nobody bids on
        others = [Pass((seat + i) % 4) for i in (1, 2, 3)]
        s, _ = play(s, Offer(seat, "Donut"), *others)
    assert s.active == SHAWN
    refused(s, StartBakeSale(SHAWN), "Shawn has had their Bake Sale")
    refused(s, StartBakeSale(JILLIAN), "Shawn's turn")
    s, _ = play(s, Offer(SHAWN, "Donut"), Pass(JILLIAN), Pass(TIM), Pass(APRIL))
    s, _ = play(s, StartBakeSale(JILLIAN))
    assert s.bake_used == (True, True, False, False)


def test_grab_and_go_interrupts_a_bake_sale():
    s = deal()
    s, _ = play(s, StartBakeSale(SHAWN), Draw(SHAWN, C("Cupcake", 2, 1)), FaceUp(SHAWN, C("Ice Cream", 1, 1)),
                Pass(JILLIAN))
    assert s.bake.decider == TIM
    refused(s, Grab(SHAWN), "put that card face up yourself")
    refused(s, Grab(TIM), "your turn")
    s, _ = play(s, Grab(JILLIAN))
    assert s.phase == rules.BAKE_GRAB
    refused(s, GrabCard(JILLIAN, C("Mochi")), "not a Grab & Go")
    s, ev = play(s, GrabCard(JILLIAN, C("Grab & Go", copy=2)))
    assert s.discards[-1] == C("Grab & Go", copy=2) and C("Ice Cream", 1, 1) in s.hands[JILLIAN]
    assert s.bake.decider == TIM and s.bake.top_owner == JILLIAN   # Tim may take the Grab & Go
    refused(s, Grab(APRIL), "already a Grab & Go")
    s, _ = play(s, Pass(TIM), Pass(APRIL), Pass(SHAWN))
    assert s.active == JILLIAN and all(len(h) == 7 for h in s.hands)


# ---------------------------------------------------------------- Close Early

def test_close_early_needs_every_vote():
    s = deal()
    refused(s, AskClose(JILLIAN), "Shawn's turn")
    s, _ = play(s, AskClose(SHAWN), Vote(JILLIAN, True))
    refused(s, Vote(APRIL, True), "Tim's vote")
    s, ev = play(s, Vote(TIM, False))
    assert s.phase == rules.OFFER and not s.over and "goes on" in ev[0].message
    refused(s, AskClose(SHAWN), "said no this turn")
    s, _ = play(s, Offer(SHAWN, "Pie"))
    refused(s, AskClose(SHAWN), "start of your turn")
    s, _ = play(s, Pass(JILLIAN), Pass(TIM), Pass(APRIL), FaceUp(SHAWN, C("Pie", 1, 2)), Draw(SHAWN, C("Pie", 1, 3)))
    s, ev = play(s, AskClose(JILLIAN), Vote(TIM, True), Vote(APRIL, True))
    assert not s.over
    s, ev = play(s, Vote(SHAWN, True))
    assert s.over and s.ended == rules.CLOSED_EARLY
    assert isinstance(ev[-1], GameOver) and any(isinstance(e, Revealed) for e in ev)
    r = rules.result(s)
    assert r.reason == "closed-early" and len(r.players) == 4


def test_close_early_with_open_hands_then_scoring_scans():
    s = rules.new_game(["Ana", "Ben"], mode="open")
    s, _ = play(s, AskClose(0), Vote(1, True))
    assert s.phase == rules.SCORE and rules.result(s) is None
    hands = [[C("Strudel", 1, 1), C("Strudel", 1, 2), C("Strudel", 1, 3), C("Strudel", 2, 1), C("Cupcake", 4),
              C("Cupcake", 3), C("Mochi")],
             [C("Donut", 1, 1), C("Donut", 1, 2), C("Donut", 4), C("Cupcake", 1, 1), C("Cupcake", 2, 1),
              C("Sprinkles", copy=1), C("Grab & Go", copy=1)]]
    for seat, hand in enumerate(hands):
        for code in hand:
            s, ev = rules.step(s, HandCard(seat, code))
    assert s.over and isinstance(ev[-1], GameOver)
    r = rules.result(s)
    assert [p.score for p in r.players] == [rules.scoring.score_hand(h).total for h in hands]


# ---------------------------------------------------------------- Sweet Six

SIX_HANDS = [
    HANDS[0],
    HANDS[1],
    [C("Pie", 1, 1), C("Pie", 1, 3), C("Pie", 2, 1), C("Pie & Ice Cream"), C("Sprinkles", copy=2),
     C("Cupcake", 4), C("Strudel", 2, 1)],
    [C("Donut", 4), C("Donut", 3), C("Cupcake", 3), C("Strudel", 4), C("Ice Cream", 4), C("Pie", 4),
     C("Pie", 2, 2)],
]


def test_sweet_six_ends_the_game_at_once():
    s = deal(SIX_HANDS)
    assert s.phase == rules.OFFER
    s, _ = play(s, Offer(SHAWN, "Pie"), Pass(JILLIAN), Bid(TIM, 4), Pass(APRIL))
    s, ev = play(s, SwapCard(TIM, C("Cupcake", 4)), SwapCard(SHAWN, C("Pie", 1, 2)))
    assert s.over and s.ended == "sweet-six" and s.six == (TIM, "Pie")
    assert not any(isinstance(e, TurnEnded) for e in ev)
    assert "Sweet Six! Tim has 6 Pie" in " ".join(e.message for e in ev)
    r = rules.result(s)
    assert r.reason == "sweet-six" and "Tim" in r.notes[0]
    tim = r.players[TIM]
    assert tim.breakdown["bonuses"]["Pie"] == {"cards": 6, "points": 22}
    refused(s, Offer(JILLIAN, "Pie"), "game is over")


def test_sweet_six_dealt_ends_the_game_before_the_first_turn():
    hands = [list(h) for h in SIX_HANDS]
    hands[TIM][-1], hands[SHAWN][0] = hands[SHAWN][0], hands[TIM][-1]   # Tim is dealt 6 Pie
    s = deal(hands)
    assert s.over and s.six == (TIM, "Pie")


def test_shouting_sweet_six_with_open_hands_ends_bidding_at_once():
    s = rules.new_game(["Ana", "Ben", "Cy"], mode="open")
    s, _ = play(s, Offer(0, "Donut"), Bid(1, 1))
    s, ev = play(s, ShoutSweetSix(2))
    assert s.phase == rules.SCORE and s.ended == "sweet-six" and s.bidding is None
    refused(rules.new_game(["Ana", "Ben"]), ShoutSweetSix(0), "spots Sweet Six by itself")


def test_cards_are_conserved_through_a_busy_turn():
    s = deal()
    s, _ = play(s, StartBakeSale(SHAWN), Draw(SHAWN, C("Cupcake", 2, 1)), FaceUp(SHAWN, C("Ice Cream", 1, 1)),
                Take(JILLIAN), FaceUp(JILLIAN, C("Mochi")), Pass(TIM), Pass(APRIL), Pass(SHAWN))
    everywhere = [c for h in s.hands for c in h] + list(s.discards) + list(s.draw_pile)
    assert sorted(everywhere) == sorted(s.deck)
    assert all(CARDS[c] for c in everywhere)


# ---------------------------------------------------------------- random play

TAPS = ["offer pie", "offer donut", "offer cupcake", "offer strudel", "offer ice cream", "offer mochi",
        "offer sprinkles", "offer grab & go", "offer pie & ice cream", "bid 0", "bid 1", "bid 2", "bid 3",
        "bid 4", "bid 5", "pass", "grab 1", "grab 2", "grab 3", "grab 4", "take 1", "take 2", "take 3",
        "take 4", "take", "bake", "close", "yes", "no", "done", "six 2"]


def _accepted(s, item):
    try:
        _, action, _ = flow.read(s, None, item)
        return rules.step(s, action)
    except CompanionError:
        return None


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["tracked", "open"]))
def test_random_play_keeps_every_card_and_never_gets_stuck(seed, mode):
    rng = random.Random(seed)
    s = deal() if mode == "tracked" else rules.new_game(PLAYERS, mode="open")
    for _ in range(80):
        if s.over:
            break
        options = [Touch(t, 0.0) for t in TAPS] + [CardScanned(c, "scanner", 0.0) for c in s.deck]
        moves = [m for m in (_accepted(s, item) for item in options) if m is not None]
        assert moves, f"nothing is accepted in phase {s.phase}"
        s, _ = rng.choice(moves)
        if s.tracked:
            held = [c for h in s.hands for c in h]
            assert sorted(held + list(s.discards) + list(s.draw_pile)) == sorted(s.deck)
            assert len(set(held)) == len(held)
            assert all(6 <= len(h) <= 8 for h in s.hands)
            if s.phase == rules.OFFER:
                assert all(len(h) == 7 for h in s.hands)


def test_the_hybrid_or_option_reaches_the_final_score():
    s = rules.new_game(["Ana", "Ben"], mode="open", hybrid="or")
    s, _ = play(s, AskClose(0), Vote(1, True))
    hand = [C("Strudel Cupcake"), C("Strudel", 1, 1), C("Strudel", 1, 2), C("Cupcake", 1, 1), C("Donut", 4),
            C("Donut Strudel"), C("Mochi")]
    other = [C("Donut", 1, 1), C("Donut", 1, 2), C("Cupcake", 2, 1), C("Cupcake", 2, 2), C("Sprinkles", copy=1),
             C("Grab & Go", copy=1), C("Strudel", 4)]
    for seat, h in enumerate([hand, other]):
        for code in h:
            s, _ = rules.step(s, HandCard(seat, code))
    ana = rules.result(s).players[0]
    # "or": Strudel Cupcake and Donut Strudel both count as Strudel (4 Strudel = 14, Cupcake 1),
    # not both desserts each ("and" would be Strudel 4 + Cupcake 2 + Donut 2 = 14 + 4 + 4).
    assert ana.breakdown["bonuses"] == {"Strudel": {"cards": 4, "points": 14}}
    assert {c["as"] for c in ana.breakdown["counted_as"]} == {"Strudel"}
    assert rules.scoring.score_hand(hand, "and").bonus == 22


def test_sweet_six_says_how_many_the_hand_really_has():
    """A dealt hand of 7 Cupcakes is announced with 7, as the score sheet counts it
    ("Cupcake x7"), not 6."""
    cupcakes = [code for code, c in CARDS.items() if c.name.startswith("Cupcake ")]
    spare = iter(c for c in HANDS[TIM] if c not in cupcakes)   # Tim's own cards go to the others
    hands = [[c if c not in cupcakes else next(spare) for c in h] for h in HANDS]
    hands[TIM] = cupcakes[:7]
    others = [c for h in hands[:TIM] + hands[TIM + 1:] for c in h]
    assert not set(cupcakes[:7]) & set(others)
    said = []
    s = rules.new_game(PLAYERS)
    for seat, hand in enumerate(hands):
        for code in hand:
            if not s.over:
                s, ev = rules.step(s, HandCard(seat, code))
                said += [e.message for e in ev]
    assert s.over and s.six == (TIM, "Cupcake")
    words = " ".join(said)
    assert "Tim has 7 Cupcake cards" in words and "6 Cupcake" not in words
    assert dict(rules.result(s).players[TIM].sheet.counts)["Cupcake"] == 7
