"""Sugar Heist: stash candy pairs in vaults, swap, buy Battle Cards, heist and steal
(rulebooks/sugar-heist.txt). ``rules`` is the game (split into ``checks``, what each
action may do, and ``vaults``, ``turns``, ``battle``, ``effects``, what it does; ``reasons``,
``scoring``), ``flow`` reads the table, ``screen`` draws the vault board."""

from companion.core.game import Game, Option
from .messages import say

GAME = Game(
    slug="sugar-heist",
    name=say("game_name"),
    prefix="SH",
    min_players=2,
    max_players=4,
    package=__name__,
    options=(
        Option("all_cards", "bool", say("option_all_cards"), False),
        Option("alternate", "bool", say("option_alternate"), False),
    ),
    demo="sugar-heist-family.trace",
    tie_break=lambda breakdown: breakdown["candy"],  # most candy stashed (docs/rules-notes.md)
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
