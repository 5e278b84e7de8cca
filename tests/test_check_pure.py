"""Check apart from apply, in every game (issue 35; STYLE.md, "Legality is separate from
application").

Random games of every registered game (:data:`companion.games.GAMES`), at each state a
mix of legal and illegal actions:

* ``rules.check(state, action)`` leaves the state equal to a ``copy.deepcopy`` taken
  before, whether it accepts the action or refuses it;
* ``rules.apply`` never raises :class:`IllegalAction` for an action ``check`` passed,
  and leaves its input state as it was;
* a refusal of ``rules.step`` is exactly ``check``'s (same message, same code);
* ``check`` answers with every move function of the game made to raise: it never
  performs the move to decide;
* Sugar Heist and Sweet Deals, whose check and apply used to be one function, refuse and
  accept exactly what that fused code did: ``tests/data/check-verdicts.golden.json``
  holds, for seeded games, a digest of every verdict at each step, recorded from the
  fused code (commit daf74d5). ``python tests/test_check_pure.py`` records it again
  from the code as it is, for a change that means to alter a verdict.

A game registered without a driver here fails the test, so a new game is checked the
day it is registered.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import importlib
import inspect
import json
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.errors import IllegalAction
from companion.games import GAMES

GOLDEN = Path(__file__).parent / "data" / "check-verdicts.golden.json"


def _rules_module(slug: str) -> ModuleType:
    """The module of a game's rules (its ``rules.py``, where its actions and functions are)."""
    return sys.modules[type(GAMES[slug].rules).__module__]


def _sibling(rules: ModuleType, name: str) -> ModuleType:
    """A module of the same game package as ``rules`` (so a driver runs any copy of it)."""
    return importlib.import_module(f"{rules.__package__}.{name}")


def _pick(rng: random.Random, seq):
    seq = list(seq)
    return rng.choice(seq) if seq else None


# ---------------------------------------------------------------- Sugarrr!

def sugarrr_new(rules: ModuleType, rng: random.Random):
    """A game of 2 to 4 players at set-up."""
    return rules.new_game(["Ana", "Ben", "Cy", "Di"][:rng.randint(2, 4)])


def sugarrr_candidates(rules: ModuleType, s, rng: random.Random) -> list:
    """Cards from the Fruit Deck (some that fit a column), Fruit-O-Saurs, and touches."""
    cards = rules.CARDS
    every = sorted(cards)
    deck = [c for c in every if cards[c].kind != "saur"]
    unseen = [c for c in deck if s.where(c) is None]
    acts = [rules.Done(), rules.Pass(), rules.HandDone(), rules.Swap(rng.randint(0, 6)),
            rules.ChooseColumn(rng.randint(-1, 5)), rules.TakeSaur(rng.choice(every)),
            rules.StartColumn(rng.choice(every)), rules.HandCard(rng.choice(deck)),
            rules.PlayCard(rng.choice(deck), rng.randint(-1, 5))]
    if rng.random() < 0.05:
        acts.append(rules.SetDeck(rng.choice([0, 1, 3, 200])))
    if unseen:
        acts += [rules.StartColumn(rng.choice(unseen)), rules.HandCard(rng.choice(unseen))]
        for col in rng.sample(range(rules.COLUMNS), 3):
            column = s.columns[col]
            top = cards[column[-1]] if column else None
            fitting = [c for c in unseen if rules.fits(top, cards[c])]
            if fitting:
                acts.append(rules.PlayCard(rng.choice(fitting), col if s.chosen is None else s.chosen))
    acts += [rules.TakeSaur(c) for c in s.valley]
    return acts


# ---------------------------------------------------------------- Sugar Blast

def blast_new(rules: ModuleType, rng: random.Random):
    """A twin-board, solo or quick game; a twin board is set up (test_table_properties)."""
    from test_table_properties import random_board
    mode = rng.choice(["twin", "solo", "quick", "solo-quick"])
    solo, quick = mode.startswith("solo"), mode.endswith("quick")
    players = ["Ana"] if solo else ["Ana", "Ben", "Cy"][:rng.choice([2, 3])]
    s = rules.new_game(players, None if solo else "nine-any", solo=solo, quick=quick)
    return s if quick else rules.apply(s, rules.SetBoard(tuple(random_board(rng, s.supply).split("/"))))[0]


