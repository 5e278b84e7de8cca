"""Complete Sugar Heist games, 2 and 4 players, played from the rulebook with seeded
random decks (issue 21). A small table simulator below holds the physical cards -- the
shuffled Candy, Battle and Vault piles, every hand, every vault, the discard piles --
plays each turn by the rulebook and types what a table would scan and tap. Its own
count of the candy in each vault and the Grandmas shown is written here from the
rulebook's scoring, never by calling the rules; the companion, fed the same inputs
through ``companion run --headless --simulate``, must accept every input and print the
same scores.

Rulebook, Ending the Game: "The game ends once the Candy Card draw pile has been
exhausted for the second time. ... Once their turn is complete, each player may stash
any outstanding pairs from their hand onto a Vault, with the same candy flavor or into
a Vault that is currently empty. Any unstashable Candy Cards remaining in a player's
hand must be discarded. Each player combines all Candy Cards stashed in their Vaults
into a single stack. Each Candy Card is worth 1 point." Grandma: "Reveal at the end of
game. Add 6 points to your final score."
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from companion.games.sugar_heist.parts.cards import BATTLE_CODES, CANDY_CODES, CARDS, LOCK, PURE_SUGAR, VAULT_CODES

from sugar_heist_helpers import Table

HAND = 6            # "deal 6 Candy Cards to each player"; the hand limit
#: Event Cards the simulated players know how to play when they buy one (they peek at the
#: top of the Battle Draw Pile and leave it when it is another Event).
EVENTS = ("Bad Dog", "Activate Sleeper Cell", "Start a Crib Fight", "Piñata", "Candy Magnet")


class Sim:
    """The physical table. ``lines`` is what is typed, in order."""

    def __init__(self, players: tuple[str, ...], seed: int):
        self.rng = random.Random(seed)
        self.players = players
        n = len(players)
        self.lines: list[str] = []
        candy = list(CANDY_CODES)
        self.rng.shuffle(candy)
        battle = list(BATTLE_CODES)
        vaults = list(VAULT_CODES)
        self.rng.shuffle(vaults)
        if n == 2:  # "Remove 1 Battle Royale, remove 1 Crib Fight, and remove 4 Vaults": any copy
            for name in ("Battle Royale", "Start a Crib Fight"):
                battle.remove(self.rng.choice([c for c in battle if CARDS[c].name == name]))
            vaults = vaults[4:]
        self.rng.shuffle(battle)
        self.hands = [[candy.pop() for _ in range(HAND)] for _ in range(n)]
        self.draw = candy
        self.battle = battle
        self.vault_pile = vaults[2 * n:]
        self.vaults = [[[], []] for _ in range(n)]      # each vault: the candy codes on it
        self.flavour = [[None, None] for _ in range(n)]
        self.locked = [[False, False] for _ in range(n)]
        self.held = [[] for _ in range(n)]
        self.discard: list[str] = []
        self.battle_discard: list[str] = []
        self.reshuffled = False
        self.final = False
        self.active = 0
        self.turns = 0
        self.heists = self.steals = self.moms = self.events = 0
        self.spread = self.combines = 0   # pairs put beside their flavour on an empty vault; vaults combined
        self.skips = [0] * n
        self.extra: list[int] = []

    # -------------------------------------------------------- piles

    def draw_one(self) -> str | None:
        """One Candy Card off the pile; when it is empty the Discard Pile is shuffled in
        once, the second time the game is ending ("Ending the Game")."""
        if self.final or not self.draw:
            return None
        card = self.draw.pop()
        if not self.draw:
            if not self.reshuffled:
                self.reshuffled = True
                self.draw, self.discard = self.discard, []
                self.rng.shuffle(self.draw)
            if not self.draw:
                self.final = True
        return card

    def battle_top(self) -> str | None:
        if not self.battle and self.battle_discard:
            self.battle, self.battle_discard = self.battle_discard, []
            self.rng.shuffle(self.battle)
        return self.battle[-1] if self.battle else None

    # -------------------------------------------------------- vaults

    def type(self, *lines: str) -> None:
        self.lines += lines

    def fits(self, seat: int, flavour: str) -> list[int]:
        """Where candy of ``flavour`` may go without emptying a vault: "onto a Vault, with
        the same candy flavor or into a Vault that is currently empty" (those of the
        flavour first); with more than one, the table taps which."""
        same = [i for i, f in enumerate(self.flavour[seat]) if f == flavour and self.vaults[seat][i]]
        return same + [i for i, v in enumerate(self.vaults[seat]) if not v]

    def relock(self, seat: int, i: int) -> None:
        f = self.flavour[seat][i]
        self.locked[seat][i] = bool(f) and len(self.vaults[seat][i]) >= LOCK[f]

    def put(self, seat: int, i: int, codes: list[str], flavour: str) -> None:
        self.vaults[seat][i] += codes
        self.flavour[seat][i] = flavour
        self.relock(seat, i)

    def take(self, seat: int, i: int, code: str) -> None:
        self.vaults[seat][i].remove(code)
        if not self.vaults[seat][i]:
            self.flavour[seat][i] = None
        self.relock(seat, i)

    def place(self, seat: int, codes: list[str], flavour: str, i: int) -> None:
        """Candy into vault ``i`` (of that flavour or empty): tap it."""
        self.type(f"/vault {i + 1}")
        self.put(seat, i, codes, flavour)

    # -------------------------------------------------------- a turn

    def pairs(self, seat: int, final: bool = False) -> list[tuple[str, str, str]]:
        """Pairs in the hand that have a vault: two of a flavour, or one and a Pure Sugar."""
        hand = list(self.hands[seat])
        out = []
        by: dict[str, list[str]] = {}
        for c in hand:
            by.setdefault(CARDS[c].flavour, []).append(c)
        pure = by.pop(PURE_SUGAR, [])
        taken_empty = 0
        for flavour, cards in sorted(by.items()):
            fits = self.fits(seat, flavour)
            if not fits:
                continue
            if not any(self.flavour[seat][i] == flavour for i in fits):
                if taken_empty >= len(fits):
                    continue
                taken_empty += 1
            while len(cards) >= 2:
                out.append((cards.pop(), cards.pop(), flavour))
            if cards and pure:
                out.append((cards.pop(), pure.pop(), flavour))
        return out

    def stash(self, seat: int, final: bool = False) -> int:
        """Stash the pairs :meth:`pairs` found. A pair whose flavour is in a vault already
        now and then goes on an empty vault instead, when one is to spare (the table taps which): "If at any
        point, you have the same flavor stashed in multiple Vaults" (How to Lock a Vault)."""
        made = 0
        pairs = self.pairs(seat, final)
        for n, (a, b, flavour) in enumerate(pairs):
            fits = self.fits(seat, flavour)
            vault = fits[0]
            empty = [i for i in fits if not self.vaults[seat][i]]
            needing = sum(1 for _, _, f in pairs[n + 1:] if f not in self.flavour[seat])
            if empty and vault not in empty and len(empty) > needing and self.rng.random() < 0.5:
                vault = empty[0]
                self.spread += 1
            self.type(a, b)
            if len(fits) > 1:
                self.type(f"/vault {vault + 1}")
            self.hands[seat].remove(a)
            self.hands[seat].remove(b)
            self.put(seat, vault, [a, b], flavour)
            made += 1
        return made

    def combine(self, seat: int, typed_seat: bool = False) -> None:
        """"You may combine matching flavors into a single Vault. This frees up a Vault
        for new candy": every vault of a flavour kept in two is moved onto the first one
        (``typed_seat``: typed as ``/combine P A B``, on someone else's turn)."""
        for i, flavour in enumerate(self.flavour[seat]):
            for j in range(i + 1, len(self.vaults[seat])):
                if flavour and self.flavour[seat][j] == flavour and self.vaults[seat][j]:
                    who = f"{seat + 1} " if typed_seat else ""
                    self.type(f"/combine {who}{j + 1} {i + 1}")
                    self.combines += 1
                    moving, self.vaults[seat][j] = self.vaults[seat][j], []
                    self.flavour[seat][j] = None
                    self.relock(seat, j)
                    self.put(seat, i, moving, flavour)

    def end_turn(self, seat: int) -> None:
        while len(self.hands[seat]) < HAND and not self.final:
            card = self.draw_one()
            if card:
                self.hands[seat].append(card)
        while len(self.hands[seat]) > HAND:
            card = self.discard_choice(seat)
            self.type(card)
            self.hands[seat].remove(card)
            self.discard.append(card)

    def discard_choice(self, seat: int) -> str:
        counts: dict[str, int] = {}
        for c in self.hands[seat]:
            counts[CARDS[c].flavour] = counts.get(CARDS[c].flavour, 0) + 1
        return min(self.hands[seat], key=lambda c: (counts[CARDS[c].flavour], c))

    def turn(self) -> None:
        p = self.last = self.active
        self.turns += 1
        heisted, stolen, protected = set(), set(), set()
        fresh: set[str] = set()
        if self.turns % 4 == 1:
            self.combine(p)
        if not self.stash(p):
            self.type("/cant")
            for _ in range(2):
                card = self.draw_one()
                if card:
                    self.hands[p].append(card)
            self.end_turn(p)
            self.active = self.next_player(p)
            return
        self.type("/done")
        for other in range(len(self.players)):  # "at any point": on another player's turn too
            if other != p:
                self.combine(other, typed_seat=True)
        # Phase 2: reveal the top 2, nobody swaps, they go to the hand
        for _ in range(2):
            if self.final:
                break
            card = self.draw_one()
            if card is None:
                break
            self.type(card)
            self.hands[p].append(card)
        self.type("/done")
        # Phase 3: buy up to 2 cards, then play Attack Cards
        bought = 0
        while bought < 2 and not self.final:
            payer = max(range(len(self.vaults[p])), key=lambda i: (len(self.vaults[p][i]), -i))
            if len(self.vaults[p][payer]) < 3:
                break
            pay = self.vaults[p][payer][-1]
            if len(self.vaults[p]) < 3 and self.vault_pile:
                self.type(pay)
                self.take(p, payer, pay)
                self.discard.append(pay)
                code = self.vault_pile.pop()
                self.type(code)
                self.vaults[p].append([])
                self.flavour[p].append(None)
                self.locked[p].append(False)
                bought += 1
                continue
            top = self.battle_top()
            if top is None or CARDS[top].kind == "event" and CARDS[top].name not in EVENTS:
                break
            self.type(pay, top)
            self.take(p, payer, pay)
            self.discard.append(pay)
            self.battle.pop()
            bought += 1
            if CARDS[top].kind == "event":  # "Triggered immediately when drawn"
                if self.event(p, top):
                    self.battle_discard.append(top)
                self.events += 1
                if self.final:
                    break
                continue
            self.held[p].append(top)
            fresh.add(top)
        while not self.final and self.attack(p, fresh, heisted, stolen, protected):
            pass
        self.type("/done")
        self.end_turn(p)
        self.active = self.next_player(p)

    def next_player(self, p: int) -> int:
        """To the left, skipping who must skip; a Sleeper Cell's player goes at once."""
        if self.extra:
            return self.extra.pop(0)
        n = len(self.players)
        nxt = (p + 1) % n
        while self.skips[nxt]:
            self.skips[nxt] -= 1
            nxt = (nxt + 1) % n
        return nxt

    def event(self, p: int, card: str) -> bool:
        """An Event Card bought is played at once (Battle Card Index). Returns whether it
        is discarded (a Candy Magnet with no Vault Card left stays as a vault)."""
        name = CARDS[card].name
        n = len(self.players)
        others = [(p + k) % n for k in range(1, n)]
        if name == "Activate Sleeper Cell":  # nobody plays a Mom on it here
            self.type("/done")
            for s in others:
                self.skips[s] += 1
            self.extra.append(p)
        elif name == "Bad Dog":
            for c in self.hand_over(others):
                self.discard.append(c)
        elif name == "Candy Magnet":
            vault = len(self.vaults[p])
            self.vaults[p].append([])
            self.flavour[p].append(None)
            self.locked[p].append(False)
            kept = not self.vault_pile  # "If no Vault Cards remain, keep this card ... like a Vault"
            if not kept:
                self.type(self.vault_pile.pop())
            flavour = self.common_flavour(others)
            for c in self.hand_over(others, flavour):
                self.put(p, vault, [c], flavour)
            return not kept
        elif name == "Start a Crib Fight":  # nobody else joins: "an automatic win"
            self.type("/fight")
            prize = self.discard[-4:]
            for c in prize:
                self.type(c)
                self.discard.remove(c)
                self.hands[p].append(c)
            self.type("/hand" if prize else "/done")
        elif name == "Piñata":
            cards = []
            while len(cards) < n and not self.final:
                c = self.draw_one()
                if c is None:
                    break
                cards.append(c)
                self.type(c)
            for k in range(len(cards)):
                pick = cards.pop(0)
                self.type(pick)
                self.hands[(p + k) % n].append(pick)
        return True

    def hand_over(self, others, flavour: str | None = None):
        """Bad Dog and Candy Magnet: name ``flavour`` (default :meth:`common_flavour`), then
        each other player scans every card of it from their hand, then Done. Yields each
        card as it is scanned (out of its hand by then), for the caller to put where it goes."""
        flavour = flavour or self.common_flavour(others)
        self.type(f"/flavour {flavour.lower()}", "/done")
        for s in others:
            for c in [c for c in self.hands[s] if CARDS[c].flavour == flavour]:
                self.type(c)
                self.hands[s].remove(c)
                yield c
            self.type("/done")

    def common_flavour(self, seats) -> str:
        counts: dict[str, int] = {}
        for s in seats:
            for c in self.hands[s]:
                if CARDS[c].flavour != PURE_SUGAR:
                    counts[CARDS[c].flavour] = counts.get(CARDS[c].flavour, 0) + 1
        return max(sorted(counts), key=lambda f: counts[f]) if counts else "Sour Bombs"

    def target_for(self, p: int, heist: bool, heisted, stolen, protected):
        n = len(self.players)
        for k in range(1, n):
            t = (p + k) % n
            if t in protected or len(self.vaults[t]) < 2 or t in heisted or (heist and t in stolen):
                continue
            if not heist and t in stolen:
                continue
            for i, codes in enumerate(self.vaults[t]):
                if codes and not self.locked[t][i] and self.fits(p, self.flavour[t][i]):
                    return t, i
        return None

    def attack(self, p: int, fresh, heisted, stolen, protected) -> bool:
        attacks = [c for c in self.held[p] if CARDS[c].name == "Attack"]
        for card in attacks:
            heist = card in fresh
            aim = self.target_for(p, heist, heisted, stolen, protected)
            if aim is None and heist:
                heist, aim = False, self.target_for(p, False, heisted, stolen, protected)
            if aim is None:
                continue
            t, i = aim
            self.held[p].remove(card)
            self.type(card, f"/{'heist' if heist else 'steal'} {t + 1} {i + 1}")
            (heisted if heist else stolen).add(t)
            mom = next((c for c in self.held[t] if CARDS[c].name == "Mom"), None)
            if mom:  # "If the target wishes to play a Mom Card it MUST be played now"
                self.type(mom)
                self.held[t].remove(mom)
                self.battle_discard += [mom, card]
                protected.add(t)
                self.moms += 1
                return True
            self.type("/done")
            won = self.duel(p, t) if heist else True
            self.battle_discard.append(card)
            if won:
                self.haul(p, t, i, 6 if heist else 2)
            if heist:
                self.heists += 1
            else:
                self.steals += 1
            return True
        return False

    def duel(self, a: int, t: int) -> bool:
        """"Starting with the attacking player, both players alternate revealing the top
        card of the Battle Deck. The first player to reveal 2 Attack Cards wins." """
        need = [2, 2]
        for k, seat in enumerate((a, t)):
            mm = next((c for c in self.held[seat] if CARDS[c].name == "Mastermind"), None)
            if mm:
                self.type(mm)
                self.held[seat].remove(mm)
                self.battle_discard.append(mm)
                need[k] = 1
        tally = [0, 0]
        flips: list[str] = []
        k = 0
        while True:
            if not self.battle and not self.battle_discard:
                if not flips:
                    self.type("/done")
                    return False
                self.battle, flips = flips, []
                self.rng.shuffle(self.battle)
            top = self.battle_top()
            self.battle.pop()
            flips.append(top)
            self.type(top)
            tally[k] += CARDS[top].kind == "attack"
            if tally[k] >= need[k]:
                self.battle += flips  # "Re-shuffle all revealed cards back into the Battle Deck"
                self.rng.shuffle(self.battle)
                return k == 0
            k = 1 - k

    def haul(self, p: int, t: int, i: int, most: int) -> None:
        flavour = self.flavour[t][i]
        taken = list(self.vaults[t][i][-most:])
        for code in taken:
            self.type(code)
            self.take(t, i, code)
        self.place(p, taken, flavour, self.fits(p, flavour)[0])

    # -------------------------------------------------------- the end

    def play(self) -> None:
        while not self.final:
            self.turn()
            assert self.turns < 400, "the game does not end"
        # "Once their turn is complete, each player may stash any outstanding pairs",
        # from the player who drew the last card round the table
        n = len(self.players)
        order = [(self.last + k) % n for k in range(n)]
        for seat in order:
            self.combine(seat)  # at the final stash too: it can free a vault for the last pairs
            self.stash(seat, final=True)
            self.type("/done")
            self.hands[seat] = []

    def scores(self) -> dict[str, int]:
        """The count, by hand: every stashed Candy Card 1 point, each Grandma 6."""
        return {name: sum(len(v) for v in self.vaults[s]) + 6 * sum(CARDS[c].name == "Grandma" for c in self.held[s])
                for s, name in enumerate(self.players)}


