"""Sugar Heist phases, piles, the end and the count: every stash, swap and purchase rule
and its rejection, with a message a player understands."""

from dataclasses import replace

import pytest

from companion.games.sugar_heist import rules
from companion.games.sugar_heist.state import (BUY, DISCARD, FINAL, OVER, REVEAL, STASH, SWAP, BuyBattle,
                                                BuyVault, CantStash, Combine, Done, FinalReveal, GameOver, Move,
                                                Play, Reveal, Stash, Take, Trade, TurnEnded, VaultUnlocked)

from sugar_heist_helpers import (rejected, CR, FB, GG, LS, NB, PS, SB, at, battle, candies, candy, conserved, game, holding,
                                 messages, play, with_vault)

ZACH, PAM, ALEX = 0, 1, 2


def test_new_game_deals_six_candies_and_two_vaults_each():
    s = game()
    assert s.hands == (6, 6, 6) and all(len(v) == 2 for v in s.vaults)
    assert s.draw == 86 - 18 and s.vault_pile == 14 - 6 and conserved(s)
    with pytest.raises(ValueError, match="2 to 4"):
        rules.new_game(["Solo"])
    with pytest.raises(ValueError, match="no two the same"):
        rules.new_game(["Ana", "Ana"])


# ---------------------------------------------------------------- Phase 1

def test_stashes_are_pairs_of_one_flavour():
    rejected(game(), Stash((candy(CR, 1), candy(NB, 1)), 0), "not a pair")
    rejected(game(), Stash((candy(CR, 1), candy(CR, 1)), 0), "same Chocolate Rockets twice")


def test_pure_sugar_pairs_with_any_flavour_and_takes_its_lock_number():
    s, _ = rules.step(game(), Stash((candy(PS, 1), candy(SB, 1)), 0))
    v = s.vaults[ZACH][0]
    assert v.flavour == SB and v.lock_number == 4
    s, events = rules.step(s, Stash((candy(SB, 2), candy(PS, 2)), 0))
    assert s.vaults[ZACH][0].locked


def test_two_pure_sugars_need_a_declared_flavour():
    rejected(game(), Stash((candy(PS, 1), candy(PS, 2)), 0), "which flavour")
    s, _ = rules.step(game(), Stash((candy(PS, 1), candy(PS, 2)), 0, GG))
    assert s.vaults[ZACH][0].flavour == GG
    s2 = with_vault(game(), ZACH, 1, candies(FB, 1, 2))
    s2, _ = rules.step(s2, Stash((candy(PS, 1), candy(PS, 2)), 1))
    assert s2.vaults[ZACH][1].flavour == FB and s2.vaults[ZACH][1].count == 4


def test_stashed_cards_come_from_the_hand():
    s = with_vault(game(), PAM, 0, candies(CR, 1, 2))
    rejected(s, Stash((candy(CR, 1), candy(CR, 3)), 0), "in Pam's vault 1", "not in a hand")
    rejected(s, Stash((battle("Mom", 1), candy(CR, 3)), 0), "Candy Cards")


def test_one_flavour_per_vault_changing_it_discards_the_old_candy():
    s = with_vault(game(), ZACH, 0, candies(NB, 1, 6))
    rejected(s, Stash((candy(FB, 1), candy(FB, 2)), 0), "discards them")  # never unasked
    s, events = rules.step(s, Stash((candy(FB, 1), candy(FB, 2)), 0, discard=True))
    assert s.vaults[ZACH][0].flavour == FB and s.vaults[ZACH][0].count == 2
    assert len(s.discard) == 6 and conserved(s)


