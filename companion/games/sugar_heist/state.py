"""Sugar Heist state, actions and outcome events (rulebooks/sugar-heist.txt).

The companion holds the whole public game: every vault's candies, lock state and lock
number, the Candy Discard Pile, the revealed cards, the piles' counts and how many
Candy Cards each hand holds. Hands are counted, not known: a Candy Card is seen when it
is scanned (stashed, revealed, swapped, discarded) and unseen again once it goes into a
hand. Battle Cards bought face down are known to the companion (``held``) and to nobody
else: :func:`companion.games.sugar_heist.rules.public_view` replaces them with ``"?"``.

A Battle Card being resolved is a :class:`Frame` on ``stack`` (a Battle Royale can make
another player play a card in the middle of it); ``phase`` is the top frame's step, or
the turn's phase when nothing is being resolved.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.core.game import State as CoreState
from companion.core.events import GameOver, Outcome, Revealed, TurnEnded  # noqa: F401  (re-exported)

from .parts.cards import CARDS, LOCK, SETUP
from .messages import say

HAND_SIZE: int = SETUP["hand_size"]

# The turn's phases ("How a Turn Works").
STASH = "stash"            # Phase 1: stash pairs from the hand onto vaults
REVEAL = "reveal"          # Phase 2: scan the two revealed Candy Cards
SWAP = "swap"              # Phase 2: swaps, then the revealed cards go to the hand
BUY = "buy"                # Phase 3: buy and play Battle or Vault Cards
DISCARD = "discard"        # end of turn: discard down to 6 Candy Cards
FINAL = "final-stash"      # the end: each player stashes their last pairs
OVER = "over"


@dataclass(frozen=True)
class Vault:
    """One Vault Card and the stack on it ("Vault Cards").

    ``flavour`` is the flavour stashed there (a vault of Pure Sugars only has the
    flavour declared for them), None when empty. ``locked``: the card is flipped.
    ``quarantine``: the Quarantine Lock card locking it. ``cracked``: unlocked by a
    Safe Cracker or a heist (Alternate Play Rule): it locks again only above its lock
    number. ``card``: the Vault Card's code when it was scanned (or the Candy Magnet
    used as a vault); None for the two dealt at set-up.
    """

    candies: tuple[str, ...] = ()
    flavour: str | None = None
    locked: bool = False
    quarantine: str | None = None
    cracked: bool = False
    card: str | None = None

    @property
    def lock_number(self) -> int | None:
        """Candies that lock this vault: its flavour's lock number, None when empty."""
        return LOCK[self.flavour] if self.flavour else None

    @property
    def count(self) -> int:
        return len(self.candies)


@dataclass(frozen=True)
class Frame:
    """A Battle Card being resolved, one step at a time.

    ``card`` the card (its code; public once played), ``actor`` the seat that played
    it, ``step`` what the table does now (``target``, ``mom``, ``duel``, ``haul``,
    ``flavour``, ``keep``, ``collect``, ``new-vault``, ``pinata``, ``pick``, ``join``,
    ``prize``, ``spy``, ``royale``, ``stash``). ``waiting`` are seats still to act in
    this step, in order. ``haul`` candies taken and not yet placed.
    """

    card: str
    actor: int
    step: str
    style: str = ""
    target: int | None = None
    vault: int | None = None
    waiting: tuple[int, ...] = ()
    flavours: tuple[str, ...] = ()
    haul: tuple[str, ...] = ()
    haul_max: int = 0
    duelists: tuple[int, ...] = ()
    need: tuple[int, ...] = ()
    tally: tuple[int, ...] = ()
    flips: tuple[str, ...] = ()
    flipper: int = 0            # index into duelists of who flips next
    cards: tuple[str, ...] = ()  # Piñata: the face-up Candy Cards
    new_vault: int | None = None  # Candy Magnets: the actor's free vault
    more: tuple[str, ...] = ()   # Steal: more Attack Cards revealed with it against the same player
    steals_left: int = 0         # Steal: hauls still to take after this one
    withdrawable: bool = False   # played from the hand: may go back face down before its target


