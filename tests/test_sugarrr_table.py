"""Sugarrr! at a real table (issue 9): what a family types and reads through
``companion run --headless --simulate``."""

import subprocess
import sys

from sugarrr_helpers import fruit, saur

SETUP = ["SRP21T", "SRS311", "SRG51J", "SRA61U", "SRB81E"]  # Pineapple 2, Strawberry 3, Grapes 5, Apricots 6, Blueberries 8


def play(tmp_path, *lines, names="Ana,Ben"):
    """The text log of a headless game fed ``lines`` (``/cmd`` a touch, else a scan)."""
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--headless", "--simulate",
                           "--names", names, "--store", str(tmp_path / "table.db")],
                          input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    # the first line names the game; indented lines are the status after each input
    return [line for line in proc.stdout.splitlines()[1:] if not line.startswith("  ")]


def test_an_empty_deck_after_a_gather_leaves_the_column_empty_and_play_goes_on(tmp_path):
    out = play(tmp_path, *SETUP, "/column 1", "SRS215", "/done", "/deck 0",
               "/pass", "/done", "/done", "/pass", "/done", "/done")
    # Ana's gather emptied column 1; the deck is then counted empty: no card can start it.
    deck = out.index("The Fruit Deck now has no cards. The Fruit Deck is empty: the Final Round starts after this "
                     "turn. The Fruit Deck is empty, so column 1 stays empty. Play goes on. Final Round: everyone "
                     "takes one last turn: Swap, Play or Pass. Ben's turn.")
    assert not any(line.startswith("REJECTED") for line in out[deck:]), out[deck:]
    assert any(line.startswith("Game over!") for line in out[deck:])


def test_an_empty_deck_during_set_up_leaves_the_other_columns_empty(tmp_path):
    out = play(tmp_path, *SETUP[:2], "/deck 0", fruit("Strawberry", 4))
    assert out[-2].endswith("The Fruit Deck is empty, so columns 3, 4 and 5 stay empty. Play goes on. "
                            "Set-up done. Ana goes first.")
    # Strawberry 4 fits column 2 (a Strawberry) and the three empty columns: a step, then a column tap
    assert out[-1].startswith("Strawberry 4 fits columns 2, 3, 4 and 5: tap the column it goes on")


def test_the_final_round_hand_is_counted_and_done_with_none_scanned_asks_to_confirm(tmp_path):
    # Ana swaps on the turn the deck runs out; then the Final Round: Ben, then Ana.
    out = play(tmp_path, *SETUP, "/deck 0", "/swap 1", "/pass", "/done", fruit("Pear", 7), "/done",
               "/pass", "/done", "/done")
    ben = out.index("Ben passes. Ben: scan the cards left in your hand (no cards scanned), then tap Done.")
    assert out[ben + 1:ben + 4] == ["Ben: no cards scanned from your hand. Tap Done again if your hand is empty.",
                                    "Pear 7 from Ben's hand goes to the score pile (1 card scanned).",
                                    "Ana's turn."]
    end = out.index("Game over! Ana and Ben are Win-O-Saurs!")
    assert out[end - 1] == "Ana: no cards scanned from your hand. Tap Done again if your hand is empty."


def test_a_fruit_o_saur_in_a_score_pile_is_not_said_to_live_in_the_valley(tmp_path):
    # Ana plays Strawberry 4 on column 2 (2 cards, not 4): she attracts 1 and takes Tyrannostrawbrus Rex 1.
    # (a tap between two scans of one card: within a second they would be one tap-off)
    out = play(tmp_path, *SETUP, fruit("Strawberry", 4), "/done", saur("Strawberry", 1), "/column 9",
               saur("Strawberry", 1), saur("Grapes", 2))
    assert out[-2] == ("REJECTED " + saur("Strawberry", 1) + ": Tyrannostrawbrus Rex 1 is a Fruit-O-Saur in Ana's "
                       "score pile: it cannot be played on a column.")
    assert out[-1].endswith("it stays in The Valley, it cannot be played on a column.")


def test_done_before_playing_in_the_final_round_names_pass(tmp_path):
    out = play(tmp_path, *SETUP, "/deck 0", "/swap 1", "/done")
    assert out[-1] == "REJECTED done: Play at least one card first, or tap Swap or Pass."


def test_counts_say_1_card_and_no_cards(tmp_path):
    out = play(tmp_path, *SETUP, "/deck 1", "/deck 0")
    assert out[-2] == "The Fruit Deck now has 1 card."
    assert out[-1].startswith("The Fruit Deck now has no cards.")
    assert not any("1 cards" in line or "0 cards" in line for line in out)


def test_a_card_that_fits_two_columns_is_a_step_not_a_rejection(tmp_path):
    # Strawberry 2 fits column 1 (a 2) and column 2 (a Strawberry).
    out = play(tmp_path, *SETUP, fruit("Strawberry", 2), "/column 2", fruit("Strawberry", 2))
    assert out[-3] == "Strawberry 2 fits columns 1 and 2: tap the column it goes on, then scan it again."
    assert out[-1] == "Strawberry 2 on column 2 (2 cards)."


def test_a_card_scanned_twice_is_named_without_its_copy_number(tmp_path):
    out = play(tmp_path, *SETUP, SETUP[2])
    assert out[-1] == f"REJECTED {SETUP[2]}: That Grapes 5 card is already in column 3: it was scanned before."


def test_the_prompt_after_a_two_column_card_names_the_columns_to_tap():
    from companion.core.clock import FakeClock
    from companion.core.events import CardScanned
    from companion.core.store import EventStore
    from companion.table.session import Session

    s = Session.start("sugarrr", ["Ana", "Ben"], EventStore(":memory:"), FakeClock())
    for n, code in enumerate(SETUP + [fruit("Strawberry", 2)]):
        verdict = s.handle(CardScanned(code, "scanner", n * 2.0))
    assert verdict.verdict == "accepted" and s.last_ok is not False
    assert s.prompt() == "Ana: tap column 1 or 2 for Strawberry 2, then scan it again."
    assert s.state.phase == "turn" and s.state.columns[0] == (SETUP[0],)  # nothing was played yet
