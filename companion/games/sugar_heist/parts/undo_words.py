"""What an Undo takes back in Sugar Heist, in the cards' own words ("Undo {words}?"):
the flow's :meth:`~companion.core.game.Flow.undo_words`. Never asked for a hidden card
(the session says only whose it was); a Battle Card bought is never named (it is bought
face down: "Battle Cards are kept face down in front of you", Phase 3), nor the cards of
a swap (they go into hands)."""

from __future__ import annotations

from ..messages import count, listing, say
from ..state import (BuyBattle, BuyVault, CantStash, Combine, Declare, Done, Flip, Join, NewVault, Place, Play,
                     Reveal, SetPile, Stash, State, Take, Target, Trade, Withdraw)
from .cards import CARDS


def style_words(style: str) -> str:
    """A played card's style, as its card calls it (Heist, Steal, Night Raid, ...)."""
    return {"heist": say("undo_style_heist"), "steal": say("undo_style_steal"), "raid": say("undo_style_raid"),
            "lock": say("undo_style_lock"), "crack": say("undo_style_crack"), "spy": say("undo_style_spy"),
            "timeout": say("undo_style_timeout"), "take": say("undo_style_take")}.get(style, style)


def undo_words(before: State, item, action, events: tuple) -> str | None:
    """The words for an Undo of ``action`` (made from ``before``, the table's view):
    "Ana's stash of Lucky Sucky and Lucky Sucky onto vault 2". None: the table's words."""
    if action is None:
        return None
    who = before.players[before.active]
    name = lambda code: CARDS[code].name  # noqa: E731
    if isinstance(action, Stash):
        names = [name(c) for c in action.cards]
        cards = say("undo_pair", card=names[0]) if len(set(names)) == 1 else listing(names)
        return say("undo_stash", who=who, cards=cards, vault=action.vault + 1)
    if isinstance(action, Combine):
        return say("undo_combine", who=who, source=action.source + 1, target=action.target + 1)
    if isinstance(action, Trade):
        return say("undo_trade", who=who, cards=count(len(action.moves), "card"))
    if isinstance(action, BuyBattle):
        return say("undo_buy_battle", who=who, pay=name(action.pay))
    if isinstance(action, BuyVault):
        return say("undo_buy_vault", who=who, pay=name(action.pay))
    if isinstance(action, Target):
        return say("undo_target", who=who, style=style_words(action.style),
                   target=before.players[action.seat])
    if isinstance(action, (Take, Join)):
        seat = action.seat if action.seat is not None else before.active
        return say("undo_take", who=before.players[seat], card=name(action.card))
    if isinstance(action, Place):
        return say("undo_place_hand", who=who) if action.vault is None else \
            say("undo_place", who=who, vault=action.vault + 1)
    simple = {CantStash: "undo_cant_stash", Done: "undo_done", Withdraw: "undo_withdraw", NewVault: "undo_new_vault"}
    if type(action) in simple:
        return say(simple[type(action)], who=who)
    carded = {Reveal: "undo_reveal", Flip: "undo_flip", Play: "undo_play"}
    if type(action) in carded:
        return say(carded[type(action)], who=who, card=name(action.card))
    if isinstance(action, Declare):
        return say("undo_declare", who=who, flavour=action.flavour)
    if isinstance(action, SetPile):
        return say("undo_pile", n=action.count)
    return None
