"""Sugarrr!: play fruit onto columns, gather them or attract Fruit-O-Saurs (rulebooks/sugarrr.txt)."""

from companion.core.game import Flow, Game, Rules, Screen

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
    slug="sugarrr",
    name="Sugarrr!",
    prefix="SR",
    min_players=2,
    max_players=4,
    load_rules=_rules,
    load_flow=_flow,
    load_screen=_screen,
    load_messages=_messages,
    load_why=_why,
    load_quickstart=_quickstart,
    load_cards=_cards,
    demo="sugarrr-family.trace",
    tie_break=lambda breakdown: breakdown["fruit_o_saur_cards"],  # most Fruit-O-Saur cards (rulebook, "Scoring")
    # "Shuffle the Fruit cards and form the Fruit Deck", "keep your hand of cards hidden":
    # Fruit and Fruit Salad cards are face down; Fruit-O-Saurs "are always public knowledge".
    hidden_kinds=frozenset({"fruit", "salad"}),
    new_game_message="New game: scan the five starting column cards.",
    summary="play fruit cards onto columns; gather fruit or attract Fruit-O-Saurs",
    # Each fruit's colour, the letter of its card codes, and a shape that differs in
    # outline, so a colour-blind player tells them apart; None is Fruit Salad.
    look={
        "Strawberry": ((240, 60, 70), "S", "circle"),
        "Grapes": ((180, 100, 255), "G", "square"),
        "Apricots": ((255, 150, 40), "A", "triangle"),
        "Blueberries": ((80, 160, 255), "B", "diamond"),
        "Pineapple": ((255, 225, 50), "Pi", "hexagon"),
        "Pear": ((120, 220, 80), "Pe", "pentagon"),
        None: ((235, 235, 235), "F", "star"),
    },
)
