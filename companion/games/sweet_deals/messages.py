"""Every message a Sweet Deals player can see, in one place (issues 9 and 13).

The rules, the flow and the screen say things only through :func:`say`, so the words a
child reads are checked together by ``tests/test_messages.py``: no "1 cards", no
"0 candies", and no player-visible string left inline in the game's modules. A number
of things is passed through :func:`count` ("no cards", "1 card", "3 cards"), never put
in front of a plural by a template. Templates use ``str.format`` names, so a
translation (gettext, keyed by the English text) may reorder the fields.

>>> say("prompt_reveal", name="Ana", coins=count(1, "coin"))
'Ana: show the card you bid (1 coin) and scan it, or tap Pass if you have none.'
>>> count(0, "card"), count(3, "coin")
('no cards', '3 coins')
"""

from __future__ import annotations

# count and listing are this game's words too: its modules import them from here.
from companion.core.i18n import _, count, listing, template_fields  # noqa: F401


#: key -> template. Fields: ``name``/``who``/``winner``/``bidder``/``holder`` a player's
#: name, ``offer``/``label``/``dessert`` a dessert's name, ``card`` a card's name, ``price``
#: and ``high`` bids in coins, ``names`` a list already joined (:func:`listing`), and
#: counts already in words (``cards``, ``coins``: from :func:`count`).
TEXT: dict[str, str] = {
    # choosing the game (the start screen) (__init__.py)
    "option_mode": _("Hands: tracked (scanned at the start and after every swap: secret and checked) or "
                   "open (scanned only at the end)"),
    "option_hybrid": _("Hybrid cards count as each card says (card), or all as both desserts (and) or all "
                     "as one of them (or); Usual is card"),
    # cards.toml problems (set-up errors) (parts/cards.py)
    "setup_players": _("Sweet Deals is for 2 to 8 players, not {players}."),
    "cards_toml_gives_two": _("cards.toml gives two cards the same code"),
    "cards_toml_hybrid_names": _("cards.toml: hybrid {name} names an unknown dessert"),
    "cards_toml_hybrid_counts": _("cards.toml: hybrid {name} needs counts = \"and\" or \"or\", not {counts!r}"),
    "cards_toml_deck_for": _("cards.toml: the deck for {players} players has {cards} cards, not {deck}"),
    # the game's own refusals, what is awaited, the end (rules.py)
    "shuffle_and_deal": _("Shuffle the {cards} cards and deal 7 to each player."),
    "take_out_shuffle_and_deal": _("Take out {gone}. Shuffle the {cards} cards and deal 7 to each player."),
    "no_hands_to_score": _("no hands to score"),
    "player_problem": _("{name}: {problem}"),
    "every_player_needs_different": _("Every player needs a different name."),
    "sweet_deals_has_no": _("Sweet Deals has no option {next!r}."),
    "mode_must_be_one": _("mode must be one of {names}, not {mode!r}"),
    "setup_bad_hybrid": _("hybrid must be one of {names}, not {hybrid!r}"),
    "all_7_cards": _("all 7 {dessert} cards"),
    "the_card": _("the {card}"),
    "there_no_seat_are": _("There is no seat {seat}: {players} are playing."),
    "i_dont_know_what": _("I don't know what {name} means in Sweet Deals."),
    "score_hand_size": _("{name}: a Sweet Deals hand is exactly {hand_size} cards, not {n}"),
    "also_hand": _("{name}: {card} ({code}) is also in {seen}'s hand"),
    # the auction: offers and bids (parts/auction.py)
    "bidding_over": _("The bidding is over."),
    "not_your_turn_bid": _("It is not your turn to bid."),
    "bid_0_coins": _("A bid is 0 to {max_bid} coins."),
    "high_bid_bid_more": _("The high bid is {high}: bid {high} or more, or pass."),
    "you_already_bid_raise": _("You already bid {high}: raise, or pass to keep your bid."),
    "bidding_with_nobody_bid": _("bidding with nobody to bid"),
    # a turn: stash, reveal, swap, buy, discard (parts/turns.py)
    "plays_grab_go_for": _("{name} plays Grab & Go for the {offer}!"),
    "passes_name": _("{name} passes."),
    "bids": _("{name} bids {bid}."),
    "keeps_bid": _("{name} keeps the bid of {high}."),
    "show_bid_card": _("show the card you bid ({coins})."),
    "takes_name_card": _("{name} takes the {card}."),
    "takes_card": _("{name} takes the card."),
    "scan_your_grab_go": _("scan your Grab & Go."),
    "that_card_not_hand": _("That card is not in {name}'s hand: {what}"),
    "turn_name": _("{name}'s turn."),
    "everyone_scan_your_7": _("Everyone: scan your 7 cards for scoring, {first} first."),
    "that_card_not_used": _("That card is not used with {players} players: put it back in the box."),
    "that_card_already_hand": _("That card is already in a hand: scan another card."),
    "already_has_cards": _("{name} already has {hand_size} cards."),
    "card_for": _("{named}card {k} of {hand_size} for {name}."),
    "every_hand_plays_first": _("Every hand is in. {name} plays first."),
    "turn_offer": _("It is {name}'s turn to offer."),
    "there_no_deck_for": _("There is no {label} in the deck for {players} players."),
    "turn_bid": _("It is {name}'s turn to bid."),
    "grab_go_can_only": _("Grab & Go can only interrupt bidding or a Bake Sale."),
    "you_offered_so_you": _("{name}: you offered the {offer}, so you cannot grab it."),
    "only_show_card": _("Only {names} show a card now."),
    "reveal_not_bid_card": _("That card is not worth {coins}: show the card you bid, or tap Pass if you have "
                           "none."),
    "not_tied_for_high": _("{name} is not tied for the high bid: choose {names}."),
    "have_swapped": _("{name} and {other} have swapped."),
    "put_face_up": _("put the {offer} face up."),
    "put_one_your_cards": _("put one of your cards face up."),
    "who_puts_card_face": _("It is {name} who puts a card face up now."),
    "who_draws": _("It is {name} who draws now."),
    "that_card_hand_not": _("That card is in a hand, not the deck: draw from the deck."),
    "drew_card": _("{name} drew a card."),
    "turn_bake_sale_starts": _("It is {name}'s turn: a Bake Sale starts on your own turn."),
    "has_had_their_bake": _("{name} has had their Bake Sale: one per player per game."),
    "scan_card_you_put": _("Scan the card you put face up."),
    "turn_take_pass": _("It is {name}'s turn to take or pass."),
    "you_put_that_card": _("{name}: you put that card face up yourself."),
    "your_turn_so_tap": _("{name}: it is your turn, so tap Take or Pass."),
    "face_up_card_already": _("The face-up card is already a Grab & Go."),
    "who_puts_grab_go": _("It is {name} who puts a Grab & Go face up now."),
    "that_card_not_grab": _("That card is not a Grab & Go: scan your Grab & Go, or tap Pass if you have none."),
    "auction_grab": _("{name} swaps a Grab & Go for the {card}."),
    "you_can_only_ask": _("You can only ask to close early at the start of your turn."),
    "turn_ask_close_early": _("It is {name}'s turn: ask to close early at the start of yours."),
    "table_said_no_this": _("The table said no this turn: take your turn."),
    "vote_name": _("It is {name}'s vote."),
    "with_tracked_hands_companion": _("With tracked hands the companion spots Sweet Six by itself."),
    "everyone_voted_close_early": _("Everyone voted to close early."),
    "everyone_shows_their_hand": _("Everyone shows their hand."),
    "offers_name_article": _("{name} offers {article}."),
    "are_tied_at_show": _("{said} {names} are tied at {price}: show the cards you bid."),
    "swap_for_grab_go": _("{said} {name} and {other}: swap the {offer} for the Grab & Go."),
    "shows_name_article": _("{name} shows {article}."),
    "takes_who_winner_card": _("{who} takes {winner}'s {card}."),
    "swap_not_bid_card": _("That card is not worth {coins}: scan the card you bid, or tap Pass if you have none."),
    "scan_you_offered": _("scan the {offer} you offered."),
    "discard_not_offered": _("That card is not the {offer} you offered: put the {offer} face up, or tap Pass if "
                           "you have none."),
    "drops_out_of_tie": _("{name} has no card worth {coins} and drops out."),
    "nobody_showed": _("{said} Nobody showed a card: {who}, put the {offer} face up and scan it."),
    "no_card_no_swap": _("{name} has no {what}: no swap this turn."),
    "a_grab_go": _("Grab & Go"),
    "a_card_worth": _("card worth {coins}"),
    "no_offered_card": _("{name} has no {offer} to give: no swap this turn."),
    "no_offered_discard": _("{name} has no {offer} to put face up: the turn ends."),
    "grab_is_off": _("{name} has no Grab & Go: the face-up card stays."),
    "puts_face_up": _("{name} puts {article} face up."),
    "that_card_face_up": _("That card is face up on the discard pile: draw from the deck."),
    "starts_bake_sale": _("{name} starts a Bake Sale!"),
    "put_card_face_up": _("{name} put a card face up."),
    "bake_grab": _("{name} swaps Grab & Go for the face-up card."),
    "asks_close_early": _("{name} asks to close early."),
    "says_yes_everyone_agreed": _("{name} says yes. Everyone agreed: the game closes early!"),
    "shouts_sweet_six": _("{name} shouts Sweet Six! {name}: show your 7 cards and scan them."),
    "no_sweet_six": _("{name}'s hand has no 6 of a kind, so there is no Sweet Six and the game goes on: "
                    "{name}, take your cards back."),
    "sweet_six_shown": _("Sweet Six! {name} has {n} {dessert} cards. The game ends now: everyone else, scan your 7 "
                       "cards for scoring, {first} first."),
    "shouter_first": _("First {name} shows the Sweet Six: scan {name}'s cards."),
    "sweet_six_shouted_by": _("Sweet Six! shouted by {name}"),
    "everyone_passed_put_face": _("{said} Everyone passed: {who}, put the {offer} face up and draw a new card."),
    "everyone_passed_shuffle": _("{said} Everyone passed: {who}, put the {offer} face up. The deck is empty: "
                               "shuffle the {cards} from the face-up pile into a new deck, face down, and draw "
                               "a new card."),
    "wins_with_bid_swap": _("{said} {winner} wins with a bid of {price}: {who} and {winner}, swap your cards secretly."),
    "takes_card_swap_your": _("{who} takes {winner}'s card: swap your cards secretly."),
    "swap_not_offered": _("That card is not the {offer} you offered: scan the {offer}, or tap Pass if you have "
                        "none."),
    "your_card_already_scanned": _("{name}: your card is already scanned. {waiting}"),
    "only_swap": _("Only {name} and {other} swap now. {waiting}"),
    "card_scanned": _("{name}'s card is scanned."),
    "everyone_passed_bake_sale": _("{said} Everyone passed: the Bake Sale is over."),
    "plays_grab_go": _("{name} plays Grab & Go!"),
    "says_no_so_game": _("{name} says no, so the game goes on."),
    "says_yes": _("{name} says yes."),
    "sweet_six_open": _("Sweet Six! {name} has {n} {dessert} cards. The game ends now."),
    "everyone_passed": _("{said} Everyone passed."),
    "wins_with_bid": _("{said} {winner} wins with a bid of {price}."),
    # what is awaited now (prompts.py)
    "prompt_over": _("Game over: the scores are final."),
    "prompt_score": _("{name}: scan your 7 cards for scoring (card {k} of 7)."),
    "prompt_show_six": _("{name}: scan your 7 cards to show your Sweet Six (card {k} of 7)."),
    "close_game_early_tap": _("{name}: close the game early? Tap Yes or No."),
    "bid_more_pass": _("{bidder}: bid {high} or more, or pass."),
    "prompt_reveal": _("{name}: show the card you bid ({coins}) and scan it, or tap Pass if you have none."),
    "tap_whose_card_you": _("{who}: tap whose card you take."),
    "scan_you_give_face": _("{who}: scan the {offer} you give {name}, face down, or tap Pass if you have none."),
    "put_face_up_scan": _("{who}: put the {offer} face up and scan it, or tap Pass if you have none."),
    "draw_card_scan_face": _("{who}: draw a card and scan it, face down."),
    "shuffle_then_draw": _("The deck is empty: shuffle the {cards} from the face-up pile into a new deck, "
                         "face down. {who}: draw a card and scan it, face down."),
    "put_any_card_face": _("{holder}: put any card face up, then tap Done."),
    "draw_put_any_card_face": _("{holder}: draw a card, put any card face up, then tap Done."),
    "shuffle_draw_put_face": _("The deck is empty: shuffle the {cards} from the face-up pile into a new deck, "
                             "face down. {holder}: draw a card, put any card face up, then tap Done."),
    "take_face_up_card": _("{name}: take the face-up card, or pass."),
    "put_your_grab_go": _("{name}: put your Grab & Go face up and scan it, or tap Pass if you have none."),
    "an_dessert": _("an {label}"),
    "a_dessert": _("a {label}"),
    "prompt_deal": _("{name}: scan your 7 cards, face down, where nobody sees them (card {k} of 7)."),
    "bid_0_coins_for": _("{bidder}: bid 0 to {max_bid} coins for the {offer}, or pass."),
    "raise_pass_keep_your": _("{bidder}: raise, or pass to keep your bid of {high}."),
    "scan_face_down": _("{name}: scan {card}, face down, or tap Pass if you have none."),
    "prompt_bake_discard_tracked": _("{holder}: put any card face up and scan it."),
    "start_your_bake_sale": _("start your Bake Sale"),
    "ask_close_early": _("ask to Close Early"),
    "offer": _("{who}: tap the dessert you offer."),
    "offer_or": _("{who}: tap the dessert you offer, or {extra}."),
    "your_grab_go": _("your Grab & Go"),
    "card_you_bid_coin": _("the card you bid ({coins})"),
    # separators between the names of a list ("Ana and Ben", "Ana or Ben")
    "sep_and": _(" and "),
    "sep_or": _(" or "),
    # the score sheet (scoring.py)
    "sheet_bad_hybrid": _("hybrid must be one of {hybrid_modes}, not {hybrid!r}"),
    "sheet_hand_size": _("a Sweet Deals hand is exactly {hand_size} cards, not {n}"),
    "same_card_hand_twice": _("the same card is in the hand twice"),
    "sheet_coins": _("{coins}"),
    "sheet_bonus": _("{dessert} x{n} {points}"),
    "not_sweet_deals_card": _("{args} is not a Sweet Deals card"),
    "counted_as": _("{card} as {dessert}"),
    # reading the table: prompts, taps, typed commands (flow.py)
    "new_game": _("New game of Sweet Deals: take out the cards the screen lists, then deal 7 cards each."),
    "sweet_deals_uses_card": _("Sweet Deals uses the card scanner and the buttons on the screen."),
    "i_dont_know_command": _("I don't know the command {command!r}."),
    "bake_sale": _("Bake Sale"),
    "close_early": _("Close Early"),
    "button_sweet_six": _("Sweet Six!"),
    "button_sweet_six_typed": _("Sweet Six"),
    "over": _("The game is over: the scores are final."),
    "hidden_not_worth": _("That is not a card from your hand worth {coins}."),
    "hidden_not_grab": _("That is not a Grab & Go from your hand."),
    "hidden_not_offer": _("That is not a {offer} from your hand."),
    "hidden_not_dealt": _("That card cannot go into this hand: each card of the deck is scanned once."),
    "hidden_not_drawn": _("That card is not the one to draw: take the top card of the deck."),
    "hidden_not_yours": _("That is not a card from your hand."),
    "hidden_not_now": _("That card cannot be used now."),
    "needs_player_number_like": _("\"{verb}\" needs a player number, like \"{verb} 2\"."),
    "game_name": _("Sweet Deals"),
    "no_card_needed": _("No card is needed now. {waiting}"),
    "reader_set_up_for": _("A reader is set up for seat {seat}, but only {players} are playing."),
    "offer_needs_dessert_name": _("\"offer\" needs a dessert name, like \"offer pie\". {waiting}"),
    "bid_needs_number_coins": _("\"bid\" needs a number of coins, like \"bid 2\"."),
    "that_scan_did_not": _("That scan did not read as a Sweet Deals card: scan it again."),
    "open_hands_scan_at_end": _("With open hands, cards are scanned only at the end. {waiting}"),
    "not_now": _("Not now. {waiting}"),
    # the screen: pills, buttons, menus, the final screen (screen.py)
    "screen_offers": _("{name} offers {article}"),
    "tied_points_coins_shared": _("Tied on {top} points and on coins: a shared win!"),
    "which_dessert_do_you": _("{name}: which dessert do you offer?"),
    "high_bid": _(" · high bid {high} ({names})"),
    "no_bids_yet": _(" · no bids yet"),
    "your_bid": _("{name}, your bid:"),
    "keep_high": _("Keep {high}"),
    "whose_card_do_you": _("{name}: whose card do you take?"),
    "tied_at_show_their": _("Tied at {price}: {names} show their cards"),
    "screen_asks_close_early": _("{name} asks to close early"),
    "do_you_agree": _("{name}, do you agree?"),
    "bake_sale_take_pass": _("Bake Sale! {name}: take it or pass?"),
    "tie_most_coins_n": _("the most coins ({most})"),
    "tie_most_coins": _("the most coins"),
    "tied_points_has": _("{tied} tied on {top} points: {winners} has {most}."),
    "tied_points_have_share": _("{tied} tied on {top} points: {winners} have {most} and share the win."),
    "face_up_from": _("face up from {name}"),
    "card_put_face_up": _("the card {name} put face up"),
    "scan": _("to scan"),
    "who_plays_grab_go": _("Who plays Grab & Go?"),
    "who_has_sweet_six": _("Who has Sweet Six?"),
    "open_hands": _("Open hands"),
    "pill_deck": _("Deck {cards}"),
    "scan_name": _("{name}: scan it"),
    "deal_scan_your_7": _("Deal: scan your 7 cards, face down"),
    "scoring_scan_your_7": _("Scoring: scan your 7 cards"),
    "show_sweet_six": _("Sweet Six? Scan your 7 cards"),
    "deck_empty_shuffle": _("Deck empty: shuffle the face-up pile"),
    "swap_scan_face_down": _("Swap: scan face down"),
    "nobody_bid_goes_face": _("Nobody bid: the {offer} goes face up"),
    "draw_new_card": _("Draw a new card"),
    "bake_sale_draw_card": _("Bake Sale: draw a card"),
    "bake_sale_put_card": _("Bake Sale: put a card face up"),
    "grab_go_put_face": _("Grab & Go: put it face up"),
    "scanned_of_7": _("{n} of 7 scanned"),
    "hand_size": _("{cards}"),
    "bake_sale_used": _("Bake Sale used"),
    "bake_sale_left": _("1 Bake Sale"),
    "bake_sale_ready": _("Bake Sale ready"),
    "summary": _("offer desserts, bid coins and swap cards to collect sets of the same dessert"),
    # labels: buttons (the flow's Commands name the same words), columns, piles
    "button_pass": _("Pass"),
    "button_take": _("Take"),
    "button_done": _("Done"),
    "button_yes": _("Yes"),
    "button_no": _("No"),
    "tracked_hands": _("Tracked"),
    "scanned": _("scanned"),
    "col_player": _("Player"),
    "col_coins": _("Coins"),
    "col_sets": _("Sets and wilds"),
    "col_total": _("Total"),
    "no_sets": _("no sets"),
    "from_player": _("from {name}"),
    "pile_deck": _("Deck"),
    "bid_offers": _("offers"),
    "bid_out": _("out"),
}


def say(key: str, **values) -> str:
    """The message ``key`` with its fields filled in (KeyError: a field is missing)."""
    return TEXT[key].format(**values)


def fields(key: str) -> list[str]:
    """The names of the fields in the template ``key`` (for the catalogue test)."""
    return template_fields(TEXT[key])