def whole_game(players, seed):
    sim = Sim(players, seed)
    sim.play()
    return sim


@pytest.mark.parametrize("players, seed", [(("Ana", "Ben"), 7), (("Ana", "Ben", "Cy", "Di"), 11)])
def test_a_whole_game_ends_with_the_independent_count(players, seed):
    sim = _agreed(players, seed)
    assert sim.turns > 10 and sim.heists and sim.steals + sim.moms and sim.events


def test_a_whole_game_with_one_flavour_in_two_vaults_combined_at_any_point():
    """How to Lock a Vault: "If at any point, you have the same flavor stashed in multiple
    Vaults you may combine matching flavors into a single Vault." Pairs go on an empty
    vault beside one of their flavour (the table taps which), and vaults are combined on
    their owner's turn, on other players' turns and at the final stash (issue 36)."""
    sim = _agreed(("Ana", "Ben", "Cy"), 13)
    assert sim.spread and sim.combines and any(len(line.split()) == 4 for line in sim.lines
                                               if line.startswith("/combine"))


def _agreed(players, seed) -> Sim:
    """Play a whole game on the simulated table and type it into the companion, which must
    accept every input and end with the simulator's count."""
    sim = whole_game(players, seed)
    t = Table(players)
    for n, line in enumerate(sim.lines):
        before = len(t.verdicts)
        t.type(line)
        v = t.verdicts[-1]
        assert len(t.verdicts) == before + 1 and v.verdict == "accepted", (n, line, v.reason, t.session.prompt())
    assert t.session.over
    result = t.session.result()
    assert {p.name: p.score for p in result.players} == sim.scores()
    return sim


@pytest.mark.parametrize("players, seed", [(("Ana", "Ben"), 7), (("Ana", "Ben", "Cy", "Di"), 11)])
def test_the_whole_game_through_companion_run_headless_simulate(tmp_path, players, seed):
    """The same game typed into ``companion run --game sugar-heist --headless --simulate``:
    no input is refused and the score table printed at the end is the count by hand."""
    sim = whole_game(players, seed)
    env = dict(os.environ, PYGAME_HIDE_SUPPORT_PROMPT="1", SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--game", "sugar-heist", "--names",
                           ",".join(players), "--headless", "--simulate", "--tap-off", "0", "--store",
                           str(tmp_path / "t.db")], input="\n".join(sim.lines) + "\n", capture_output=True,
                          text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "Not allowed" not in proc.stdout
    rows = {}
    for line in proc.stdout.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] in players and words[1].isdigit():
            rows[words[0]] = int(words[1])
    assert rows == sim.scores()
