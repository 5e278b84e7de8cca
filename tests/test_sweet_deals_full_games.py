"""Complete games of Sweet Deals with tracked hands, played from the rulebook by seeded
players on seeded shuffled decks (tests/sweet_deals_helpers.py): the deal, offers, bids,
ties and reveals, secret swaps, Grab & Go, Bake Sales, the deck shuffled anew, claims the
hand cannot back, and the end by Sweet Six or Close Early. The companion's final scores
must be the ones a count from the rulebook's "Scoring" gives, never its own scoring."""

from __future__ import annotations

import pytest

from companion.games.sweet_deals.parts.cards import CARDS

from sweet_deals_helpers import OpenTable, TrackedTable, independent_score, independent_winners


def names_of(hand):
    return sorted(CARDS[c].name for c in hand)


def finish(table: TrackedTable):
    table.play()
    result = table.session.result()
    assert result is not None, "the game must end"
    # What the table holds at the end is what the companion tracked (or, open hands,
    # what was scanned at the end), card for card.
    assert [sorted(h) for h in table.hands] == [sorted(h) for h in table.session.state.hands]
    assert [p.score for p in result.players] == [independent_score(h)[0] for h in table.hands]
    assert list(result.winners) == independent_winners(table.names, table.hands)
    return result


def test_a_complete_two_player_game(tmp_path):
    """Sweet Deals rulebook, "Setup": "2-3 Players: Remove 7 Chocolates, 7 Popsicles, the
    Chocolate Popsicle, 7 Pies, 7 Ice Creams, and the Pie & Ice Cream card, leaving 33
    cards." "Continue Play": "At any point, if a player gets 6 of a kind, they should
    immediately shout "Sweet Six!" and the game ends. All players then calculate their
    points. Most points wins!" "Scoring": "add up the Total Coin Value of all 7 of your
    cards. Then add any bonus points: 2 of a kind = 4 pts, 3 of a kind = 7 pts, 4 of a
    kind = 14 pts, 5 of a kind = 17 pts, 6 Sweet 6! = 22 pts"."""
    table = TrackedTable(["Ana", "Ben"], seed=11, store=tmp_path / "t.db", turns=30)
    result = finish(table)
    said = " ".join(table.said)
    assert result.reason == "sweet-six" and "Sweet Six! Ana has 6 Donut cards" in said
    assert "plays Grab & Go" in said and "takes the" in said and "starts a Bake Sale" in said
    assert "no swap this turn" in said                      # a claim the hand could not back
    # The count by hand:
    #   Ana: Cupcake 1, Donut 1, Donut 1, Donut 2, Donut 2, Donut 3, Sprinkles
    #        1+1+1+2+2+3+0 = 10 coins; Donut x5 + Sprinkles as Donut = 6: Sweet 6! 22 -> 32
    #   Ben: Cupcake 1, Cupcake 2, Cupcake 2, Cupcake 3, Cupcake 4, Grab & Go, Strudel 2
    #        1+2+2+3+4+0+2 = 14 coins; Cupcake x5: 17 -> 31
    assert names_of(table.hands[0]) == ["Cupcake 1", "Donut 1", "Donut 1", "Donut 2", "Donut 2", "Donut 3",
                                        "Sprinkles"]
    assert names_of(table.hands[1]) == ["Cupcake 1", "Cupcake 2", "Cupcake 2", "Cupcake 3", "Cupcake 4",
                                        "Grab & Go", "Strudel 2"]
    assert [p.score for p in result.players] == [32, 31] and result.winners == ("Ana",)


