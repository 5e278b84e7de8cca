"""``companion history``: this table's past and unfinished games, read-only."""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path

from ..core.errors import StoreError
from ..core.figures import figures_json
from ..core.i18n import count
from ..core.store import DEFAULT_STORE, EventStore
from ..games import GAMES
from ..table.history import as_json, bgstats, describe, resume_notes, write_csv
from .common import DEVICE, fail, user_path


def cmd_history(args) -> int:
    if not Path(args.store).exists():
        print(f"No games yet ({args.store} does not exist).")
        return 0
    try:
        store = EventStore(args.store, readonly=True)
        games = store.games()
    except StoreError as err:
        return fail(str(err), DEVICE)
    form = args.format or ("json" if args.json else "csv" if args.csv else "text")
    if form == "json":
        names = {slug: desc.name for slug, desc in GAMES.items()}
        print(json.dumps({"games": as_json(games), "figures": figures_json(games, names)}))
        return 0
    if form == "csv":
        write_csv(games, sys.stdout)
        return 0
    if form == "bgstats":
        try:
            data = bgstats(games, args.store, store.inputs)
        except StoreError as err:
            return fail(str(err), DEVICE)
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    if not games:
        print(f"No games yet in {args.store}.")
    notes = resume_notes(games)
    for g in games:
        when = dt.datetime.fromtimestamp(g.started).strftime("%Y-%m-%d %H:%M")
        name = GAMES[g.game].name if g.game in GAMES else g.game
        print(f"#{g.id}  {when}  {name}  {', '.join(g.players)}  {count(g.inputs, 'input')}  "
              f"{describe(g, notes.get(g.id))}")
    return 0


JSON_HELP = """\
--format json (or --json) prints one object:
  games    every game, newest first: id, game (its slug), players (names in seat
           order), started and finished (seconds since the epoch; finished null while
           unfinished), result ({"abandoned": true} for a game set aside or left,
           else game, players [{name, score, breakdown}], winners, tie_break,
           reason), config (the set-up options), inputs (how many were stored)
  figures  per game, per player, over finished games only (unfinished, set-aside
           and left games do not count): [{game, name, players: [{player, played,
           won, best, average, current_streak, longest_streak}]}]; a shared win is
           a win for each winner; average to one decimal; a streak is wins in a row
           in that player's own games of that kind, current ending at their newest"""


def add_parsers(sub) -> None:
    import argparse

    h = sub.add_parser("history", help="list past and unfinished games", epilog=JSON_HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    h.add_argument("--store", default=str(DEFAULT_STORE), type=user_path, help="the game database (opened read-only)")
    form = h.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="as JSON: every game and each player's figures (below)")
    form.add_argument("--csv", action="store_true", help="as CSV, one row per player per game (for a spreadsheet)")
    form.add_argument("--format", choices=("text", "csv", "json", "bgstats"),
                      help="text (default), csv, json, or bgstats: a Board Game Stats play file of the finished "
                           "games (save it as plays.bgsplay and open it with the BG Stats app)")
    h.set_defaults(func=cmd_history)
