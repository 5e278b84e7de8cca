"""Every message a Sweet Deals player can see, in one place (issues 9 and 13).

The rules, the flow and the screen say things only through :func:`say`, so the words a
child reads are checked together by ``tests/test_messages.py``: no "1 cards", no
"0 candies", and no player-visible string left inline in the game's modules. A number
of things is passed through :func:`count` ("no cards", "1 card", "3 cards"), never put
in front of a plural by a template. Templates use ``str.format`` names, so a
translation (gettext, keyed by the English text) may reorder the fields.

>>> say("prompt_reveal", name="Ana", coins=count(1, "coin"))
'Ana: show the card you bid (1 coin) and scan it.'
>>> count(0, "card"), count(3, "coin")
('no cards', '3 coins')
"""

from __future__ import annotations

import string


def count(n: int, word: str, plural: str | None = None) -> str:
    """``n`` things in words: "no cards", "1 card", "2 cards" ("candy": "candies")."""
    many = plural or (word[:-1] + "ies" if word.endswith("y") and word[-2:-1] not in "aeiou" else word + "s")
    if n == 0:
        return f"no {many}"
    return f"1 {word}" if n == 1 else f"{n} {many}"


def listing(items: list, last: str = "and") -> str:
    """"Ana", "Ana and Ben", "Ana, Ben and Cy" (``last`` the word before the last item,
    or ", " for a plain list)."""
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    sep = last if last.startswith(",") else f" {last} "
    return ", ".join(items[:-1]) + sep + items[-1]


