"""Every message a Sugar Blast player can see, in one place (issue 9).

The rules, the flow, the screen and ``companion hint`` speak only through :func:`say`,
so the words are checked together by ``tests/test_messages.py``: no "1 candies", rows
and columns counted from 1 as a person counts them (``where``), and a Blast named by
its kind ("5-6-Blast", "Box-Blast"), never by a number of candies ("7-Blast").

>>> where((0, 2))
'row 1, column 3'
>>> say("slid", who="Ana", edge="bottom")
'The candies slid toward Ana (bottom of the board).'
>>> blast_name("box"), count(1, "space")
('Box-Blast', '1 space')
"""

from __future__ import annotations

# count is this game's word too: its modules import it from here.
from companion.core.i18n import Message, _, count, template_fields  # noqa: F401

from .parts.colours import KINDS, NAMES

#: A Blast's name by its kind (rulebook, "Gameplay").
BLAST_NAMES = {"3": "3-Blast", "4": "4-Blast", "5-6": "5-6-Blast", "box": "Box-Blast"}


def blast_name(kind: str) -> str:
    return BLAST_NAMES[kind]


def where(cell: tuple[int, int]) -> str:
    """A cell as a person reads it: rows from 1 at the top, columns from 1 at the left."""
    return f"row {cell[0] + 1}, column {cell[1] + 1}"


def numbers(values) -> str:
    """Allowed numbers in words: "6", "5 to 12", "3 or 6"."""
    values = sorted(set(values))
    if len(values) == 1:
        return str(values[0])
    if values == list(range(values[0], values[-1] + 1)) and len(values) > 2:
        return f"{values[0]} to {values[-1]}"
    return ", ".join(map(str, values[:-1])) + f" or {values[-1]}"


def candy(letter: str) -> str:
    return NAMES[letter]


def candies(counts: dict[str, int] | tuple[int, ...]) -> str:
    """Candies by kind in words: "2 Red, 1 Blue", or "nothing"."""
    if not isinstance(counts, dict):
        counts = dict(zip(KINDS, counts))
    return ", ".join(f"{n} {NAMES[k]}" for k, n in counts.items() if n) or "nothing"


