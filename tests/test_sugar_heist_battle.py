"""Every Sugar Heist Battle Card, and every rejection of a Battle Card play."""

from dataclasses import replace

from companion.games.sugar_heist import rules
from companion.games.sugar_heist.state import (BUY, STASH, BuyBattle, BuyVault, CardPlayed, Declare, Done, Flip,
                                                HeistOver, Join, NewVault, Place, Play, Stash, Take, Target,
                                                TurnEnded)

from sugar_heist_helpers import (rejected, CR, FB, GG, LS, NB, PS, SB, at, battle, candies, candy, conserved, game, holding,
                                 messages, play, with_vault)

ZACH, PAM, ALEX = 0, 1, 2


def table(**options):
    """Alex's Phase 3; Zach: 6 Chocolate Rockets and 2 Nutty Butts; Pam: 4 Fruity
    Booty and 8 Lucky Suckys (locked); Alex: 4 Sour Bombs (locked) and an empty vault."""
    s = at(game(**options), BUY, active=ALEX)
    s = with_vault(s, ZACH, 0, candies(CR, 1, 6))
    s = with_vault(s, ZACH, 1, candies(NB, 1, 2))
    s = with_vault(s, PAM, 0, candies(FB, 1, 4))
    s = with_vault(s, PAM, 1, candies(LS, 1, 8))
    s = with_vault(s, ALEX, 0, candies(SB, 1, 4))
    return s


# ---------------------------------------------------------------- Attack: Heist and Steal

def test_a_steal_takes_up_to_two_candies_and_needs_no_duel():
    s = holding(table(), ALEX, [battle("Attack", 1)])
    s, _ = play(s, Play(battle("Attack", 1)), Target("steal", ZACH, 0), Done())
    assert s.phase == "haul" and s.frame.haul_max == 2
    s, _ = play(s, Take(candy(CR, 1)), Take(candy(CR, 2)))
    rejected(s, Take(candy(CR, 3)), "2 already")
    s, _ = rules.step(s, Place(1))
    assert s.vaults[ALEX][1].candies == candies(CR, 1, 2) and s.vaults[ZACH][0].count == 4
    assert s.phase == BUY and ZACH in s.stolen and conserved(s)


def test_two_steals_on_one_player_in_a_turn_are_revealed_together():
    """"You may perform multiple Steals against 1 player during a turn. When playing
    multiples they must be revealed at the same time." (issue 21)"""
    s = holding(table(), ALEX, [battle("Attack", 1), battle("Attack", 2)])
    s, _ = play(s, Play(battle("Attack", 1)), Target("steal", ZACH, 0), Play(battle("Attack", 2)), Done(),
                Take(candy(CR, 1)), Place(1), Take(candy(CR, 2)), Place(1))
    assert s.vaults[ALEX][1].count == 2 and s.phase == BUY and conserved(s)


def test_a_second_steal_on_one_player_after_the_first_is_refused():
    s = holding(table(), ALEX, [battle("Attack", 1), battle("Attack", 2)])
    s, _ = play(s, Play(battle("Attack", 1)), Target("steal", ZACH, 0), Done(), Take(candy(CR, 1)), Place(1))
    s, _ = play(s, Play(battle("Attack", 2)))
    rejected(s, Target("steal", ZACH, 0), "revealed together")


def test_a_heist_needs_an_attack_card_drawn_this_turn():
    s = holding(table(), ALEX, [battle("Attack", 1)], fresh=False)
    s, _ = rules.step(s, Play(battle("Attack", 1)))
    rejected(s, Target("heist", ZACH, 0), "drawn this turn", "Steal")


def test_an_attack_bought_this_turn_can_heist():
    s = table()
    s, events = rules.step(s, BuyBattle(candy(SB, 1), battle("Attack", 1)))
    assert battle("Attack", 1) in s.held[ALEX] and s.vaults[ALEX][0].count == 3
    assert not s.vaults[ALEX][0].locked  # 3 Sour Bombs: below the lock number 4
    s, _ = play(s, Play(battle("Attack", 1)), Target("heist", ZACH, 0))
    assert s.phase == "mom"


