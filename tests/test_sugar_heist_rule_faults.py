"""Sugar Heist rules that only long games found wrong (issue 36), each checked the way a
table plays it: typed through the headless runner (``companion run --headless
--simulate``), reading what the text log says and what the game then accepts."""

from __future__ import annotations

from dataclasses import replace

from companion.games.sugar_heist.parts import battle as B
from companion.games.sugar_heist.state import (BUY, STASH, Done, Play, QuarantineLifted, QuarantineLocked,
                                                SafeCracked, Stash, Target)

from sugar_heist_helpers import (CR, FB, GG, LS, NB, Table, at, battle, candies, candy, conserved, game, holding,
                                 play, set_up, with_vault)

ZACH, PAM, ALEX = 0, 1, 2


# ---------------------------------------------------------------- Battle Royale: a Heist, never a Steal

def test_battle_royale_attack_cannot_be_a_steal():
    """Option 2: Steal: "You may not Steal during another player's turn." Pam draws an
    Attack Card in Zach's Battle Royale: she may Heist with it, not Steal, and neither
    the prompt, /help nor the target menu offers a Steal."""
    s = with_vault(game(), ZACH, 0, candies(LS, 1, 4))
    s = with_vault(s, ZACH, 1, candies(CR, 1, 2))
    s = with_vault(s, ALEX, 0, candies(FB, 1, 2))
    t = set_up(Table(("Zach", "Pam", "Alex")), at(s, BUY, stashed=1))
    t.ok(candy(LS, 1), battle("Battle Royale", 1))
    said = t.ok(battle("Attack", 1))  # Pam draws first, from Zach's left
    assert "Pam plays Attack!" in said
    prompt = t.session.prompt()
    assert "Heist" in prompt and "Steal (" not in prompt and "no Steal now" in prompt
    assert "/steal" not in t.type("/help")
    f = t.state.frame
    assert {style for style, _, _ in B.legal_targets(t.state, f.actor, f.card)} == {"heist"}
    reason = t.refused("/steal 1 2", "can't Steal now", "nobody may Steal on another player's turn")
    assert "Heist" in reason
    said = t.ok("/heist 1 2")
    assert "Pam declares a Heist" in said and conserved(t.state)


# ---------------------------------------------------------------- Night Raid under the Alternate Play Rule

def test_alternate_play_rule_night_raid_is_out_with_its_own_words():
    """Alternate Play Rule: "When using this rule, remove both Night Raid Cards from the
    deck." A Night Raid scanned under ``--alternate`` is refused with that rule's words,
    never the two-player rule's ("with 2 players the copy scanned first ...")."""
    for players in (("Zach", "Pam", "Alex"), ("Zach", "Pam")):
        s = with_vault(game(players, alternate=True), ZACH, 0, candies(CR, 1, 4))
        t = set_up(Table(players, alternate=True), at(s, BUY, stashed=1))
        t.refused(battle("Night Raid", 1), "Alternate Play Rule")  # before paying too
        t.ok(candy(CR, 1))  # paid: the next Battle Card scanned is the one bought
        for copy in (1, 2):
            reason = t.refused(battle("Night Raid", copy), "Alternate Play Rule", "both Night Raid cards")
            assert "2 players" not in reason
        assert conserved(t.state)


# ---------------------------------------------------------------- a pair needs two cards in the hand

def test_a_pair_from_a_one_card_hand_is_refused_at_the_first_scan():
    """Phase 1: "Candy Cards are always stashed in pairs or in multiples of two." Zach
    holds 1 Candy Card: its first scan is refused at once with the reason and the way
    on (Can't stash; Done at the final stash), never half-entered and refused later."""
    s = game()
    s = replace(s, hands=(1, 6, 6), draw=s.draw + 5)
    t = set_up(Table(("Zach", "Pam", "Alex")), s)
    t.refused(candy(CR, 1), "Zach has 1 Candy Card in hand: not enough for a pair", "Can't stash")
    assert t.session.entry.cards == ()
    t.ok("/cant")
    s = replace(game(), stage="final-stash", final=True, finishing=(ZACH, PAM, ALEX))
    s = replace(s, hands=(1, 6, 6), draw=s.draw + 5)
    t = set_up(Table(("Zach", "Pam", "Alex")), s)
    t.refused(candy(CR, 1), "not enough for a pair", "Tap Done")
    t.ok("/done")
    assert t.state.seat == PAM and conserved(t.state)