#: key -> template. Fields: ``who`` a player's name; ``candy`` a candy's colour name;
#: ``cell`` a cell from :func:`where`; ``line`` "row 3" / "column 2" (from 1); counts
#: already in words (``spaces``, ``n_candies`` ...: from :func:`count`); ``blast`` a
#: name from :func:`blast_name`; ``allowed`` from :func:`numbers`.
TEXT: dict[str, str] = {
    # a first game's lessons (flow.lesson: companion.table.teach), in the rulebook's words
    "lesson_setup": _("First game: fill the board with candies from the bag without looking. There cannot be 3 or "
                      "more of the same in a row or column. Tap a colour, then its cells."),
    "lesson_turn": _("{who}: swap two candies next to each other to match 3 or more of the same. That is a Blast!"),
    "lesson_choose": _("2 Blasts at the same time: choose 1 to solve before the other."),
    "lesson_keep": _("{who}: keep candies from your Blast: a 3-Blast keeps 1; a 4-Blast or a Box-Blast 1 of the "
                     "matched type and 1 different; a 5-6-Blast keeps 2."),
    "lesson_tilt": _("{who}: tilt the board in your direction so the candies slide down, then let it go."),
    "lesson_refill": _("Take candies from the bag without looking and fill all empty spaces from your side, "
                        "{order} on the screen."),
    "lesson_cascade": _("The new candies may make new Blasts: solve them too, until there are no more Blasts."),
    # what an Undo takes back ("Undo {words}?": flow.undo_words), in the candies' own words
    "undo_place": _("the {candy} candy put at {cell}"),
    "undo_board": _("the board as it was entered"),
    "undo_start": _("the start of the game"),
    "undo_swap": _("{who}'s swap of the candies at {a} and {b}"),
    "undo_draw": _("{who}'s {candy} candy from the bag at {cell}"),
    "undo_quick": _("{who}'s {blast} of {candy} candies"),
    "undo_no_more": _("{who}'s No more Blasts"),
    "undo_choose": _("{who}'s choice of Blast {n}"),
    "undo_keep": _("{who} keeping {kept}"),
    "undo_tilt": _("{who}'s tilt of the board"),
    "undo_return": _("{who} putting {kept} back in the bag"),
    "undo_refill": _("the refill of {n_candies}"),
    # set-up options: the start screen and `companion run --help` (__init__.py)
    "option_goal": _("Goal Card: the candies you collect to win"),
    "option_solo": _("Solo: one player, no Goal Card, the orange candies left out"),
    "option_quick": _("Quick: no copy of the board on the screen; tap what each Blast was"),
    # the Goal Card's buttons on the start screen, in the cards' words (cards.toml [[goal]])
    "goal_random": _("Draw one"),
    "goal_two-threes": _("2 sets of 3"),
    "goal_two-twos-and-a-three": _("2 sets of 2 and 1 of 3"),
    "goal_five-different": _("5 different"),
    "goal_four-and-two": _("1 set of 4 and 1 of 2"),
    "goal_four-twos": _("4 sets of 2"),
    "goal_nine-any": _("9 of any kind"),
    # typing a board (``/board``, ``companion hint``)
    "board_empty": _("The board is empty: type one row per line, one letter per cell."),
    "board_bad_letter": _("{cell}: {letter!r} is not a candy. Use {letters} or {empty} for empty."),
    "board_ragged": _("Row {row} has {cells} but row 1 has {first}: every row needs the same number."),
    "board_size": _("The board is {rows} by {cols}; it should be {want_rows} rows by {want_cols} columns."),
    # choosing the game
    "setup_solo_players": _("solo mode is for 1 player, the game for 2-4"),
    "setup_players": _("{n} players: 2-4 please"),
    "setup_solo_goal": _("solo has no Goal Card"),
    "setup_choose_goal": _("choose a Goal Card: {goals}"),
    "setup_seats": _("give each player a different seat from {seats}"),
    # set-up
    "new_game": _("New game: tap a candy colour, then the cells that hold it."),
    "not_a_candy": _("{letter!r} is not a candy: use {letters}."),
    "out_in_solo": _("{candy} candies are out of the game in solo mode."),
    "board_shape": _("The board has {rows} rows of {cols} candies."),
    "too_many_of": _("That is {n_candies}, but the game has only {most}."),
    "no_such_cell": _("There is no cell at {cell}."),
    "cell_empty": _("1 cell is still empty: fill the whole board first."),
    "cells_empty": _("{n} cells are still empty: fill the whole board first."),
    "start_run": _("{n} {candy} candies are in a line in {line}: mix the candies on the board and enter it again."),
    "board_ready": _("The board is ready. {who} goes first."),
    "dealt": _("Here is a starting board drawn from the bag, with no 3 of a kind in a line."),
    "deal_quick": _("Quick mode has no board on the screen to lay out: fill the board from the bag, then tap Start."),
    "deal_number": _("Set up from the screen takes a whole number or nothing: {command!r}."),
    "palette_picked": _("{candy}: now tap the cells."),
    "palette_empty": _("Empty: now tap the cells to clear."),
    "palette_first": _("Tap a candy colour first, then the cells that hold it."),
    # a turn
    "swap_neighbours": _("Swap two candies that touch side by side or one above the other."),
    "swap_no_blast": _("That swap makes no Blast: try another one."),
    "tap_a_candy": _("Tap a candy on the board."),
    "selected": _("{candy} chosen: tap the candy to swap it with."),
    "swap_cancelled": _("Swap cancelled."),
    "still_a_blast": _("There is still a swap that makes a Blast: look again (ask for a hint)."),
    "no_blasts_right": _("Right: no swap makes a Blast. Take 1 candy from the bag, tap its colour, "
                       "then the candy it replaces."),
    "bag_lacks": _("By my count there is no {candy} candy in the bag."),
    "draw_different": _("Swap the candy from the bag with a candy of a different kind on the board."),
    "drawn": _("{candy} from the bag replaces {old}; the {old} goes into the bag."),
    "blasts_at_once": _("{n} Blasts at once! {blasts}. Choose which one to solve first."),
    "choose_range": _("Choose Blast 1 to {n}."),
    "broken_removal": _("Blast {n} ({placed}) lost candies to Blast {first}: it is gone. Look for new Blasts "
                        "after the refill."),
    "broken_slide": _("Blast {n} ({placed}) was broken by the slide: it is gone. Look for new Blasts after the "
                      "refill."),
    "screen_broken_removal": _("Blast {n} lost candies to Blast {first}: it is gone."),
    "screen_broken_slide": _("Blast {n} was broken by the slide: it is gone."),
    # what a Blast does
    "blast_3": _("3-Blast! Remove the 3 {candy} candies and keep 1."),
    "blast_4": _("4-Blast! Remove every candy in {line}; {keep}."),
    "blast_4_quick": _("4-Blast! Remove every candy in that row or column; {keep}."),
    "blast_56": _("5-6-Blast! Remove every {candy} candy on the board and keep 2."),
    "blast_box": _("Box-Blast! Remove the {candy} candies and the rest of the box ({n_candies}); {keep}."),
    "keep_one": _("keep 1 {candy}"),
    "keep_one_other": _("keep 1 {candy} and 1 candy of another kind"),
    "keep_want": _("From this Blast, {keep}."),
    "keep_only_removed": _("Keep only candies this Blast removes ({removed}): {keep}."),
    "kept": _("{who} keeps {kept}; {discarded} to the discards."),
    "kept_only": _("Only one choice, so {who} keeps {kept}; {discarded} to the discards."),
    # tilt and refill
    "tilt_now": _("{who}: tilt the board toward you, then let it go."),
    "tilt_seen": _("Tilted toward {who}: now let the board go level."),
    "tilt_wrong_seat": _("The board tipped toward {toward}. {who}: tilt it toward you ({edge} of the screen) "
                       "and let go."),
    "tilt_not_now": _("The board tipped, but there is nothing to refill yet. {waiting}"),
    "tilt_hold": _("{who}: tilt the board toward you ({edge} of the screen), hold it, then let go."),
    "level_again": _("The board is level again. {prompt}"),
    "tilt_nothing": _("Nothing to refill now: {waiting}"),
    "slid": _("The candies slid toward {who} ({edge} of the board)."),
    "refill": _("Fill {spaces} from the bag, {order}"),
    "refill_short": _("The bag has only {n_candies}: put them all in, then fill the other {spaces} "
                    "with discarded candies."),
    "refill_every": _("Fill every empty space: {n_candies}, one in each."),
    "refill_space_full": _("That space already has a candy: tap an empty space."),
    "refill_none_left": _("By my count there are no more {candy} candies to refill with."),
    "refill_colour_first": _("Tap the colour of the candy from the bag first, then its space."),
    "refill_placed": _("{candy} placed: {spaces} to go."),
    "refill_bag_check": _("By my count the bag holds {bag}: check the candies you placed."),
    "refill_discards_check": _("Use every candy in the bag ({bag}), then discarded ones ({discards}): "
                             "check the candies you placed."),
    "refill_quick_done": _("Quick mode has no board: just tap Done when the spaces are filled."),
    "any_new_blasts": _("Any new Blasts? Enter them, or tap No more Blasts."),
    "return_two": _("Not enough candies to fill {spaces}: every player chooses {n} of their candies and puts "
                  "them back in the bag."),
    "return_done_already": _("That player has already put candies back."),
    "no_such_player": _("No such player."),
    "return_which": _("{who}: put back {n_candies} ({have})."),
    "returned": _("{who} puts {what} back in the bag."),
    # quick mode
    "quick_kind": _("A Blast is 3, 4, 5-6 or box."),
    "quick_count": _("A {blast} removes {allowed} candies: how many did it remove?"),
    "quick_only": _("That is only for quick mode."),
    "quick_no_board": _("Quick mode has no board to enter candies on."),
    "quick_no_cells": _("Quick mode has no board on the screen: enter each Blast with the buttons."),
    "quick_done": _("Quick mode: just tap Done."),
    # the end
    "turn": _("{who}'s turn."),
    "next_turn": _("Next turn."),
    "goal_met": _("{who} meets the Goal Card: {goal}"),
    "wins": _("{who} wins!"),
    "solo_win": _("{who} collected {n_candies} in one turn: you win!"),
    "solo_loss": _("The bag cannot fill {spaces}: the game is lost. Try again!"),
    "over": _("The game is over: start a new game to play again."),
    "headline_goal": _("{who} meets the Goal Card ({goal}) and wins!"),
    "headline_solo_win": _("{who} collected {n_candies} in one turn: a win!"),
    "headline_solo_loss": _("Not enough candies in the bag to refill the board: the solo game is lost."),
    # waiting for something else
    "wait_setup": _("Finish entering the board, then tap Start."),
    "wait_turn": _("{who}: swap two candies next to each other."),
    "wait_turn_quick": _("{who}: enter the Blast you made."),
    "wait_choose": _("{who}: choose which Blast to solve first ({blasts})."),
    "wait_keep": _("{who}: choose the candies to keep from this Blast."),
    "wait_tilt": _("{who}: tilt the board toward you, then let it go (or tap Tilted)."),
    "wait_return": _("Every player puts 2 of their candies back in the bag first."),
    "wait_refill": _("Fill the empty spaces from the bag first."),
    "wait_cascade": _("{who}: enter a new Blast, or tap No more Blasts."),
    # prompts
    "prompt_setup": _("Tap a colour, then its cells ({on} of {cells}). Tap Start when full."),
    "prompt_dealt": _("Lay the candies out like this, then tap Ready."),
    "prompt_setup_quick": _("Quick mode: fill the board from the bag, then tap Start."),
    "prompt_selected": _("{who}: tap a candy next to it to swap, or tap it again to let go."),
    "prompt_no_blasts_draw": _("No Blasts! {who}: take 1 candy from the bag, tap its colour, then the candy it replaces."),
    "prompt_no_blasts_pass": _("No Blasts and the bag is empty: tap No Blasts to pass."),
    "prompt_swap": _("{who}: tap two candies next to each other to swap them."),
    "prompt_quick_turn": _("{who}: tap the Blast you made, then its colour. None? Tap No more Blasts."),
    "prompt_quick_cascade": _("{who}: a new Blast? Tap its kind, then its colour. If not, tap No more Blasts."),
    "prompt_let_go": _("{who}: now let the board go back level."),
    "prompt_refill": _("Fill {spaces} from the bag, {order}: tap a colour, then the space."),
    "prompt_refill_quick": _("Fill {spaces} from the bag, {order}, then tap Done."),
    "prompt_keep": _("{who}: from this Blast, {keep}: tap the candies you keep."),
    # the keep buttons as the keep prompt names them (text mode: "tap the candies you keep (/keep X [Y])")
    "keep_button": _("the candies you keep"),
    "prompt_return": _("Not enough candies: {names}, put {n} of your candies back in the bag."),
    "prompt_over": _("Game over."),
    # inputs the game cannot use
    "no_cards": _("Sugar Blast has no cards to scan: use the board on the screen."),
    "no_cards_other": _("That card is from {game}, not Sugar Blast. Sugar Blast has no cards to scan: use the board "
                      "on the screen."),
    "no_buttons": _("Sugar Blast does not use the buttons yet: use the screen."),
    "unknown_input": _("I don't know what {what} means in Sugar Blast."),
    "needs_numbers": _("I don't understand {command!r}: it needs {n} numbers."),
    "unknown_command": _("I don't know the command {command!r}."),
    "unknown_action": _("I don't know how to do {action} in this game."),
    # the screen
    "hint_dealt": _("Lay the candies out from the top left, row by row: {rows}. Then tap Ready."),
    "screen_hint": _("Hint: swap the two candies in the bright blue frames."),
    "hint_words": _("Hint: swap the candy in row {n_row1}, column {n_col1} with the one in row {n_row2}, "
                    "column {n_col2} (type {typed})."),
    "screen_hint_draw": _("No Blasts possible: take 1 candy from the bag, tap its colour, then the candy it replaces."),
    "screen_hint_pass": _("No Blasts possible: tap No Blasts?"),
    "screen_quick_board": _("Quick mode: no board on screen. On the board: {on}, empty: {holes}."),
    "screen_bag_short": _("Bag short: then use {n_candies} from the discards."),
    "screen_slid_to": _("The candies slide to the {edge} of the board."),
    "screen_tilt": _("Tilt the board toward you"),
    "screen_let_go": _("Now let go"),
    "screen_tilted": _("Tilted"),
    "screen_tilt_confirm": _("The tray sensor is working. Did you tilt the board toward you and let go?"),
    "screen_tilt_yes": _("Yes, tilted"),
    "screen_back": _("Back"),
    "screen_deal": _("Set up from the screen"),
    "screen_kept_only": _("Only one choice: {who} keeps {kept}."),
    "screen_ready": _("Ready"),
    "screen_start": _("Start"),
    "screen_no_candies": _("no candies"),
    # the score table's line: what a score counts (issue 38)
    "sheet_kept": _("{candies} kept: {kinds}"),
    "sheet_kept_none": _("no Candies kept"),
    "sheet_candy": _("Candy"),
    "screen_fill": _("Fill {left}"),
    "screen_fill_words_one": _("space from the bag, {order}"),
    "screen_fill_words": _("spaces from the bag, {order}"),
    # the rulebook's "from bottom to top" as the tilting seat sees it (its edge first): the
    # refill's prompt and verdict say it too (order_words), so every word agrees with the panel
    "screen_order_bottom": _("bottom to top"),
    "screen_order_top": _("top to bottom"),
    "screen_order_left": _("left to right"),
    "screen_order_right": _("right to left"),
    # the cue on the tilting seat's edge of the board, turned to face that seat
    "cue_tilt": _("Tilt toward you"),
    "cue_let_go": _("Now let it go level"),
    "cue_fill": _("Fill from your side"),
    "screen_bag_slid": _("Bag: {bag}   slid to the {edge}"),
    "screen_no_more": _("No more Blasts"),
    "screen_quick_which": _("Which Blast did you make?"),
    "screen_quick_new": _("A new Blast after the refill?"),
    "screen_quick_colour": _("{blast}: which colour?"),
    "screen_quick_removed": _("{n_candies} removed"),
    "screen_quick_3": _("3 in a line"),
    "screen_quick_4": _("a whole line"),
    "screen_quick_56": _("all of a colour"),
    "screen_quick_box": _("T, L or +"),
    "final_goal": _("{who} wins!"),
    "final_solo_win": _("{who} wins the solo challenge!"),
    "final_solo_loss": _("Out of candies: try again!"),
    "final_goal_card": _("Goal Card: {goal}"),
    "final_solo": _("Solo: {n_candies} in one turn"),
    "final_turns": _("{turns}"),
    # companion hint
    "hint_none": _("No Blasts: no swap makes one. Take 1 candy from the bag and swap it with a different one."),
    "hint_already": _("The board already holds {blasts}: solve {them} first."),
    "hint_already_one": _("{blast} of {candy} at {cells}"),
    "hint_swaps": _("{swaps} to make a Blast (rows and columns counted from 1 at the top left):"),
    "hint_swap": _("  swap {a} {ca} with {b} {cb}: {blasts}  (type /swap {raw})"),
    "hint_blast": _("{blast} of {candy} ({n_candies})"),
}


