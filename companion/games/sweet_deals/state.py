"""Sweet Deals state, actions and events: the nouns the rules work with.

Frozen dataclasses only; :mod:`.rules` is the API, :mod:`.turns` the rules themselves.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.game import State as CoreState
from companion.core.events import Outcome, Revealed

from .parts.auction import Bidding
from .parts.cards import deck_for

MODES = ("tracked", "open")

# Phases.
DEAL = "deal"              # tracked: each player scans their 7 cards
OFFER = "offer"            # start of a turn: offer a dessert, start a Bake Sale or ask to Close Early
VOTE = "vote"              # the table votes on closing early
BID = "bid"                # bidding on the offered dessert
REVEAL = "reveal"          # tracked: the tied bidders scan the card they bid, face up
CHOOSE = "choose"          # the offering player picks one tied bidder's card
SWAP = "swap"              # tracked: the two cards being swapped are scanned, face down
DISCARD = "discard"        # tracked: everyone passed; the offered card goes face up
DRAW = "draw"              # tracked: ... and a new card is drawn
BAKE_DRAW = "bake-draw"    # tracked: the Bake Sale's first draw
BAKE_DISCARD = "bake-discard"  # a card goes face up
BAKE_TAKE = "bake-take"    # the next player takes the face-up card or passes
BAKE_GRAB = "bake-grab"    # tracked: a Grab & Go is scanned onto the discard pile
SCORE = "score"            # open: each player scans their hand for scoring
OVER = "over"

SWEET_SIX_END = "sweet-six"
CLOSED_EARLY = "closed-early"


@dataclass(frozen=True)
class Bake:
    """A Bake Sale under way (rulebook, "Bake Sale"). ``starter`` started it; ``holder``
    is the player who draws or puts a card face up next; ``top_owner`` put the face-up
    card there; ``decider`` takes it or passes next; ``passes`` who passed on it;
    ``grabber`` who is putting a Grab & Go face up (tracked)."""

    starter: int
    holder: int
    top_owner: int | None = None
    decider: int | None = None
    passes: tuple[int, ...] = ()
    grabber: int | None = None


# ---------------------------------------------------------------- state

@dataclass(frozen=True)
class State(CoreState):
    """A whole Sweet Deals game as the companion knows it. Cards are codes.

    ``hands`` each seat's cards (tracked: from the deal on; open: scanned at the end);
    ``discards`` the face-up pile, bottom to top (tracked). ``offer`` is the name
    offered this turn; ``bidding`` the auction; ``tied`` the tied high bidders and
    ``shown`` the cards they revealed; ``winner`` and ``price`` who swaps and for how
    many coins (``grab``: a Grab & Go swap); ``give`` and ``take`` the two swap cards
    scanned so far. ``bake_used`` each seat's one Bake Sale; ``voters`` who is still to
    vote on closing early; ``ended`` why the game ended; ``six`` (seat, dessert) of a
    Sweet Six (open hands: dessert None while the shout is being checked). ``claim`` is,
    with open hands, the game as it was when "Sweet Six!" was shouted: where play goes on
    if the shouter's hand has no 6 of a kind (None when no shout is being checked).
    ``open_deck`` and ``open_face_up``: with open hands, how many cards the face-down deck
    and the face-up pile hold, counted from the draws and discards the table is told to
    make (tracked hands count the scanned cards instead: :attr:`draw_count`).
    """

    players: tuple[str, ...]
    mode: str
    hybrid: str
    hands: tuple[tuple[str, ...], ...]
    bake_used: tuple[bool, ...]
    phase: str
    active: int = 0
    turn: int = 1
    discards: tuple[str, ...] = ()
    offer: str | None = None
    bidding: Bidding | None = None
    tied: tuple[int, ...] = ()
    shown: tuple[tuple[int, str], ...] = ()
    winner: int | None = None
    price: int | None = None
    grab: bool = False
    give: str | None = None
    take: str | None = None
    bake: Bake | None = None
    voters: tuple[int, ...] = ()
    close_refused: bool = False
    ended: str | None = None
    six: tuple[int, str | None] | None = None
    claim: State | None = None
    open_deck: int = 0
    open_face_up: int = 0

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def deck(self) -> tuple[str, ...]:
        """The codes of the cards in play for this many players (rulebook, "Setup")."""
        return deck_for(len(self.players))

    @property
    def tracked(self) -> bool:
        return self.mode == "tracked"

    def name(self, seat: int) -> str:
        return self.players[seat]

    def holder(self, code: str) -> int | None:
        """The seat whose hand holds ``code``, or None."""
        return next((i for i, h in enumerate(self.hands) if code in h), None)

    @property
    def draw_pile(self) -> tuple[str, ...]:
        """Tracked: the cards neither in a hand nor face up (the face-down deck)."""
        used = set(self.discards).union(*self.hands)
        return tuple(c for c in self.deck if c not in used)

    @property
    def draw_count(self) -> int:
        """Tracked: how many cards are in the face-down deck (works on a table view too)."""
        return len(self.deck) - sum(len(h) for h in self.hands) - len(self.discards)

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % len(self.players)


# ---------------------------------------------------------------- actions

@dataclass(frozen=True)
class HandCard:
    """A card of ``seat``'s hand, scanned at the deal (tracked) or for scoring (open)."""
    seat: int
    card: str