# ---------------------------------------------------------------- Quarantine Lock and Safe Cracker outcomes

def _outcomes(t: Table) -> list[tuple[str, str]]:
    """(type, message) of every outcome the JSON log printed."""
    import json
    lines = [json.loads(line) for line in t.json.getvalue().splitlines()]
    return [(line["type"], line["message"]) for line in lines if line["event"] == "outcome"]


def test_quarantine_lock_and_safe_cracker_outcomes_are_events_in_both_logs():
    """Quarantine Lock: "Play on an unlocked Vault you control to flip over its lock card
    immediately. If you withdraw candy before the lock number is exceeded you must
    discard this card and unlock." Safe Cracker: "Unlock another player's locked Vault
    (or discard Quarantine Lock card)." Each outcome is an event of its own kind (like
    a Heist's HeistOver), which the text log says and the JSON log types."""
    s = with_vault(game(), ZACH, 0, candies(GG, 1, 2))
    s = with_vault(s, ZACH, 1, candies(CR, 1, 4))
    s = with_vault(s, PAM, 0, candies(FB, 1, 2))
    s = with_vault(s, PAM, 1, candies(LS, 1, 8))  # locked
    s = holding(at(s, BUY, stashed=1), ZACH, [battle("Quarantine Lock", 1), battle("Safe Cracker", 1)])
    t = set_up(Table(("Zach", "Pam", "Alex")), s)
    said = t.ok(battle("Quarantine Lock", 1), "/target 1 1")
    assert "Quarantine Lock: Zach's vault 1 is locked." in said
    assert ("QuarantineLocked", "Quarantine Lock: Zach's vault 1 is locked.") in _outcomes(t)
    said = t.ok(battle("Safe Cracker", 1), "/target 2 2", "/done")
    assert "Safe Cracker! Pam's vault 2 (8 Lucky Suckys) is unlocked." in said
    assert ("SafeCracked", "Safe Cracker! Pam's vault 2 (8 Lucky Suckys) is unlocked.") in _outcomes(t)
    said = t.ok(candy(GG, 1), "/buy vault")  # Zach pays with a candy from his quarantined vault
    assert "Zach's Quarantine Lock on vault 1 is discarded." in said
    assert ("QuarantineLifted", "Zach's Quarantine Lock on vault 1 is discarded.") in _outcomes(t)
    assert not t.state.vaults[ZACH][0].locked and conserved(t.state)


def test_safe_cracker_on_a_quarantine_lock_discards_it_and_says_so():
    """Safe Cracker: "Unlock another player's locked Vault (or discard Quarantine Lock
    card)."; Quarantine Lock: "Once the lock number is met you may discard this card." """
    s = with_vault(game(), PAM, 0, candies(GG, 1, 2))
    s = with_vault(s, PAM, 1, candies(FB, 1, 2))
    s = with_vault(s, ZACH, 0, candies(CR, 1, 2))
    s = holding(at(s, BUY, stashed=1, active=PAM), PAM, [battle("Quarantine Lock", 1)])
    s = holding(s, ZACH, [battle("Safe Cracker", 1)])
    s, _ = play(s, Play(battle("Quarantine Lock", 1)), Target("lock", PAM, 0), Done())
    s = replace(s, stage=BUY, active=ZACH, stashed=1)
    s, events = play(s, Play(battle("Safe Cracker", 1)), Target("crack", PAM, 0), Done())
    cracked = [e for e in events if isinstance(e, SafeCracked)]
    assert len(cracked) == 1 and cracked[0].quarantine and (cracked[0].cracker, cracked[0].seat) == (ZACH, PAM)
    assert "its Quarantine Lock is discarded" in cracked[0].message
    assert not s.vaults[PAM][0].locked and battle("Quarantine Lock", 1) in s.battle_discard and conserved(s)
    # the lock number met: the card comes off and the vault stays locked
    s = holding(at(s, STASH, active=PAM, stashed=0), PAM, [battle("Quarantine Lock", 2)])
    s = replace(s, stage=BUY, stashed=1)
    s, events = play(s, Play(battle("Quarantine Lock", 2)), Target("lock", PAM, 1))
    assert any(isinstance(e, QuarantineLocked) and (e.seat, e.vault) == (PAM, 1) for e in events)
    s = replace(s, stage=STASH, stashed=0)
    s, events = play(s, Stash((candy(FB, 3), candy(FB, 4)), 1), Stash((candy(FB, 5), candy(FB, 6)), 1))
    lifted = [e for e in events if isinstance(e, QuarantineLifted)]
    assert len(lifted) == 1 and lifted[0].locked and s.vaults[PAM][1].locked and conserved(s)