def test_combining_vaults_of_the_same_flavour():
    s = with_vault(game(), ZACH, 0, candies(CR, 1, 4))
    s = with_vault(s, ZACH, 1, candies(CR, 5, 4))
    s, events = rules.step(s, Combine(1, 0))
    assert s.vaults[ZACH][0].count == 8 and s.vaults[ZACH][0].locked and s.vaults[ZACH][1].candies == ()
    assert "combines" in messages(events)
    s = with_vault(s, ZACH, 1, candies(FB, 1, 2))
    rejected(s, Combine(1, 0), "same flavour")
    rejected(s, Combine(1, 5), "no vault 6")


def test_cant_stash_draws_two_and_skips_the_other_phases():
    s = replace(game(), hands=(4, 6, 6), draw=70)
    s, events = rules.step(s, CantStash())
    assert s.active == PAM and s.phase == STASH and s.hands[ZACH] == 6 and s.draw == 68
    assert "can't stash and draws 2" in messages(events) and conserved(s)


def test_cant_stash_then_discard_down_to_six():
    s, events = rules.step(game(), CantStash())
    assert s.stage == DISCARD and s.hands[ZACH] == 8 and "discard 2" in messages(events)
    rejected(s, Done(), "discard")
    s, _ = rules.step(s, Take(candy(NB, 1)))
    s, events = rules.step(s, Take(candy(NB, 2)))
    assert s.active == PAM and s.stage == STASH and s.hands[ZACH] == 6 and conserved(s)
    assert any(isinstance(e, TurnEnded) for e in events)


def test_cant_stash_after_stashing_and_done_needs_a_pair():
    rejected(game(), Done(), "at least one pair")
    s, _ = rules.step(game(), Stash((candy(CR, 1), candy(CR, 2)), 0))
    rejected(s, CantStash(), "already stashed")


# ---------------------------------------------------------------- Phase 2

def _to_swap(s=None):
    s = s or game()
    s, _ = play(s, Stash((candy(CR, 1), candy(CR, 2)), 0), Done(), Reveal(candy(FB, 1)), Reveal(candy(GG, 1)))
    return s


def test_two_cards_are_revealed():
    s, _ = play(game(), Stash((candy(CR, 1), candy(CR, 2)), 0), Done())
    assert s.phase == REVEAL
    rejected(s, Reveal(candy(CR, 1)), "Zach's vault 1")
    s = _to_swap()
    assert s.phase == SWAP and s.draw == 66 and conserved(s)


def test_a_swap_must_include_the_active_player():
    s = _to_swap()
    rejected(s, Trade((Move(candy(NB, 1), PAM, ALEX),)), "must include Zach")
    s, _ = rules.step(s, Trade((Move(candy(NB, 1), PAM, ZACH), Move(candy(NB, 2), ZACH, PAM))))
    assert s.hands == (4, 6, 6)


def test_a_swap_never_uses_a_card_in_a_vault():
    s = _to_swap()
    rejected(s, Trade((Move(candy(CR, 1), ZACH, PAM),)), "stashed in a vault")


def test_a_swap_uses_revealed_cards_and_hands_only():
    s = _to_swap()
    rejected(s, Trade((Move(candy(FB, 2), None, PAM),)), "not one of the revealed")
    rejected(s, Trade((Move(candy(FB, 1), None, PAM), Move(candy(FB, 1), None, ALEX))), "twice")
    s, _ = rules.step(s, Trade((Move(candy(FB, 1), None, PAM), Move(candy(NB, 3), PAM, ZACH))))
    s, _ = rules.step(s, Done())
    assert s.hands == (4 + 1 + 1, 6, 6) and s.phase == BUY and conserved(s)


# ---------------------------------------------------------------- Phase 3

def _buying():
    s = at(game(), BUY)
    s = with_vault(s, ZACH, 0, candies(CR, 1, 8))
    return s