@dataclass(frozen=True)
class State(CoreState):
    """A whole Sugar Heist game as the companion knows it. Cards are codes.

    Counts: ``hands`` (Candy Cards in each hand), ``draw`` (Candy Draw Pile),
    ``battle_draw`` (Battle Draw Pile), ``vault_pile`` (Vault Cards left). ``binned``:
    candies thrown out unseen at the end. ``held``: each player's face-down Battle Cards
    (hidden from the table). ``fresh``: Battle Cards drawn this turn (a Heist needs one).
    """

    players: tuple[str, ...]
    stage: str
    active: int
    vaults: tuple[tuple[Vault, ...], ...]
    hands: tuple[int, ...]
    held: tuple[tuple[str, ...], ...]
    draw: int
    battle_draw: int
    vault_pile: int
    discard: tuple[str, ...] = ()
    battle_discard: tuple[str, ...] = ()
    revealed: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    set_aside: tuple[str, ...] = ()      # 2 players: names of which the table took out either copy
    vault_cards: tuple[str, ...] = ()   # Vault Card codes already seen
    binned: int = 0
    unaccounted: int = 0                # the table corrected the Candy Draw Pile count by this many
    alternate: bool = False
    reshuffled: bool = False
    final: bool = False
    turn: int = 1
    stashed: int = 0                    # pairs stashed this turn
    bought: int = 0                     # purchases this turn
    fresh: tuple[str, ...] = ()
    heisted: tuple[int, ...] = ()
    stolen: tuple[int, ...] = ()
    protected: tuple[int, ...] = ()     # played a Mom this turn
    skips: tuple[int, ...] = ()
    extra: tuple[int, ...] = ()         # Activate Sleeper Cell: seats taking a turn as soon as this one ends
    stack: tuple[Frame, ...] = ()
    finishing: tuple[int, ...] = ()     # the end: seats still to stash their last pairs
    grandmas: tuple[tuple[str, ...], ...] = ()  # revealed at the end

    @property
    def phase(self) -> str:
        return self.stack[-1].step if self.stack else self.stage

    @property
    def over(self) -> bool:
        return self.stage == OVER

    @property
    def frame(self) -> Frame | None:
        return self.stack[-1] if self.stack else None

    @property
    def seat(self) -> int:
        """The seat acting now: the finishing player at the end, else the active one."""
        if self.stage == FINAL and self.finishing:
            return self.finishing[0]
        return self.active

    def vault(self, seat: int, index: int) -> Vault:
        return self.vaults[seat][index]

    def where(self, code: str) -> str | None:
        """Where a seen card is, in words for a message; None when it is unseen (in
        a hand or a draw pile). Hidden Battle Cards are reported as unseen."""
        for seat, vaults in enumerate(self.vaults):
            for i, v in enumerate(vaults):
                if code in v.candies:
                    return say("vault_who_i", who=self.players[seat], vault=i + 1)
                if code in (v.card, v.quarantine):
                    return say("front_who", who=self.players[seat])
        if code in self.discard or code in self.battle_discard:
            return say("discard_pile")
        if code in self.revealed:
            return say("face_up_table")
        if code in self.removed:
            return say("out_this_game")
        for f in self.stack:
            if code in f.haul or code in f.cards or code in f.flips or code == f.card or code in f.more:
                return say("play_right")
        return None

    def candy_total(self) -> int:
        """Every Candy Card the state accounts for (86 when nothing is lost)."""
        in_flight = sum(len(f.haul) + len(f.cards) for f in self.stack)
        return (sum(self.hands) + self.draw + len(self.discard) + len(self.revealed) + self.binned + in_flight
                + self.unaccounted
                + sum(v.count for vs in self.vaults for v in vs))

    def battle_total(self) -> int:
        """Every Battle Card the state accounts for (44 less the removed ones and the
        copies set aside, ``removed`` and ``set_aside``)."""
        playing = sum(len(f.flips) + len(f.more) + (f.style != "kept") for f in self.stack)  # a kept card is a vault
        on_table = sum(1 for vs in self.vaults for v in vs
                       for c in (v.quarantine, v.card) if c and CARDS[c].is_battle)
        return (self.battle_draw + len(self.battle_discard) + sum(len(h) for h in self.held)
                + playing + on_table + sum(len(g) for g in self.grandmas))


