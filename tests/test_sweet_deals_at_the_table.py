"""Sweet Deals played as a table plays it, through ``companion run --headless --simulate``
and the Session: hybrid cards read as their own card says, a shared screen that keeps the
hands secret, a "Sweet Six!" shout that is checked, and an empty deck that is refilled."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from companion.core.clock import FakeClock
from companion.core.events import CardScanned, Touch
from companion.core.store import EventStore
from companion.games.sweet_deals import rules, scoring
from companion.games.sweet_deals.parts.cards import code_for
from companion.table.session import Session

C = code_for


def run(*args, stdin=""):
    """``companion run ARGS`` with ``stdin`` typed, as a table under --simulate."""
    env = dict(os.environ, PYGAME_HIDE_SUPPORT_PROMPT="1")
    return subprocess.run([sys.executable, "-m", "companion.cli", "run", *args], input=stdin,
                          capture_output=True, text=True, timeout=120, env=env)


def final_scores(stdout: str) -> dict[str, int]:
    """The score table the text mode prints at the end: ``{name: points}``."""
    table = stdout.split("Player   Score")[-1].splitlines()[2:]
    return {m.group(1): int(m.group(2)) for m in map(re.compile(r"^(\S+)\s+(\d+)").match, table) if m}


def lines(*items) -> str:
    return "\n".join(items) + "\n"


def session(tmp_path, players, **options) -> Session:
    return Session.start("sweet-deals", list(players), EventStore(tmp_path / "table.db"), FakeClock(),
                         options=options, tap_off=0)


class Table:
    """Feeds a Session one input at a time, with a rising clock."""

    def __init__(self, s: Session):
        self.s, self.t = s, 0.0

    def __call__(self, item: str):
        self.t += 1.0
        if item.startswith("/"):
            return self.s.handle(Touch(item[1:], self.t))
        return self.s.handle(CardScanned(item, "scanner", self.t))


# ---------------------------------------------------------------- 9. hybrids

# Ana's Strudel Cupcake decides the game: "or" (its card) gives her Strudel 2 + Cupcake 2
# (4 + 4) or Strudel 3 + Cupcake 1 (7): 8 bonus; "and" would give Strudel 3 + Cupcake 2: 11.
ANA = [C("Strudel", 1, 1), C("Strudel", 1, 2), C("Cupcake", 1, 1), C("Strudel Cupcake"), C("Donut", 4), C("Mochi"),
       C("Grab & Go", copy=1)]
BEN = [C("Cupcake", 4), C("Cupcake", 3), C("Donut", 1, 1), C("Donut", 2, 1), C("Strudel", 4), C("Grab & Go", copy=2),
       C("Grab & Go", copy=3)]


def table_lines(stdout: str) -> list[str]:
    """Text mode's lines for the table, without its indented status lines ("  Now: ...")."""
    return [line for line in stdout.splitlines() if not line.startswith("  ")]


def test_each_hybrid_counts_as_its_own_card_says_by_default(tmp_path):
    """Sweet Deals rulebook, "Scoring": "the Pie & Ice Cream card is special: it counts as
    Pie AND Ice Cream, so Tim has 3 Pie and 2 Ice Cream" (Tim's example, 24 points).
    "Special Cards": "Strudel Cupcake: There are 4 Hybrid Cards! ... This card counts as
    Strudel or Cupcake." Each hybrid follows its own card by default; ``--hybrid and|or``
    is a house rule that forces one reading on every hybrid."""
    tim = [C("Pie", 1), C("Pie", 2), C("Pie & Ice Cream"), C("Ice Cream", 2), C("Cupcake", 4), C("Chocolate", 2),
           C("Strudel", 2)]
    assert scoring.score_hand(tim).total == 24                      # AND: 13 coins + Pie x3 7 + Ice Cream x2 4
    # Issue 38: the score line says what each bonus counts, in the rulebook's words ("3 of a kind = 7 pts")
    assert scoring.score_hand(tim).line() == ("13 coins + 7 points for 3 of a kind (Pie) + 4 points for 2 of a kind "
                                              "(Ice Cream) = 24 points (Pie & Ice Cream as Pie and Ice Cream)")
    assert rules.new_game(["Ana", "Ben"]).hybrid == "card"
    # Ana: 12 coins; Ben: 14 coins + Cupcake x2 4 + Donut x2 4 = 22.
    # By the cards: Ana 12 + 8 = 20, Ben wins. Forced "and": Ana 12 + 11 = 23 wins.
    table = lines("/close", "/yes", *ANA, *BEN)
    out = run("--game", "sweet-deals", "--names", "Ana,Ben", "--mode", "open", "--headless", "--simulate",
              "--tap-off", "0", "--store", str(tmp_path / "a.db"), stdin=table)
    assert out.returncode == 0, out.stderr
    assert final_scores(out.stdout) == {"Ana": 20, "Ben": 22}, out.stdout[-600:]
    assert table_lines(out.stdout)[-1] == "Ben wins!"  # the score table's last line (then how to play again)
    forced = run("--game", "sweet-deals", "--names", "Ana,Ben", "--mode", "open", "--hybrid", "and", "--headless",
                 "--simulate", "--tap-off", "0", "--store", str(tmp_path / "b.db"), stdin=table)
    assert forced.returncode == 0, forced.stderr
    assert final_scores(forced.stdout) == {"Ana": 23, "Ben": 22}, forced.stdout[-600:]
    assert table_lines(forced.stdout)[-1] == "Ana wins!"
    helped = run("--help")
    hybrid_help = " ".join(helped.stdout.split()).split("--hybrid CHOICE")[-1]
    # (issue 38: the words the start screen shows, "Usual is card" before them)
    assert "usually what each says: card, and (Both desserts), or (One of the two)" in hybrid_help