def blast_candidates(rules: ModuleType, s, rng: random.Random) -> list:
    """What the flow makes of the touches a table gives (test_table_properties), and
    actions no flow would make."""
    from test_table_properties import blast_candidates as touches
    flow = _sibling(rules, "flow")
    acts = []
    for item in touches(s, flow.new_entry(), rng):
        try:
            _, action, _ = flow.read(s, flow.new_entry(), item)
        except Exception:  # a touch the flow refuses: no action to check
            continue
        if action is not None:
            acts.append(action)
    kind = rng.choice(rules.KINDS)
    acts += [rules.StartGame(), rules.NoMoreBlasts(), rules.ChooseBlast(rng.randint(-1, 3)),
             rules.KeepCandies((kind,) * rng.randint(0, 3)), rules.Tilted(rng.randint(0, 5)),
             rules.ReturnCandies(rng.randint(-1, 3), (kind,)), rules.Refill(()),
             rules.SwapCandies((rng.randint(-1, 6), rng.randint(0, 5)), (rng.randint(0, 5), rng.randint(0, 6))),
             rules.NoBlastsDraw(kind, (rng.randint(0, 5), rng.randint(0, 5))),
             rules.QuickBlast(rng.choice(["3", "4", "box", "5-6", "7"]), kind, rng.choice([None, 3, 5, 13])),
             rules.PlaceCandy(rng.randint(0, 6), rng.randint(0, 6), kind)]
    return acts


# ---------------------------------------------------------------- Sugar Heist

STYLES = ("heist", "steal", "raid", "lock", "crack", "spy", "timeout", "take")


def heist_new(rules: ModuleType, rng: random.Random):
    """A game of 2 to 4 players, sometimes with every card, sometimes the Alternate Play Rule."""
    return rules.new_game(["Ana", "Ben", "Cy", "Di"][:rng.randint(2, 4)], all_cards=rng.random() < 0.2,
                          alternate=rng.random() < 0.4)


def _heist_pair(cards, free: list[str], rng: random.Random) -> tuple[str, str] | None:
    if len(free) < 2:
        return None
    a = rng.choice(free)
    same = [c for c in free if c != a and (cards[c].flavour == cards[a].flavour or cards[c].is_pure)]
    return a, rng.choice(same or [c for c in free if c != a])


def heist_candidates(rules: ModuleType, s, rng: random.Random) -> list:
    """Pairs and single cards from hands, stashed candies, Battle Cards held, on the pile
    and in its discards, targets (the legal ones among them), places, flavours, vaults."""
    A, C, B = _sibling(rules, "state"), _sibling(rules, "parts.cards"), _sibling(rules, "parts.battle")
    n, f = len(s.players), s.frame
    seats = list(range(n))
    held = {c for h in s.held for c in h}
    free = [c for c in C.CANDY_CODES if s.where(c) is None]
    free_battle = [c for c in C.BATTLE_CODES if s.where(c) is None and c not in held]
    stashed = [c for vs in s.vaults for v in vs for c in v.candies]
    seat = f.actor if f else s.seat
    acts: list = [A.Done(), A.CantStash(), A.Withdraw(), A.NewVault(None), A.NewVault(rng.choice(C.VAULT_CODES)),
                  A.Place(_pick(rng, [None, 0, 1, 2]), rng.random() < 0.3), A.Declare(rng.choice(C.FLAVOURS)),
                  A.Combine(rng.randrange(3), rng.randrange(3), _pick(rng, [None, None, 0, 1, 5]))]
    for _ in range(2):
        pair = _heist_pair(C.CARDS, free, rng)
        if pair:
            acts.append(A.Stash(pair, rng.randrange(len(s.vaults[seat]) + 1),
                                _pick(rng, [None, None, C.PURE_SUGAR, rng.choice(C.FLAVOURS)]), rng.random() < 0.3))
    if free:
        a = rng.choice(free)
        acts += [A.Reveal(a), A.Take(a), A.Take(a, _pick(rng, seats)), A.Join(rng.randint(-1, n), a),
                 A.Trade((A.Move(a, _pick(rng, [None] + seats), _pick(rng, seats)),)),
                 A.Trade((A.Move(a, s.active, _pick(rng, seats)), A.Move(rng.choice(free), _pick(rng, seats),
                                                                         s.active)))]
    if s.revealed:
        acts.append(A.Trade((A.Move(rng.choice(s.revealed), None, _pick(rng, seats)),)))
    mine = [c for v in s.vaults[s.active] for c in v.candies]
    if mine:
        pay = rng.choice(mine)
        acts += [A.BuyVault(pay), A.BuyVault(pay, rng.choice(C.VAULT_CODES)),
                 A.BuyBattle(pay, rng.choice(free_battle or C.BATTLE_CODES)),
                 A.BuyBattle(pay, rng.choice(C.CANDY_CODES))]
    for c in rng.sample(stashed, min(3, len(stashed))) + list(s.discard[-2:]):
        acts.append(A.Take(c))
    for c in sorted(held):
        acts += [A.Play(c), A.Take(c)]
    for c in rng.sample(free_battle, min(2, len(free_battle))) + list(s.battle_discard[-1:]):
        acts += [A.Flip(c), A.Take(c, _pick(rng, [None] + seats))]
    target = rng.randrange(n)
    acts += [A.Target(rng.choice(STYLES), target, _pick(rng, [None] + list(range(len(s.vaults[target]) + 1))))]
    if f is not None:
        acts += [A.Take(c, _pick(rng, [None, None] + seats)) for c in f.cards]
        if f.step == "haul" and f.target is not None:
            acts += [A.Take(c) for v in s.vaults[f.target] for c in v.candies[:2]]
        acts += [A.Place(v) for v in [None] + list(range(len(s.vaults[seat])))]
        if f.step == "target":
            options = B.legal_targets(s, f.actor, f.card)
            acts += [A.Target(*o) for o in rng.sample(options, min(3, len(options)))]
        if f.step in ("flavour", "keep"):
            acts += [A.Declare(x) for x in C.FLAVOURS]
        if f.step == "collect" and f.flavours:
            acts += [A.Take(c, _pick(rng, [None] + seats)) for c in free if C.CARDS[c].flavour == f.flavours[0]][:2]
    if rng.random() < 0.05:
        acts.append(A.SetPile(rng.choice([0, 1, s.draw, 200])))
    return acts


