"""``companion history``: this table's past and unfinished games, read-only."""

from __future__ import annotations

import csv
import datetime as dt
import json
import sys
from pathlib import Path

from ..core.errors import StoreError
from ..core.game import result_from_dict
from ..core.store import EventStore
from ..games import GAMES
from .common import DEFAULT_STORE, DEVICE, fail


def describe(record) -> str:
    """One game's outcome in words: unfinished, abandoned, or who won with the scores."""
    if record.finished is None:
        return "unfinished (resumes on next run)"
    if not record.result or record.result.get("abandoned"):
        return "abandoned"
    try:
        result = result_from_dict(record.result)
    except ValueError:
        return "finished (its result could not be read)"
    scores = ", ".join(f"{p.name} {p.score}" for p in result.ranked())
    won = f"won by {' and '.join(result.winners)}" if result.winners else "nobody won"
    return f"{won}: {scores}"


CSV_FIELDS = ("game_id", "date", "game", "seat", "player", "score", "rank", "winner", "tie_break", "reason",
              "status")


def write_csv(games, out) -> None:
    """One row per player per game (spreadsheet-ready): rank 1 is the best; an
    unfinished or abandoned game has one row per player with no score."""
    w = csv.DictWriter(out, CSV_FIELDS)
    w.writeheader()
    for g in games:
        when = dt.datetime.fromtimestamp(g.started).strftime("%Y-%m-%d %H:%M")
        base = {"game_id": g.id, "date": when, "game": g.game}
        result = None
        if g.finished is not None and g.result and not g.result.get("abandoned"):
            try:
                result = result_from_dict(g.result)
            except ValueError:
                result = None
        if result is None:
            status = "unfinished" if g.finished is None else "abandoned"
            for seat, name in enumerate(g.players, 1):
                w.writerow({**base, "seat": seat, "player": name, "status": status})
            continue
        rank = {p.name: i for i, p in enumerate(result.ranked(), 1)}
        for seat, p in enumerate(result.players, 1):
            w.writerow({**base, "seat": seat, "player": p.name, "score": p.score, "rank": rank[p.name],
                        "winner": "yes" if p.name in result.winners else "no", "tie_break": result.tie_break or "",
                        "reason": result.reason or "", "status": "finished"})


def cmd_history(args) -> int:
    if not Path(args.store).exists():
        print(f"No games yet ({args.store} does not exist).")
        return 0
    try:
        store = EventStore(args.store, readonly=True)
        games = store.games()
    except StoreError as err:
        return fail(str(err), DEVICE)
    if args.json:
        print(json.dumps([g.__dict__ for g in games], default=list))
        return 0
    if args.csv:
        write_csv(games, sys.stdout)
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
    h.add_argument("--store", default=str(DEFAULT_STORE), help="the game database (opened read-only)")
    form = h.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="as JSON, one object per game")
    form.add_argument("--csv", action="store_true", help="as CSV, one row per player per game (for a spreadsheet)")
    h.set_defaults(func=cmd_history)