def test_attack_and_action_cards_need_a_target_with_two_vaults():
    s = holding(table(), ALEX, [battle("Attack", 1), battle("Time Out", 1)], fresh=True)
    s = replace(s, vaults=(s.vaults[ZACH][:1],) + s.vaults[1:])
    s1, _ = rules.step(s, Play(battle("Attack", 1)))
    rejected(s1, Target("steal", ZACH, 0), "only 1 vault", "2 or more")
    s2, _ = rules.step(s, Play(battle("Time Out", 1)))
    rejected(s2, Target("timeout", ZACH), "2 or more")


def test_locked_vaults_cannot_be_heisted_or_stolen_from():
    s = holding(table(), ALEX, [battle("Attack", 1)], fresh=True)
    s, _ = rules.step(s, Play(battle("Attack", 1)))
    assert s.vaults[PAM][1].locked
    rejected(s, Target("heist", PAM, 1), "locked", "off limits")
    rejected(s, Target("steal", PAM, 1), "locked")


def test_a_player_is_heisted_at_most_once_a_turn():
    s = holding(table(), ALEX, [battle("Attack", 1), battle("Attack", 2)], fresh=True)
    s, _ = play(s, Play(battle("Attack", 1)), Target("heist", ZACH, 0), Done(),
                Flip(battle("Spy", 1)), Flip(battle("Attack", 3)), Flip(battle("Spy", 2)), Flip(battle("Attack", 4)))
    assert s.phase == BUY  # Zach won the duel: nothing taken
    assert s.vaults[ZACH][0].count == 6
    s, _ = rules.step(s, Play(battle("Attack", 2)))
    rejected(s, Target("heist", ZACH, 1), "heisted already", "once a turn")
    rejected(s, Target("steal", ZACH, 1), "no Heist and Steal")


def test_no_heist_on_a_player_stolen_from_this_turn():
    s = holding(table(), ALEX, [battle("Attack", 1), battle("Attack", 2)], fresh=True)
    s, _ = play(s, Play(battle("Attack", 1)), Target("steal", ZACH, 0), Done(), Take(candy(CR, 1)), Place(1))
    s, _ = rules.step(s, Play(battle("Attack", 2)))
    rejected(s, Target("heist", ZACH, 0), "no Heist and Steal")


def test_a_card_cannot_be_played_when_nobody_can_be_targeted():
    s = at(game(), BUY, active=ALEX)
    s = holding(s, ALEX, [battle("Attack", 1)], fresh=True)
    rejected(s, Play(battle("Attack", 1)), "Nobody can be targeted")


def test_only_your_own_battle_cards_can_be_played():
    s = holding(table(), ZACH, [battle("Attack", 1)])
    rejected(s, Play(battle("Attack", 1)), "not one of yours")


# ---------------------------------------------------------------- Mom, Mastermind, Grandma

def test_mom_stops_a_heist_and_protects_for_the_rest_of_the_turn():
    s = holding(table(), ALEX, [battle("Attack", 1), battle("Time Out", 1)], fresh=True)
    s = holding(s, ZACH, [battle("Mom", 1)])
    s, events = play(s, Play(battle("Attack", 1)), Target("heist", ZACH, 0), Play(battle("Mom", 1)))
    assert any(isinstance(e, HeistOver) and not e.won for e in events)
    assert any(isinstance(e, CardPlayed) and e.card == battle("Mom", 1) for e in events)
    assert "MOM!" in messages(events)
    assert s.phase == BUY and ZACH in s.protected and s.held[ZACH] == ()
    assert s.vaults[ZACH][0].count == 6
    s, _ = rules.step(s, Play(battle("Time Out", 1)))
    rejected(s, Target("timeout", ZACH), "played a Mom")
    assert conserved(s)