# ---------------------------------------------------------------- Sweet Deals

def deals_new(rules: ModuleType, rng: random.Random):
    """A game of 2 to 8 players, tracked or open hands, any hybrid rule."""
    return rules.new_game([f"P{i + 1}" for i in range(rng.randint(2, 8))], mode=rng.choice(["tracked", "open"]),
                          hybrid=rng.choice([None, "card", "and", "or"]))


def deals_candidates(rules: ModuleType, s, rng: random.Random) -> list:
    """For every seat (and two that are not at the table) each kind of action, with cards
    of the deck, of the hand, face up; the cards of the hands the table waits on."""
    cards = _sibling(rules, "parts.cards")
    prompts = _sibling(rules, "parts.prompts")
    n, deck = len(s.players), list(cards.deck_for(len(s.players)))
    labels = sorted({cards.CARDS[c].label for c in deck}) + ["Nope"]
    free = [c for c in deck if s.holder(c) is None]
    acts: list = []
    for seat in list(range(n)) + [n, -1]:
        hand = list(s.hands[seat]) if 0 <= seat < n else []
        card = rng.choice(hand or deck)
        some = rng.choice(free or deck)
        acts += [rules.HandCard(seat, some), rules.Offer(seat, rng.choice(labels)), rules.Bid(seat, rng.randint(-1, 6)),
                 rules.Pass(seat), rules.Grab(seat), rules.Reveal(seat, card), rules.Choose(seat),
                 rules.SwapCard(seat, card), rules.FaceUp(seat, card), rules.Draw(seat, some),
                 rules.StartBakeSale(seat), rules.Done(seat), rules.Take(seat), rules.GrabCard(seat, card),
                 rules.Vote(seat, rng.random() < 0.8)]
        if rng.random() < 0.05:
            acts += [rules.AskClose(seat), rules.ShoutSweetSix(seat)]
    for seat in sorted({prompts.scanner(s), s.active, s.winner} - {None}):
        for c in s.hands[seat]:
            acts += [rules.FaceUp(seat, c), rules.Reveal(seat, c), rules.SwapCard(seat, c), rules.GrabCard(seat, c)]
    acts.append(rules.Offer(s.active, rng.choice(labels[:-1])))
    if s.bidding is not None and s.bidding.to_act is not None and s.bidding.high is not None:
        acts.append(rules.Bid(s.bidding.to_act, s.bidding.high))
    if s.discards:
        acts.append(rules.Draw(s.active, rng.choice(s.discards)))
    acts += [rules.Choose(seat) for seat in s.tied]
    return acts


