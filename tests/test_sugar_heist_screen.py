"""The Sugar Heist screens at 800x480: the vault board, a heist in progress, the menus
and the final count; every touch target big enough for a finger; no face-down card."""

import os
from dataclasses import replace

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from companion.core.game import TABLE  # noqa: E402
from companion.games.sugar_heist import flow, rules, screen  # noqa: E402
from companion.games.sugar_heist.state import BUY, OVER, SWAP, Done, Flip, Play, Target  # noqa: E402
from companion.ui.app import App, TableInfo  # noqa: E402

from sugar_heist_helpers import (CR, FB, GG, LS, NB, PS, SB, at, battle, candies, candy, game, holding,  # noqa: E402
                                 play, with_vault)


@pytest.fixture(scope="module")
def app():
    a = App()
    yield a
    a.close()


def table(players=("Zach", "Pam", "Alex")):
    s = at(game(players), BUY, active=2)
    s = with_vault(s, 0, 0, candies(CR, 1, 8))
    s = with_vault(s, 0, 1, candies(NB, 1, 2))
    s = with_vault(s, 1, 0, candies(FB, 1, 4))
    s = with_vault(s, 1, 1, candies(LS, 1, 6))
    s = with_vault(s, 1, 2, candies(PS, 1, 2), flavour=GG)
    s = with_vault(s, 2, 0, candies(SB, 1, 3))
    s = holding(s, 2, [battle("Attack", 1)], fresh=True)
    return holding(s, 0, [battle("Mom", 1), battle("Grandma", 1)])


def show(app, state, entry=None, path=None):
    entry = entry or flow.new_entry()
    info = TableInfo(verdict="OK", verdict_ok=True, prompt=flow.prompt(state, entry), entry=entry,
                     game_name="Sugar Heist", devices={"scanner": "connected"})
    app.show(lambda s: screen.draw_game(s, rules.public_view(state, TABLE), info))
    if path:
        app.save(path)
    return [b.command for b in app.buttons]


def menu_commands(app, state, menu=None, page=0, entry=None):
    """The commands of the menu shown over ``state`` (not the shared top bar's)."""
    entry = entry or flow.new_entry()
    info = TableInfo(prompt=flow.prompt(state, entry), entry=entry, game_name="Sugar Heist", page=page, menu=menu)
    app.show(lambda surf: screen.draw_game(surf, rules.public_view(state, TABLE), info))
    return [b.command for b in app.buttons if b.rect.top >= 48]


def big_enough(app):
    """The game's own targets (not the shared top bar's) are at least 48 px."""
    return all(b.rect.width >= 48 and b.rect.height >= 48 for b in app.buttons if b.rect.top >= 48)


def test_the_vault_board(app, tmp_path):
    commands = show(app, replace(table(), stage="stash", active=1), path=tmp_path / "board.png")
    assert commands == ["deck", "vault 1", "vault 2", "vault 3", "cant"]
    assert big_enough(app)


def test_four_players_with_many_vaults_keep_finger_sized_chips(app):
    s = at(game(("Ana", "Ben", "Cy", "Di")), "stash")
    for i in range(6):
        s = with_vault(s, 0, i, candies(CR, 1 + 2 * i, 2) if i < 4 else ())
    show(app, s)
    assert big_enough(app) and sum(c.startswith("vault") for c in [b.command for b in app.buttons]) == 6


def test_a_heist_target_menu_and_the_duel(app, tmp_path):
    s, _ = rules.step(table(), Play(battle("Attack", 1)))
    groups = show(app, s, path=tmp_path / "target.png")  # more than 8 buttons: grouped by player (issue 36)
    assert big_enough(app)
    commands = [c for g in groups if g.startswith("menu targets ")
                for c in menu_commands(app, s, menu=g.removeprefix("menu "))]
    assert "heist 1 2" in commands and "steal 2 1" in commands and "heist 1 1" not in commands  # 1 1 is locked
    assert big_enough(app)
    s, _ = play(s, Target("heist", 0, 1), Done(), Flip(battle("Attack", 2)), Flip(battle("Spy", 1)))
    show(app, s, path=tmp_path / "duel.png")
    assert (tmp_path / "duel.png").stat().st_size > 0


