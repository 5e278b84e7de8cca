"""Every player-visible string of the shared screen (chrome, start screen, pause,
history, the bidding countdown), in one catalogue ready for gettext. (The display's
messages go to the operator's log, not the screen, and stay in English.)

``_()`` is the identity today: the English text is the message id, as GNU gettext
expects, so ``xgettext --keyword=_`` (or Babel's ``pybabel extract``) finds each call,
and a translation later only replaces :func:`_` with ``gettext.translation(...).gettext``.
Strings with fields use ``str.format`` names (``{name}``), never positional ``%s``, so a
translator may reorder them. Each game's own messages stay in its ``messages.py``.

>>> _("Undo")
'Undo'
>>> CATALOGUE["new_game"] == _("New game")
True
"""

from __future__ import annotations


from companion.core.i18n import _  # noqa: E402  (the one gettext marker, for every catalogue)


#: Every string of the shared UI, by a short key (tests check each fits where it is drawn).
CATALOGUE: dict[str, str] = {
    # the top bar and its dialogs (companion.ui.chrome)
    "undo": _("Undo"),
    "pause": _("Pause"),
    "resume": _("Play on"),
    "paused": _("Paused"),
    "paused_body": _("The clocks wait until you play on."),
    "undo_title": _("Take back a move"),
    # the Why? of a refusal (companion.ui.verdict, chrome.overlay): the rulebook sentence behind it
    "why": _("Why?"),
    "why_title": _("The rule behind it"),
    "why_from": _("The rulebook, {section}:"),
    "undo_nothing": _("Nothing can be taken back now."),
    "no": _("No"),
    "undo_it": _("Undo it"),
    "cancel": _("Cancel"),
    "turn": _("Turn {turn}"),
    "new_game": _("New game"),
    "history": _("History"),
    # the game menu (companion.ui.menu, companion.ui.settings)
    "menu": _("Menu"),
    "menu_title": _("Menu"),
    "menu_leave": _("Leave the game"),
    "menu_settings": _("Settings"),
    "leave_title": _("Leave the game"),
    "leave_body": _("Leave this game? It is kept in History as not finished and does not count in the wins."),
    "leave_it": _("Leave it"),
    "leave_keep": _("Keep playing"),
    "left_game": _("The game was left: it is in History as not finished."),
    "leave_failed": _("The game could not be left: the game store cannot be written (the log says why). "
                      "Nothing changed."),
    "left_over": _("This game was left. Start a new game from the start screen."),
    "quit_title": _("Close"),
    "quit_body": _("Close the companion? The game is kept."),
    "quit_it": _("Close it"),
    "settings_title": _("Settings"),
    "set_sound": _("Sound"),
    "set_volume_now": _("{volume} %"),
    "set_mute": _("Mute"),
    "set_unmute": _("Sound on"),
    "set_theme_word": _("Colours"),
    "theme_default": _("Usual"),
    "theme_high_contrast": _("High contrast"),
    "set_light": _("Brightness"),
    "set_volume": _("Volume {volume} %."),
    "set_volume_end": _("The volume is already {volume} %."),
    "set_muted": _("Sound off."),
    "set_unmuted": _("Sound on."),
    "set_theme": _("Colours: {theme}."),
    "set_brightness": _("Brightness {percent} %."),
    "set_brightness_end": _("The brightness is already {percent} %."),
    "set_brightness_failed": _("The brightness could not be changed: the panel did not take it."),
    "set_no_backlight": _("This panel has no brightness to set."),
    "set_unknown": _("That is not a setting."),
    "set_for_now": _("(Kept until the table stops.)"),
    "set_not_written": _("(Kept until the table stops: the config file cannot be written.)"),
    # the start screen (companion.ui.start)
    "choose_game": _("Which game?"),
    "resume_game": _("Carry on: {game} with {names}"),
    "players_title": _("{game}: who is playing?"),
    "players_count": _("Players"),
    "options_title": _("{game}: how to play"),
    "back": _("Back"),
    "teach_off": _("First game: show me how (off)"),
    "teach_on": _("First game: show me how (on)"),
    "next": _("Next"),
    "start": _("Start"),
    "done": _("Done"),
    "space": _("Space"),
    "delete": _("Delete"),
    "clear": _("Clear"),
    "name_title": _("Name for seat {seat}"),
    "quick_name": _("Player {seat}"),
    "on": _("On"),
    "off": _("Off"),
    "default": _("Usual"),
    "random": _("Random"),
    "name_empty": _("A name needs at least one letter."),
    "name_taken": _("Two players cannot share the name {name}."),
    "name_bad": _("Type the name again: a key in it cannot be shown."),
    "name_full": _("A name can have {most} letters: that is the most."),
    "name_long": _("That name has more than {most} letters: type a shorter one."),
    "use_quick": _("Use {name}"),
    # the roster (companion.ui.roster)
    "pick_title": _("Who sits in seat {seat}?"),
    "in_seat": _("in seat {seat}"),
    "new_name": _("New name"),
    "remove_a_name": _("Remove a name"),
    "remove_done": _("Stop removing"),
    "remove_which": _("Tap the name to remove"),
    "remove_title": _("Remove {name}?"),
    "remove_body": _("The name goes from this list. Games played with it stay in the History."),
    "remove": _("Remove"),
    "keep_name": _("Keep it"),
    "same_players": _("Same players as last time: {names}"),
    # history (companion.ui.history)
    "history_title": _("Games at this table"),
    "history_empty": _("No finished games yet."),
    "won_by": _("won by {names}"),
    "nobody_won": _("nobody won"),
    "unfinished": _("unfinished"),
    "abandoned": _("set aside"),
    "left": _("left, not finished"),
    "figures": _("Wins and scores"),
    "figures_title": _("{game}: wins and scores"),
    "figures_note": _("Finished games only"),
    "fig_player": _("Player"),
    "fig_played": _("Played"),
    "fig_won": _("Won"),
    "fig_best": _("Best score"),
    "fig_average": _("Average score"),
    "fig_streak": _("Wins in a row now"),
    "fig_longest": _("Most wins in a row"),
    "sheet_when": _("{game}, played {when}"),
    "sheet_scores": _("The scores as they were kept (this game's full sheet cannot be rebuilt)."),
    # the bidding countdown (Sweet Deals)
    "bid_time_up": _("Time is up: tap Pass if you do not bid."),
    "bid_left": _("{seconds} s to bid"),
    "clock_game": _("Game"),
    "more": _("Page {page} of {pages}: more"),
    "more_short": _("More"),
    # the device pill when the devices' names do not fit it (every one connected)
    "device_ok": _("Ready"),
    "devices_both": _("Both ready"),
    "devices_all": _("All {count} ready"),
    "devices_down": _("{count} not working"),
    "over_undo": _("Game over. A mistake? Tap Undo."),
    "clock_turn": _("this turn"),
    "clock_left": _("left"),
}


def text(key: str, **fields) -> str:
    """The catalogue's ``key`` with its ``{fields}`` filled in."""
    message = CATALOGUE[key]
    return message.format(**fields) if fields else message
