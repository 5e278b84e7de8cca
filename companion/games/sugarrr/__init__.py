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
    new_game_message="New game: scan the five starting column cards.",
    summary="play fruit cards onto columns; gather fruit or attract Fruit-O-Saurs",
)