#: slug -> (a new game, the candidate actions at a state), each given the game's rules module.
DRIVERS: dict[str, tuple[Callable, Callable]] = {
    "sugarrr": (sugarrr_new, sugarrr_candidates),
    "sugar-blast": (blast_new, blast_candidates),
    "sugar-heist": (heist_new, heist_candidates),
    "sweet-deals": (deals_new, deals_candidates),
}
#: Action types taken only now and then, so that games go on (a deck count, a close).
RARE = {"SetDeck", "SetPile", "AskClose", "ShoutSweetSix"}


# ---------------------------------------------------------------- playing

def verdict(rules: ModuleType, state, action) -> tuple:
    """``("ok",)`` when ``check`` passes ``action``, else ``("no", code, message)``."""
    try:
        rules.check(state, action)
    except IllegalAction as exc:
        return ("no", exc.code, exc.message)
    return ("ok",)


def play(rules: ModuleType, slug: str, seed: int, steps: int,
         look: Callable[[Any, list, list], None] | None = None) -> int:
    """A random game: at each state every candidate is checked (``look(state, actions,
    verdicts)`` sees them), then one accepted action is applied (its type chosen evenly),
    until the game is over, ``steps`` are taken, or no candidate is accepted (whether a
    game can always go on is for other tests). Returns how many actions were checked."""
    new, candidates = DRIVERS[slug]
    rng = random.Random(seed)
    state = new(rules, rng)
    checked = 0
    for _ in range(steps):
        if state.over:
            break
        actions = candidates(rules, state, rng)
        verdicts = [verdict(rules, state, a) for a in actions]
        checked += len(actions)
        if look is not None:
            look(state, actions, verdicts)
        accepted = [a for a, v in zip(actions, verdicts) if v == ("ok",)]
        common = [a for a in accepted if type(a).__name__ not in RARE]
        pool = common if common and rng.random() < 0.97 else accepted
        if not pool:
            break
        kind = rng.choice(sorted({type(a).__name__ for a in pool}))
        state, _ = rules.apply(state, rng.choice([a for a in pool if type(a).__name__ == kind]))
    return checked


# ---------------------------------------------------------------- the properties

def test_every_registered_game_has_a_driver():
    """A game registered without a driver would go unchecked here."""
    assert set(DRIVERS) == set(GAMES)


@pytest.mark.parametrize("slug", sorted(DRIVERS))
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1))
def test_check_only_reads_and_apply_never_refuses_what_check_passed(slug, seed):
    """At every state of a random game, for every candidate: ``check`` leaves the state as
    a deep copy taken before and answers the same when asked again; what it passes,
    ``apply`` performs without refusing; what it refuses, ``step`` refuses in its words."""
    rules = _rules_module(slug)

    def look(state, actions, verdicts):
        before = copy.deepcopy(state)
        for action, said in zip(actions, verdicts):
            assert verdict(rules, state, action) == said  # asked again, the same answer
            assert state == before, (action, said)
            if said == ("ok",):
                try:
                    rules.apply(state, action)
                except IllegalAction as exc:
                    pytest.fail(f"apply refused {action!r} that check passed: {exc.message}")
                assert state == before, action  # apply returns a new state, its input stays
            else:
                with pytest.raises(IllegalAction) as info:
                    rules.step(state, action)
                assert ("no", info.value.code, info.value.message) == said
                assert state == before, action

    assert play(rules, slug, seed, 400, look) > 0


#: What each game's ``check`` may ask of the modules that also hold its moves; every other
#: function of :data:`MOVES`'s modules is a move, made to raise by the test below.
QUERIES: dict[str, set[str]] = {
    "sugarrr": set(),
    "sugar-blast": set(),
    "sugar-heist": {"top", "owner", "target_problem", "legal_targets", "playable", "can_add_steal", "flipper",
                    "_haul_flavour", "prize_flavours", "place_flavour", "haul_done_vault", "on_battle_pile",
                    "pile_refusal", "check_vault", "hand_card", "pair_flavour", "stash_flavour", "check_emptying",
                    "find_candy", "fitting", "no"},
    "sweet-deals": set(),
}
#: The modules of each game that hold its moves (besides queries named in :data:`QUERIES`).
MOVES: dict[str, tuple[str, ...]] = {
    "sugarrr": ("rules",),
    "sugar-blast": ("rules",),
    "sugar-heist": ("rules", "parts.turns", "parts.battle", "parts.effects", "parts.vaults"),
    "sweet-deals": ("rules", "parts.turns"),
}


