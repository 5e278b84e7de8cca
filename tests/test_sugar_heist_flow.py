"""Sugar Heist table flow: scans and taps into actions, seat-bound readers, and hidden
Battle Cards that never reach the table before they are played."""

from dataclasses import asdict, replace

import pytest

from companion.core.errors import BadCommand, BadScan, IllegalAction
from companion.core.events import CardScanned, Revealed, Touch
from companion.core.game import TABLE
from companion.games.sugar_heist import flow, rules
from companion.games.sugar_heist.state import BUY, SWAP, BuyBattle, Play, Stash

from sugar_heist_helpers import (CR, FB, GG, NB, PS, at, battle, candies, candy, game, holding, with_vault)

ZACH, PAM, ALEX = 0, 1, 2


def scan(code, seat=None):
    return CardScanned(code, "scanner", 0.0, seat)


def tap(command):
    return Touch(command, 0.0)


def run(state, entry, *items):
    """Feed inputs through flow and rules as the session does; returns state, entry, all text."""
    text = []
    for item in items:
        entry, action, message = flow.read(state, entry, item)
        text.append(message)
        if action is not None:
            rules.check(state, action)
            state, events = rules.apply(state, action)
            text += [e.message for e in events]
        text.append(flow.prompt(state, entry))
    return state, entry, text


def test_a_pair_goes_on_the_only_vault_that_fits():
    s = with_vault(game(), ZACH, 0, candies(CR, 1, 6))
    s = with_vault(s, ZACH, 1, candies(NB, 1, 2))  # no empty vault: vault 1 is the only one that fits
    e = flow.new_entry()
    e, action, message = flow.read(s, e, scan(candy(CR, 7)))
    assert action is None and "partner" in message
    e, action, _ = flow.read(s, e, scan(candy(CR, 8)))
    assert action == Stash((candy(CR, 7), candy(CR, 8)), 0)


def test_a_pair_with_two_empty_vaults_asks_for_the_vault():
    s = game()
    e, _, _ = flow.read(s, flow.new_entry(), scan(candy(FB, 1)))
    e, action, message = flow.read(s, e, scan(candy(FB, 2)))
    assert action is None and "Tap vault 1 (empty) or vault 2 (empty)" in message
    e, action, _ = flow.read(s, e, tap("vault 2"))
    assert action == Stash((candy(FB, 1), candy(FB, 2)), 1)


def test_two_pure_sugars_ask_for_a_flavour():
    s = with_vault(game(), ZACH, 0, candies(CR, 1, 2))
    s = with_vault(s, ZACH, 1, candies(NB, 1, 2))
    s, e, text = run(s, flow.new_entry(), scan(candy(PS, 1)), scan(candy(PS, 2)))
    assert "flavour they stand for" in " ".join(text)
    s, e, _ = run(s, e, tap("flavour nutty butt"))
    assert s.vaults[ZACH][1].count == 4 and e == flow.new_entry()


def test_a_mismatched_pair_is_refused_and_the_first_card_kept():
    s = game()
    e, _, _ = flow.read(s, flow.new_entry(), scan(candy(FB, 1)))
    with pytest.raises(IllegalAction, match="not a pair"):
        flow.read(s, e, scan(candy(CR, 1)))
    _, action, message = flow.read(s, e, scan(candy(FB, 2)))
    assert action is None and "A pair of Fruity Booty" in message


def test_a_swap_is_scanned_and_tapped():
    s = with_vault(game(), ZACH, 0, candies(CR, 1, 2))
    s = replace(s, stage="reveal", stashed=1, hands=(4, 6, 6), draw=s.draw + 2)
    s, e, _ = run(s, flow.new_entry(), scan(candy(CR, 3)), scan(candy(FB, 1)))
    assert s.phase == SWAP
    s, e, text = run(s, e, scan(candy(FB, 1)), tap("give 3"), scan(candy(CR, 4), seat=3), tap("give 1"),
                     scan(candy(CR, 5), seat=3), tap("give 1"), tap("deal"))
    assert s.hands == (6, 6, 5) and s.revealed == (candy(CR, 3),)
    with pytest.raises(IllegalAction, match="stashed in a vault"):
        flow.read(s, flow.new_entry(), scan(candy(CR, 1)))
    with pytest.raises(IllegalAction, match="First tap who gets"):
        flow.read(s, flow.read(s, flow.new_entry(), scan(candy(CR, 3)))[0], tap("deal"))