def test_every_target_of_a_long_target_menu_is_reachable_by_touch(app, tmp_path):
    # Four players with vaults everywhere: an Attack Card has more targets than the 8
    # buttons the panel holds. They are grouped (issue 36: they came a page at a time,
    # one player's vaults split across pages): one button per player and way of playing
    # opens that group's vaults, Back comes back, and Keep it hidden stays on the first.
    s = table(("Zach", "Pam", "Alex", "Di"))
    for seat, vaults in ((1, 3), (3, 3)):
        for v in range(vaults):
            s = with_vault(s, seat, v, candies((FB, LS, SB)[v], 1, 3 + v))
    s = with_vault(s, 0, 2, candies(SB, 1, 5))
    s, _ = rules.step(s, Play(battle("Attack", 1)))
    from companion.games.sugar_heist.parts import battle as B

    targets = [f"{style} {seat + 1} {vault + 1}" for style, seat, vault in B.legal_targets(s, s.frame.actor, s.frame.card)]
    assert len(targets) > 8 and s.frame.withdrawable  # played from the face-down cards: Keep it is offered
    first = menu_commands(app, s)
    groups = [c for c in first if c.startswith("menu targets ")]
    assert "keep" in first and len(groups) >= 2 and big_enough(app)
    app.save(tmp_path / "targets.png")
    once = []
    for group in groups:
        shown = menu_commands(app, s, menu=group.removeprefix("menu "))
        assert "cancel" in shown and big_enough(app)  # Back, to the groups
        style, seat = group.split()[2:]
        assert all(c.startswith(f"{style} {seat} ") for c in shown if c != "cancel")  # one player's, one way
        once += [c for c in shown if c in targets]
    assert sorted(once) == sorted(targets)  # every target in exactly one group


def test_swap_and_pure_sugar_menus(app):
    s = replace(table(), stage=SWAP, active=0, revealed=(candy(FB, 9),), draw=table().draw - 1)
    e, _, _ = flow.read(s, flow.new_entry(), flow.CardScanned(candy(FB, 9), "scanner", 0.0))
    assert show(app, s, e)[-4:] == ["give 1", "give 2", "give 3", "clear"]
    s2 = replace(table(), stage="stash", active=2)
    e2 = flow.Entry(cards=(candy(PS, 3), candy(PS, 4)))
    assert sum(c.startswith("flavour") for c in show(app, s2, e2)) == 6


def test_the_candy_pile_count_can_be_corrected(app):
    s = table()
    info = TableInfo(menu="deck", deck_draft=40, entry=flow.new_entry())
    app.show(lambda surf: screen.draw_game(surf, rules.public_view(s, TABLE), info))
    commands = [b.command for b in app.buttons]
    assert "deck 40" in commands and "draft 39" in commands and "draft 4" in commands and "cancel" in commands
    _, action, _ = flow.read(s, flow.new_entry(), flow.Touch("deck 40", 0.0))
    assert action == rules.SetPile(40)


def test_the_final_count(app, tmp_path):
    s = replace(table(), stage=OVER)
    result = rules.result(s)
    app.show(lambda surf: screen.draw_final(surf, result, TableInfo(prompt="Tap New game")))
    app.save(tmp_path / "final.png")
    assert result.winners == ("Zach",)


# ---------------------------------------------------------------- every menu at every panel (issue 36)

LONG = ("Grandma Josephine", "Pam", "Alexander", "Di")


def crowded():
    """Four players, the long names, five vaults each but Alexander's: his Attack has 30
    targets (a Heist and a Steal on each vault)."""
    s = at(game(LONG), BUY, active=2)
    first = {}
    for seat in (0, 1, 3):
        for v, f in enumerate((CR, NB, FB, LS, SB)):
            s = with_vault(s, seat, v, candies(f, first.get(f, 1), 2), locked=False)
            first[f] = first.get(f, 1) + 2
    s = holding(s, 2, [battle("Attack", 1)], fresh=True)
    return rules.step(s, Play(battle("Attack", 1)))[0]