def test_a_purchase_is_paid_from_your_own_vault_and_can_unlock_it():
    s = _buying()
    s = with_vault(s, PAM, 0, candies(FB, 1, 2))
    rejected(s, BuyBattle(candy(FB, 1), battle("Mom", 1)), "own vaults", "Pam's vault 1")
    rejected(s, BuyBattle(candy(NB, 1), battle("Mom", 1)), "own vaults", "in a hand")
    s, events = rules.step(s, BuyBattle(candy(CR, 1), battle("Mom", 1)))
    assert not s.vaults[ZACH][0].locked and any(isinstance(e, VaultUnlocked) for e in events)
    assert candy(CR, 1) in s.discard and s.held[ZACH] == (battle("Mom", 1),) and conserved(s)


def test_at_most_two_purchases_a_turn():
    s = _buying()
    s, _ = play(s, BuyBattle(candy(CR, 1), battle("Mom", 1)), BuyVault(candy(CR, 2)))
    assert len(s.vaults[ZACH]) == 3 and s.vault_pile == 7
    rejected(s, BuyBattle(candy(CR, 3), battle("Mom", 2)), "at most 2")


def test_a_bought_battle_card_is_never_named():
    s = _buying()
    s, events = rules.step(s, BuyBattle(candy(CR, 1), battle("Grandma", 1)))
    assert "Grandma" not in messages(events)


def test_a_vault_card_already_in_play_cannot_be_bought():
    s = _buying()
    s, _ = rules.step(s, BuyVault(candy(CR, 1), rules.code_for("vault", copy=9)))
    rejected(s, BuyVault(candy(CR, 2), rules.code_for("vault", copy=9)), "already in front")


# ---------------------------------------------------------------- end of turn, piles

def test_end_of_turn_draws_up_to_six():
    s = _to_swap()
    s, _ = play(s, Done())
    assert s.hands[ZACH] == 6
    s, events = rules.step(s, Done())
    assert s.active == PAM and s.hands[ZACH] == 6 and s.draw == 66 and conserved(s)


def test_the_draw_pile_is_reshuffled_once_then_the_game_ends():
    s = replace(game(), draw=1, discard=candies(NB, 1, 3) + candies(LS, 1, 64))
    s, events = play(s, Stash((candy(CR, 1), candy(CR, 2)), 0), Done(), Reveal(candy(FB, 1)))
    assert s.reshuffled and s.discard == () and s.draw == 67 and "only once" in messages(events)
    s = replace(s, draw=1)
    s = replace(s, binned=66)  # keep the books: the cards "left" the pile in this test
    s, events = rules.step(s, Reveal(candy(FB, 2)))
    assert s.final and s.phase == SWAP and "last turn" in messages(events)
    s, _ = rules.step(s, Done())
    rejected(s, BuyVault(candy(CR, 1)), "nobody may buy")
    s = holding(s, ZACH, [battle("Attack", 1)])
    rejected(s, Play(battle("Attack", 1)), "no more Battle Cards")


def _final():
    s = with_vault(game(), ZACH, 0, candies(CR, 1, 6))
    s = with_vault(s, PAM, 0, candies(FB, 1, 4))
    s = replace(s, final=True, reshuffled=True, stage=BUY)
    s = holding(s, PAM, [battle("Grandma", 1)])
    return s


def test_the_end_final_stash_discard_and_count():
    s, events = rules.step(_final(), Done())
    assert s.stage == FINAL and s.finishing == (ZACH, PAM, ALEX)
    rejected(s, Stash((candy(FB, 9), candy(FB, 10)), 0), "same flavour or an empty vault")
    s, _ = play(s, Stash((candy(CR, 7), candy(CR, 8)), 0), Done())
    assert s.hands[ZACH] == 0 and s.binned == 4
    s, _ = play(s, Stash((candy(FB, 9), candy(FB, 10)), 0), Done())
    s, events = rules.step(s, Done())
    assert s.stage == OVER and s.over and conserved(s)
    reveal = [e for e in events if isinstance(e, FinalReveal)]
    assert reveal and "Grandma" in reveal[0].message
    over = [e for e in events if isinstance(e, GameOver)][0]
    res = over.result
    assert [p.score for p in res.players] == [8, 6 + 6, 0]
    assert res.winners == ("Pam",) and res.tie_break is None
    assert res.players[1].breakdown["grandmas"] == 1
    # Issue 38: each score line says what it counts, in the rulebook's words ("Each Candy Card is worth 1 point")
    assert [p.detail for p in res.players] == ["8 Candy Cards stashed, 1 point each: 8 Chocolate Rockets",
                                               "6 Candy Cards stashed, 1 point each: 6 Fruity Booty; 1 Grandma, "
                                               "6 points", "no candy"]
    assert res == rules.result(s)
    rejected(s, Done(), "over")