def _moves(slug: str) -> set:
    package = _rules_module(slug).__package__
    found = set()
    for name in MOVES[slug]:
        module = importlib.import_module(f"{package}.{name}")
        found |= {f for f in vars(module).values() if inspect.isfunction(f) and f.__module__ == module.__name__
                  and f.__name__ not in QUERIES[slug]}
        found |= {f for table in vars(module).values() if isinstance(table, dict)
                  for f in table.values() if inspect.isfunction(f) and f.__module__ == module.__name__}
    return found


@pytest.mark.parametrize("slug", sorted(DRIVERS))
def test_check_answers_with_every_move_made_to_raise(slug, monkeypatch):
    """``check`` decides from the state and the action alone: with each move function of
    the game (and Sweet Deals' auction moves) replaced by one that raises, wherever a
    module or a table holds it, every verdict of a random game is the same."""
    rules = _rules_module(slug)
    seen: list[tuple] = []
    play(rules, slug, 35, 40, lambda state, actions, verdicts: seen.extend(zip([state] * len(actions), actions,
                                                                               verdicts)))
    moves = _moves(slug)
    assert moves and rules.apply in moves

    def raiser(name):
        def move(*args, **kwargs):
            raise AssertionError(f"check called the move {name}")
        return move

    for module in [m for name, m in sys.modules.items() if name.startswith(rules.__package__ + ".")]:
        for name, value in list(vars(module).items()):
            if inspect.isfunction(value) and value in moves:
                monkeypatch.setattr(module, name, raiser(name))
            elif isinstance(value, dict):
                for key, f in list(value.items()):
                    if inspect.isfunction(f) and f in moves:
                        monkeypatch.setitem(value, key, raiser(f"{name}[{key!r}]"))
    if slug == "sweet-deals":
        auction = _sibling(rules, "parts.auction")
        for name in ("open", "bid", "passed"):
            monkeypatch.setattr(auction.Bidding, name, raiser(f"Bidding.{name}"))
    with pytest.raises(AssertionError, match="check called the move apply"):
        rules.apply(*seen[0][:2])
    for state, action, said in seen:
        assert verdict(rules, state, action) == said, action


# ---------------------------------------------------------------- the fused code's verdicts

#: Seeded games whose every verdict, step by step, the golden file holds.
GOLDEN_GAMES: dict[str, tuple[int, ...]] = {"sugar-heist": (1, 2, 3, 4, 5), "sweet-deals": (1, 2, 3, 4, 5)}
GOLDEN_STEPS = 400


def _line(action, said: tuple) -> str:
    return f"{action!r} -> {'ok' if said == ('ok',) else f'{said[1]!r} {said[2]}'}"


def step_digests(rules: ModuleType, slug: str, seed: int) -> list[str]:
    """One digest per step of a seeded game: of every candidate action and its verdict."""
    digests: list[str] = []

    def look(state, actions, verdicts):
        text = "\n".join(_line(a, v) for a, v in zip(actions, verdicts))
        digests.append(hashlib.sha256(text.encode()).hexdigest()[:8])

    play(rules, slug, seed, GOLDEN_STEPS, look)
    return digests


def record(modules: dict[str, ModuleType]) -> dict:
    """The golden file's content, from the rules modules given (slug -> module): for each
    seeded game, its steps' digests in one line."""
    return {slug: {str(seed): " ".join(step_digests(modules[slug], slug, seed)) for seed in seeds}
            for slug, seeds in GOLDEN_GAMES.items()}


@pytest.mark.parametrize("slug", sorted(GOLDEN_GAMES))
def test_verdicts_are_the_fused_codes(slug):
    """Every action checked in the seeded games gets the verdict the fused check-and-apply
    gave: the same refusals, word for word and code for code, and the same acceptances."""
    golden = json.loads(GOLDEN.read_text())[slug]
    rules = _rules_module(slug)
    for seed in GOLDEN_GAMES[slug]:
        want = golden[str(seed)].split()
        got = step_digests(rules, slug, seed)
        for k, (a, b) in enumerate(zip(got, want)):
            if a != b:
                shown = []
                play(rules, slug, seed, k + 1, lambda s, acts, vs: shown.__setitem__(slice(None), list(zip(acts, vs))))
                pytest.fail(f"{slug} seed {seed}, step {k}: the verdicts differ from the golden file; now:\n"
                            + "\n".join(_line(a, v) for a, v in shown))
        assert len(got) == len(want), (slug, seed)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    GOLDEN.write_text(json.dumps(record({slug: _rules_module(slug) for slug in GOLDEN_GAMES}), indent=1) + "\n")
    print(f"wrote {GOLDEN}")
