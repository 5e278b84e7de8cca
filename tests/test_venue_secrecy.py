"""Hidden information never reaches the venue bus: the Sugar Heist and Sweet Deals
recordings (tracked hands: every hidden card is scanned) are played into a real broker,
everything it delivers is recorded, and no hidden card's code or name is in a message
sent before the rules reveal that card (Sugar Heist rulebook: Battle Cards are bought
face down and shown when played; Sweet Deals rulebook: hands are secret until scored); and
the toy game's recording (``tests/toy_game.py``: a secret hand, a card laid face down, a
Reveal tap) the same way."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.core.events import CardScanned, GameOver, Revealed, Touch
from companion.games import find_game
from toy_helpers import toy_param
from venue_helpers import Recorder, play_table, wait_for

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("trace, venue", [("sugar-heist-family", "secret-heist"),
                                          ("sweet-deals-family", "secret-deals"),
                                          toy_param("toy-family", "secret-toy")])
def test_no_hidden_card_reaches_the_broker_before_the_rules_reveal_it(mosquitto, tmp_path, trace, venue):
    recorder = Recorder(mosquitto.url, "#")
    hidden: dict[str, int] = {}        # code -> the event number of its first hidden scan
    revealed: dict[str, int] = {}      # code -> the event number that made it public
    over: list[int] = []
    said: list[tuple[int, str]] = []  # touches on the shared screen ("offer donut strudel": shown by choice)
    held = {}

    def watch(item, verdict):
        if verdict is None:
            return
        seq = held["pub"].outbox.next_seq()  # the number the publisher gives this verdict's event
        if isinstance(item, CardScanned) and verdict.secret and item.code:
            hidden.setdefault(item.code, seq)
        elif isinstance(item, CardScanned) and verdict.code:
            revealed.setdefault(verdict.code, seq)
        if isinstance(item, Touch) and verdict.verdict == "accepted":
            said.append((seq, item.command.lower()))
        for event in verdict.events:
            card = getattr(event, "card", None)
            if isinstance(event, Revealed) and card:
                revealed.setdefault(card, seq)
            if isinstance(event, GameOver):
                over.append(seq)

    runner, pub = play_table(DATA / f"{trace}.trace", mosquitto.url, "t1", str(tmp_path / "t.db"), venue=venue,
                             listeners=[watch], started=lambda p: held.update(pub=p))
    last = pub.outbox.next_seq() - 1
    wait_for(lambda: any(json.loads(p).get("seq") == last for t, p, _ in recorder.messages
                         if t.endswith("/events")), what="the last event at the recorder")
    recorder.close()
    assert runner.session.over and over
    end = over[0]
    assert len(hidden) > 20, "the recording scans the hidden cards"
    game = find_game(runner.session.game)
    names = {c.code: c.name for c in game.cards()}
    # A name written into the game's own sentences ("scan a Mom now, or tap No Mom", said
    # to every target whatever they hold) is a rule word, not news of a hand; a name that
    # only a template's {placeholder} can bring in is what would give a card away.
    catalogue = " ".join(game.messages()["TEXT"].values())
    generic = {n for n in set(names.values()) if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", catalogue)}
    public_name: dict[str, int] = {}   # a name is public once any card of that name is
    for code, seq in revealed.items():
        if code in names:
            public_name[names[code]] = min(seq, public_name.get(names[code], seq))
    for seq, command in said:
        for name in set(names.values()):
            if re.search(rf"(?<!\w){re.escape(name.lower())}(?!\w)", command):
                public_name[name] = min(seq, public_name.get(name, seq))
    mine = [(t, json.loads(p)) for t, p, _ in recorder.messages if t.startswith(f"sugar/{venue}/")]
    assert len(mine) > 100
    checked = 0
    for code, first in hidden.items():
        code_public = min(revealed.get(code, end), end)
        name = names.get(code)  # None: a garbled read of a hidden card (its text is checked too)
        name_public = min(public_name.get(name, end), code_public)
        word = re.compile(rf"(?<!\w){re.escape(name or code)}(?!\w)")
        for topic, msg in mine:
            seq = msg.get("seq")
            if seq is None:
                continue  # the last will: no content
            text = json.dumps(msg, ensure_ascii=False)
            if seq < code_public:
                assert code not in text, f"hidden card {code} in {topic} #{seq} (public from #{code_public})"
            if seq < name_public and name not in generic:
                assert not word.search(text), f"hidden card {name!r} in {topic} #{seq}: {text[:300]}"
            checked += 1
    assert checked > 1000
    assert set(names[c] for c in hidden if c in names) - generic, "some hidden names are checked"