# ---------------------------------------------------------------- actions

@dataclass(frozen=True)
class Stash:
    """A pair from the hand onto vault ``vault`` (0-based) of the acting player.
    ``flavour`` is declared for two Pure Sugars on an empty vault ("Pure Sugar")."""
    cards: tuple[str, str]
    vault: int
    flavour: str | None = None
    discard: bool = False       # the table said yes: empty a vault of another flavour first


@dataclass(frozen=True)
class Combine:
    """Move every candy of vault ``source`` onto vault ``target`` of the same flavour,
    both ``seat``'s (None: the player acting now). Allowed "at any point"."""
    source: int
    target: int
    seat: int | None = None


@dataclass(frozen=True)
class CantStash:
    """Phase 1: "If a player cannot stash a pair (or chooses not to)": draw two, end the turn."""


@dataclass(frozen=True)
class Done:
    """Finish the current step (stashing, swapping, buying, a Mom window, a haul...)."""


@dataclass(frozen=True)
class Reveal:
    """Phase 2: one of the top Candy Cards flipped face up."""
    card: str


@dataclass(frozen=True)
class Move:
    """One card of a swap: from ``giver``'s hand (None: a revealed card) to ``taker``'s."""
    card: str
    giver: int | None
    taker: int


@dataclass(frozen=True)
class Trade:
    """Phase 2: one swap (every card that changes hands)."""
    moves: tuple[Move, ...]


@dataclass(frozen=True)
class BuyBattle:
    """Phase 3: pay ``pay`` (a candy from one of the buyer's vaults) for Battle Card ``card``."""
    pay: str
    card: str


@dataclass(frozen=True)
class BuyVault:
    """Phase 3: pay ``pay`` for a Vault Card (``card`` its code, when scanned)."""
    pay: str
    card: str | None = None


@dataclass(frozen=True)
class Play:
    """A Battle Card scanned to play it (or a Mom, a Mastermind when their moment comes)."""
    card: str


@dataclass(frozen=True)
class Withdraw:
    """A Battle Card played from the face-down cards by mistake goes back, before its
    target is chosen (nothing has happened yet)."""


@dataclass(frozen=True)
class Target:
    """Whom a played card goes against: ``style`` (heist, steal, raid, lock, crack, spy,
    timeout, take), seat ``seat`` and vault ``vault`` (0-based, None when no vault)."""
    style: str
    seat: int
    vault: int | None = None


@dataclass(frozen=True)
class Flip:
    """A card flipped from the Battle Draw Pile in a Heist or Crib Fight."""
    card: str


@dataclass(frozen=True)
class Take:
    """A Candy Card taken in the current step (a haul, a prize, a Piñata pick, a card
    given to a Candy Magnet, a discard, a Battle Card chosen by a Spy)."""
    card: str
    seat: int | None = None


@dataclass(frozen=True)
class Place:
    """Put the taken candies into vault ``vault`` (0-based), or the hand when None.
    ``discard``: the table said yes to emptying a vault of another flavour first."""
    vault: int | None
    discard: bool = False


@dataclass(frozen=True)
class Declare:
    """A candy flavour declared (Bad Dog, Candy Magnet, Mega Candy Magnet)."""
    flavour: str


@dataclass(frozen=True)
class NewVault:
    """A Candy Magnet's free vault: ``card`` the Vault Card's code when scanned."""
    card: str | None = None


