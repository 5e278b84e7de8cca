"""Sugar Heist rules that only long games found wrong (issue 36), each checked the way a
table plays it: typed through the headless runner (``companion run --headless
--simulate``), reading what the text log says and what the game then accepts."""

from __future__ import annotations

from dataclasses import replace

from companion.games.sugar_heist.parts import battle as B
from companion.games.sugar_heist.state import BUY

from sugar_heist_helpers import (CR, FB, LS, Table, at, battle, candies, candy, conserved, game, set_up,
                                 with_vault)

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
