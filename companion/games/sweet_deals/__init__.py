"""Sweet Deals: offer desserts, bid coins, swap cards and collect sets; Bake Sales and
Sweet Six (rulebooks/sweet-deals.txt). ``rules`` is the API; ``checks`` whether each
action is allowed, ``turns`` what it does, ``auction`` the bidding, ``scoring`` the score
with the best use of every wild."""

from companion.core.game import Game, Option
from .messages import say

GAME = Game(
    slug="sweet-deals",
    name=say("game_name"),
    prefix="SD",
    min_players=2,
    max_players=8,
    package=__name__,
    options=(
        Option("mode", "choice", say("option_mode"),
               "tracked", ("tracked", "open")),
        Option("hybrid", "choice", say("option_hybrid"), None, ("card", "and", "or")),
    ),
    demo="sweet-deals-family.trace",
    setup_phases=("deal",),
    tie_break=lambda breakdown: breakdown["coins"],  # most coins (rulebook, "Continue Play")  # tracked: each player scans their 7 cards before the first turn
    new_game_message=say("new_game"),
    summary=say("summary"),
)