# ---------------------------------------------------------------- 10. secrets on the shared screen

# Two deals for the same two players (the 33-card deck) whose hands differ: in the first Ana
# holds a Cupcake and Ben a Grab & Go and a card worth 3; in the second neither does.
DEAL_A = [[C("Strudel", 1, 1), C("Strudel", 1, 2), C("Strudel", 1, 3), C("Cupcake", 1, 1), C("Donut", 1, 1), C("Mochi"),
           C("Sprinkles", copy=1)],
          [C("Cupcake", 4), C("Cupcake", 3), C("Donut", 2, 1), C("Donut", 2, 2), C("Strudel", 4),
           C("Grab & Go", copy=1), C("Donut", 3)]]
DEAL_B = [[C("Donut", 1, 2), C("Donut", 1, 3), C("Strudel", 2, 1), C("Strudel", 2, 2), C("Donut Strudel"),
           C("Sprinkles", copy=2), C("Sprinkles", copy=3)],
          [C("Cupcake", 2, 1), C("Cupcake", 2, 2), C("Cupcake", 1, 2), C("Cupcake", 1, 3), C("Strudel Cupcake"),
           C("Donut", 4), C("Strudel", 1, 3)]]


def said(verdict) -> str:
    return verdict.message if verdict.verdict == "accepted" else f"REFUSED {verdict.reason}"


def dealt(tmp_path, name, hands) -> Table:
    (tmp_path / name).mkdir()
    table = Table(session(tmp_path / name, ["Ana", "Ben"], mode="tracked"))
    for hand in hands:
        for code in hand:
            assert table(code).verdict == "accepted"
    return table


def test_help_refusals_and_offer_undo_say_nothing_the_hidden_hands_decide(tmp_path):
    """Sweet Deals rulebook, "Deal": "Deal each player 7 Dessert Cards facedown"; "On
    Your Turn": "Offer a Dessert: Pick a dessert you are not collecting and say (only) the
    name of it", "A bid is a coin value on one card in your hand", "Swap: Secretly swap
    cards with the winner". What the table hears is a name and a number: the shared
    screen's /help, the command list after a typo, and every refusal must be the same
    whatever the hidden hands hold, and Offer + Undo must not list anyone's desserts."""
    a, b = dealt(tmp_path, "a", DEAL_A), dealt(tmp_path, "b", DEAL_B)
    taps = ["/help", "/dance"]
    for label in ("cupcake", "strudel", "donut", "strudel cupcake", "donut strudel", "sprinkles", "grab & go",
                  "mochi"):
        taps += [f"/offer {label}", "/undo"]
    taps += ["/offer cupcake", "/help", "/dance", "/grab 2", "/undo", "/bid 4", "/undo", "/bid 3", "/help",
             "/dance"]
    for tap in taps:
        va, vb = a(tap), b(tap)
        assert said(va) == said(vb), tap
        assert a.s.prompt() == b.s.prompt(), tap
    # Ben bid 3: in the second deal he has no card worth 3, which the swap scan shows.
    assert b.s.state.phase == rules.SWAP
    refused = b(C("Cupcake", 2, 1))
    assert refused.verdict == "rejected" and "That is not a card from your hand worth 3 coins." in refused.reason
    assert "Cupcake" not in refused.reason and "Pass" in refused.reason
    assert a(C("Cupcake", 3)).verdict == "accepted"
    owned_up = b("/pass")
    assert owned_up.verdict == "accepted" and owned_up.message.startswith("Ben has no card worth 3 coins: no swap")
    assert b.s.state.phase == rules.OFFER and b.s.state.active == 1


def test_a_claim_is_checked_when_its_card_is_scanned(tmp_path):
    """Sweet Deals rulebook, "On Your Turn": "Swap: Secretly swap cards with the winner
    -or- players with tied high bids must reveal the desserts on their cards." An offer
    or bid the hand cannot back is refused when the card is scanned, worded about that
    card; a tied bidder with no such card, or an offerer with no such dessert, taps Pass."""
    b = dealt(tmp_path, "b", DEAL_B)
    # Ana offers a Cupcake she does not hold; Ben wins with 2 and gives his Cupcake 2.
    for tap in ("/offer cupcake", "/bid 2"):
        assert b(tap).verdict == "accepted"
    assert b(C("Cupcake", 2, 1)).verdict == "accepted"
    wrong = b(C("Donut", 1, 2))
    assert wrong.verdict == "rejected" and "That is not a Cupcake from your hand." in wrong.reason
    assert "Donut" not in wrong.reason and "Pass" in wrong.reason
    nothing = b("/pass")
    assert nothing.verdict == "accepted" and "no swap" in nothing.message
    assert b.s.state.phase == rules.OFFER and b.s.state.active == 1
    assert [len(h) for h in b.s.state.hands] == [7, 7] and C("Cupcake", 2, 1) in b.s.state.hands[1]


