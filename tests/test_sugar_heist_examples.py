"""The Sugar Heist rulebook's worked examples, as golden tests."""

from companion.games.sugar_heist import rules
from companion.games.sugar_heist.state import BUY, STASH, SWAP, Done, Flip, HeistOver, Move, Place, Play, Stash, \
    Take, Target, Trade, VaultLocked

from sugar_heist_helpers import CR, FB, LS, NB, at, battle, candies, candy, conserved, game, holding, messages, \
    play, with_vault

ZACH, PAM, ALEX = 0, 1, 2


def test_zachs_vault_locks_at_8_chocolate_rockets():
    """"Zach has 1 vault with 6 Chocolate Rockets stashed. On his next turn, he stashes
    2 more to bring the total up to 8. He may now lock that Vault.\""""
    s = with_vault(game(), ZACH, 0, candies(CR, 1, 6))
    assert not s.vaults[ZACH][0].locked
    s, events = rules.step(s, Stash((candy(CR, 7), candy(CR, 8)), 0))
    vault = s.vaults[ZACH][0]
    assert vault.count == 8 and vault.locked and vault.lock_number == 8
    assert any(isinstance(e, VaultLocked) for e in events)
    assert "locked at 8" in messages(events)
    assert conserved(s)


def test_zach_discards_his_nutty_butts_to_stash_4_lucky_suckys():
    """"He decides to discard his Nutty Butt cards and replace them with 4 Lucky Suckys.\""""
    s = with_vault(game(), ZACH, 0, candies(NB, 1, 4))
    s = with_vault(s, ZACH, 1, candies(FB, 1, 2))
    s, events = play(s, Stash((candy(LS, 1), candy(LS, 2)), 0, discard=True), Stash((candy(LS, 3), candy(LS, 4)), 0))
    vault = s.vaults[ZACH][0]
    assert vault.flavour == LS and vault.candies == candies(LS, 1, 4)
    assert set(candies(NB, 1, 4)) <= set(s.discard)
    assert s.vaults[ZACH][1].candies == candies(FB, 1, 2)
    assert s.hands[ZACH] == 2
    assert "discards the 4 Nutty Butt" in messages(events)
    assert conserved(s)


def test_the_swap_with_alex():
    """Zach reveals a Chocolate Rocket and a Fruity Booty, keeps the Rocket and swaps the
    Booty with Alex for 2 Chocolate Rockets."""
    s = at(game(), STASH)
    s, _ = rules.step(s, Stash((candy(FB, 5), candy(FB, 6)), 0))
    s, _ = rules.step(s, Done())
    rocket, booty = candy(CR, 1), candy(FB, 1)
    s, _ = play(s, rules.Reveal(rocket), rules.Reveal(booty))
    assert s.phase == SWAP and s.revealed == (rocket, booty)
    deal = Trade((Move(booty, None, ALEX), Move(candy(CR, 2), ALEX, ZACH), Move(candy(CR, 3), ALEX, ZACH)))
    s, events = rules.step(s, deal)
    assert ("Swap: Fruity Booty from the revealed cards to Alex, Chocolate Rockets from Alex's hand to Zach, "
            "Chocolate Rockets from Alex's hand to Zach.") in messages(events)
    s, events = rules.step(s, Done())
    assert s.phase == BUY
    assert s.hands == (4 + 2 + 1, 6, 6 - 2 + 1)
    assert s.revealed == ()
    assert conserved(s)


def test_alexs_heist_flip_sequence_ends_in_his_win():
    """Alex flips Attack, Zach non-attack, Alex Mom, Zach Attack, Alex Mom, Zach
    non-attack, Alex a third Attack: Alex has two Attack Cards first and wins."""
    s = at(game(), BUY, active=ALEX)
    s = with_vault(s, ZACH, 0, candies(CR, 1, 6))
    s = with_vault(s, ZACH, 1, candies(NB, 1, 2))
    s = holding(s, ALEX, [battle("Attack", 1)], fresh=True)
    s, events = play(s, Play(battle("Attack", 1)), Target("heist", ZACH, 0), Done())
    assert s.phase == "duel"
    flips = [battle("Attack", 2), battle("Time Out", 1), battle("Mom", 1), battle("Attack", 3),
             battle("Mom", 2), battle("Spy", 1)]
    for card in flips:
        s, events = rules.step(s, Flip(card))
        assert s.phase == "duel"
    assert s.frame.tally == (1, 1)
    s, events = rules.step(s, Flip(battle("Attack", 4)))
    over = [e for e in events if isinstance(e, HeistOver)]
    assert over and over[0].won and over[0].attacker == ALEX and over[0].target == ZACH
    assert s.phase == "haul" and s.frame.haul_max == 6
    assert battle("Attack", 1) not in s.held[ALEX]
    for k in range(1, 7):
        s, _ = rules.step(s, Take(candy(CR, k)))
    s, events = rules.step(s, Place(0))
    assert s.vaults[ALEX][0].candies == candies(CR, 1, 6)
    assert s.vaults[ZACH][0].candies == ()
    assert s.phase == BUY and ZACH in s.heisted
    assert battle("Attack", 1) in s.battle_discard
    assert conserved(s)