def test_a_tie_on_points_goes_to_the_most_candy():
    s = with_vault(game(), ZACH, 0, candies(CR, 1, 12))
    s = with_vault(s, PAM, 0, candies(FB, 1, 6))
    s = holding(s, PAM, [battle("Grandma", 1)])
    s = replace(s, stage=OVER)
    res = rules.result(s)
    assert [p.score for p in res.players][:2] == [12, 12]
    assert res.winners == ("Zach",) and res.tie_break == "most candy"
    assert "Zach wins" in res.winner_line()


def test_public_view_hides_held_battle_cards_until_the_end():
    s = holding(_final(), ZACH, [battle("Mom", 1)], fresh=True)
    view = rules.public_view(s, rules.TABLE)
    assert view.held == ((("?",)), ("?",), ())
    assert view.fresh == ("?",)
    assert rules.public_view(s, ZACH).held[ZACH] == (battle("Mom", 1),)
    over = replace(s, stage=OVER)
    assert rules.public_view(over, rules.TABLE).held == over.held


def test_score_holdings_lists_candies_and_battle_cards():
    res = rules.score_holdings([("Zach", list(candies(CR, 1, 8))),
                                ("Pam", list(candies(FB, 1, 3)) + [battle("Grandma", 1), battle("Mom", 1)])])
    assert [p.score for p in res.players] == [8, 9] and res.winners == ("Pam",)
    assert "Grandma" in res.players[1].detail
    with pytest.raises(ValueError, match="one card, one place"):
        rules.score_holdings([("A", [candy(CR, 1)]), ("B", [candy(CR, 1)])])
    with pytest.raises(ValueError, match="Vault Card"):
        rules.score_holdings([("A", [rules.code_for("vault", copy=1)])])
    with pytest.raises(ValueError, match="Zach"):
        rules.score_holdings([("Zach", ["SRS71M"])])


def test_the_table_corrects_the_candy_draw_pile_count():
    s, events = rules.step(game(), rules.SetPile(60))
    assert s.draw == 60 and s.unaccounted == 8 and conserved(s) and "corrected from 68 to 60" in messages(events)
    s, events = rules.step(s, rules.SetPile(0))
    assert s.reshuffled and s.draw == 0 and s.final  # an empty Discard Pile: the game is ending
    rejected(s, rules.SetPile(3), "ending")
    rejected(game(), rules.SetPile(99), "0 to 86")


def test_a_pile_that_runs_out_in_the_end_of_turn_refill_says_no_last_turn_after_the_turn():
    """"The active player who drew or revealed the final card may complete their turn"
    ("Ending the Game"): when the refill that ends the turn takes the last card, that turn
    is over, so no "last turn" is announced after it (issue 38), only the end, once."""
    s = at(replace(game(), reshuffled=True, draw=1), BUY, stashed=1)
    s = replace(s, hands=tuple(5 if seat == ZACH else n for seat, n in enumerate(s.hands)))
    s, events = rules.step(s, Done())
    said = messages(events)
    assert s.final and s.phase == FINAL and s.hands[ZACH] == 6
    assert "last turn" not in said and said.count("The game is over!") == 1
    assert said.startswith("The Candy Draw Pile ran out again.\nThe game is over! Each player stashes"), said
