"""Sugar Heist as a table plays it (issue 21): each rule below is checked by typing the
table's inputs through the headless runner (``companion run --headless --simulate``),
reading what the text log says and what the game then accepts."""

from __future__ import annotations

from dataclasses import replace

from companion.games.sugar_heist.state import BUY

from sugar_heist_helpers import (CR, FB, GG, LS, NB, Table, at, battle, candies, candy, conserved, game, holding,
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


# ---------------------------------------------------------------- 2. the Battle Draw Pile runs out in a duel

def _all_but(*keep):
    """Every Battle Card code but ``keep``."""
    from companion.games.sugar_heist.parts.cards import BATTLE_CODES
    return [c for c in BATTLE_CODES if c not in keep]


def test_an_empty_battle_pile_with_no_discards_shuffles_the_flips_and_never_freezes():
    """Attack Card Styles: "If there are not enough Battle Cards remaining in the draw pile
    or no Attack Cards are revealed, you may shuffle the Battle Card discard pile and
    replenish the draw pile. Continue the Heist where you left off." With no discards the
    flipped cards are shuffled (docs/rules-notes.md); when they can never decide it, Done
    calls the fight off: some input is always accepted."""
    s = with_vault(game(), PAM, 0, candies(CR, 1, 4))
    s = with_vault(s, PAM, 1, candies(NB, 1, 2))
    s = with_vault(s, ZACH, 0, candies(LS, 1, 2))
    s = holding(at(s, BUY, stashed=1), ZACH, [battle("Attack", 1)], fresh=True)
    s = holding(s, ALEX, [c for c in _all_but(battle("Attack", 1), battle("Spy", 1), battle("Time Out", 1))])
    assert s.battle_draw == 2 and not s.battle_discard and conserved(s)
    t = set_up(Table(("Zach", "Pam", "Alex")), s)
    t.ok(battle("Attack", 1), "/heist 2 1", "/done", battle("Spy", 1), battle("Time Out", 1))
    assert t.state.battle_draw == 0 and t.state.phase == "duel"
    said = t.ok(battle("Spy", 1))  # the flipped cards are the new pile
    assert "shuffle the flipped cards back in" in said and conserved(t.state)
    assert "to call the fight off" in t.ok(battle("Time Out", 1))
    said = t.ok("/done")
    assert "the fight is off" in said and "The Heist fails" in said
    assert t.state.phase == BUY and t.state.vaults[PAM][0].count == 4 and conserved(t.state)


def test_a_crib_fight_goes_on_when_the_battle_pile_runs_out():
    """Start a Crib Fight: "Starting with the current player, competitors take turns
    flipping the top card of the Battle Deck" -- with the pile and the discards empty the
    flipped cards are shuffled and the fight goes on."""
    s = with_vault(game(), ZACH, 0, candies(LS, 1, 2))
    s = at(s, BUY, stashed=1)
    keep = (battle("Start a Crib Fight", 1), battle("Spy", 1), battle("Attack", 1), battle("Attack", 2))
    s = holding(s, ALEX, _all_but(*keep))
    t = set_up(Table(("Zach", "Pam", "Alex")), s)
    t.ok(candy(LS, 1), battle("Start a Crib Fight", 1), "/join 2", candy(FB, 1), "/fight")
    t.ok(battle("Spy", 1), battle("Attack", 1), battle("Attack", 2))
    assert t.state.battle_draw == 0 and not t.state.battle_discard
    said = t.ok(battle("Spy", 1))
    assert "shuffle the flipped cards back in" in said
    said = t.ok(battle("Attack", 1))
    assert "Zach wins the Crib Fight" in said and conserved(t.state)  # Zach: Attack 2, then Attack 1


# ---------------------------------------------------------------- 3. Sleeper Cell drawn in a Battle Royale

def test_sleeper_cell_drawn_by_another_player_in_a_battle_royale_gives_them_the_extra_turn():
    """Activate Sleeper Cell: "All other players skip their next turn while recovering
    from the joke. When your current turn ends, immediately take another turn." Pam
    draws it in Zach's Battle Royale: Zach and Alex skip their next turn, and Pam takes
    the turn as soon as Zach's ends (docs/rules-notes.md)."""
    s = with_vault(game(), ZACH, 0, candies(LS, 1, 4))
    s = replace(s, hands=(6, 4, 6), draw=s.draw + 2)  # Pam holds 4, so Can't stash draws her back to 6
    t = set_up(Table(("Zach", "Pam", "Alex")), at(s, BUY, stashed=1))
    t.ok(candy(LS, 1), battle("Battle Royale", 1))
    said = t.ok(battle("Activate Sleeper Cell", 1))  # Pam draws first, from Zach's left
    assert "Pam plays Activate Sleeper Cell!" in said
    said = t.ok("/done")  # no Mom
    assert "Alex, Zach skip their next turn" in said
    assert "Pam takes the next turn as soon as Zach's turn ends" in said
    t.ok(battle("Grandma", 1), battle("Grandma", 2))  # Alex and Zach keep theirs
    assert t.state.phase == BUY and t.state.active == ZACH
    said = t.ok("/done")
    assert "Sleeper Cell: Pam takes another turn!" in said and t.state.active == PAM
    assert t.state.skips == (1, 0, 1)
    # Pam's turn ends: Alex and Zach skip, so Pam plays again
    t.ok("/cant")
    assert "Alex skips this turn" in t.verdicts[-1].message and "Zach skips this turn" in t.verdicts[-1].message
    assert t.state.active == PAM and t.state.skips == (0, 0, 0) and conserved(t.state)


# ---------------------------------------------------------------- 4. combining vaults at any point

def test_vaults_combine_in_phase_2_on_another_players_turn_and_at_the_final_stash():
    """How to Lock a Vault: "If at any point, you have the same flavor stashed in
    multiple Vaults you may combine matching flavors into a single Vault. This frees up
    a Vault for new candy." """
    s = with_vault(game(), ZACH, 0, candies(CR, 1, 2))
    s = with_vault(s, ZACH, 1, candies(CR, 3, 2))
    s = with_vault(s, PAM, 0, candies(FB, 1, 2))
    s = with_vault(s, PAM, 1, candies(FB, 3, 2))
    s = replace(s, stage="reveal", stashed=1, hands=(4, 6, 6), draw=s.draw + 2)
    t = set_up(Table(("Zach", "Pam", "Alex")), s)
    t.ok(candy(NB, 1), candy(NB, 2))  # Phase 2: the two revealed cards
    said = t.ok("/combine 2 1")  # Zach, in Phase 2
    assert "Zach combines vault 2 into vault 1: 4 Chocolate Rockets." in said
    said = t.ok("/combine 2 2 1")  # Pam, on Zach's turn
    assert "Pam combines vault 2 into vault 1: 4 Fruity Booty." in said
    assert t.state.vaults[PAM][1].count == 0 and t.state.vaults[PAM][0].count == 4 and conserved(t.state)


def test_combining_at_the_final_stash_frees_a_vault_for_the_last_pair():
    """Ending the Game: "each player may stash any outstanding pairs from their hand onto
    a Vault, with the same candy flavor or into a Vault that is currently empty" -- and
    vaults combine "at any point", so a pair is not lost for want of an empty vault."""
    s = with_vault(game(), ZACH, 0, candies(CR, 1, 2))
    s = with_vault(s, ZACH, 1, candies(CR, 3, 2))
    s = replace(s, stage="final-stash", final=True, finishing=(ZACH, PAM, ALEX))
    t = set_up(Table(("Zach", "Pam", "Alex")), s)
    t.ok("/combine 1 2")
    said = t.ok(candy(LS, 1), candy(LS, 2))
    assert "Zach stashes a pair of Lucky Suckys: vault 1 has 2." in said and conserved(t.state)


# ---------------------------------------------------------------- 5. several Steals against one player

def _steal_table(*pam_holds):
    s = with_vault(game(), PAM, 0, candies(CR, 1, 4))
    s = with_vault(s, PAM, 1, candies(NB, 1, 4))
    s = with_vault(s, ZACH, 0, candies(LS, 1, 2))
    s = with_vault(s, ZACH, 2, ())
    s = with_vault(s, ALEX, 0, candies(FB, 1, 2))
    s = holding(at(s, BUY, stashed=1), ZACH, [battle("Attack", 1), battle("Attack", 2), battle("Attack", 3)])
    s = holding(s, PAM, pam_holds)
    return set_up(Table(("Zach", "Pam", "Alex")), s)


def test_several_steals_on_one_player_are_revealed_together_and_take_a_haul_each():
    """Option 2: Steal: "You may perform multiple Steals against 1 player during a turn.
    When playing multiples they must be revealed at the same time." Each Steal: "The
    attacking player can claim up to 2 Candy Cards from 1 unlocked Vault"."""
    t = _steal_table()
    t.ok(battle("Attack", 1), "/steal 2 1")
    said = t.ok(battle("Attack", 2))  # revealed in the same Mom window
    assert "2 Steals on Pam, answered by one Mom" in said
    t.ok("/done", candy(CR, 1), candy(CR, 2), "/vault 2")
    assert "one of Pam's unlocked vaults" in t.session.prompt()
    t.ok(candy(NB, 1), candy(NB, 2), "/vault 3")
    s = t.state
    assert s.phase == BUY and s.vaults[ZACH][1].count == 2 and s.vaults[ZACH][2].count == 2
    assert s.vaults[PAM][0].count == 2 and s.vaults[PAM][1].count == 2 and conserved(s)
    # a Steal on Pam later in the turn would be a second reveal: refused
    t.ok(battle("Attack", 3))
    t.refused("/steal 2 1", "revealed together")


def test_one_mom_answers_every_steal_revealed_together():
    """"When playing multiples they must be revealed at the same time"; Mom: "Reveal your
    Mom Card to repel any unwanted Attack": one Mom window, one Mom for all of them."""
    t = _steal_table(battle("Mom", 1))
    t.ok(battle("Attack", 1), "/steal 2 1", battle("Attack", 2), battle("Attack", 3))
    said = t.ok(battle("Mom", 1))
    assert "MOM! Pam is safe this turn." in said and t.state.phase == BUY
    assert set(t.state.battle_discard) == {battle("Attack", k) for k in (1, 2, 3)} | {battle("Mom", 1)}
    assert t.state.vaults[PAM][0].count == 4 and conserved(t.state)


# ---------------------------------------------------------------- 6. the Mom decision is final once flips are shown

def _zach_attacks_pam_who_holds_a_mom():
    """Zach (an Attack, drawn this turn) against Pam's two vaults; Pam holds a Mom."""
    s = with_vault(game(), PAM, 0, candies(CR, 1, 4))
    s = with_vault(s, PAM, 1, candies(NB, 1, 2))
    s = with_vault(s, ZACH, 0, candies(LS, 1, 2))
    s = holding(at(s, BUY, stashed=1), ZACH, [battle("Attack", 1)], fresh=True)
    s = holding(s, PAM, [battle("Mom", 1)])
    return set_up(Table(("Zach", "Pam", "Alex")), s)


def test_undo_does_not_rewind_heist_flips_back_past_no_mom():
    """Option 1: Heist: "If the target wishes to play a Mom Card it MUST be played now,
    otherwise... Starting with the attacking player, both players alternate revealing
    the top card of the Battle Deck." Once a flip is shown, Undo cannot reopen the Mom
    window (README: Undo stops at an input that showed hidden cards)."""
    t = _zach_attacks_pam_who_holds_a_mom()
    t.ok(battle("Attack", 1), "/heist 2 1", "/done", battle("Spy", 1))
    reason = t.refused("/undo", "cannot be taken back")
    assert "Zach flips Spy" in reason
    assert t.state.phase == "duel" and len(t.state.frame.flips) == 1
    t.refused(battle("Mom", 1))  # and Pam's Mom is too late now
    t.ok(battle("Attack", 2))
    t.refused("/undo", "cannot be taken back")
    assert t.state.phase == "duel" and len(t.state.frame.flips) == 2


def test_no_mom_can_still_be_undone_before_the_first_flip():
    """Before any card is flipped nothing is shown: "No Mom" tapped by mistake is taken
    back and Pam plays her Mom."""
    t = _zach_attacks_pam_who_holds_a_mom()
    t.ok(battle("Attack", 1), "/heist 2 1", "/done", "/undo")
    assert "MOM! Pam is safe this turn." in t.ok(battle("Mom", 1))


# ---------------------------------------------------------------- 7. a stale vault tap never throws a vault away

def test_a_leftover_vault_tap_is_refused_and_emptying_a_vault_always_asks_first():
    """Phase 1: "When stashing, you may opt to change the flavor in a Vault by discarding
    the current Candy Cards on a Vault" -- the player opts; the companion never empties
    a vault unasked. The pair already went into the only vault that fits; the leftover
    tap does nothing and says so, and the next pair asks before vault 1 is emptied."""
    s = with_vault(game(), PAM, 0, candies(FB, 1, 4))
    s = with_vault(s, PAM, 1, candies(CR, 1, 2))
    t = set_up(Table(("Zach", "Pam", "Alex")), at(s, "stash", active=PAM))
    said = t.ok(candy(CR, 3), candy(CR, 4))  # the only vault that fits: vault 2
    assert "Pam stashes a pair of Chocolate Rockets: vault 2 has 4." in said
    t.refused("/vault 1", "Scan the pair first")  # the stale tap: nothing waits unseen
    said = t.ok(candy(LS, 1), candy(LS, 2))
    assert "No vault has Lucky Suckys and none is empty" in said
    said = t.ok("/vault 1")
    assert "Pam's vault 1 has 4 Fruity Booty: putting Lucky Suckys there discards them" in said
    assert t.state.vaults[PAM][0].count == 4 and "Tap vault 1 again" in t.session.prompt()
    said = t.ok("/vault 1")  # yes
    assert "Pam discards the 4 Fruity Booty from vault 1." in said and t.state.vaults[PAM][0].flavour == LS
    assert conserved(t.state)


def test_a_vault_chosen_before_the_partner_is_shown_and_a_vault_tap_out_of_place_is_refused():
    """A selection the prompt does not show never lingers: a vault tapped after the
    first card is named in the prompt; a vault tap when nothing goes into a vault is
    refused with the reason."""
    s = with_vault(game(), ZACH, 0, candies(FB, 1, 2))
    t = set_up(Table(("Zach", "Pam", "Alex")), s)
    t.ok(candy(NB, 1), "/vault 2")
    assert "scan the partner of the Nutty Butt for vault 2" in t.session.prompt()
    t.ok(candy(NB, 2), "/done", candy(CR, 1), candy(CR, 2))
    assert t.state.stage == "swap"
    t.refused("/vault 1", "no pair or haul to put in a vault now")


def test_a_haul_tapped_onto_another_flavours_vault_asks_before_emptying_it():
    """"The attacking player must place these cards into a Vault they control" -- into
    a vault of another flavour only when the player says yes to discarding its candy."""
    s = with_vault(game(), PAM, 0, candies(CR, 1, 4))
    s = with_vault(s, PAM, 1, candies(NB, 1, 2))
    s = with_vault(s, ZACH, 0, candies(LS, 1, 2))
    s = with_vault(s, ZACH, 1, candies(FB, 1, 2))
    s = holding(at(s, BUY, stashed=1), ZACH, [battle("Attack", 1)])
    t = set_up(Table(("Zach", "Pam", "Alex")), s)
    t.ok(battle("Attack", 1), "/steal 2 1", "/done", candy(CR, 1), candy(CR, 2))
    said = t.ok("/vault 2")
    assert "Zach's vault 2 has 2 Fruity Booty: putting Chocolate Rockets there discards them" in said
    assert t.state.vaults[ZACH][1].count == 2 and t.state.phase == "haul"
    said = t.ok("/vault 1")  # another vault: asked about that one instead
    assert "Zach's vault 1 has 2 Lucky Suckys" in said
    t.ok("/vault 1")
    assert t.state.vaults[ZACH][0].flavour == CR and t.state.vaults[ZACH][1].flavour == FB and conserved(t.state)


# ---------------------------------------------------------------- 8. prompts, announcements and reasons

def test_the_end_of_game_stash_never_asks_for_a_tap_it_then_refuses():
    """Ending the Game: "each player may stash any outstanding pairs from their hand onto
    a Vault, with the same candy flavor or into a Vault that is currently empty." A pair
    with no such vault is not kept waiting for "the vault to empty"."""
    s = with_vault(game(), ZACH, 0, candies(CR, 1, 2))
    s = with_vault(s, ZACH, 1, candies(NB, 1, 2))
    s = replace(s, stage="final-stash", final=True, finishing=(ZACH, PAM, ALEX))
    t = set_up(Table(("Zach", "Pam", "Alex")), s)
    said = t.ok(candy(LS, 1), candy(LS, 2))
    assert "tap the vault to empty" not in said and "Combine two vaults to free one" in said
    assert t.session.entry == t.session.entry.__class__()  # nothing waits for a refused tap
    t.ok(candy(CR, 3), candy(CR, 4), "/done")
    assert t.state.vaults[ZACH][0].count == 4 and t.state.finishing == (PAM, ALEX)


def test_a_heist_on_a_locked_vault_under_the_alternate_rule_says_to_flip_the_vault_card_back():
    """Alternate Play Rule: "When played on a locked Vault, if the Heist succeeds, the
    target Vault becomes unlocked and the heister receives 2 Candy Cards"; "When a Vault
    reaches its lock number, flip the Vault Card over": the table must flip it back."""
    s = with_vault(game(alternate=True), PAM, 0, candies(CR, 1, 8))
    s = with_vault(s, PAM, 1, candies(NB, 1, 2))
    s = with_vault(s, ZACH, 0, candies(CR, 9, 2))
    s = holding(at(s, BUY, stashed=1), ZACH, [battle("Attack", 1)], fresh=True)
    t = set_up(Table(("Zach", "Pam", "Alex"), alternate=True), s)
    assert t.state.vaults[PAM][0].locked
    t.ok(battle("Attack", 1), "/heist 2 1", "/done", battle("Attack", 2), battle("Spy", 1))
    said = t.ok(battle("Attack", 3))
    assert "Pam's vault 1 is unlocked by the Heist: flip its Vault Card back over." in said
    assert not t.state.vaults[PAM][0].locked and t.state.frame.haul_max == 2


def test_refusals_give_the_real_reason():
    """"You may only use Attack Cards on players with 2 or more Vaults"; "Each player may
    only be Heisted once per turn"; Mom: "Reveal your Mom Card to repel any unwanted
    Attack". The reason named is the one that holds, and the target is not told that
    only the target can play a Mom."""
    s = with_vault(game(), PAM, 0, candies(CR, 1, 4))
    s = with_vault(s, PAM, 1, candies(NB, 1, 2))
    s = with_vault(s, ZACH, 0, candies(LS, 1, 2))
    s = holding(at(s, BUY, stashed=1), ZACH, [battle("Attack", 1), battle("Attack", 2)], fresh=True)
    s = holding(s, PAM, [battle("Grandma", 1), battle("Mom", 1)])
    t = set_up(Table(("Zach", "Pam", "Alex")), s)
    t.ok(battle("Attack", 1), "/heist 2 1")
    reason = t.refused(battle("Grandma", 1))  # Pam, the target, scans a card that is no Mom
    # (from the table's view: it does not know whose card it was, only who may block)
    assert "Only the player being targeted" not in reason and "Only a Mom blocks now" in reason
    assert "Pam: scan a Mom to block it, or tap No Mom." in reason
    t.ok("/done", battle("Attack", 3), battle("Spy", 1), battle("Attack", 4))
    assert t.state.phase == "haul"
    t.ok(candy(CR, 1), "/done")
    reason = t.refused(battle("Attack", 2))  # Pam was heisted; Alex has 2 empty vaults
    assert "2 or more vaults" not in reason
    assert "Pam was heisted this turn" in reason and "Alex has no unlocked candy" in reason


def test_from_does_not_retarget_a_card_waiting_for_give():
    """Phase 2: "Players may only swap cards from their own hands": the card waiting for
    /give keeps the hand it came from; /from first asks for the /give."""
    s = with_vault(game(), ZACH, 0, candies(CR, 1, 2))
    s = replace(s, stage="swap", stashed=1, revealed=(candy(FB, 1), candy(GG, 1)), draw=s.draw - 2)
    t = set_up(Table(("Zach", "Pam", "Alex")), s)
    t.ok("/from 2", candy(NB, 1))
    t.refused("/from 3", "First tap who gets the Nutty Butt")
    said = t.ok("/give 1")
    # Issue 38: where the swapped card came from is said (a hand, or the revealed cards: both seen by the table)
    assert "Nutty Butt from Pam's hand to Zach. Scan more cards" in said and t.session.entry.moves[0].giver == PAM
    t.ok(candy(FB, 1))
    assert "Fruity Booty from the revealed cards to Pam. Scan more cards" in t.ok("/give 2")
    assert "Swap: Nutty Butt from Pam's hand to Zach, Fruity Booty from the revealed cards to Pam." in t.ok("/deal")


def test_a_battle_card_scanned_by_mistake_goes_back_before_its_effect():
    """Battle Cards "may be played at any point in the course of Phase 3" -- at the
    player's choice: one scanned by mistake goes back face down before its target is
    chosen, and can be played later."""
    s = with_vault(game(), PAM, 0, candies(CR, 1, 4))
    s = with_vault(s, PAM, 1, candies(NB, 1, 2))
    s = holding(at(s, BUY, stashed=1), ZACH, [battle("Time Out", 1)])
    t = set_up(Table(("Zach", "Pam", "Alex")), s)
    t.ok(battle("Time Out", 1))
    assert "Keep it" in t.session.prompt()
    said = t.ok("/keep")
    assert "Zach takes the Time Out back, face down." in said
    assert t.state.phase == BUY and t.state.held[ZACH] == (battle("Time Out", 1),) and conserved(t.state)
    t.ok(battle("Time Out", 1), "/target 2", "/done")
    assert t.state.skips[PAM] == 1


# ---------------------------------------------------------------- the same through the real command line

def test_companion_run_headless_simulate_says_the_set_up_and_refuses_a_stale_vault_tap(tmp_path):
    """``companion run --game sugar-heist --headless --simulate`` as a 2-player table
    starts it: the set-up sentence ("Player Count") is printed, a vault tapped before any
    card is refused with its reason, and the pair then goes on the tapped vault."""
    import os
    import subprocess
    import sys

    lines = ["/vault 1", candy(CR, 1), candy(CR, 2), "/vault 2"]
    env = dict(os.environ, PYGAME_HIDE_SUPPORT_PROMPT="1", SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--game", "sugar-heist", "--names",
                           "Zach,Pam", "--headless", "--simulate", "--tap-off", "0", "--store", str(tmp_path / "t.db")],
                          input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "2 players: take out 1 Battle Royale, 1 Crib Fight and 4 Vault Cards (either copy" in out
    assert "Not allowed (vault 1): Scan the pair first, then tap its vault." in out
    assert "Zach stashes a pair of Chocolate Rockets: vault 2 has 2." in out


def test_a_prize_put_in_the_hand_leaves_no_question_behind():
    """Start a Crib Fight: "The winner has the choice of adding these cards to their hand
    or adding them to a Vault stash": asked about emptying a vault, the winner taps Hand
    instead, and the question does not outlive the prize."""
    s = with_vault(game(), ZACH, 0, candies(LS, 1, 2))
    s = replace(s, discard=candies(CR, 1, 2), draw=s.draw - 2)
    t = set_up(Table(("Zach", "Pam", "Alex")), at(s, BUY, stashed=1))
    t.ok(candy(LS, 1), battle("Start a Crib Fight", 1), "/fight", candy(CR, 1), candy(CR, 2))
    assert "Zach's vault 1 has 1 Lucky Suckys" in t.ok("/vault 1")
    t.ok("/hand")
    assert t.state.phase == BUY and t.session.entry.ask is None and "Lucky" not in t.session.prompt()
    assert conserved(t.state)
