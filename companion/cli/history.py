"""``companion history``: this table's past and unfinished games, read-only."""

from __future__ import annotations

import datetime as dt
import json
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
    h.add_argument("--json", action="store_true", help="as JSON, one object per game")
    h.set_defaults(func=cmd_history)