def test_only_the_target_may_play_a_mom():
    s = holding(table(), ALEX, [battle("Attack", 1)], fresh=True)
    s = holding(s, PAM, [battle("Mom", 1)])
    s, _ = play(s, Play(battle("Attack", 1)), Target("heist", ZACH, 0))
    rejected(s, Play(battle("Mom", 1)), "Only Zach can play a Mom now")


def test_mastermind_wins_a_heist_with_one_attack_card():
    s = holding(table(), ALEX, [battle("Attack", 1), battle("Mastermind", 1)], fresh=True)
    s, _ = play(s, Play(battle("Attack", 1)), Target("heist", ZACH, 0), Done(), Play(battle("Mastermind", 1)))
    assert s.frame.need == (1, 2)
    s, events = rules.step(s, Flip(battle("Attack", 2)))
    assert any(isinstance(e, HeistOver) and e.won for e in events)


def test_mastermind_comes_too_late_after_the_first_flip():
    s = holding(table(), ALEX, [battle("Attack", 1)], fresh=True)
    s = holding(s, ZACH, [battle("Mastermind", 1)])
    s, _ = play(s, Play(battle("Attack", 1)), Target("heist", ZACH, 0), Done(), Flip(battle("Spy", 1)))
    assert "Mastermind" not in rejected(s, Play(battle("Mastermind", 1)), "flip the top Battle Card")


def test_the_defender_can_play_a_mastermind():
    s = holding(table(), ALEX, [battle("Attack", 1)], fresh=True)
    s = holding(s, ZACH, [battle("Mastermind", 1)])
    s, _ = play(s, Play(battle("Attack", 1)), Target("heist", ZACH, 0), Done(), Play(battle("Mastermind", 1)),
                Flip(battle("Spy", 1)))
    s, events = rules.step(s, Flip(battle("Attack", 2)))
    assert any(isinstance(e, HeistOver) and not e.won for e in events)


def test_grandma_mom_and_mastermind_are_kept_not_played():
    s = holding(table(), ALEX, [battle("Grandma", 1), battle("Mom", 1), battle("Mastermind", 1)])
    said = {rejected(s, Play(battle(name, 1)), "face down") for name in ("Grandma", "Mom", "Mastermind")}
    assert len(said) == 1  # one message: the screen does not tell which card it was
    (message,) = said
    assert not any(name in message for name in ("Grandma", "Mom", "Mastermind"))


# ---------------------------------------------------------------- Action Cards

def test_night_raid_takes_a_whole_unlocked_vault_and_cannot_be_mommed():
    s = holding(table(), ALEX, [battle("Night Raid", 1)])
    s = holding(s, ZACH, [battle("Mom", 1)])
    s, _ = rules.step(s, Play(battle("Night Raid", 1)))
    rejected(s, Target("raid", PAM, 1), "locked")
    s, events = rules.step(s, Target("raid", ZACH, 0))
    assert s.phase == BUY and len(s.vaults[ZACH]) == 1 and len(s.vaults[ALEX]) == 3
    assert s.vaults[ALEX][2].candies == candies(CR, 1, 6)
    assert battle("Mom", 1) in s.held[ZACH]
    assert conserved(s)


def test_quarantine_lock_locks_until_candy_leaves():
    s = with_vault(table(), ALEX, 1, candies(GG, 1, 2))
    s = holding(s, ALEX, [battle("Quarantine Lock", 1)])
    s, _ = play(s, Play(battle("Quarantine Lock", 1)), Target("lock", ALEX, 1))
    v = s.vaults[ALEX][1]
    assert v.locked and v.quarantine == battle("Quarantine Lock", 1)
    assert conserved(s)
    s, events = rules.step(s, BuyVault(candy(GG, 1)))
    assert not s.vaults[ALEX][1].locked and battle("Quarantine Lock", 1) in s.battle_discard
    assert "unlocked" in messages(events)
    assert conserved(s)