@dataclass(frozen=True)
class Offer:
    """The active player offers a dessert by name (rulebook, "On Your Turn", step 1)."""
    seat: int
    label: str


@dataclass(frozen=True)
class Bid:
    """``seat`` bids ``coins`` (0 to 5) on the offered dessert."""
    seat: int
    coins: int


@dataclass(frozen=True)
class Pass:
    """``seat`` passes: on a bid, or on the face-up card of a Bake Sale."""
    seat: int


@dataclass(frozen=True)
class Grab:
    """``seat`` plays Grab & Go, interrupting the bidding or a Bake Sale."""
    seat: int


@dataclass(frozen=True)
class Reveal:
    """A tied bidder's card, scanned face up for everyone to see."""
    seat: int
    card: str


@dataclass(frozen=True)
class Choose:
    """The offering player takes the card of tied bidder ``seat``."""
    seat: int


@dataclass(frozen=True)
class SwapCard:
    """One of the two cards of a swap, scanned face down by the player giving it."""
    seat: int
    card: str


@dataclass(frozen=True)
class FaceUp:
    """A card put face up on the discard pile (everyone passed, or a Bake Sale)."""
    seat: int
    card: str


@dataclass(frozen=True)
class Draw:
    """A card drawn from the deck, scanned face down."""
    seat: int
    card: str


@dataclass(frozen=True)
class StartBakeSale:
    """The active player starts their one Bake Sale (rulebook, "Bake Sale")."""
    seat: int


@dataclass(frozen=True)
class Done:
    """Open hands: the player has drawn and put a card face up (Bake Sale step 2)."""
    seat: int


@dataclass(frozen=True)
class Take:
    """``seat`` takes the face-up card of the Bake Sale."""
    seat: int


@dataclass(frozen=True)
class GrabCard:
    """Tracked: the Grab & Go a Bake Sale grabber puts face up, scanned."""
    seat: int
    card: str


@dataclass(frozen=True)
class AskClose:
    """The active player asks to Close Early at the start of their turn."""
    seat: int


@dataclass(frozen=True)
class Vote:
    """``seat`` votes yes or no on closing early."""
    seat: int
    yes: bool


@dataclass(frozen=True)
class ShoutSweetSix:
    """Open hands: ``seat`` shouts "Sweet Six!"."""
    seat: int


Action = (HandCard | Offer | Bid | Pass | Grab | Reveal | Choose | SwapCard | FaceUp | Draw | StartBakeSale
          | Done | Take | GrabCard | AskClose | Vote | ShoutSweetSix)


# ---------------------------------------------------------------- events

@dataclass(frozen=True)
class Said(Outcome):
    """Something happened; ``message`` says what, naming no hidden card."""


@dataclass(frozen=True)
class ShownFaceUp(Revealed):
    """``card`` is now face up for everyone (a tie reveal, a discard)."""
    card: str = ""

    def cards(self) -> tuple[str, ...]:
        return (self.card,)


@dataclass(frozen=True)
class HandsShown(Revealed):
    """The game is over: every hand is shown and scored."""