# ---------------------------------------------------------------- a pair of a flavour already stashed

def test_a_pair_of_a_stashed_flavour_may_go_on_an_empty_vault_and_the_table_chooses():
    """Ending the Game: pairs go "onto a Vault, with the same candy flavor or into a Vault
    that is currently empty"; How to Lock a Vault: "If at any point, you have the same
    flavor stashed in multiple Vaults you may combine matching flavors into a single
    Vault. This frees up a Vault for new candy." One flavour may be in two vaults, so a
    pair of a flavour already stashed is not put on its vault unasked when an empty vault
    is a choice too; with one vault that fits there is no question."""
    s = with_vault(game(), ZACH, 0, candies(CR, 1, 2))
    t = set_up(Table(("Zach", "Pam", "Alex")), s)
    said = t.ok(candy(CR, 3), candy(CR, 4))
    assert "Tap vault 1 (2 Chocolate Rockets) or vault 2 (empty) for them." in said
    assert t.state.vaults[ZACH][0].count == 2 and t.session.entry.cards  # nothing stashed unasked
    assert "tap the vault for the pair of Chocolate Rockets" in t.session.prompt()
    said = t.ok("/vault 2")
    assert "Zach stashes a pair of Chocolate Rockets: vault 2 has 2." in said
    assert [v.flavour for v in t.state.vaults[ZACH]] == [CR, CR]
    said = t.ok("/combine 2 1")  # and they combine, freeing vault 2
    assert "Zach combines vault 2 into vault 1: 4 Chocolate Rockets." in said
    # one vault fits (vault 2 holds another flavour): no question, the pair goes there
    said = t.ok(candy(LS, 1), candy(LS, 2))
    assert "Zach stashes a pair of Lucky Suckys: vault 2 has 2." in said
    said = t.ok(candy(CR, 5), candy(CR, 6))
    assert "Zach stashes a pair of Chocolate Rockets: vault 1 has 6." in said and conserved(t.state)


def test_at_the_final_stash_a_pair_may_go_beside_its_flavour_and_vaults_combine():
    """Ending the Game: "each player may stash any outstanding pairs from their hand onto a
    Vault, with the same candy flavor or into a Vault that is currently empty"."""
    s = with_vault(game(), ZACH, 0, candies(CR, 1, 2))
    s = replace(s, stage="final-stash", final=True, finishing=(ZACH, PAM, ALEX))
    t = set_up(Table(("Zach", "Pam", "Alex")), s)
    said = t.ok(candy(CR, 3), candy(CR, 4))
    assert "Tap vault 1 (2 Chocolate Rockets) or vault 2 (empty) for them." in said
    said = t.ok("/vault 2", "/combine 1 2")
    assert "Zach combines vault 1 into vault 2: 4 Chocolate Rockets." in said
    assert t.state.vaults[ZACH][1].count == 4 and not t.state.vaults[ZACH][0].candies and conserved(t.state)


def test_a_haul_of_a_stashed_flavour_asks_which_vault_when_an_empty_one_is_free():
    """Option 2: Steal: "The attacking player must place these cards into a Vault they
    control": the one of that flavour or an empty one, as the table taps."""
    s = with_vault(game(), ZACH, 0, candies(CR, 1, 2))
    s = with_vault(s, PAM, 0, candies(CR, 3, 4))
    s = with_vault(s, PAM, 1, candies(FB, 1, 2))
    s = holding(at(s, BUY, stashed=1), ZACH, [battle("Attack", 1)])
    t = set_up(Table(("Zach", "Pam", "Alex")), s)
    t.ok(battle("Attack", 1), "/steal 2 1", "/done", candy(CR, 3), candy(CR, 4))
    t.refused("/done", "Tap where the candies go")
    said = t.ok("/vault 2")
    assert "Zach puts 2 Chocolate Rockets in vault 2" in said and conserved(t.state)


# ---------------------------------------------------------------- swaps: each card checked when it is made

