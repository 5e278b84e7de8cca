"""Sugar Blast: swap candies on a tray to make Blasts, tilt, refill, meet the Goal Card
(rulebooks/sugar-blast.txt). ``board`` is the board geometry, ``rules`` the game."""

from companion.core.game import Flow, Game, Option, Rules, Screen

from .messages import say

#: The Goal Cards (cards.toml ``[[goal]]``), named here so the CLI can offer them
#: without importing the rules.
GOAL_NAMES = ("two-threes", "two-twos-and-a-three", "five-different", "four-and-two", "four-twos", "nine-any")

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


def _hint(board: str, as_json: bool = False) -> str:
    from .parts.hint import main
    return main(board, as_json=as_json)


def _goal_told(goal: str) -> str:
    """A Goal Card in its printed words (cards.toml), as a table drawn one is told it."""
    from .rules import GOALS
    return say("final_goal_card", goal=GOALS[goal]["text"])


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
    slug="sugar-blast",
    name="Sugar Blast",
    prefix="SB",
    min_players=1,
    max_players=4,
    load_rules=_rules,
    load_flow=_flow,
    load_screen=_screen,
    load_messages=_messages,
    load_why=_why,
    load_quickstart=_quickstart,
    load_hint=_hint,
    options=(
        # No Goal Card in solo ("Solo-Mode Rules"), and solo is one player: the count decides it.
        Option("goal", "choice", say("option_goal"), None, GOAL_NAMES, blank="random", players=(2, 4),
               labels=((None, say("goal_random")), *((g, say("goal_" + g)) for g in GOAL_NAMES)), told=_goal_told),
        Option("solo", "bool", say("option_solo"), False, by_players=lambda n: n == 1),
        Option("quick", "bool", say("option_quick"), False),
    ),
    demo="sugar-blast-family.trace",
    new_game_message="New game: tap a candy colour, then the cells that hold it.",
    summary="its candies are entered by touch on the screen, so there is nothing to scan or label",
    # Each candy's colour, letter and a shape of its own (the letter is for colour-blind players).
    look={
        "R": ((235, 64, 64), "R", "circle"),
        "O": ((255, 145, 40), "O", "square"),
        "Y": ((250, 220, 50), "Y", "triangle"),
        "G": ((80, 200, 90), "G", "diamond"),
        "B": ((80, 150, 255), "B", "hexagon"),
        "P": ((190, 110, 245), "P", "star"),
    },
)
