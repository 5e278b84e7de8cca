"""``companion history``: this table's past and unfinished games, read-only."""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path

from ..core.errors import StoreError
from ..core.store import DEFAULT_STORE, EventStore
from ..games import GAMES
from ..table.history import as_json, bgstats, describe, write_csv
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
        print(json.dumps(as_json(games)))
        return 0
    if form == "csv":
        write_csv(games, sys.stdout)
        return 0
    if form == "bgstats":
        print(json.dumps(bgstats(games, args.store), ensure_ascii=False, indent=1))
        return 0
    if not games:
        print(f"No games yet in {args.store}.")
    for g in games:
        when = dt.datetime.fromtimestamp(g.started).strftime("%Y-%m-%d %H:%M")
        name = GAMES[g.game].name if g.game in GAMES else g.game
        print(f"#{g.id}  {when}  {name}  {', '.join(g.players)}  {g.inputs} inputs  {describe(g)}")
    return 0


def add_parsers(sub) -> None:
    h = sub.add_parser("history", help="list past and unfinished games")
    h.add_argument("--store", default=str(DEFAULT_STORE), type=user_path, help="the game database (opened read-only)")
    form = h.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="as JSON, one object per game")
    form.add_argument("--csv", action="store_true", help="as CSV, one row per player per game (for a spreadsheet)")
    form.add_argument("--format", choices=("text", "csv", "json", "bgstats"),
                      help="text (default), csv, json, or bgstats: a Board Game Stats play file of the finished "
                           "games (save it as plays.bgsplay and open it with the BG Stats app)")
    h.set_defaults(func=cmd_history)