#: key -> template. Fields: ``name``/``who``/``winner``/``bidder``/``holder`` a player's
#: name, ``offer``/``label``/``dessert`` a dessert's name, ``card`` a card's name, ``price``
#: and ``high`` bids in coins, ``names`` a list already joined (:func:`listing`), and
#: counts already in words (``cards``, ``coins``: from :func:`count`).
TEXT: dict[str, str] = {
    # choosing the game (the start screen) (__init__.py)
    "option_mode": "tracked: every hand is scanned at the start and every swap after, so hands stay "
                   "secret and are checked; open: hands are scanned only at the end",
    "option_hybrid": "a hybrid card counts as both its desserts (and, the rulebook's example) or as one of "
                     "them (or); default from cards.toml",
    # cards.toml problems (set-up errors) (cards.py)
    "setup_players": "Sweet Deals is for 2 to 8 players, not {players}.",
    "cards_toml_gives_two": "cards.toml gives two cards the same code",
    "cards_toml_hybrid_names": "cards.toml: hybrid {name} names an unknown dessert",
    "cards_toml_deck_for": "cards.toml: the deck for {players} players has {cards} cards, not {deck}",
    # the game's own refusals, what is awaited, the end (rules.py)
    "shuffle_and_deal": "Shuffle the {cards} cards and deal 7 to each player.",
    "take_out_shuffle_and_deal": "Take out {gone}. Shuffle the {cards} cards and deal 7 to each player.",
    "no_hands_to_score": "no hands to score",
    "player_problem": "{name}: {problem}",
    "every_player_needs_different": "Every player needs a different name.",
    "sweet_deals_has_no": "Sweet Deals has no option {next!r}.",
    "mode_must_be_one": "mode must be one of {names}, not {mode!r}",
    "setup_bad_hybrid": "hybrid must be one of {names}, not {hybrid!r}",
    "all_7_cards": "all 7 {dessert} cards",
    "the_card": "the {card}",
    "there_no_seat_are": "There is no seat {seat}: {players} are playing.",
    "i_dont_know_what": "I don't know what {name} means in Sweet Deals.",
    "score_hand_size": "{name}: a Sweet Deals hand is exactly {hand_size} cards, not {n}",
    "also_hand": "{name}: {card} ({code}) is also in {seen}'s hand",
    # the auction: offers and bids (auction.py)
    "bidding_over": "The bidding is over.",
    "not_your_turn_bid": "It is not your turn to bid.",
    "bid_0_coins": "A bid is 0 to {max_bid} coins.",
    "high_bid_bid_more": "The high bid is {high}: bid {high} or more, or pass.",
    "you_already_bid_raise": "You already bid {high}: raise, or pass to keep your bid.",
    "bidding_with_nobody_bid": "bidding with nobody to bid",
    # a turn: stash, reveal, swap, buy, discard (turns.py)
    "plays_grab_go_for": "{name} plays Grab & Go for the {offer}!",
    "passes_name": "{name} passes.",
    "bids": "{name} bids {bid}.",
    "keeps_bid": "{name} keeps the bid of {high}.",
    "show_bid_card": "show the card you bid ({coins}).",
    "takes_name_card": "{name} takes the {card}.",
    "takes_card": "{name} takes the card.",
    "scan_your_grab_go": "scan your Grab & Go.",
    "that_card_not_hand": "That card is not in {name}'s hand: {what}",
    "turn_name": "{name}'s turn.",
    "everyone_scan_your_7": "Everyone: scan your 7 cards for scoring, {first} first.",
    "that_card_not_used": "That card is not used with {players} players: put it back in the box.",
    "that_card_already_hand": "That card is already in a hand: scan another card.",
    "already_has_cards": "{name} already has {hand_size} cards.",
    "card_for": "{named}card {k} of {hand_size} for {name}.",
    "every_hand_plays_first": "Every hand is in. {name} plays first.",
    "turn_offer": "It is {name}'s turn to offer.",
    "there_no_deck_for": "There is no {label} in the deck for {players} players.",
    "your_hand_has_no": "{name}: your hand has no {label}. Offer a dessert you have.",
    "bid_coin_value_card": "{name}: a bid is the coin value of a card in your hand, and none is worth {bid}.",
    "turn_bid": "It is {name}'s turn to bid.",
    "grab_go_can_only": "Grab & Go can only interrupt bidding or a Bake Sale.",
    "you_offered_so_you": "{name}: you offered the {offer}, so you cannot grab it.",
    "you_need_grab_go": "{name}: you need a Grab & Go card in your hand to grab.",
    "only_show_card": "Only {names} show a card now.",
    "reveal_not_bid_card": "That card is not worth {coins}: show the card you bid.",
    "not_tied_for_high": "{name} is not tied for the high bid: choose {names}.",
    "have_swapped": "{name} and {other} have swapped.",
    "put_face_up": "put the {offer} face up.",
    "put_one_your_cards": "put one of your cards face up.",
    "who_puts_card_face": "It is {name} who puts a card face up now.",
    "who_draws": "It is {name} who draws now.",
    "that_card_hand_not": "That card is in a hand, not the deck: draw from the deck.",
    "drew_card": "{name} drew a card.",
    "turn_bake_sale_starts": "It is {name}'s turn: a Bake Sale starts on your own turn.",
    "has_had_their_bake": "{name} has had their Bake Sale: one per player per game.",
    "scan_card_you_put": "Scan the card you put face up.",
    "turn_take_pass": "It is {name}'s turn to take or pass.",
    "you_put_that_card": "{name}: you put that card face up yourself.",
    "your_turn_so_tap": "{name}: it is your turn, so tap Take or Pass.",
    "face_up_card_already": "The face-up card is already a Grab & Go.",
    "who_puts_grab_go": "It is {name} who puts a Grab & Go face up now.",
    "that_card_not_grab": "That card is not a Grab & Go: scan your Grab & Go.",
    "auction_grab": "{name} swaps a Grab & Go for the {card}.",
    "you_can_only_ask": "You can only ask to close early at the start of your turn.",
    "turn_ask_close_early": "It is {name}'s turn: ask to close early at the start of yours.",
    "table_said_no_this": "The table said no this turn: take your turn.",
    "vote_name": "It is {name}'s vote.",
    "with_tracked_hands_companion": "With tracked hands the companion spots Sweet Six by itself.",
    "everyone_voted_close_early": "Everyone voted to close early.",
    "everyone_shows_their_hand": "Everyone shows their hand.",
    "offers_name_article": "{name} offers {article}.",
    "are_tied_at_show": "{said} {names} are tied at {price}: show the cards you bid.",
    "swap_for_grab_go": "{said} {name} and {other}: swap the {offer} for the Grab & Go.",
    "shows_name_article": "{name} shows {article}.",
    "takes_who_winner_card": "{who} takes {winner}'s {card}.",
    "swap_not_bid_card": "That card is not worth {coins}: scan the card you bid.",
    "scan_you_offered": "scan the {offer} you offered.",
    "discard_not_offered": "That card is not the {offer} you offered.",
    "puts_face_up": "{name} puts {article} face up.",
    "that_card_face_up": "That card is face up on the discard pile: draw from the deck.",
    "starts_bake_sale": "{name} starts a Bake Sale!",
    "put_card_face_up": "{name} put a card face up.",
    "bake_grab": "{name} swaps Grab & Go for the face-up card.",
    "asks_close_early": "{name} asks to close early.",
    "says_yes_everyone_agreed": "{name} says yes. Everyone agreed: the game closes early!",
    "sweet_six_tracked": "Sweet Six! {name} has 6 of a kind. The game ends now.",
    "sweet_six_shouted_by": "Sweet Six! shouted by {name}",
    "everyone_passed_put_face": "{said} Everyone passed: {who}, put the {offer} face up and draw a new card.",
    "wins_with_bid_swap": "{said} {winner} wins with a bid of {price}: {who} and {winner}, swap your cards secretly.",
    "takes_card_swap_your": "{who} takes {winner}'s card: swap your cards secretly.",
    "swap_not_offered": "That card is not the {offer} you offered: scan the {offer}.",
    "your_card_already_scanned": "{name}: your card is already scanned. {waiting}",
    "only_swap": "Only {name} and {other} swap now. {waiting}",
    "card_scanned": "{name}'s card is scanned.",
    "everyone_passed_bake_sale": "{said} Everyone passed: the Bake Sale is over.",
    "plays_grab_go": "{name} plays Grab & Go!",
    "says_no_so_game": "{name} says no, so the game goes on.",
    "says_yes": "{name} says yes.",
    "sweet_six_open": "Sweet Six! {name} has {n} {dessert} cards. The game ends now.",
    "everyone_passed": "{said} Everyone passed.",
    "wins_with_bid": "{said} {winner} wins with a bid of {price}.",
    # what is awaited now (prompts.py)
    "prompt_over": "Game over: the scores are final.",
    "prompt_score": "{name}: scan your 7 cards for scoring (card {k} of 7).",
    "close_game_early_tap": "{name}: close the game early? Tap Yes or No.",
    "bid_more_pass": "{bidder}: bid {high} or more, or pass.",
    "prompt_reveal": "{name}: show the card you bid ({coins}) and scan it.",
    "tap_whose_card_you": "{who}: tap whose card you take.",
    "scan_you_give_face": "{who}: scan the {offer} you give {name}, face down.",
    "put_face_up_scan": "{who}: put the {offer} face up and scan it.",
    "draw_card_scan_face": "{who}: draw a card and scan it, face down.",
    "put_any_card_face": "{holder}: put any card face up, then tap Done.",
    "draw_put_any_card_face": "{holder}: draw a card, put any card face up, then tap Done.",
    "take_face_up_card": "{name}: take the face-up card, or pass.",
    "put_your_grab_go": "{name}: put your Grab & Go face up and scan it.",
    "an_dessert": "an {label}",
    "a_dessert": "a {label}",
    "prompt_deal": "{name}: scan your 7 cards, face down, where nobody sees them (card {k} of 7).",
    "bid_0_coins_for": "{bidder}: bid 0 to {max_bid} coins for the {offer}, or pass.",
    "raise_pass_keep_your": "{bidder}: raise, or pass to keep your bid of {high}.",
    "scan_face_down": "{name}: scan {card}, face down.",
    "prompt_bake_discard_tracked": "{holder}: put any card face up and scan it.",
    "start_your_bake_sale": "start your Bake Sale",
    "ask_close_early": "ask to Close Early",
    "offer": "{who}: tap the dessert you offer.",
    "offer_or": "{who}: tap the dessert you offer, or {extra}.",
    "your_grab_go": "your Grab & Go",
    "card_you_bid_coin": "the card you bid ({coins})",
    # separators between the names of a list ("Ana and Ben", "Ana or Ben")
    "sep_and": " and ",
    "sep_or": " or ",
    # the score sheet (scoring.py)
    "sheet_bad_hybrid": "hybrid must be one of {hybrid_modes}, not {hybrid!r}",
    "sheet_hand_size": "a Sweet Deals hand is exactly {hand_size} cards, not {n}",
    "same_card_hand_twice": "the same card is in the hand twice",
    "sheet_coins": "{coins}",
    "sheet_bonus": "{dessert} x{n} {points}",
    "not_sweet_deals_card": "{args} is not a Sweet Deals card",
    "counted_as": "{card} as {dessert}",
    # reading the table: prompts, taps, typed commands (flow.py)
    "new_game": "New game of Sweet Deals: take out the cards the screen lists, then deal 7 cards each.",
    "sweet_deals_uses_card": "Sweet Deals uses the card scanner and the buttons on the screen.",
    "i_dont_know_command": "I don't know the command {command!r}.",
    "bake_sale": "Bake Sale",
    "close_early": "Close Early",
    "button_sweet_six": "Sweet Six!",
    "button_sweet_six_typed": "Sweet Six",
    "over": "The game is over: the scores are final.",
    "needs_player_number_like": "\"{verb}\" needs a player number, like \"{verb} 2\".",
    "game_name": "Sweet Deals",
    "no_card_needed": "No card is needed now. {waiting}",
    "reader_set_up_for": "A reader is set up for seat {seat}, but only {players} are playing.",
    "offer_needs_dessert_name": "\"offer\" needs a dessert name, like \"offer pie\". {waiting}",
    "bid_needs_number_coins": "\"bid\" needs a number of coins, like \"bid 2\".",
    "that_scan_did_not": "That scan did not read as a Sweet Deals card: scan it again.",
    "open_hands_scan_at_end": "With open hands, cards are scanned only at the end. {waiting}",
    "not_now": "Not now. {waiting}",
    # the screen: pills, buttons, menus, the final screen (screen.py)
    "screen_offers": "{name} offers {article}",
    "tied_points_coins_shared": "Tied on {top} points and on coins: a shared win!",
    "which_dessert_do_you": "{name}: which dessert do you offer?",
    "high_bid": " · high bid {high} ({names})",
    "no_bids_yet": " · no bids yet",
    "your_bid": "{name}, your bid:",
    "keep_high": "Keep {high}",
    "whose_card_do_you": "{name}: whose card do you take?",
    "tied_at_show_their": "Tied at {price}: {names} show their cards",
    "screen_asks_close_early": "{name} asks to close early",
    "do_you_agree": "{name}, do you agree?",
    "bake_sale_take_pass": "Bake Sale! {name}: take it or pass?",
    "tie_most_coins_n": "the most coins ({most})",
    "tie_most_coins": "the most coins",
    "tied_points_has": "{tied} tied on {top} points: {winners} has {most}.",
    "tied_points_have_share": "{tied} tied on {top} points: {winners} have {most} and share the win.",
    "face_up_from": "face up from {name}",
    "card_put_face_up": "the card {name} put face up",
    "scan": "to scan",
    "who_plays_grab_go": "Who plays Grab & Go?",
    "who_has_sweet_six": "Who has Sweet Six?",
    "open_hands": "Open hands",
    "pill_deck": "Deck {cards}",
    "scan_name": "{name}: scan it",
    "deal_scan_your_7": "Deal: scan your 7 cards, face down",
    "scoring_scan_your_7": "Scoring: scan your 7 cards",
    "swap_scan_face_down": "Swap: scan face down",
    "nobody_bid_goes_face": "Nobody bid: the {offer} goes face up",
    "draw_new_card": "Draw a new card",
    "bake_sale_draw_card": "Bake Sale: draw a card",
    "bake_sale_put_card": "Bake Sale: put a card face up",
    "grab_go_put_face": "Grab & Go: put it face up",
    "scanned_of_7": "{n} of 7 scanned",
    "hand_size": "{cards}",
    "bake_sale_used": "Bake Sale used",
    "bake_sale_ready": "Bake Sale ready",
    "summary": "offer desserts, bid coins and swap cards to collect sets of the same dessert",
    # labels: buttons (the flow's Commands name the same words), columns, piles
    "button_pass": "Pass",
    "button_take": "Take",
    "button_done": "Done",
    "button_yes": "Yes",
    "button_no": "No",
    "tracked_hands": "Tracked",
    "scanned": "scanned",
    "col_player": "Player",
    "col_coins": "Coins",
    "col_sets": "Sets and wilds",
    "col_total": "Total",
    "no_sets": "no sets",
    "from_player": "from {name}",
    "pile_deck": "Deck",
    "bid_offers": "offers",
    "bid_out": "out",
}


def say(key: str, **values) -> str:
    """The message ``key`` with its fields filled in (KeyError: a field is missing)."""
    return TEXT[key].format(**values)


def fields(key: str) -> list[str]:
    """The names of the fields in the template ``key`` (for the catalogue test)."""
    return [f for _, f, _, _ in string.Formatter().parse(TEXT[key]) if f]
