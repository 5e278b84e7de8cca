"""Sugar Heist as a table plays it (issue 21): each rule below is checked by typing the
table's inputs through the headless runner (``companion run --headless --simulate``),
reading what the text log says and what the game then accepts."""

from __future__ import annotations

from dataclasses import replace

from companion.games.sugar_heist.state import BUY

from sugar_heist_helpers import (CR, FB, LS, NB, PS, Table, at, battle, candies, candy, conserved, game, holding,
                                 set_up, with_vault)

ZACH, PAM, ALEX = 0, 1, 2


# ---------------------------------------------------------------- 1. two players: either copy

def test_two_players_may_take_out_either_copy_and_the_kept_one_is_bought_and_flipped():
    """Player Count: "2 Players: Remove 1 Battle Royale, remove 1 Crib Fight, and remove
    4 Vaults." Either copy may be the one taken out; the copy scanned first is in play,
    and the set-up prompt says so."""
    t = Table(("Zach", "Pam"))
    assert "2 players: take out 1 Battle Royale, 1 Crib Fight and 4 Vault Cards" in t.session.prompt()
    assert "either copy" in t.session.prompt()
    s = with_vault(game(("Zach", "Pam")), ZACH, 0, candies(CR, 1, 4))
    set_up(t, at(s, BUY, stashed=1))
    said = t.ok(candy(CR, 1), battle("Battle Royale", 1))  # the family kept copy 1
    assert "Zach plays Battle Royale!" in said and conserved(t.state)
    # the other copy is out of the game from now on, and said so
    t.refused(battle("Battle Royale", 2), "out of this game")
    # the other card: the family kept Crib Fight copy 2; it is flipped in Pam's draw
    said = t.ok(battle("Start a Crib Fight", 2))
    assert "Pam plays Start a Crib Fight!" in said
    assert t.state.set_aside == () and sorted(t.state.removed) == sorted([battle("Battle Royale", 2),
                                                                         battle("Start a Crib Fight", 1)])
    assert conserved(t.state)


def test_two_players_kept_copy_can_be_flipped_in_a_heist():
    """"Starting with the attacking player, both players alternate revealing the top card
    of the Battle Deck": the kept Battle Royale (copy 2 here) is flipped like any card."""
    s = with_vault(game(("Zach", "Pam")), PAM, 0, candies(CR, 1, 4))
    s = with_vault(s, PAM, 1, candies(NB, 1, 2))
    s = with_vault(s, ZACH, 0, candies(LS, 1, 2))
    s = holding(at(s, BUY, stashed=1), ZACH, [battle("Attack", 1)], fresh=True)
    t = set_up(Table(("Zach", "Pam")), s)
    t.ok(battle("Attack", 1), "/heist 2 1", "/done")
    said = t.ok(battle("Battle Royale", 2))
    assert "Zach flips Battle Royale." in said
    t.refused(battle("Battle Royale", 1), "out of this game")
    assert conserved(t.state)