def test_quarantine_lock_comes_off_at_the_lock_number():
    s = with_vault(table(), ALEX, 1, candies(GG, 1, 4))
    s = holding(s, ALEX, [battle("Quarantine Lock", 1)])
    s, _ = play(s, Play(battle("Quarantine Lock", 1)), Target("lock", ALEX, 1))
    s = replace(s, stage=STASH)
    s, _ = rules.step(s, Stash((candy(GG, 5), candy(GG, 6)), 1))
    v = s.vaults[ALEX][1]
    assert v.locked and v.quarantine is None and battle("Quarantine Lock", 1) in s.battle_discard


def test_quarantine_lock_only_on_your_own_unlocked_vault():
    s = holding(table(), ALEX, [battle("Quarantine Lock", 1)])
    rejected(s, Play(battle("Quarantine Lock", 1)), "nothing it can be played on")
    s = with_vault(s, ALEX, 1, candies(GG, 1, 2))
    s, _ = rules.step(s, Play(battle("Quarantine Lock", 1)))
    rejected(s, Target("lock", ZACH, 0), "your own")
    rejected(s, Target("lock", ALEX, 0), "locked already")


def test_safe_cracker_unlocks_and_the_vault_relocks_only_above_its_lock_number():
    s = holding(table(), ALEX, [battle("Safe Cracker", 1)])
    s, _ = rules.step(s, Play(battle("Safe Cracker", 1)))
    rejected(s, Target("crack", ZACH, 0), "not locked")
    s, _ = play(s, Target("crack", PAM, 1), Done())
    v = s.vaults[PAM][1]
    assert not v.locked and v.cracked
    s = replace(s, stage=STASH, active=PAM)
    s, _ = rules.step(s, Stash((candy(LS, 9), candy(LS, 10)), 1))
    assert s.vaults[PAM][1].locked  # 10 > 8


def test_spy_takes_one_hidden_card_without_naming_it():
    s = holding(table(), ALEX, [battle("Spy", 1)])
    s = holding(s, ZACH, [battle("Grandma", 1), battle("Attack", 5)])
    s, _ = play(s, Play(battle("Spy", 1)), Target("spy", ZACH), Done())
    assert s.phase == "spy"
    rejected(s, Take(battle("Mom", 1)), "not theirs")
    s, events = rules.step(s, Take(battle("Grandma", 1)))
    assert battle("Grandma", 1) in s.held[ALEX] and s.held[ZACH] == (battle("Attack", 5),)
    assert "Grandma" not in messages(events)


def test_time_out_skips_the_targets_next_turn():
    s = holding(table(), ALEX, [battle("Time Out", 1)])
    s, _ = play(s, Play(battle("Time Out", 1)), Target("timeout", ZACH), Done(), Done())
    assert s.active == PAM  # Zach, to Alex's left, skips
    assert "Zach skips" in messages(play(holding(table(), ALEX, [battle("Time Out", 1)]),
                                         Play(battle("Time Out", 1)), Target("timeout", ZACH), Done(), Done())[1])


def test_vault_heist_takes_an_empty_vault_and_lets_you_stash_on_it():
    s = with_vault(table(), ZACH, 2, ())
    s = holding(s, ALEX, [battle("Vault Heist", 1)])
    s, _ = rules.step(s, Play(battle("Vault Heist", 1)))
    rejected(s, Target("take", ZACH, 0), "has candy")
    s, _ = play(s, Target("take", ZACH, 2), Done())
    assert s.phase == "stash" and len(s.vaults[ALEX]) == 3 and len(s.vaults[ZACH]) == 2
    rejected(s, Stash((candy(GG, 1), candy(GG, 2)), 1), "vault 3")
    s, _ = play(s, Stash((candy(GG, 1), candy(GG, 2)), 2), Done())
    assert s.vaults[ALEX][2].count == 2 and s.phase == BUY and conserved(s)


# ---------------------------------------------------------------- Event Cards

