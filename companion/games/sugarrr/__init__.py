"""Sugarrr!: play fruit onto columns, gather them or attract Fruit-O-Saurs (rulebooks/sugarrr.txt)."""

from companion.core.game import Game

GAME = Game(
    slug="sugarrr",
    name="Sugarrr!",
    prefix="SR",
    min_players=2,
    max_players=4,
    package=__name__,
    demo="sugarrr-family.trace",
    tie_break=lambda breakdown: breakdown["fruit_o_saur_cards"],  # most Fruit-O-Saur cards (rulebook, "Scoring")
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
