"""Defects a new-user trial found (issue 13): every input gets a visible verdict that
says what is wrong and what to do, in the words of the game being played."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from companion.core.clock import FakeClock
from companion.core.commands import annotate, game_commands, valid_now
from companion.core.events import CardScanned, Touch
from companion.core.game import NoCards
from companion.core.store import EventStore
from companion.games import GAMES
from companion.table.logs import TextLog
from companion.table.replay import replay
from companion.table.runner import Runner
from companion.table.session import Session
from companion.table.verdicts import state_digest
from sugarrr_helpers import STARTS
from toy_helpers import every_game


def companion(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def headless(db, *args, stdin=""):
    return companion("run", "--headless", "--simulate", "--store", str(db), *args, stdin=stdin)


def test_no_names_for_a_game_with_none_unfinished_names_the_other_unfinished_game(tmp_path):
    db = tmp_path / "term.db"
    assert headless(db, "--game", "sugarrr", "--names", "Ann,Bob", stdin="SRS215\n").returncode == 0
    proc = headless(db, "--game", "sugar-blast")
    assert proc.returncode == 2
    said = proc.stderr
    assert "no unfinished Sugar Blast game" in said
    assert "unfinished Sugarrr! game with Ann, Bob" in said and "--game sugarrr" in said
    assert "--names" in said  # how to start a new one instead
    assert [g.game for g in EventStore(db).games()] == ["sugarrr"]  # nothing was started or set aside


# ---------------------------------------------------------------- a card of another game

DATA = Path(__file__).parent / "data"


def one_card_of_each_game() -> dict[str, str]:
    """slug -> the code of one card of that game (games with cards to scan)."""
    out = {}
    for slug, game in GAMES.items():
        try:
            out[slug] = game.cards()[0].code
        except NoCards:
            continue
    return out


def demo_inputs(slug):
    session = replay(DATA / GAMES[slug].demo, window=False).session
    record = session.store.games()[0]
    return list(record.players), record.config, session.store.inputs(session.game_id)


@pytest.mark.parametrize("slug", every_game(GAMES))
def test_a_card_of_another_game_is_named_by_its_game_in_every_phase(slug):
    """Sweet Deals said "That card could not be read" for a Sugarrr! card while hands were
    dealt (a hidden hand). Every game, in every phase its demo passes through, names the
    game the card is from and changes nothing."""
    players, config, inputs = demo_inputs(slug)
    session = Session.start(slug, players, EventStore(":memory:"), FakeClock(), resume=False, options=config,
                            tap_off=0)
    others = {s: code for s, code in one_card_of_each_game().items() if s != slug}
    seen = set()
    for item in [None] + inputs:
        if item is not None:
            assert session.handle(item).verdict == "accepted"
        if session.over or session.state.phase in seen:
            continue
        seen.add(session.state.phase)
        before = state_digest(session.state)
        for other, code in others.items():
            verdict = session.handle(CardScanned(code, "scanner", item.t if item else 0.0))
            assert verdict.verdict == "rejected", (session.state.phase, code)
            assert GAMES[other].name in verdict.reason, (session.state.phase, verdict.reason)
            assert state_digest(session.state) == before
    assert len(seen) >= 3


def test_sweet_deals_open_hands_and_bidding_name_the_other_game_too():
    session = Session.start("sweet-deals", ["Ana", "Ben"], EventStore(":memory:"), FakeClock(), resume=False,
                            options={"mode": "open"}, tap_off=0)
    for command in (None, "offer cupcake", "bid 1"):
        if command:
            assert session.handle(Touch(command, 0.0)).verdict == "accepted"
        verdict = session.handle(CardScanned("SRS215", "scanner", 0.0))
        assert verdict.reason == "That card is from Sugarrr!, not Sweet Deals."


# ---------------------------------------------------------------- no silence

def test_a_scan_while_paused_says_playing_again(tmp_path):
    out = io.StringIO()
    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(":memory:"), FakeClock(), resume=False, tap_off=0)
    session.listeners.append(TextLog(out, session))
    assert session.handle(Touch("pause", 1.0)).verdict == "accepted" and session.paused
    verdict = session.handle(CardScanned(STARTS[0], "scanner", 5.0))
    assert verdict.verdict == "accepted" and not session.paused
    assert verdict.message.startswith("Playing again.") and session.last_message.startswith("Playing again.")
    assert any(line.startswith("Playing again. ") for line in out.getvalue().splitlines())
    assert session.handle(Touch("pause", 6.0)).verdict == "accepted"
    undo = session.handle(Touch("undo", 7.0))
    assert undo.message.startswith("Playing again. Undone") and not session.paused
    # the undo label (what an Undo takes back) is the play itself, not the pause's end
    session.handle(CardScanned(STARTS[0], "scanner", 8.0))
    assert not session.undo_label().startswith("Playing again")


@pytest.mark.parametrize("slug, command, words", [
    ("sugarrr", "deck -4", "from 0 to 118"), ("sugarrr", "swap x", "from 1 to 5"),
    ("sugarrr", "column 0x", "from 1 to 5"), ("sugar-heist", "deck -4", "from 0 to")])
def test_a_number_out_of_shape_says_which_numbers(slug, command, words):
    players = ["Ana", "Ben"]
    session = Session.start(slug, players, EventStore(":memory:"), FakeClock(), resume=False, tap_off=0)
    verdict = session.handle(Touch(command, 1.0))
    assert verdict.verdict == "rejected" and words in verdict.reason


# ---------------------------------------------------------------- menus, help, unknown commands

def table(slug, players=("Ana", "Ben"), **options):
    """A headless table: the session, its runner and what the text log printed."""
    out = io.StringIO()
    session = Session.start(slug, list(players), EventStore(":memory:"), FakeClock(), resume=False, tap_off=0,
                            options=options)
    session.listeners.append(TextLog(out, session))
    return session, Runner(session, FakeClock(), text_out=out), out


def said_after(out, runner, command):
    start = len(out.getvalue())
    runner.touch(command, now=True)
    return out.getvalue()[start:]


def test_swap_and_deck_menus_are_each_games_own():
    _, runner, out = table("sugarrr")
    said = said_after(out, runner, "swap")
    assert "/swap 2 (how many cards to swap, 1 to 5)" in said and "column" not in said
    assert "Fruit Deck" in said_after(out, runner, "deck")
    _, runner, out = table("sugar-heist")
    assert "Candy Draw Pile" in said_after(out, runner, "deck")
    _, runner, out = table("sugar-blast", goal="two-threes")
    assert "Not allowed (swap):" in said_after(out, runner, "swap") and "4 numbers" in out.getvalue()
    session, runner, out = table("sweet-deals")
    for verb in ("swap", "deck"):
        said = said_after(out, runner, verb)
        assert said.startswith(f"Not allowed ({verb}): I don't know the command '{verb}'.") and "opens a menu" not in said
        assert "/help" in said and session.last_ok is False


@pytest.mark.parametrize("slug", every_game(GAMES))
def test_help_lists_what_is_accepted_now_and_changes_nothing(slug):
    players, config, inputs = demo_inputs(slug)
    session = Session.start(slug, players, EventStore(":memory:"), FakeClock(), resume=False, options=config,
                            tap_off=0)
    for item in inputs[:12]:
        assert session.handle(item).verdict == "accepted"
        before, stored = state_digest(session.state), len(session.store.inputs(session.game_id))
        verdict = session.handle(Touch("help", item.t))
        assert verdict.verdict == "accepted" and verdict.step and verdict.seq is None
        assert state_digest(session.state) == before and len(session.store.inputs(session.game_id)) == stored
        listed = verdict.message.split("You can tap or type now: ")[1]
        assert ("/undo" in listed) == (session.undo_label() is not None) and "/help" in listed
        for command in valid_now(session.desc, session.state, session.entry):
            assert f"/{command.usage}" in listed
        rejected = session.handle(Touch("hlep", item.t))
        assert rejected.verdict == "rejected" and "Commands now: " in rejected.reason and "/help" in rejected.reason


def test_help_names_only_commands_the_table_would_accept():
    session, runner, out = table("sugar-heist")
    said = said_after(out, runner, "help")
    assert "Can't stash (/cant)" in said and "Done (/done)" not in said and "/undo" not in said
    assert said.index("You can tap or type now") < said.index("Now: Ana's turn (turn 1). Ana: stash a pair")


@pytest.mark.parametrize("slug", every_game(GAMES))
def test_every_declared_command_is_one_the_game_reads(slug):
    """No command in a game's list is one its flow does not know (the list and the flow
    cannot drift apart), and every button word belongs to one command."""
    players, config, inputs = demo_inputs(slug)
    session = Session.start(slug, players, EventStore(":memory:"), FakeClock(), resume=False, options=config,
                            tap_off=0)
    used = set()
    for item in [None] + inputs:
        if item is not None:
            session.handle(item)
        for command in game_commands(session.desc):
            for sample in command.samples(session.state):
                try:
                    session.desc.flow.read(session.state, session.entry, Touch(sample, 0.0))
                    used.add(command.word)
                except Exception as err:  # refused is fine; unknown is not
                    assert "don't know the command" not in str(err), sample
    assert used, "some command is accepted somewhere in the demo"


def test_headless_prompts_name_the_typed_command_of_each_button():
    session, runner, out = table("sugar-heist")
    next(l for l in session.listeners if isinstance(l, TextLog)).status()
    assert "tap Can't stash (/cant)." in out.getvalue()
    assert annotate("tap Heist or Steal on a vault", game_commands(GAMES["sugar-heist"])) == \
        "tap Heist (/heist P V) or Steal (/steal P V) on a vault"


def test_options_given_when_a_game_is_resumed_are_said_to_be_unused(tmp_path):
    """The second trial: --goal and --quick on a resumed game were dropped without a word."""
    store = str(tmp_path / "t.db")
    first = companion("run", "--game", "sugar-blast", "--goal", "nine-any", "--names", "Ana,Ben", "--headless",
                      "--simulate", "--store", store)
    assert first.returncode == 0, first.stderr
    again = companion("run", "--game", "sugar-blast", "--goal", "five-different", "--quick", "--names", "Ana,Ben",
                      "--headless", "--simulate", "--store", store)
    assert again.returncode == 0, again.stderr
    assert "carrying on the unfinished Sugar Blast game with the options it began with (--goal nine-any" in again.stderr
    assert "--goal --quick not used: add --new-game" in again.stderr
    same = companion("run", "--game", "sugar-blast", "--goal", "nine-any", "--names", "Ana,Ben", "--headless",
                     "--simulate", "--store", store)
    assert "not used" not in same.stderr  # the same options: nothing to say


def test_a_record_that_cannot_be_written_is_refused_before_any_game_is_stored(tmp_path):
    store = tmp_path / "t.db"
    empty = headless(store, "--game", "sugarrr", "--names", "A,B", "--record", "")
    assert empty.returncode == 2 and "--record needs a file name" in empty.stderr
    cannot = headless(store, "--game", "sugarrr", "--names", "A,B", "--record", "/proc/companion-x.trace")
    assert cannot.returncode == 2 and "cannot write the record" in cannot.stderr
    assert "Traceback" not in cannot.stderr
    if store.exists():  # the store may be made, but no game is in it
        from companion.core.store import EventStore

        with_games = EventStore(store)
        try:
            assert with_games.games() == []
        finally:
            with_games.close()


def test_sugar_heist_join_and_from_out_of_their_moment_are_refused(tmp_path):
    """The second trial: /join 2 with no Crib Fight on said "B joins" and the next scan
    became a stash; /from 2 outside the swap said "Next card from B's hand"."""
    out = headless(tmp_path / "t.db", "--game", "sugar-heist", "--names", "A,B", stdin="/join 2\n/from 2\n")
    assert out.returncode == 0, out.stderr
    assert "Not allowed (join 2): There is no Crib Fight to join now." in out.stdout
    assert "Not allowed (from 2): Cards are given from a hand only in the swap (Phase 2)." in out.stdout
    assert "joins: scan the candy" not in out.stdout and "Next card from" not in out.stdout


def test_a_command_typed_without_its_slash_says_so_instead_of_garbled(tmp_path):
    out = headless(tmp_path / "t.db", "--game", "sugarrr", "--names", "A,B", stdin="undo\nSRS215\n")
    assert "Not allowed (undo): that is a command, not a card code: type /undo" in out.stdout
    assert "garbled" not in out.stdout and "Strawberry 2 starts column 1." in out.stdout


def test_names_that_differ_only_in_capitals_are_refused(tmp_path):
    out = headless(tmp_path / "t.db", "--game", "sugarrr", "--names", "Mum,mum")
    assert out.returncode == 2 and "'Mum' and 'mum' are the same name" in out.stderr


@pytest.mark.parametrize("flag, pin", [("--buzzer", "-1"), ("--buzzer", "99"), ("--led", "1")])
def test_a_gpio_pin_outside_the_header_is_a_usage_error(tmp_path, flag, pin):
    out = headless(tmp_path / "t.db", "--game", "sugarrr", "--names", "A,B", flag, pin)
    assert out.returncode == 2 and f"{flag} {pin}: a GPIO pin is a BCM number from 2 to 27" in out.stderr
    assert not (tmp_path / "t.db").exists()  # refused before the store is touched
