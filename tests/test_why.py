"""A "Why?" on every refusal: each refusal a game can give carries the rulebook sentence
behind it (issue 38, "a table that teaches": "A 'Why?' on every refusal that shows the
rulebook sentence behind it (each refusal reason carries its rulebook section)").

Every game's ``parts/why.toml`` is read against the rulebook text itself (the quoted
sentence must be in the rulebook, under the section it names); every refusal the game's
code can raise (found by reading the code: each ``IllegalAction`` raised, the helpers
whose words it is raised with, and the hidden-card refusal) must have one; and every
refusal a whole recorded game meets, trying every card and command at each step, must
come with its Why? at the table.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

from companion.core.clock import FakeClock
from companion.core.errors import BadCommand, BadScan, IllegalAction
from companion.core.events import CardScanned, Touch
from companion.core.store import EventStore
from companion.games import GAMES
from companion.table.replay import replay
from companion.table.session import Session
from companion.table.verdicts import decide

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data"
# The rulebooks beside the project (../shared/rulebooks: the lead's copy); RULEBOOKS overrides.
RULEBOOKS = Path(os.environ.get("RULEBOOKS", ROOT.parent / "shared" / "rulebooks"))
BOOK = {"sugarrr": "sugarrr.txt", "sugar_heist": "sugar-heist.txt", "sugar_blast": "sugar-blast.txt",
        "sweet_deals": "sweet-deals.txt"}
SLUGS = {"sugarrr": "sugarrr", "sugar_heist": "sugar-heist", "sugar_blast": "sugar-blast",
         "sweet_deals": "sweet-deals"}

needs_books = pytest.mark.skipif(not RULEBOOKS.is_dir(), reason=f"no rulebooks at {RULEBOOKS}")


def book(package: str) -> str:
    return (RULEBOOKS / BOOK[package]).read_text(encoding="utf-8")


def why(package: str) -> dict:
    return GAMES[SLUGS[package]].load_why()


# ---------------------------------------------------------------- the refusals in the code

_RAISERS = {"IllegalAction", "AmbiguousAction", "no", "_no"}   # built from the refusal's words
_SAYERS = {"_not_now"}                                          # a refusal built inside a helper


def _name(f) -> str | None:
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def refusal_keys(package: str) -> set[str]:
    """The catalogue key of every refusal the game's code can raise: the outermost
    ``say("key")`` a refusal is raised with, through the helpers that give its words
    (``busy(state)``, a prompt, a constant), and every key its ``hidden_refusal`` says."""
    trees = [ast.parse(p.read_text()) for p in sorted((ROOT / "companion" / "games" / package).rglob("*.py"))]
    defs: dict[str, list] = {}
    for tree in trees:
        for node in tree.body:
            members = node.body if isinstance(node, ast.ClassDef) else [node]
            for m in members:
                if isinstance(m, ast.FunctionDef):
                    defs.setdefault(m.name, []).append(m)
                elif isinstance(m, (ast.Assign, ast.AnnAssign)) and m.value is not None:
                    for target in (m.targets if isinstance(m, ast.Assign) else [m.target]):
                        if isinstance(target, ast.Name):
                            defs.setdefault(target.id, []).append(m.value)
    seen: set[str] = set()

    def said(node) -> set[str]:
        return {c.value for c in ast.walk(node) if isinstance(c, ast.Constant) and isinstance(c.value, str)}

    def of_def(name: str) -> set[str]:
        if name in seen or name not in defs:
            return set()
        seen.add(name)
        out: set[str] = set()
        for d in defs[name]:
            if isinstance(d, ast.FunctionDef):
                for r in ast.walk(d):
                    if isinstance(r, ast.Return) and r.value is not None:
                        out |= outer(r.value, d)
            else:
                out |= outer(d, None)
        return out

    def outer(e, fn) -> set[str]:
        if isinstance(e, ast.Call):
            f = _name(e.func)
            if f == "say" and e.args:
                arg = e.args[0]
                if isinstance(arg, ast.Name) and fn is not None:  # say(key), the key chosen just before
                    return set().union(set(), *(said(a.value) for a in ast.walk(fn) if isinstance(a, ast.Assign)
                                                and any(isinstance(t, ast.Name) and t.id == arg.id for t in a.targets)))
                return said(arg)
            got: set[str] = set()
            if isinstance(e.func, ast.Subscript):    # TABLE[step](state)
                got |= outer(e.func.value, fn)
            elif isinstance(e.func, ast.Attribute) and f == "get":   # TABLE.get(step, default)
                got |= outer(e.func.value, fn).union(*(outer(a, fn) for a in e.args[1:]))
            elif isinstance(e.func, ast.Name):        # a helper, or a local chosen just before
                got |= outer(e.func, fn)
            elif f:
                got |= of_def(f)
            # words handed to a helper may be the words it gives back (pile_refusal(state, card, say(...)))
            return got.union(*(outer(a, fn) for a in e.args if isinstance(a, ast.Call) and _name(a.func) == "say"))
        if isinstance(e, ast.IfExp):
            return outer(e.body, fn) | outer(e.orelse, fn)
        if isinstance(e, (ast.BoolOp, ast.Dict)):
            return set().union(*(outer(v, fn) for v in e.values if v is not None))
        if isinstance(e, ast.BinOp):
            return outer(e.left, fn)  # (Message + str keeps the left-hand key)
        if isinstance(e, ast.Lambda):
            return outer(e.body, fn)
        if isinstance(e, ast.Name):
            got = of_def(e.id)
            for a in ast.walk(fn) if fn is not None else ():
                if isinstance(a, ast.Assign) and any(isinstance(t, ast.Name) and t.id == e.id for t in a.targets):
                    got |= outer(a.value, fn)
            return got
        if isinstance(e, ast.JoinedStr):  # an f-string loses the key: the refusal could not find its rule
            return {f"<f-string {ast.unparse(e)}>"}
        return set()

    def enclosing(tree, target):
        for f in ast.walk(tree):
            if isinstance(f, ast.FunctionDef) and any(n is target for n in ast.walk(f)):
                inner = [g for g in ast.walk(f) if isinstance(g, ast.FunctionDef) and g is not f
                         and any(n is target for n in ast.walk(g))]
                return inner[-1] if inner else f
        return None

    keys: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
                continue
            f = _name(node.exc.func)
            if f in _SAYERS:
                keys |= of_def(f)
            elif f in _RAISERS and node.exc.args:
                keys |= outer(node.exc.args[-1] if f in ("IllegalAction", "AmbiguousAction") else node.exc.args[0],
                              enclosing(tree, node))
    for d in defs.get("hidden_refusal", []):
        if isinstance(d, ast.FunctionDef):
            keys |= {k for c in ast.walk(d) if isinstance(c, ast.Call) and _name(c.func) == "say" and c.args
                     for k in said(c.args[0])}
            keys |= {k for c in ast.walk(d) if isinstance(c, ast.Dict) for v in c.values
                     if isinstance(v, ast.Constant) and isinstance(v.value, str) for k in [v.value]}
    return keys


@pytest.mark.parametrize("package", sorted(BOOK))
def test_every_refusal_in_the_code_has_a_rulebook_sentence(package):
    """Every refusal the game can raise is found in the code, and each one has its Why?."""
    keys = refusal_keys(package)
    text = GAMES[SLUGS[package]].messages()["TEXT"]
    found = {k for k in keys if k in text}
    assert len(found) >= 30, f"the walk over the code found only {len(found)} refusals: {sorted(found)}"
    lost = sorted(k for k in keys if k.startswith("<"))
    assert not lost, f"refusals built so that they lose their key: {lost}"
    missing = sorted(found - set(why(package)))
    assert not missing, f"{package}: refusals with no rulebook sentence: {missing}"


@needs_books
@pytest.mark.parametrize("package", sorted(BOOK))
def test_each_why_quotes_a_sentence_really_in_the_rulebook_under_its_section(package):
    """Word for word in the rulebook's text file, and after the heading of its section
    (the nearest heading before it, of those the game's Why? names)."""
    rules = why(package)
    text = book(package)
    lines = [line.strip() for line in text.splitlines()]
    headings = {r.section for r in rules.values()}
    for heading in headings:
        assert heading in lines, f"{package}: no section {heading!r} in the rulebook"
    catalogue = GAMES[SLUGS[package]].messages()["TEXT"]
    for key, rule in rules.items():
        assert key in catalogue, f"{package}: why.toml names a refusal {key!r} the game never says"
        at = text.find(rule.sentence)
        assert at >= 0, f"{package}: {rule.sentence!r} is not in the rulebook"
        before = [ln.strip() for ln in text[:at].splitlines()]
        nearest = next((ln for ln in reversed(before) if ln in headings), None)
        assert nearest == rule.section, f"{package}: {rule.sentence!r} is under {nearest!r}, not {rule.section!r}"


def test_the_mismatch_refusal_quotes_the_play_rule():
    """ "Each card you play must match the Fruit or the number of the card before it in
    the column." (Sugarrr! rulebook, Taking a Turn): the refusal of a card that matches
    neither shows that sentence behind its Why?."""
    session = Session.start("sugarrr", ["Mia", "Ben"], EventStore(":memory:"), FakeClock(), resume=False, tap_off=0)
    cards = {c.name: c.code for c in GAMES["sugarrr"].cards() if c.copy == 1}
    for name in ("Strawberry 2", "Grapes 3", "Apricots 4", "Blueberries 5", "Pear 6"):
        assert session.handle(CardScanned(cards[name], "scan", 1.0)).verdict == "accepted"
    session.handle(Touch("column 1", 2.0))
    verdict = session.handle(CardScanned(cards["Pineapple 9"], "scan", 3.0))
    assert verdict.verdict == "rejected" and "does not match" in verdict.reason
    assert verdict.why is not None
    assert verdict.why.section == "Taking a Turn"
    assert verdict.why.sentence == ("Each card you play must match the Fruit or the number of the card before "
                                    "it in the column.")


def test_a_bad_scan_or_command_has_no_why_it_is_not_a_rule():
    """A card of another game or a command the table cannot read is not refused by a
    rule: no Why? (the words say what to do)."""
    session = Session.start("sugarrr", ["Mia", "Ben"], EventStore(":memory:"), FakeClock(), resume=False, tap_off=0)
    other = next(c.code for c in GAMES["sweet-deals"].cards())
    assert session.handle(CardScanned(other, "scan", 1.0)).why is None
    assert session.handle(Touch("swap banana", 2.0)).why is None


# ---------------------------------------------------------------- the refusals a table meets

def _tries(desc, state) -> list:
    """Every card of the game and every command sample, as inputs to try from ``state``."""
    from companion.core.commands import game_commands

    out = [CardScanned(c.code, "scan", 1.0) for c in desc.cards()] if desc.has_cards else []
    for command in game_commands(desc):
        for sample in dict.fromkeys([*command.samples(state), command.word, re.sub(r"\b[A-Z]\b", "2", command.usage)]):
            out.append(Touch(sample, 1.0))
    return out


@pytest.mark.parametrize("slug", sorted(SLUGS.values()))
def test_every_refusal_met_in_a_recorded_game_has_its_why(slug):
    """The game's recorded demo, and at every fourth step every card and command tried:
    each refusal by the rules names its key, and the key has its rulebook sentence."""
    desc = GAMES[slug]
    runner = replay(DATA / desc.demo, window=False)
    record = runner.session.store.games()[0]
    inputs = runner.session.store.inputs(runner.session.game_id)
    fresh = Session.start(slug, list(record.players), EventStore(":memory:"), FakeClock(), resume=False,
                          options=record.config, tap_off=0)
    rules = desc.load_why()
    met: dict[str, str] = {}
    unkeyed: set[str] = set()
    for n, item in enumerate(inputs):
        if n % 4 == 0:
            for trial in _tries(desc, fresh.state):
                try:
                    decide(desc, fresh.state, fresh.entry, trial)
                except (BadScan, BadCommand):
                    continue
                except IllegalAction as err:
                    if err.key is None:
                        unkeyed.add(err.message)
                    else:
                        met.setdefault(err.key, err.message)
        fresh.handle(item)
    assert len(met) >= 8, f"the walk met only {sorted(met)}"
    assert not unkeyed, f"refusals with no key (so no Why?): {sorted(unkeyed)[:5]}"
    missing = {k: v for k, v in met.items() if k not in rules}
    assert not missing, f"refusals met with no rulebook sentence: {missing}"


# ---------------------------------------------------------------- on the table screen

def _table(app):
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from companion.table.runner import Runner
    from sugarrr_helpers import STARTS

    clock = FakeClock(100.0)
    session = Session.start("sugarrr", ["Mia", "Ben"], EventStore(":memory:"), clock, resume=False, tap_off=0)
    runner = Runner(session, clock, app=app)
    for code in STARTS:
        clock.advance(1.0)
        session.handle(CardScanned(code, "scanner", clock.now()))
    runner.render(force=True)
    return runner


def _tap(runner, command):
    """test_game_menu's ``tap`` (the button on the frame as it stands), then the next frame."""
    from test_game_menu import tap

    tap(runner, command)
    runner.render(force=True)


@pytest.fixture
def app():
    from companion.ui.app import App

    a = App()
    yield a
    a.close()


def test_a_refused_play_has_a_why_button_that_shows_the_rulebook_sentence_and_goes_back(app):
    """Tap Why? on the refusal: the box quotes the rulebook sentence with its section;
    Back closes it. An accepted input after it takes the button away."""
    from companion.ui.widgets import record_text
    from sugarrr_helpers import fruit

    runner = _table(app)
    session = runner.session
    assert "menu why" not in [b.command for b in app.buttons]   # nothing refused yet: no Why?
    session.handle(Touch("column 1", 110.0))
    verdict = session.handle(CardScanned(fruit("Grapes", 9), "scanner", 111.0))  # on Pineapple 2: neither
    assert verdict.verdict == "rejected" and verdict.why is not None
    _tap(runner, "menu why")
    with record_text() as drawn:
        runner.render(force=True)
    words = " ".join(d.text for d in drawn)
    assert "Taking a Turn" in words
    assert "must match the Fruit or the number" in words
    assert [b.command for b in app.buttons] == ["cancel"]         # the box's only button: Back
    _tap(runner, "cancel")
    assert "menu why" in [b.command for b in app.buttons]       # back at the table, the refusal still shown
    session.handle(CardScanned(fruit("Pineapple", 5), "scanner", 112.0))   # accepted: a new verdict
    runner.render(force=True)
    assert "menu why" not in [b.command for b in app.buttons]


def test_headless_why_says_the_rule_in_words():
    """``/menu why`` in text mode answers with the section and the quoted sentence."""
    import io

    from companion.table.runner import Runner
    from sugarrr_helpers import STARTS, fruit

    out = io.StringIO()
    clock = FakeClock(100.0)
    session = Session.start("sugarrr", ["Mia", "Ben"], EventStore(":memory:"), clock, resume=False, tap_off=0)
    runner = Runner(session, clock, app=None, text_out=out)
    for code in STARTS:
        session.handle(CardScanned(code, "scanner", clock.now()))
    session.handle(Touch("column 1", 110.0))
    session.handle(CardScanned(fruit("Grapes", 9), "scanner", 111.0))
    runner.window.touch("menu why")
    assert 'Taking a Turn: "Each card you play must match the Fruit or the number' in out.getvalue()


def test_a_hidden_cards_why_is_told_from_the_view_not_the_card():
    """Sugar Heist: two different face-down Battle Cards refused at the same moment get
    the same words and the same Why? ("Battle Cards are kept face down in front of you")."""
    from companion.games.sugar_heist.parts.cards import BATTLE_CODES, CARDS
    from companion.table.verdicts import refused

    desc = GAMES["sugar-heist"]
    state = desc.rules.new_game(["Ana", "Ben"])
    view = desc.rules.public_view(state, "table")
    got = set()
    for code in [c for c in BATTLE_CODES if CARDS[c].kind in ("defense", "attack")][:6]:
        v = refused(IllegalAction(code, "hidden words"), desc, view, desc.flow.new_entry(), CardScanned(code, "s", 1.0), code,
                    True, False)
        got.add((v.reason, v.why))
    assert len(got) == 1
    reason, rule = got.pop()
    assert rule is not None and "kept face down" in rule.sentence