def test_activate_sleeper_cell_skips_everyone_else_and_gives_another_turn():
    s = table()
    s, events = play(s, BuyBattle(candy(SB, 1), battle("Activate Sleeper Cell", 1)))
    assert s.phase == "mom" and set(s.frame.waiting) == {ZACH, PAM}
    s, _ = rules.step(s, Done())
    assert s.phase == BUY and s.extra == (ALEX,)
    s, events = rules.step(s, Done())
    turn = [e for e in events if isinstance(e, TurnEnded)]
    assert turn[0].next_player == ALEX and "another turn" in messages(events)
    assert s.active == ALEX and s.skips == (1, 1, 0) and s.extra == ()


def test_bad_dog_eats_one_flavour_from_hands_but_not_vaults():
    s = holding(table(), PAM, [battle("Mom", 1)])
    s, _ = play(s, BuyBattle(candy(SB, 1), battle("Bad Dog", 1)), Declare(CR), Play(battle("Mom", 1)), Done())
    assert s.phase == "collect" and s.frame.waiting == (ZACH,)
    rejected(s, Take(candy(NB, 9)), "Only Chocolate Rockets")
    s, events = play(s, Take(candy(CR, 9)), Take(candy(CR, 10)), Done())
    assert s.hands[ZACH] == 4 and candy(CR, 9) in s.discard
    assert s.vaults[ZACH][0].count == 6 and s.phase == BUY and conserved(s)


def test_battle_royale_keeps_unplayable_cards_and_plays_the_rest():
    s = table()
    s, _ = rules.step(s, BuyBattle(candy(SB, 1), battle("Battle Royale", 1)))
    assert s.frame.waiting == (ZACH, PAM, ALEX)
    s, events = rules.step(s, Take(battle("Mom", 1), None))
    assert battle("Mom", 1) in s.held[ZACH] and "Mom" not in messages(events)
    s, events = rules.step(s, Take(battle("Time Out", 1), None))   # Pam must play it
    assert s.frame.card == battle("Time Out", 1) and s.frame.actor == PAM
    s, _ = play(s, Target("timeout", ALEX), Done())
    assert s.phase == "royale" and s.frame.waiting == (ALEX,)
    s, _ = rules.step(s, Take(battle("Grandma", 1), None))
    assert s.phase == BUY and battle("Grandma", 1) in s.held[ALEX] and s.skips[ALEX] == 1
    assert battle("Battle Royale", 1) in s.battle_discard and conserved(s)


def test_candy_magnet_collects_one_flavour_into_a_free_vault():
    s = table()
    s, _ = play(s, BuyBattle(candy(SB, 1), battle("Candy Magnet", 1)), NewVault(None), Declare(FB), Done())
    assert len(s.vaults[ALEX]) == 3 and s.vault_pile == 7
    s, _ = play(s, Take(candy(FB, 9)), Done(), Take(candy(FB, 10)), Take(candy(FB, 11)), Done())
    assert s.vaults[ALEX][2].candies == (candy(FB, 9), candy(FB, 10), candy(FB, 11))
    assert s.hands == (5, 4, 6) and s.phase == BUY and conserved(s)


def test_candy_magnet_becomes_a_vault_when_no_vault_cards_remain():
    s = replace(table(), vault_pile=0)
    s, _ = play(s, BuyBattle(candy(SB, 1), battle("Candy Magnet", 1)))
    assert s.phase == "flavour" and s.vaults[ALEX][2].card == battle("Candy Magnet", 1)
    s, _ = play(s, Declare(GG), Done(), Done(), Done())
    assert battle("Candy Magnet", 1) not in s.battle_discard and conserved(s)


def test_mega_candy_magnet_names_three_flavours_and_keeps_one():
    s = table()
    s, _ = play(s, BuyBattle(candy(SB, 1), battle("Mega Candy Magnet", 1)), NewVault(None),
                Declare(CR), Declare(FB))
    rejected(s, Declare(CR), "named already")
    s, _ = play(s, Declare(GG), Done())
    assert s.phase == "keep"
    rejected(s, Declare(NB), "one of the three")
    s, _ = play(s, Declare(GG), Take(candy(GG, 1)), Done(), Done())
    assert s.vaults[ALEX][2].candies == (candy(GG, 1),) and s.phase == BUY and conserved(s)