# ---------------------------------------------------------------- 11. Sweet Six with open hands

# Ana: Strudel x4 and a Sprinkles: 5 of a kind at most, no Sweet Six. Sprinkles as Cupcake
# scores more: 11 coins + Strudel x4 14 + Cupcake x2 4 = 29.
ANA_FIVE = [C("Strudel", 1, 1), C("Strudel", 1, 2), C("Strudel", 1, 3), C("Strudel", 2, 1), C("Sprinkles", copy=1),
            C("Cupcake", 1, 1), C("Mochi")]
# Ben: Donut x5 and the Donut Strudel (as Donut): Sweet Six. 11 coins + Donut x6 22 = 33.
BEN_SIX = [C("Donut", 1, 1), C("Donut", 1, 2), C("Donut", 1, 3), C("Donut", 2, 1), C("Donut", 2, 2),
           C("Donut Strudel"), C("Cupcake", 4)]


def test_a_false_sweet_six_shout_is_checked_and_the_game_goes_on(tmp_path):
    """Sweet Deals rulebook, "Continue Play": "At any point, if a player gets 6 of a kind,
    they should immediately shout "Sweet Six!" and the game ends. All players then
    calculate their points." With open hands the companion sees no card until the shout,
    so the shouter's hand is scanned first and checked: no 6 of a kind, no Sweet Six, and
    the game goes on where it stopped; a real Sweet Six ends the game and the others scan."""
    table = lines("/offer donut", "/six 1", *ANA_FIVE, "/pass", "/six 2", *BEN_SIX, *ANA_FIVE)
    out = run("--game", "sweet-deals", "--names", "Ana,Ben", "--mode", "open", "--headless", "--simulate",
              "--tap-off", "0", "--store", str(tmp_path / "t.db"), stdin=table)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    false_claim = text.split("card 7 of 7 for Ana.", 1)[1].split("\n", 1)[0]
    assert "no 6 of a kind" in false_claim and "the game goes on" in false_claim
    after = text.split("card 7 of 7 for Ana.", 1)[1]
    assert "Ben: bid 0 to 5 coins for the Donut, or pass." in after.split("\n")[1]
    assert "Ben passes. Everyone passed" in after                  # the auction Ana's shout stopped goes on
    assert "Sweet Six! Ben has 6 Donut cards" in after
    assert final_scores(text) == {"Ana": 29, "Ben": 33}, text[-800:]
    assert "Sweet Six! shouted by Ben (Donut)." in text
    assert "shouted by Ana" not in text


# ---------------------------------------------------------------- 12. the deck runs out

def test_when_the_deck_runs_out_the_prompt_says_to_shuffle_the_face_up_cards(tmp_path):
    """Sweet Deals rulebook, "Drawing": "If everyone passes, discard the dessert faceup and
    draw a new one. Bake Sales also allow drawing." The rulebook never says what happens
    when the deck is empty; the companion assumes the face-up cards are shuffled into a
    new deck (docs/rules-notes.md), and the prompt must tell the table so, at the draw,
    with tracked hands (the 2-player deck holds 19 cards after the deal) and open hands."""
    from sweet_deals_helpers import TrackedTable

    table = TrackedTable(["Ana", "Ben"], seed=12, store=tmp_path / "t.db", lie=0.0, bake=0.0, bid=0.0, turns=24)
    table.play()          # every draw checks: the prompt says "shuffle" exactly when the real deck is empty
    assert table.shuffles == 1
    # Open hands: 19 turns of "everyone passed" empty the deck; the 20th discard is shuffled in.
    open_table = Table(session(tmp_path, ["Ana", "Ben"], mode="open"))
    for turn in range(1, 21):
        assert open_table("/offer strudel").verdict == "accepted"
        passed = open_table("/pass")
        assert passed.verdict == "accepted"
        shuffle = "The deck is empty: shuffle the 20 cards from the face-up pile into a new deck, face down, and draw"
        assert (shuffle in passed.message) == (turn == 20), (turn, passed.message)
    # A Bake Sale on the empty deck is told to shuffle too: after 19 more draws it is empty again.
    for turn in range(19):
        open_table("/offer strudel")
        open_table("/pass")
    assert open_table("/bake").verdict == "accepted"
    prompt = open_table.s.prompt()
    assert prompt.startswith("The deck is empty: shuffle the 19 cards from the face-up pile into a new deck")
