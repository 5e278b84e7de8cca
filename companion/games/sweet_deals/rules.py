"""Sweet Deals rules: deal, offer, bidding, ties, swaps, Grab & Go, Bake Sale, Close
Early, Sweet Six and the score (../shared/rulebooks/sweet-deals.txt).

Pure: no I/O, no pygame; imports only ``companion.core``, this game's modules and the
standard library. ``check(state, action)`` raises :class:`IllegalAction` and changes
nothing (:mod:`.checks`, one rule per action); ``apply`` trusts its caller and returns
``(new_state, events)`` (:mod:`.turns`, one handler per action); ``step`` does both.
Seats are 0-based.

Two ways to play (option ``mode``):

``tracked``
    Each player scans their 7 cards privately at the start; from then on every card
    that changes hands is scanned, so the companion checks each bid against the
    bidder's hand and each swap against the bid, spots Sweet Six the moment it happens
    and scores without rescanning. Hands are secret: :func:`public_view` for the table
    shows only how many cards each player holds.
``open``
    Nothing is scanned until the end: the companion runs the auction, the bake sales
    and the votes, and at the end each player scans their hand for scoring.

>>> s = new_game(["Ana", "Ben"], mode="open")
>>> s, _ = step(s, Offer(0, "Donut"))
>>> s, ev = step(s, Bid(1, 2))
>>> s.phase, s.active, ev[0].message
('offer', 1, 'Ben bids 2. Ben wins with a bid of 2: Ana and Ben, swap your cards secretly.')
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable

from companion.core.game import Rules as CoreRules
from companion.core.errors import IllegalAction  # noqa: F401  (refusals are IllegalAction: part of the rules API)
from companion.core.events import Outcome
from companion.core.game import TABLE, Result

from . import scoring
from .parts.cards import CARDS, HAND_SIZE, HYBRID_DEFAULT, deck_for, removed_for
from .state import (  # noqa: F401  (part of the rules API)
    MODES, DEAL, OFFER, VOTE, BID, REVEAL, CHOOSE, SWAP, DISCARD, DRAW, BAKE_DRAW, BAKE_DISCARD,
    BAKE_TAKE, BAKE_GRAB, SCORE, OVER, SWEET_SIX_END, CLOSED_EARLY, Bake, State, HandCard, Offer,
    Bid, Pass, Grab, Reveal, Choose, SwapCard, FaceUp, Draw, StartBakeSale, Done, Take, GrabCard,
    AskClose, Vote, ShoutSweetSix, Action, Said, ShownFaceUp, HandsShown,
)
from .parts.checks import check  # noqa: F401  (part of the rules API)
from .parts.turns import HANDLERS as _HANDLERS
from .parts.turns import final_result
from .messages import say

# ---------------------------------------------------------------- set-up

def new_game(players: Iterable[str], mode: str = "tracked", hybrid: str | None = None, **options: Any) -> State:
    """A new game for 2 to 8 ``players`` in seat order, the first to play first
    ("whoever most recently ate a donut"). ``mode`` is ``tracked`` or ``open``;
    ``hybrid`` ``card`` (each hybrid as its card says), or the house rule ``and`` or
    ``or`` for every hybrid (None: cards.toml's ``hybrid``, ``card``). Raises ValueError."""
    names = tuple(str(p).strip() for p in players)
    if not 2 <= len(names) <= 8:
        raise ValueError(say("setup_players", players=len(names)))
    if any(not n for n in names) or len(set(names)) != len(names):
        raise ValueError(say("every_player_needs_different"))
    if options:
        raise ValueError(say("sweet_deals_has_no", next=next(iter(options))))
    if mode not in MODES:
        raise ValueError(say("mode_must_be_one", names=', '.join(MODES), mode=mode))
    hybrid = hybrid or HYBRID_DEFAULT
    if hybrid not in scoring.HYBRID_MODES:
        raise ValueError(say("setup_bad_hybrid", names=', '.join(scoring.HYBRID_MODES), hybrid=hybrid))
    n = len(names)
    deck_for(n)  # raises for a count no deck is listed for
    return State(names, mode, hybrid, ((),) * n, (False,) * n, DEAL if mode == "tracked" else OFFER,
                 open_deck=0 if mode == "tracked" else len(deck_for(n)) - n * HAND_SIZE)


def setup_message(state: State) -> str:
    """What the dealer does first (rulebook, "Setup")."""
    gone = [say("all_7_cards", dessert=g) if g in scoring.DESSERTS else say("the_card", card=g)
            for g in removed_for(len(state.players))]
    if not gone:
        return say("shuffle_and_deal", cards=len(state.deck))
    said = ", ".join(gone[:-1]) + say("sep_and") + gone[-1] if len(gone) > 1 else gone[0]
    return say("take_out_shuffle_and_deal", gone=said, cards=len(state.deck))


def setting_up(state: State) -> bool:
    """True before the first card is dealt (tracked) or the first move (open): the
    dealer still needs :func:`setup_message`."""
    if state.tracked:
        return state.phase == DEAL and not any(state.hands)
    return state.phase == OFFER and state.turn == 1 and not any(state.bake_used) and not state.close_refused


# ---------------------------------------------------------------- check / apply

def apply(state: State, action: Action) -> tuple[State, list[Outcome]]:
    """The state after ``action`` and what happened, by the rulebook section its handler
    in :mod:`.turns` names. Trusts its caller: ``action`` has passed :func:`check`."""
    return _HANDLERS[type(action)](state, action)


def step(state: State, action: Action) -> tuple[State, list[Outcome]]:
    """``check`` then ``apply``: raises :class:`IllegalAction` and changes nothing when
    ``action`` is not allowed now."""
    check(state, action)
    return apply(state, action)


# ---------------------------------------------------------------- the end

def result(state: State) -> Result | None:
    """The final :class:`Result` once the game is over, else None."""
    return final_result(state)


def counters(view: State) -> dict[str, int]:
    """The pile the table counts, for the text log: the face-down deck (tracked hands
    only; with open hands the companion does not know what the hands hold)."""
    return {say("pile_deck"): view.draw_count} if view.tracked else {}


def public_view(state: State, viewer: Any) -> State:
    """``state`` as ``viewer`` may see it: the table (:data:`TABLE`) sees how many cards
    each hand holds ("?" per card) but no card in it, and no face-down swap or draw;
    a seat sees its own hand too. After the game everything is shown."""
    if state.over or not state.tracked:
        return state
    mine = viewer if isinstance(viewer, int) and viewer != TABLE else None
    hands = tuple(h if i == mine else ("?",) * len(h) for i, h in enumerate(state.hands))
    shown = {code for _, code in state.shown}
    give = state.give if state.give is None or state.active == mine else "?"
    take = state.take if state.take is None or state.take in shown or state.winner == mine else "?"
    return replace(state, hands=hands, give=give, take=take)


def score_holdings(holdings: list[tuple[str, list[str]]], hybrid: str | None = None) -> Result:
    """Score hands given as ``[(name, [code, ...]), ...]`` (``companion score``): each
    exactly 7 cards, no card in two hands. Raises ValueError naming the player."""
    if not holdings:
        raise ValueError(say("no_hands_to_score"))
    seen: dict[str, str] = {}
    hands = []
    for name, codes in holdings:
        hand = []
        for raw in codes:
            try:
                code = _card(raw).code
            except ValueError as exc:
                raise ValueError(say("player_problem", name=name, problem=exc)) from None
            if code in seen:
                raise ValueError(say("also_hand", name=name, card=CARDS[code].name, code=code, seen=seen[code]))
            seen[code] = name
            hand.append(code)
        if len(hand) != HAND_SIZE:
            raise ValueError(say("score_hand_size", name=name, hand_size=HAND_SIZE, n=len(hand)))
        hands.append(hand)
    return scoring.result_of([n for n, _ in holdings], hands, hybrid or HYBRID_DEFAULT)


def _card(raw: str):
    from .parts.cards import card
    return card(raw)



def bidder(view: State) -> int | None:
    """The seat the auction waits on for a bid, else None (Sweet Deals rulebook, "On Your Turn", 2. Bidding)."""
    return view.bidding.to_act if view.bidding is not None else None

class SweetDealsRules(CoreRules[State]):
    """Sweet Deals's rules as the table's contract, :class:`companion.core.game.Rules` (rulebooks/sweet-deals.txt)."""

    new_game = staticmethod(new_game)
    check = staticmethod(check)
    apply = staticmethod(apply)
    step = staticmethod(step)
    result = staticmethod(result)
    public_view = staticmethod(public_view)
    counters = staticmethod(counters)
    score_holdings = staticmethod(score_holdings)
    bidder = staticmethod(bidder)


#: The one SweetDealsRules, which the descriptor's loader gives.
RULES = SweetDealsRules()