def test_pinata_reveals_one_card_a_player_and_each_picks_one():
    s = table()
    s, _ = play(s, BuyBattle(candy(SB, 1), battle("Piñata", 1)), Take(candy(GG, 1)), Take(candy(GG, 2)),
                Take(candy(NB, 9)))
    assert s.phase == "pick" and s.frame.waiting == (ALEX, ZACH, PAM)
    rejected(s, Take(candy(GG, 1), ZACH), "Alex's pick")
    s, _ = play(s, Take(candy(NB, 9)), Take(candy(GG, 1)), Take(candy(GG, 2)))
    assert s.hands == (7, 7, 7) and s.phase == BUY and conserved(s)


def test_crib_fight_costs_a_candy_to_join_and_wins_four_from_the_discard_pile():
    s = replace(table(), discard=candies(PS, 1, 3) + candies(NB, 9, 2))
    s = replace(s, draw=s.draw - 5)
    s, _ = play(s, BuyBattle(candy(SB, 1), battle("Start a Crib Fight", 1)), Join(ZACH, candy(GG, 1)))
    rejected(s, Join(ZACH, candy(GG, 2)), "already")
    s, _ = rules.step(s, Done())
    assert s.frame.duelists == (ALEX, ZACH)
    s, _ = play(s, Flip(battle("Attack", 1)), Flip(battle("Spy", 1)), Flip(battle("Attack", 2)))
    assert s.phase == "prize" and s.frame.target == ALEX
    rejected(s, Take(candy(CR, 1)), "Discard Pile")
    s, _ = play(s, Take(candy(PS, 1)), Take(candy(PS, 2)), Take(candy(NB, 9)), Take(candy(NB, 10)))
    rejected(s, Take(candy(PS, 3)), "4 already")
    s, _ = rules.step(s, Place(None))
    assert s.hands[ALEX] == 10 and s.hands[ZACH] == 5 and s.phase == BUY and conserved(s)


def test_crib_fight_alone_is_an_automatic_win():
    s = table()
    s, _ = play(s, BuyBattle(candy(SB, 1), battle("Start a Crib Fight", 1)), Done())
    assert s.phase == "prize" and s.frame.target == ALEX
    s, _ = play(s, Take(candy(SB, 1)), Place(0))
    assert s.vaults[ALEX][0].count == 4


# ---------------------------------------------------------------- the Alternate Play Rule

def test_alternate_rule_heists_a_locked_vault_for_two_candies_and_unlocks_it():
    s = holding(table(alternate=True), ALEX, [battle("Attack", 1)], fresh=True)
    assert sum(rules.CARDS[c].name == "Night Raid" for c in s.removed) == 2
    s, _ = play(s, Play(battle("Attack", 1)), Target("heist", PAM, 1), Done(),
                Flip(battle("Attack", 2)), Flip(battle("Spy", 1)), Flip(battle("Attack", 3)))
    assert s.phase == "haul" and s.frame.haul_max == 2 and not s.vaults[PAM][1].locked
    s, _ = play(s, Take(candy(LS, 1)), Take(candy(LS, 2)), Place(1))
    assert s.vaults[ALEX][1].count == 2 and s.vaults[PAM][1].count == 6 and conserved(s)


def test_removed_cards_are_out_of_the_game():
    two = game(["Zach", "Pam"])
    assert two.vault_pile == 14 - 4 - 4
    assert two.removed == () and sorted(two.set_aside) == ["Battle Royale", "Start a Crib Fight"]
    assert two.battle_draw == 42 and conserved(two)
    every = game(["Zach", "Pam"], all_cards=True)
    assert every.removed == () == every.set_aside and every.battle_draw == 44 and every.vault_pile == 10
