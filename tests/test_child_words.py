"""Words a child reads (issue 22, item 4): every verdict and prompt of the recorded
evenings read through headless text mode, with the phrases a family could not read
gone: no "scan up to 0 more", no "only no", no "1 inputs", the haul named by card and
vault, and the status line naming who acts while another player scans their deal."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from companion.games import GAMES
from companion.table.logs import TextLog
from companion.table.replay import replay
from test_text_mode import DATA, run, simulate_lines
from toy_helpers import TOY, every_game, registered


@pytest.fixture(scope="module", params=every_game(GAMES))
def evening(request):
    """The game's recorded evening through the whole stack, as text mode prints it (the
    toy game's too, registered for it)."""
    slug = request.param
    out = io.StringIO()

    def on_start(session):
        log = TextLog(out, session)
        session.listeners.append(log)
        log.start()

    with registered() if slug == TOY else contextlib.nullcontext():
        replay(DATA / GAMES[slug].demo, window=False, on_start=on_start)
    return slug, out.getvalue()


def test_no_phrase_a_child_cannot_read(evening):
    slug, out = evening
    for bad in ("up to 0 ", "only no ", " 1 inputs", "tap-off", "OK: ", "within the"):
        assert bad not in out, (slug, bad, [line for line in out.splitlines() if bad in line][:3])


def test_the_haul_is_named_by_card_and_vault(tmp_path):
    trace = DATA / "sugar-heist-family.trace"
    names = ",".join(json.loads(trace.read_text().splitlines()[0])["players"])
    out = run("--game", "sugar-heist", "--names", names, "--headless", "--simulate", "--tap-off", "0",
              "--store", str(tmp_path / "t.db"), stdin=simulate_lines(trace)).stdout
    assert "Fruity Booty taken from Leo's vault 2." in out
    assert "Leo: that is all you may take: tap your vault to put them in." in out
    assert "Mum: that is all the prize: tap Hand (/hand) or a vault." in out


def test_while_dad_scans_his_deal_the_status_line_names_dad(tmp_path):
    trace = DATA / "sweet-deals-family.trace"
    codes = [json.loads(line)["data"].strip() for line in trace.read_text().splitlines()[1:8]]
    proc = run("--game", "sweet-deals", "--names", "Mum,Dad,Maya,Leo", "--headless", "--simulate", "--tap-off", "0",
               "--store", str(tmp_path / "t.db"), stdin="\n".join(codes) + "\n")
    status = [line for line in proc.stdout.splitlines() if line.startswith("  Now: ")]
    assert "Mum's turn" in status[0] and "Mum: scan your 7 cards" in status[0]
    assert status[-1].startswith("  Now: ") and "Mum's turn" not in status[-1]
    assert "Dad: scan your 7 cards" in status[-1]


def test_a_swap_from_an_empty_hand_says_no_candy_cards_not_only_no():
    """The trial: "B has only no Candy Cards in hand"."""
    from dataclasses import replace

    import test_sugar_heist_rules as heist
    from companion.games.sugar_heist.state import Move, Trade
    from sugar_heist_helpers import NB, candy, rejected

    s = heist._to_swap()
    s = replace(s, hands=(s.hands[0], 0, s.hands[2]))
    rejected(s, Trade((Move(candy(NB, 1), heist.PAM, heist.ZACH),)), "Pam has no Candy Cards in hand.")
    s = replace(s, hands=(s.hands[0], 1, s.hands[2]))
    rejected(s, Trade((Move(candy(NB, 1), heist.PAM, heist.ZACH), Move(candy(NB, 2), heist.PAM, heist.ZACH))),
             "Pam has only 1 Candy Card in hand.")
