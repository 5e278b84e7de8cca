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
from companion.games.sweet_deals.cards import CARDS, code_for
from companion.table import Session

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


def test_each_hybrid_counts_as_its_own_card_says_by_default(tmp_path):
    """Sweet Deals rulebook, "Scoring": "the Pie & Ice Cream card is special: it counts as
    Pie AND Ice Cream, so Tim has 3 Pie and 2 Ice Cream" (Tim's example, 24 points).
    "Special Cards": "Strudel Cupcake: There are 4 Hybrid Cards! ... This card counts as
    Strudel or Cupcake." Each hybrid follows its own card by default; ``--hybrid and|or``
    is a house rule that forces one reading on every hybrid."""
    tim = [C("Pie", 1), C("Pie", 2), C("Pie & Ice Cream"), C("Ice Cream", 2), C("Cupcake", 4), C("Chocolate", 2),
           C("Strudel", 2)]
    assert scoring.score_hand(tim).total == 24                      # AND: 13 coins + Pie x3 7 + Ice Cream x2 4
    assert rules.new_game(["Ana", "Ben"]).hybrid == "card"
    # Ana: 12 coins; Ben: 14 coins + Cupcake x2 4 + Donut x2 4 = 22.
    # By the cards: Ana 12 + 8 = 20, Ben wins. Forced "and": Ana 12 + 11 = 23 wins.
    table = lines("/close", "/yes", *ANA, *BEN)
    out = run("--game", "sweet-deals", "--names", "Ana,Ben", "--mode", "open", "--headless", "--simulate",
              "--tap-off", "0", "--store", str(tmp_path / "a.db"), stdin=table)
    assert out.returncode == 0, out.stderr
    assert final_scores(out.stdout) == {"Ana": 20, "Ben": 22}, out.stdout[-600:]
    assert out.stdout.rstrip().endswith("Ben wins!")
    forced = run("--game", "sweet-deals", "--names", "Ana,Ben", "--mode", "open", "--hybrid", "and", "--headless",
                 "--simulate", "--tap-off", "0", "--store", str(tmp_path / "b.db"), stdin=table)
    assert forced.returncode == 0, forced.stderr
    assert final_scores(forced.stdout) == {"Ana": 23, "Ben": 22}, forced.stdout[-600:]
    assert forced.stdout.rstrip().endswith("Ana wins!")
    helped = run("--help")
    hybrid_help = " ".join(helped.stdout.split()).split("--hybrid CHOICE")[-1]
    assert "Usual is card: card, and, or" in hybrid_help