def _swap_table(hands=(4, 6, 6)) -> Table:
    """Zach's Phase 2: a Fruity Booty and a Gummy Grubs revealed; Zach stashed Chocolate Rockets."""
    s = with_vault(game(), ZACH, 0, candies(CR, 1, 2))
    s = replace(s, stage="swap", stashed=1, revealed=(candy(FB, 1), candy(GG, 1)), hands=hands,
                draw=s.draw - 2 + sum(6 - h for h in hands))
    return set_up(Table(("Zach", "Pam", "Alex")), s)


def test_swap_moves_are_checked_when_they_are_made():
    """Phase 2: "Players may only swap cards from their own hands. No one may swap cards
    that have already been stashed in a Vault." "Swaps can involve multiple players, but
    the player whose turn it is must be included in the swap." "Swapped cards must go
    immediately into a player's hand and not on their Vaults." Each card is refused as it
    is entered, not at Deal."""
    t = _swap_table(hands=(4, 6, 1))
    t.refused(candy(CR, 1), "stashed in a vault")  # Zach's stashed candy
    t.ok("/from 2", candy(NB, 1))
    t.refused("/give 2", "Pam can't swap a card with themselves")
    t.refused("/give 3", "Every swap must include Zach", "start it with a card Zach gives or gets")
    t.refused("/vault 1", "swapped cards go straight into a player's hand, never onto a vault")
    t.ok("/give 1")  # Pam's Nutty Butt to Zach: the swap includes Zach
    t.ok("/from 3", candy(LS, 1), "/give 2")  # and Alex's Lucky Suckys to Pam: several players
    t.refused("/from 3", "Alex has only 1 Candy Card in hand")  # the one card is given already
    t.ok(candy(FB, 1), "/give 3", "/deal")  # the revealed Fruity Booty to Alex
    assert t.state.hands == (5, 6, 1) and t.state.revealed == (candy(GG, 1),) and conserved(t.state)


def test_a_swap_of_only_other_players_cards_is_refused_at_its_first_card():
    """Phase 2: "the player whose turn it is must be included in the swap": Pam and Alex
    may not swap with each other alone, and are told so at the first card."""
    t = _swap_table()
    t.ok("/from 2", candy(NB, 1))
    reason = t.refused("/give 3", "Every swap must include Zach")
    assert "start it with a card Zach gives or gets" in reason
    t.ok("/give 1", "/deal")
    assert t.state.hands == (5, 5, 6) and conserved(t.state)


# ---------------------------------------------------------------- the screen offers the choices, and only those

def test_the_screen_offers_the_vault_chips_for_a_pair_and_no_steal_in_a_battle_royale(tmp_path):
    """The choice of vault is the vault chips' to make ("onto a Vault, with the same
    candy flavor or into a Vault that is currently empty"), and the target menu of an
    Attack Card drawn in another player's Battle Royale has no Steal ("You may not Steal
    during another player's turn")."""
    import os
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from companion.core.game import TABLE
    from companion.games.sugar_heist import rules, screen
    from companion.ui.app import App, TableInfo

    def show(app, t, path):
        info = TableInfo(prompt=t.session.prompt(), entry=t.session.entry, game_name="Sugar Heist")
        app.show(lambda surf: screen.draw_game(surf, rules.public_view(t.state, TABLE), info))
        app.save(path)
        return [b.command for b in app.buttons]

    app = App()
    try:
        t = set_up(Table(("Zach", "Pam", "Alex")), with_vault(game(), ZACH, 0, candies(CR, 1, 2)))
        t.ok(candy(CR, 3), candy(CR, 4))
        assert len(t.session.entry.cards) == 2  # the pair waits for a chip to be tapped
        assert {"vault 1", "vault 2"} <= set(show(app, t, tmp_path / "pair.png"))
        s = with_vault(game(), ZACH, 0, candies(LS, 1, 4))
        s = with_vault(s, ZACH, 1, candies(CR, 1, 2))
        t = set_up(Table(("Zach", "Pam", "Alex")), at(s, BUY, stashed=1))
        t.ok(candy(LS, 1), battle("Battle Royale", 1), battle("Attack", 1))
        commands = show(app, t, tmp_path / "royale.png")
        assert any(c.startswith("heist ") for c in commands) and not any(c.startswith("steal ") for c in commands)
    finally:
        app.close()