def every_menu():
    """(name, state, entry, window menu) for each menu Sugar Heist opens, at its most crowded."""
    from companion.games.sugar_heist.parts import battle as B
    from companion.games.sugar_heist.parts.cards import FLAVOURS
    from companion.games.sugar_heist.state import Frame

    s = crowded()
    groups = sorted({f"targets {style} {seat + 1}" for style, seat, _ in B.legal_targets(s, 2, s.frame.card)})
    out = [("targets", s, None, None)] + [(g, s, None, g) for g in groups]
    bad_dog = replace(s, stack=(Frame(battle("Bad Dog", 1), 2, "flavour"),))
    out.append(("flavour", bad_dog, None, None))
    out.append(("keep", replace(s, stack=(Frame(battle("Bad Dog", 1), 2, "keep", flavours=FLAVOURS[:5]),)),
                None, None))
    swap = replace(at(game(LONG), SWAP, active=0), revealed=(candy(FB, 9),))
    swap = replace(swap, draw=swap.draw - 1)
    e, _, _ = flow.read(swap, flow.new_entry(), flow.CardScanned(candy(FB, 9), "scanner", 0.0))
    out.append(("who gets", swap, e, None))
    out.append(("two pure sugars", at(game(LONG), "stash", active=2), flow.Entry(cards=(candy(PS, 3), candy(PS, 4))),
                None))
    out.append(("deck", s, None, "deck"))
    return out


@pytest.mark.parametrize("size, rotation", [((800, 480), 0), ((1024, 600), 0), ((720, 1280), 90)])
def test_no_menu_shows_more_than_eight_buttons_and_nothing_in_it_is_cut(tmp_path, size, rotation):
    """Every Sugar Heist menu, at its most crowded (four players, long names, a card with
    30 targets), on the 7" panel (800x480), 1024x600 and the 720x1280 panel turned: at most
    8 buttons at once (issue 36: grouped, not cut or crowded), each finger-sized, every
    word whole and readable; every target reachable."""
    from companion.games.sugar_heist.parts import battle as B
    from companion.ui.widgets import record_text

    panel = App(size=size, rotation=rotation)
    try:
        reached = set()
        for name, state, entry, menu in every_menu():
            entry = entry or flow.new_entry()
            info = TableInfo(prompt=flow.prompt(state, entry), entry=entry, game_name="Sugar Heist", menu=menu,
                             deck_draft=40 if menu == "deck" else None)
            with record_text() as drawn:
                panel.show(lambda surf: screen.draw_game(surf, rules.public_view(state, TABLE), info))
            panel.save(tmp_path / f"{name.replace(' ', '-')}.png")
            shown = [b for b in panel.buttons if b.rect.top >= 48]
            if menu == "deck":  # the number pad (chrome.count_menu) is a pad to type on, not choices to
                # read: -1 and +1, ten digit keys in two rows of five with Clear, then OK and Cancel
                assert [b.command.split()[0] for b in shown] == ["draft"] * 13 + ["deck", "cancel"], name
            else:
                assert 2 <= len(shown) <= 8, (name, [b.command for b in shown])
            assert big_enough(panel), name
            cut = [(d.text, d.size) for d in drawn if not d.decoration and (d.clipped or not d.readable)]
            assert cut == [], (name, cut)
            reached |= {b.command for b in shown}
        s = crowded()
        targets = {f"{style} {seat + 1} {vault + 1}" for style, seat, vault in B.legal_targets(s, 2, s.frame.card)}
        assert len(targets) == 30 and targets <= reached
    finally:
        panel.close()


def test_a_grouped_target_is_played_by_two_taps_through_the_window():
    """The group buttons open a window menu (nothing is stored); its vault buttons play the
    card on that vault, and Back closes it again."""
    import pygame

    from companion.core.clock import FakeClock
    from companion.core.store import EventStore
    from companion.table.runner import Runner
    from companion.table.session import Session

    app = App()  # (its own: the test before opened and closed panels of other sizes)
    clock = FakeClock(0.0)
    session = Session.start("sugar-heist", list(LONG), EventStore(":memory:"), clock)
    session.state = crowded()  # (a state built for the screen: the window and the flow are what is tried)
    r = Runner(session, clock, app=app)
    r.render(force=True)

    def tap(command):
        rects = [b.rect for b in r.app.buttons if b.command == command]
        assert rects, f"no {command!r} button on screen: {[b.command for b in r.app.buttons]}"
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=rects[-1].center))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=rects[-1].center))
        r.step()
        r.render(force=True)

    tap("menu targets steal 2")
    assert "steal 2 3" in [b.command for b in r.app.buttons] and session.saved_inputs == 0
    tap("cancel")
    assert "menu targets steal 2" in [b.command for b in r.app.buttons]
    tap("menu targets steal 2")
    tap("steal 2 3")
    assert session.saved_inputs == 1 and session.state.frame.step != "target"  # the Steal on Pam's vault 3
    app.close()
