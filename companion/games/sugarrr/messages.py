"""Every message a Sugarrr! player can see, in one place (issue 9).

The rules, the flow and the screen say things only through :func:`say`, so the words a
child reads are checked here, together, by ``tests/test_messages.py``: no "1 cards", no
"0 cards", no hard words. A number of things is always passed through :func:`count`
("no cards", "1 card", "3 cards"), never put in front of a plural by a template.

>>> say("deck_counted", deck=count(1, "card"))
'The Fruit Deck now has 1 card.'
>>> count(0, "card"), count(2, "Fruit-O-Saur")
('no cards', '2 Fruit-O-Saurs')
"""

from __future__ import annotations

# count and listing are this game's words too: its modules import them from here.
from companion.core.i18n import Message, _, count, listing, template_fields  # noqa: F401


#: key -> template. Fields: ``who`` a player's name, ``card``/``before``/``saur`` card
#: names, ``col`` a column number from 1, ``total``/``need`` Fruit-O-Saur values, and
#: counts already in words (``cards``, ``deck``, ``scanned`` ...: from :func:`count`).
TEXT: dict[str, str] = {
    # a first game's lessons (flow.lesson: companion.table.teach), in the rulebook's words
    "lesson_setup": _("First game: draw 5 Fruit cards and place them face-up to start each column. Scan the card "
                      "for column {col}."),
    "lesson_turn": _("{who}: on your turn, choose 1 action: Swap or Play. To Play, scan a card from your hand that "
                     "matches the Fruit or the number of a column's top card."),
    "lesson_playing": _("{who}: now scan a card that matches the Fruit or the number, or tap Done. If the last "
                        "number matches the cards in the column, you Gather Fruit."),
    "lesson_attract": _("{who}: the last number did not match, so you Attract Fruit-O-Saurs: take ones "
                        "from The Valley that add up to {need} and scan them."),
    "lesson_new_column": _("Draw 1 card from the Fruit Deck and place it face-up to start the new column: scan it."),
    # what an Undo takes back ("Undo {words}?": flow.undo_words), in the cards' own words
    "undo_start": _("{card} starting column {col}"),
    "undo_column": _("{who}'s tap on column {col}"),
    "undo_play": _("{who}'s play of {card} onto column {col}"),
    "undo_done_gather": _("{who}'s Done: gathering column {col}"),
    "undo_done_attract": _("{who}'s Done: attracting Fruit-O-Saurs"),
    "undo_saur": _("{who} taking {card} from The Valley"),
    "undo_swap": _("{who}'s swap of {cards}"),
    "undo_pass": _("{who}'s pass"),
    "undo_hand_card": _("{card} scanned from {who}'s hand"),
    "undo_hand_done": _("{who}'s hand added to the score pile"),
    "undo_deck": _("the Fruit Deck count of {deck}"),
    # choosing the game, scoring piles
    "setup_players": _("Sugarrr! is for {least}-{most} players, not {n}"),
    "setup_same_name": _("two players have the same name"),
    "score_not_a_card": _("{code} is not a Sugarrr! card"),
    # set-up and new columns
    "new_game": _("New game: scan the five starting column cards."),
    "column_started": _("{card} starts column {col}."),
    "setup_done": _("Set-up done. {who} goes first."),
    "no_column_waiting": _("No column is waiting for a new card now."),
    "start_column_first": _("First draw a card from the Fruit Deck and scan it to start column {col}."),
    "deck_empty_scan": _("The Fruit Deck is empty by my count. If it is not, tap the deck to correct it."),
    "column_stays_empty": _("The Fruit Deck is empty, so column {cols} stays empty. Play goes on."),
    "columns_stay_empty": _("The Fruit Deck is empty, so columns {cols} stay empty. Play goes on."),
    # the Fruit Deck count
    "deck_counted": _("The Fruit Deck now has {deck}."),
    "deck_settled": _("The Fruit Deck has run out and the Final Round is on: the deck stays at no cards."),
    "deck_range": _("The Fruit Deck can hold 0 to {most} cards now (the rest are in hands, columns and score piles)."),
    # the Final Round, said once when it is triggered (issue 38: said as it is true: the turn that
    # emptied the deck is still on, or it has just ended and the next player starts the round)
    "deck_out_after_turn": _("Final Round: when {who}'s turn ends, everyone takes one last turn: Swap, Play or "
                             "Pass."),
    "deck_out_now": _("Final Round: everyone takes one last turn, starting with {who}: Swap, Play or Pass."),
    "deck_ran_out": _("The Fruit Deck has run out! "),
    # playing
    "column_range": _("There are only {n} columns."),
    "already_playing": _("{who} is already playing on column {col}."),
    "not_time_column": _("This is not the time to choose a column."),
    "same_column": _("This turn's cards all go on column {col}."),
    "hand_limit_played": _("{who} has played {cards}: a hand holds only {n}. Tap Done."),
    "mismatch": _("{card} does not match {before}: play {fruit} or {number}."),
    "fits_nowhere": _("{card} does not go on any column: it needs the same fruit or number as a top card ({tops})."),
    "fits_several": _("{card} fits columns {cols}: tap the column it goes on."),
    "no_card_waiting": _("No card is waiting for a column. {prompt}"),
    "card_waiting": _("{card} is still waiting: first tap the column it goes on (it fits columns {cols})."),
    "column_chosen": _("Column {col}: now scan the card for it."),
    "column_chosen_card_dropped": _("{card} was not played. {who}: column {col} is chosen: scan a card for it."),
    "not_played": _("{card} was not played: it goes back into {who}'s hand."),
    "play_accepted": _("{card} on column {col} ({cards})."),
    "play_first": _("Play at least one card first, or tap Swap."),
    "play_first_final": _("Play at least one card first, or tap Swap or Pass."),
    "saur_not_playable_valley": _("{card} is a Fruit-O-Saur: it stays in The Valley, it cannot be {verb}."),
    "saur_not_playable_pile": _("{card} is a Fruit-O-Saur in {who}'s score pile: it cannot be {verb}."),
    "seen_before": _("That {card} card is already {where}: it was scanned before."),
    # gather and attract
    "gathered": _("{who} gathers fruit: {card} matches the {cards} in column {col}."),
    "gather_draw": _(" Draw a card to start a new column."),
    "gather_no_draw": _(" The Fruit Deck is empty: the column stays empty."),
    "why_salad": _("Fruit Salad has no number"),
    "why_count": _("the column has {cards}, not {number}"),
    "attract": _("{who} attracts Fruit-O-Saurs ({why}): take Fruit-O-Saurs from The Valley that add up to {need} "
               "and scan them."),
    "attract_none": _("{who} attracts Fruit-O-Saurs ({why}), but no Fruit-O-Saurs in The Valley add up to "
                    "exactly {need}: nothing to take this time."),
    "attract_only": _("Fruit-O-Saurs are taken from The Valley only when you Attract."),
    "not_a_saur": _("{card} is not a Fruit-O-Saur: take Fruit-O-Saurs that add up to {need}."),
    "saur_not_in_valley": _("{card} is not in The Valley: it is {where}."),
    "saur_too_big": _("{card} is too many: {who} needs exactly {need} more."),
    "saur_cannot_finish": _("After {card}, The Valley cannot make the {rest} still needed: choose other "
                          "Fruit-O-Saurs that add up to {need}."),
    "saur_taken": _("{who} takes {card}."),
    "saur_more": _(" {need} more to take."),
    "column_removed": _("Column {col} has {cards}: it leaves the game."),
    "draw_for_column": _("Draw a card from the Fruit Deck and scan it to start column {col}."),
    # swap and pass
    "swap_range": _("Swap 1 to {n} cards."),
    "market_short": _("The Market Row has only {cards} to swap with."),
    "market_empty": _("The Market Row is empty: Play or Pass instead."),
    "swapped": _("{who} swaps {cards} with the Market Row."),
    "pass_final_only": _("Pass is only allowed in the Final Round: Swap or Play."),
    "passed": _("{who} passes."),
    # the Final Round hands
    "hand_not_now": _("Hands are scanned after each player's final turn."),
    "hand_full": _("A hand holds at most {n} cards. Tap Done when the hand is scanned."),
    "hand_scored": _("{card} from {who}'s hand goes to the score pile ({scanned} scanned)."),
    "hand_scan": _("{who}: scan the cards left in your hand ({scanned} scanned), then tap Done."),
    "hand_added": _("{who} adds {cards} from the hand to the score pile."),
    "hand_none": _("{who} has no cards left in hand: nothing goes to the score pile."),
    "hand_counted_already": _("{who}'s empty hand is already counted. {prompt}"),
    # busy / prompts
    "busy_playing": _("{who} is playing on column {col}: scan more cards or tap Done."),
    "busy_attract": _("{who} is attracting: scan Fruit-O-Saurs that add up to {need} from The Valley."),
    "busy_turn": _("{who}: scan a card to Play, or tap Swap."),
    "busy_turn_final": _("{who}: scan a card to Play, or tap Swap or Pass."),
    "not_now": _("Not now."),
    "prompt_setup": _("Set-up: scan the card that starts column {col}."),
    "prompt_new_column": _("Draw a card from the Fruit Deck and scan it to start column {col}."),
    "screen_valley": _("The Valley"),
    "screen_final_legend": _("cards × points a card"),
    "prompt_turn_chosen": _("{who}: column {col} is chosen: scan a card for it, or tap another column."),
    "prompt_turn": _("{who}: scan a card to Play, or tap Swap."),
    "prompt_turn_final": _("{who}: scan a card to Play, or tap Swap or Pass."),
    "prompt_pick_column": _("{who}: tap column {cols} for {card}."),
    "prompt_playing": _("{who}: scan more cards for column {col}, or tap Done."),
    "prompt_attract": _("{who}: take Fruit-O-Saurs that add up to {need} from The Valley and scan them."),
    "prompt_over": _("Game over: scores are final."),
    # turns and the end
    "turn": _("{who}'s turn."),
    "game_over_one": _("Game over! {who} is the Win-O-Saur!"),
    "game_over_many": _("Game over! {who} are Win-O-Saurs!"),
    "over": _("The game is over: start a new game to play again."),
    # inputs the game cannot use
    "no_tray": _("Sugarrr! does not use the tray."),
    "seat_unknown": _("A reader is set up for seat {seat}, but only {n} are playing."),
    "wrong_reader": _("It is {who}'s turn: that card came from {other}'s reader."),
    "needs_number": _("{verb} needs a number from {low} to {high}, like '{example}'."),
    "unknown_command": _("I don't know the command {command!r}."),
    # the screen
    "screen_saurs": _("{saurs}"),
    "screen_column_size": _("{cards}"),
    "screen_scan_new": _("scan new card"),
    "screen_empty": _("empty"),
    "screen_swap_how_many": _("Swap how many cards?"),
    "screen_deck_menu": _("Cards in the Fruit Deck"),
    "screen_shared": _("a shared win"),
    "screen_decided_by": _("decided by {tie_break}"),
    "unknown_action": _("I don't know how to do {action} in this game."),
}


def say(key: str, **values) -> str:
    """The message ``key`` with its fields filled in, as a :class:`Message` that keeps ``key``
    (a refusal's key finds its rulebook sentence: ``parts/why.toml``). KeyError: a field is missing."""
    return Message(TEXT[key].format(**values), key)


def fields(key: str) -> list[str]:
    """The names of the fields in the template ``key`` (for the catalogue test)."""
    return template_fields(TEXT[key])