def test_a_complete_four_player_game(tmp_path):
    """Sweet Deals rulebook, "Setup": "4-5 Players: Remove 7 Chocolates, 7 Popsicles, and
    the Chocolate Popsicle, leaving 48 cards." "Closing Early": "at the start of your
    turn you can vote to Close Early. If all players agree (it has to be unanimous), the
    game ends immediately." "Scoring" as above; "Tie? The player with the most Coins
    wins!\""""
    table = TrackedTable(["Mum", "Dad", "Maya", "Leo"], seed=7, store=tmp_path / "t.db", turns=40)
    result = finish(table)
    said = " ".join(table.said)
    assert result.reason == "closed-early"
    assert "are tied at" in said and "shows a" in said       # ties revealed and chosen from
    assert "plays Grab & Go" in said and "takes the" in said and "no swap this turn" in said
    # The count by hand:
    #   Mum:  Grab & Go, Grab & Go, Ice Cream 4, Pie 1, Strudel 2, Strudel 3, Strudel 4
    #         0+0+4+1+2+3+4 = 14 coins; Strudel x3 7 -> 21
    #   Dad:  Donut 1, Donut 4, Grab & Go, Pie 1, Pie 2, Pie 3, Pie 4
    #         1+4+0+1+2+3+4 = 15 coins; Pie x4 14, Donut x2 4 -> 33
    #   Maya: Cupcake 2, Cupcake 3, Cupcake 4, Ice Cream 1, Ice Cream 1, Ice Cream 3, Strudel 1
    #         2+3+4+1+1+3+1 = 15 coins; Ice Cream x3 7, Cupcake x3 7 -> 29
    #   Leo:  Cupcake 2, Donut 1, Donut 2, Mochi, Pie 2, Strudel 1, Strudel 2
    #         2+1+2+5+2+1+2 = 15 coins; Strudel x2 4, Donut x2 4 -> 23
    assert names_of(table.hands[1]) == ["Donut 1", "Donut 4", "Grab & Go", "Pie 1", "Pie 2", "Pie 3", "Pie 4"]
    assert [p.score for p in result.players] == [21, 33, 29, 23] and result.winners == ("Dad",)


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 5), (4, 11), (5, 2), (6, 3), (8, 4)])
def test_more_seeded_games_end_with_the_rulebooks_count(tmp_path, players, seed):
    """The same, for other tables: the deck shuffled anew (2 players, seed 1), a tied
    bidder with no card worth the bid dropping out (4 players, seed 11), and every deck
    size "Setup" lists."""
    table = TrackedTable([f"Player {i}" for i in range(1, players + 1)], seed=seed, store=tmp_path / "t.db",
                         turns=30)
    finish(table)
    said = " ".join(table.said)
    if (players, seed) == (2, 1):
        assert table.shuffles == 1
    if (players, seed) == (4, 11):
        assert "drops out" in said


def test_a_complete_four_player_game_with_open_hands(tmp_path):
    """Open hands: nothing is scanned until the end. "Continue Play": "At any point, if a
    player gets 6 of a kind, they should immediately shout "Sweet Six!" and the game
    ends. All players then calculate their points. Most points wins! Tie? The player
    with the most Coins wins!" Players with 5 of a kind shout too early twice; their
    hands are checked and the game goes on; Leo's real Sweet Six ends it, and he does
    not win."""
    table = OpenTable(["Mum", "Dad", "Maya", "Leo"], seed=8, store=tmp_path / "t.db", turns=40)
    result = finish(table)
    said = " ".join(table.said)
    assert table.false_shouts == 2 and said.count("no Sweet Six and the game goes on") == 2
    assert result.reason == "sweet-six" and result.notes == ("Sweet Six! shouted by Leo (Cupcake).",)
    # The count by hand:
    #   Mum:  Ice Cream 1, Ice Cream 3, Pie 1, Pie 2, Pie 3, Strudel 1, Strudel 2
    #         1+3+1+2+3+1+2 = 13 coins; Pie x3 7, Ice Cream x2 4, Strudel x2 4 -> 28
    #   Dad:  Donut 1, Donut 1, Donut 2, Donut 3, Grab & Go, Strudel 1, Strudel 4
    #         1+1+2+3+0+1+4 = 12 coins; Donut x4 14, Strudel x2 4 -> 30
    #   Maya: Donut 2, Donut 4, Ice Cream 1, Pie & Ice Cream, Pie 1, Pie 4, Strudel 3
    #         2+4+1+0+1+4+3 = 15 coins; Pie & Ice Cream "counts as Pie AND Ice Cream":
    #         Pie x3 7, Ice Cream x2 4; Donut x2 4 -> 30
    #   Leo:  Cupcake 1, Cupcake 1, Cupcake 3, Sprinkles x3, Strudel 2
    #         1+1+3+0+0+0+2 = 7 coins; Cupcake x3 + 3 Sprinkles = 6: Sweet 6! 22 -> 29
    #   Dad and Maya tie on 30; Maya has more coins (15 to 12) and wins.
    assert names_of(table.hands[2]) == ["Donut 2", "Donut 4", "Ice Cream 1", "Pie & Ice Cream", "Pie 1", "Pie 4",
                                        "Strudel 3"]
    assert [p.score for p in result.players] == [28, 30, 30, 29]
    assert result.winners == ("Maya",) and result.tie_break == "coins"


@pytest.mark.parametrize("players, seed", [(2, 4), (3, 2), (6, 1)])
def test_more_open_hands_games_end_with_the_rulebooks_count(tmp_path, players, seed):
    """The same with open hands at other tables."""
    finish(OpenTable([f"Player {i}" for i in range(1, players + 1)], seed=seed, store=tmp_path / "t.db", turns=30))
