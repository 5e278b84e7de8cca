"""Sugar Heist: stash candy pairs in vaults, swap, buy Battle Cards, heist and steal
(rulebooks/sugar-heist.txt). ``rules`` is the game (split into ``checks``, what each
action may do, and ``vaults``, ``turns``, ``battle``, ``effects``, what it does; ``reasons``,
``scoring``), ``flow`` reads the table, ``screen`` draws the vault board."""

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
    slug="sugar-heist",
    name=say("game_name"),
    prefix="SH",
    min_players=2,
    max_players=4,
    load_rules=_rules,
    load_flow=_flow,
    load_screen=_screen,
    load_messages=_messages,
    load_why=_why,
    load_quickstart=_quickstart,
    load_cards=_cards,
    options=(
        # Only 2 players take cards out (rulebook, "Setup"): with more it changes nothing.
        Option("all_cards", "bool", say("option_all_cards"), False, players=(2, 2)),
        Option("alternate", "bool", say("option_alternate"), False),
    ),
    demo="sugar-heist-family.trace",
    tie_break=lambda breakdown: breakdown["candy"],  # most candy stashed (docs/rules-notes.md)
    # Candy Cards: a face-down Candy Draw Pile and a hand; Battle Cards: "kept face down in
    # front of you"; Vault Cards are only ever "face up" (Game Setup, step 3).
    hidden_kinds=frozenset({"candy", "attack", "action", "event", "defense"}),
    new_game_message=say("new_game"),
    summary=say("summary"),
    # Each flavour's colour, the letter of its card codes and a shape, so a colour-blind
    # player tells them apart; Pure Sugar is the white star.
    look={
        "Nutty Butt": ((205, 150, 90), "N", "square"),
        "Chocolate Rockets": ((240, 80, 80), "C", "circle"),
        "Lucky Suckys": ((80, 205, 120), "L", "triangle"),
        "Fruity Booty": ((255, 150, 40), "F", "diamond"),
        "Gummy Grubs": ((90, 170, 255), "G", "hexagon"),
        "Sour Bombs": ((235, 225, 60), "S", "pentagon"),
        "Pure Sugar": ((235, 235, 235), "P", "star"),
    },
)
