"""Sweet Deals: offer desserts, bid coins, swap cards and collect sets; Bake Sales and
Sweet Six (rulebooks/sweet-deals.txt). ``rules`` is the API; ``checks`` whether each
action is allowed, ``turns`` what it does, ``auction`` the bidding, ``scoring`` the score
with the best use of every wild."""

from companion.core.game import Flow, Game, Option, Rules, Screen
from .messages import say

# The game's parts, each imported on first use (Game.rules, .flow, .screen, ...): a
# command that only lists cards imports no rules, and only a table imports pygame.

def _rules() -> Rules:
    from .rules import RULES
    return RULES


def _flow() -> Flow:
    from .flow import FLOW
    return FLOW


def _screen() -> Screen:
    from .screen import SCREEN
    return SCREEN


def _messages() -> dict:
    from . import messages
    return vars(messages)


def _cards() -> dict:
    from .parts.cards import CARDS
    return CARDS


def _quickstart() -> dict:
    """The printed quick-start card's words (parts/quickstart.toml)."""
    import tomllib
    from importlib import resources
    text = resources.files(__package__).joinpath("parts").joinpath("quickstart.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def _why() -> dict:
    """The rulebook sentence behind each refusal (parts/why.toml: companion.core.why)."""
    from importlib import resources
    from companion.core.why import parse
    return parse(resources.files(__package__).joinpath("parts").joinpath("why.toml").read_text(encoding="utf-8"))


GAME = Game(
    slug="sweet-deals",
    name=say("game_name"),
    prefix="SD",
    min_players=2,
    max_players=8,
    load_rules=_rules,
    load_flow=_flow,
    load_screen=_screen,
    load_messages=_messages,
    load_why=_why,
    load_quickstart=_quickstart,
    load_cards=_cards,
    options=(
        Option("mode", "choice", say("option_mode"),
               "tracked", ("tracked", "open"), labels=(("tracked", say("mode_tracked")), ("open", say("mode_open")))),
        # None and "card" are the same reading (the usual): one button for both.
        Option("hybrid", "choice", say("option_hybrid"), None, ("card", "and", "or"),
               labels=((None, say("hybrid_card")), ("and", say("hybrid_and")), ("or", say("hybrid_or")))),
    ),
    demo="sweet-deals-family.trace",
    setup_phases=("deal",),
    # "Deal each player 7 Dessert Cards facedown", "Secretly swap": every card, in both
    # modes (the sticker is the same whether the table tracks hands or not).
    hidden_kinds=frozenset({"dessert", "wild", "hybrid", "grab", "mochi"}),
    tie_break=lambda breakdown: breakdown["coins"],  # most coins (rulebook, "Continue Play")  # tracked: each player scans their 7 cards before the first turn
    new_game_message=say("new_game"),
    summary=say("summary"),
)