def order_words(edge: str) -> str:
    """The rulebook's "fill all empty spaces from bottom to top" as the seat at ``edge``
    (of the board as drawn: "bottom", "top", "left", "right") sees it on the screen,
    its own side first: "bottom to top" for the bottom seat, "top to bottom" for the top
    seat (rulebook, "Every Time You Make a Blast"). KeyError: not an edge.

    >>> order_words("top"), order_words("left")
    ('top to bottom', 'left to right')
    """
    return say(f"screen_order_{edge}")


def say(key: str, **values) -> str:
    """The message ``key`` with its fields filled in, as a :class:`Message` that keeps ``key``
    (a refusal's key finds its rulebook sentence: ``parts/why.toml``). KeyError: a field is missing."""
    return Message(TEXT[key].format(**values), key)


def fields(key: str) -> list[str]:
    """The names of the fields in the template ``key`` (for the catalogue test)."""
    return template_fields(TEXT[key])


def line_of(cells) -> str:
    """"row 3" or "column 2" (from 1) for a straight line of cells."""
    cells = list(cells)
    if cells[0][0] == cells[-1][0]:
        return f"row {cells[0][0] + 1}"
    return f"column {cells[0][1] + 1}"


def placed(blast) -> str:
    """A Blast by what and where, rows and columns from 1: "3 Blue down column 5",
    "3 Green along row 5", "5 Red around row 2, column 3" (a bent or box shape, by its
    top-left candy); a quick-mode Blast (no cells) by its kind: "a 4-Blast of Red"."""
    name = NAMES[blast.candy]
    cells = list(blast.cells)
    if not cells:
        return f"a {blast_name(blast.kind)} of {name}"
    rows, cols = {r for r, _ in cells}, {c for _, c in cells}
    if len(rows) == 1:
        return f"{len(cells)} {name} along row {cells[0][0] + 1}"
    if len(cols) == 1:
        return f"{len(cells)} {name} down column {cells[0][1] + 1}"
    return f"{len(cells)} {name} around {where((min(rows), min(cols)))}"


def blast_list(blasts) -> str:
    """"Blast 1: 3 Blue down column 5; Blast 2: 3 Green along row 5" (numbered as /blast N)."""
    return "; ".join(f"Blast {n}: {placed(b)}" for n, b in enumerate(blasts, 1))


def describe(blast, removing: int | None = None) -> str:
    """What to remove and what to keep, for the screen (the Blast named by its kind)."""
    name = NAMES[blast.candy]
    keep = say("keep_one_other" if blast.keep_other else "keep_one", candy=name)
    if blast.kind == "3":
        return say("blast_3", candy=name)
    if blast.kind == "4":
        if not blast.cells:
            return say("blast_4_quick", keep=keep)
        return say("blast_4", line=line_of(blast.cells), keep=keep)
    if blast.kind == "5-6":
        return say("blast_56", candy=name)
    return say("blast_box", candy=name, n_candies=count(len(blast.removes) or removing or 0, "candy"), keep=keep)