def test_a_reader_bound_to_another_seat_cannot_stash_for_the_active_player():
    with pytest.raises(IllegalAction, match="Zach's turn"):
        flow.read(game(), flow.new_entry(), scan(candy(CR, 1), seat=2))


def test_a_mom_on_the_defenders_reader_counts_out_of_turn():
    s = at(game(), BUY, active=ALEX)
    s = with_vault(s, ZACH, 0, candies(CR, 1, 6))
    s = with_vault(s, ZACH, 1, candies(NB, 1, 2))
    s = holding(s, ALEX, [battle("Attack", 1)], fresh=True)
    s = holding(s, ZACH, [battle("Mom", 1)])
    s, e, text = run(s, flow.new_entry(), scan(battle("Attack", 1), seat=3), tap("heist 1 1"),
                     scan(battle("Mom", 1), seat=1))
    assert s.phase == BUY and ZACH in s.protected and "MOM!" in " ".join(text)


def test_a_flip_from_the_wrong_reader_is_refused():
    s = at(game(), BUY, active=ALEX)
    s = with_vault(s, ZACH, 0, candies(CR, 1, 6))
    s = with_vault(s, ZACH, 1, candies(NB, 1, 2))
    s = holding(s, ALEX, [battle("Attack", 1)], fresh=True)
    s, e, _ = run(s, flow.new_entry(), scan(battle("Attack", 1)), tap("heist 1 1"), tap("done"))
    with pytest.raises(IllegalAction, match="Alex's flip"):
        flow.read(s, e, scan(battle("Spy", 1), seat=1))


def test_bad_commands_and_scans():
    s = game()
    with pytest.raises(BadCommand):
        flow.read(s, flow.new_entry(), tap("vault x"))
    with pytest.raises(BadCommand):
        flow.read(s, flow.new_entry(), tap("dance"))
    with pytest.raises(BadScan, match="Sugarrr"):
        flow.read(s, flow.new_entry(), scan("SRS71M"))


def test_buying_is_pay_then_card():
    s = at(with_vault(game(), ZACH, 0, candies(CR, 1, 4)), BUY)
    e, action, message = flow.read(s, flow.new_entry(), scan(candy(CR, 1)))
    assert action is None and "Paid 1 Chocolate Rockets" in message
    _, action, _ = flow.read(s, e, scan(battle("Mom", 2)))
    assert action == BuyBattle(candy(CR, 1), battle("Mom", 2))
    with pytest.raises(IllegalAction, match="Pay first"):
        flow.read(s, flow.new_entry(), scan(battle("Mom", 2)))
    with pytest.raises(IllegalAction, match="own vaults"):
        flow.read(s, flow.new_entry(), scan(candy(NB, 1)))


# ---------------------------------------------------------------- hidden information

def _everything_public(state, entry, text) -> str:
    """All the table can see: the table view, the prompt, every message so far."""
    view = rules.public_view(state, TABLE)
    return repr(asdict(view)) + "\n" + flow.prompt(state, entry) + "\n" + "\n".join(text)


@pytest.mark.parametrize("name", ["Grandma", "Mom", "Attack", "Mastermind", "Night Raid", "Spy", "Time Out",
                                  "Safe Cracker", "Quarantine Lock", "Vault Heist"])
