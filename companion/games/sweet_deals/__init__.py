"""Sweet Deals: offer desserts, bid coins, swap cards and collect sets; Bake Sales and
Sweet Six (rulebooks/sweet-deals.txt). ``rules`` is the API; ``turns`` what each action
does, ``auction`` the bidding, ``scoring`` the score with the best use of every wild."""

from companion.core.game import Game, Option

GAME = Game(
    slug="sweet-deals",
    name="Sweet Deals",
    prefix="SD",
    min_players=2,
    max_players=8,
    package=__name__,
    options=(
        Option("mode", "choice", "tracked: every hand is scanned at the start and every swap after, "
               "so hands stay secret and are checked; open: hands are scanned only at the end",
               "tracked", ("tracked", "open")),
        Option("hybrid", "choice", "a hybrid card counts as both its desserts (and, the rulebook's "
               "example) or as one of them (or); default from cards.toml", None, ("and", "or")),
    ),
    demo="sweet-deals-family.trace",
    new_game_message="New game of Sweet Deals: take out the cards the screen lists, then deal 7 cards each.",
    summary="offer desserts, bid coins and swap cards to collect sets of the same dessert",
)
