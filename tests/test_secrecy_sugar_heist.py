"""Sugar Heist keeps its face-down Battle Cards secret (issue 21): two games whose hidden
cards differ but whose public inputs are the same show the table exactly the same
things, input by input -- the screen (its picture and its buttons), the prompt, the
commands listed, every refusal, the text and JSON log lines (``--log-format json``),
what Undo would take back and the game history -- until the rules reveal the
difference (a Mom played from the hidden cards).

Rulebook, Phase 3: "Battle Cards are kept face down in front of you, unless it's a card
which must be played immediately."; Mom: "Reveal your Mom Card to repel any unwanted
Attack"."""

from __future__ import annotations

import hashlib
import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from companion.games import GAMES
from companion.core import commands  # noqa: E402
from companion.games.sugar_heist import screen  # noqa: E402
from companion.ui.app import App, TableInfo  # noqa: E402
from companion.ui.history import HistoryScreen  # noqa: E402

from sugar_heist_helpers import CR, FB, GG, LS, NB, SB, Table, battle, candy  # noqa: E402

#: (game A's line, game B's line): they differ only where a card is scanned face down.
#: Zach buys a Mom (A) or a Grandma (B); Pam a Mom (A) or a Mastermind (B).
ZACH_A, ZACH_B = battle("Mom", 1), battle("Grandma", 1)
PAM_A, PAM_B = battle("Mom", 2), battle("Mastermind", 1)


def both(*lines):
    return [(line, line) for line in lines]


INPUTS = (
    # Zach: stash, reveal, keep, buy face down, try to play it, Undo the purchase, buy again
    both(candy(CR, 1), candy(CR, 2), "/vault 1", "/done", candy(FB, 1), candy(GG, 1), "/done", candy(CR, 1))
    + [(ZACH_A, ZACH_B)] + both("/help") + [(ZACH_A, ZACH_B)] + both("/undo", "/undo", candy(CR, 1))
    + [(ZACH_A, ZACH_B)] + both("/help", "/target 2", "/done")
    # Pam
    + both(candy(NB, 1), candy(NB, 2), "/vault 1", "/done", candy(LS, 1), candy(LS, 2), "/done", candy(NB, 1))
    + [(PAM_A, PAM_B)] + [(PAM_A, PAM_B)] + both("/help", "/done")
    # Alex buys an Attack and heists Zach; Pam and Zach scan their hidden cards in the Mom window
    + both(candy(FB, 2), candy(FB, 3), "/vault 1", "/done", candy(SB, 1), candy(SB, 2), "/done", candy(FB, 2),
           battle("Attack", 1), battle("Attack", 1), "/heist 1 1", "/undo", "/heist 1 1", "/help")
    + [(PAM_A, PAM_B)]
    + [(ZACH_A, ZACH_B)]  # the reveal: A's Mom is played, B's Grandma is not a Mom
)
REVEAL = len(INPUTS) - 1


@pytest.fixture(scope="module")
def app():
    a = App()
    yield a
    a.close()


def seen(table: Table, app: App, start: tuple[int, int]) -> dict:
    """Everything the table could see after one input (``start``: where the logs stood)."""
    s = table.session
    v = table.verdicts[-1] if table.verdicts else None
    info = TableInfo(verdict=s.last_message, verdict_ok=s.last_ok, prompt=s.prompt(), entry=s.entry,
                     game_name="Sugar Heist", devices={"scanner": "connected"})
    app.show(lambda surface: screen.draw_game(surface, s.view, info))
    picture = hashlib.sha256(bytes(app.surface.get_buffer().raw)).hexdigest()
    return {
        "text log": table.out.getvalue()[start[0]:],
        "json log": table.json.getvalue()[start[1]:],
        "verdict": (v.verdict, v.reason, v.message, v.code, v.events and [e.message for e in v.events]) if v else None,
        "prompt": s.prompt(),
        "commands": commands.listing(s.desc, s.state, s.entry, s.undo_label() is not None),
        "undo": s.undo_label(),
        "view": repr(s.view),
        "screen buttons": [(b.command, tuple(b.rect)) for b in app.buttons],
        "screen picture": picture,
        "history": HistoryScreen(table.store, GAMES).rows(),
    }


def test_two_games_with_different_face_down_cards_look_the_same_until_a_mom_is_played(app):
    a, b = Table(("Zach", "Pam", "Alex")), Table(("Zach", "Pam", "Alex"))
    compared = 0
    for n, (line_a, line_b) in enumerate(INPUTS):
        start_a = (len(a.out.getvalue()), len(a.json.getvalue()))
        start_b = (len(b.out.getvalue()), len(b.json.getvalue()))
        a.type(line_a)
        b.type(line_b)
        seen_a, seen_b = seen(a, app, start_a), seen(b, app, start_b)
        if n < REVEAL:
            for what in seen_a:
                assert seen_a[what] == seen_b[what], (n, line_a, line_b, what, seen_a[what], seen_b[what])
                compared += 1
        else:  # the rules reveal the difference: A plays a Mom, B is told its card is none
            assert a.verdicts[-1].verdict == "accepted" and "MOM! Zach is safe this turn." in a.verdicts[-1].message
            assert b.verdicts[-1].verdict == "rejected" and "Only a Mom blocks now" in b.verdicts[-1].reason
    assert compared == REVEAL * 10
    for code in (ZACH_B, PAM_A, PAM_B):  # still face down: no log line ever held their codes
        assert code not in a.out.getvalue() + a.json.getvalue() + b.out.getvalue() + b.json.getvalue()
    # the face-down scans were refused or accepted alike: a purchase, a refused play, a refused Mom
    verdicts = [(v.verdict, v.secret) for v in a.verdicts[:REVEAL]]
    assert verdicts == [(v.verdict, v.secret) for v in b.verdicts[:REVEAL]] and sum(s for _, s in verdicts) >= 6