@dataclass(frozen=True)
class SetPile:
    """The table counted the Candy Draw Pile: it holds ``count`` cards."""
    count: int


@dataclass(frozen=True)
class Join:
    """Crib Fight: seat ``seat`` discards ``card`` from their hand to enter."""
    seat: int
    card: str


Action = (Stash | Combine | CantStash | Done | Reveal | Trade | BuyBattle | BuyVault | Play | Target | Withdraw
          | Flip | Take | Place | Declare | NewVault | Join | SetPile)


# ---------------------------------------------------------------- outcome events

@dataclass(frozen=True)
class Note(Outcome):
    """Something happened; ``message`` says what."""


@dataclass(frozen=True)
class VaultLocked(Outcome):
    """Seat ``seat``'s vault ``vault`` (both 0-based) locks: candies added to it reached its lock number
    (went above it, once cracked) ("How to Lock a Vault", "Safe Cracker"). A Quarantine Lock is a
    :class:`QuarantineLocked` instead."""
    seat: int
    vault: int


@dataclass(frozen=True)
class VaultUnlocked(Outcome):
    """Seat ``seat``'s vault ``vault`` (both 0-based) unlocks: candy taken from it left it below its lock number
    or broke its Quarantine Lock ("How to Lock a Vault"), or a Heist on it succeeded (Alternate Play Rule)."""
    seat: int
    vault: int


@dataclass(frozen=True)
class QuarantineLocked(Outcome):
    """Seat ``seat`` played a Quarantine Lock on their own vault ``vault`` (both 0-based): it is locked at once
    ("Quarantine Lock": "Play on an unlocked Vault you control to flip over its lock card immediately")."""
    seat: int
    vault: int


@dataclass(frozen=True)
class QuarantineLifted(Outcome):
    """The Quarantine Lock on seat ``seat``'s vault ``vault`` (both 0-based) is discarded ("Quarantine Lock": "If
    you withdraw candy before the lock number is exceeded you must discard this card and unlock. Once the lock
    number is met you may discard this card."). ``locked``: the lock number was met and the vault stays locked;
    otherwise candy left it (taken, emptied or combined away) and it is no longer locked by the card. A Safe
    Cracker that discards it is a :class:`SafeCracked` instead."""
    seat: int
    vault: int
    locked: bool


@dataclass(frozen=True)
class SafeCracked(Outcome):
    """Seat ``cracker`` played a Safe Cracker on seat ``seat``'s locked vault ``vault`` (all 0-based): it is
    unlocked ("Safe Cracker": "Unlock another player's locked Vault (or discard Quarantine Lock card)");
    ``quarantine``: what locked it was a Quarantine Lock, now discarded."""
    cracker: int
    seat: int
    vault: int
    quarantine: bool = False


@dataclass(frozen=True)
class CardPlayed(Revealed):
    """A Battle Card came face up (played, or drawn in a Battle Royale and played)."""
    seat: int
    card: str

    def cards(self) -> tuple[str, ...]:
        return (self.card,)


@dataclass(frozen=True)
class HeistOver(Outcome):
    """A Heist by seat ``attacker`` on seat ``target`` (both 0-based) is decided: ``won`` when the attacker won
    the flips (the haul follows); lost to a Mom, to the target's flips, or a duel called off ("Option 1: Heist")."""
    attacker: int
    target: int
    won: bool


@dataclass(frozen=True)
class Flipped(Revealed):
    """A card flipped face up from the Battle Draw Pile in a duel (Heist, Crib Fight):
    the table has seen it, so neither it nor the Mom decision before it is taken back."""
    seat: int
    card: str

    def cards(self) -> tuple[str, ...]:
        return (self.card,)


@dataclass(frozen=True)
class FinalReveal(Revealed):
    """The end: every hidden Battle Card is shown (Grandma counts)."""
    held: Any = None