def test_a_face_down_battle_card_is_seen_nowhere_until_played(name):
    s = at(with_vault(game(), ZACH, 0, candies(CR, 1, 6)), BUY)
    s = with_vault(s, PAM, 0, candies(FB, 1, 4))
    s = with_vault(s, PAM, 1, candies(GG, 1, 2))
    hidden = battle(name, 2)
    text = []
    e = flow.new_entry()
    e, _, message = flow.read(s, e, scan(candy(CR, 1)))
    text.append(message)
    item = scan(hidden)
    assert flow.secret(s, item)
    e, action, message = flow.read(s, e, item)
    text.append(message)
    s, events = rules.apply(s, action)
    assert not any(isinstance(ev, Revealed) for ev in events)
    text += [ev.message for ev in events]
    # a rejected scan of the same hidden card (a second purchase with no payment) names nothing
    with pytest.raises(IllegalAction) as info:
        flow.read(s, e, scan(battle(name, 1)))
    text.append(info.value.message)
    # the rest of the turn and the next turns
    s, e, more = run(s, e, tap("done"), scan(candy(FB, 5)), scan(candy(FB, 6)), tap("done"))
    text += more
    public = _everything_public(s, e, text)
    assert hidden not in public and name not in public
    assert hidden in s.held[ZACH]


def test_a_card_kept_in_a_battle_royale_is_hidden_and_a_played_one_revealed():
    s = at(with_vault(game(), ZACH, 0, candies(CR, 1, 6)), BUY)
    s = with_vault(s, PAM, 0, candies(FB, 1, 4))
    s = with_vault(s, PAM, 1, candies(GG, 1, 2))
    s, e, text = run(s, flow.new_entry(), scan(candy(CR, 1)), scan(battle("Battle Royale", 1)))
    assert s.phase == "royale"
    kept = battle("Grandma", 2)
    assert flow.secret(s, scan(kept))
    s, e, more = run(s, e, scan(kept))
    text += more
    public = _everything_public(s, e, text)
    assert kept not in public and "Grandma" not in public


def test_the_end_reveals_every_hidden_card():
    s = holding(replace(game(), stage="final-stash", finishing=(0, 1, 2), final=True), PAM, [battle("Grandma", 1)])
    s, e, text = run(s, flow.new_entry(), tap("done"), tap("done"), tap("done"))
    assert s.over and "Grandma" in " ".join(text)
    assert rules.public_view(s, TABLE).held[PAM] == (battle("Grandma", 1),)


def _states_of_every_step():
    """A state in each phase and Battle Card step, with Zach holding a Grandma."""
    base = at(with_vault(game(), ZACH, 0, candies(CR, 1, 6)), BUY, active=ALEX)
    base = with_vault(base, ZACH, 1, candies(NB, 1, 2))
    base = with_vault(base, ALEX, 0, candies(FB, 1, 4))
    base = holding(base, ZACH, [battle("Grandma", 1)])
    base = holding(base, ALEX, [battle("Attack", 1), battle("Spy", 1)], fresh=True)
    out = [replace(base, stage=stage) for stage in ("stash", "reveal", "swap", "buy", "discard")]
    out.append(replace(base, stage="final-stash", finishing=(2, 0, 1), final=True))
    heist, _ = rules.step(base, Play(battle("Attack", 1)))
    out.append(heist)
    for step in (rules.Target("heist", ZACH, 0), rules.Done()):
        heist, _ = rules.step(heist, step)
        out.append(heist)
    heist, _ = rules.step(heist, rules.Flip(battle("Attack", 2)))
    out.append(heist)
    return out


def test_a_held_card_scanned_at_the_wrong_moment_is_never_named():
    grandma = battle("Grandma", 1)
    for s in _states_of_every_step():
        item = scan(grandma)
        assert flow.secret(s, item), s.phase
        try:
            entry, action, message = flow.read(s, flow.new_entry(), item)
            if action is not None:
                rules.check(s, action)
                s2, events = rules.apply(s, action)
                message += " ".join(e.message for e in events)
        except IllegalAction as exc:
            message = exc.message
        assert "Grandma" not in message and grandma not in message, (s.phase, message)
