"""The table's history as records: each game in words, and the exports a spreadsheet and
the Board Game Stats app read (CSV, JSON and a BG Stats play file). Printed by
``companion history``; the games come from :meth:`companion.core.store.EventStore.games`."""

from __future__ import annotations

import csv
import datetime as dt
import uuid
from pathlib import Path

from ..core.game import result_from_dict
from ..games import GAMES


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


def finished_results(games):
    """(record, Result) of each finished game whose result reads (abandoned and
    unfinished games left out)."""
    for g in games:
        if g.finished is None or not g.result or g.result.get("abandoned"):
            continue
        try:
            yield g, result_from_dict(g.result)
        except ValueError:
            continue


#: The namespace of the UUIDs in a BG Stats file: the same game exports with the same
#: UUID every time, so importing a file twice does not count a play twice.
BGSTATS_NS = uuid.UUID("6f1c3f8e-6a52-4d6e-9f4b-5ad1c0b7e7a1")
LOCATION = "Sugar Table"


def bgstats(games, store_path: str) -> dict:
    """This table's finished games as a Board Game Stats play file (the JSON the app
    opens with "open in" / import): ``players``, ``locations``, ``games`` and ``plays``,
    each play with ``playerScores`` pointing at them by ``playerRefId``/``gameRefId``.

    Field names follow the play files BG Stats shares and reads (see
    docs/scoreboard.md for the sources): dates ``YYYY-MM-DD HH:MM:SS`` local time,
    scores as text, ``rank`` 1 for the best, ``seatOrder`` from 1, ``startPlayer`` the
    first seat. Players are matched by name across games (a table's names are its
    regulars)."""
    def uid(*parts) -> str:
        return str(uuid.uuid5(BGSTATS_NS, "/".join(map(str, (Path(store_path).name, *parts)))))

    players: dict[str, dict] = {}
    kinds: dict[str, dict] = {}
    plays = []
    for g, result in sorted(finished_results(games), key=lambda gr: gr[0].id):
        desc = GAMES.get(g.game)
        if g.game not in kinds:
            kinds[g.game] = {"id": len(kinds) + 1, "uuid": uid("game", g.game), "name": desc.name if desc else g.game,
                             "cooperative": False, "highestWins": True, "noPoints": False, "usesTeams": False}
        rank = {p.name: i for i, p in enumerate(result.ranked(), 1)}
        scores = []
        for seat, p in enumerate(result.players, 1):
            if p.name not in players:
                players[p.name] = {"id": len(players) + 1, "uuid": uid("player", p.name), "name": p.name,
                                   "isAnonymous": False}
            scores.append({"playerRefId": players[p.name]["id"], "score": str(p.score),
                           "winner": p.name in result.winners, "rank": rank[p.name], "seatOrder": seat,
                           "startPlayer": seat == 1, "newPlayer": False})
        when = dt.datetime.fromtimestamp(g.started)
        plays.append({"uuid": uid("play", g.id), "gameRefId": kinds[g.game]["id"], "locationRefId": 1,
                      "playDate": when.strftime("%Y-%m-%d %H:%M:%S"),
                      "durationMin": max(0, round((g.finished - g.started) / 60)),
                      "ignored": False, "manualWinner": False, "rounds": 0, "usesTeams": False,
                      "board": "", "comments": f"Sugar Table Companion game #{g.id}",
                      "playerScores": scores})
    return {"about": "Plays from the Sugar Table Companion: open this file with Board Game Stats to import them.",
            "players": list(players.values()),
            "locations": [{"id": 1, "uuid": uid("location"), "name": LOCATION}],
            "games": list(kinds.values()), "plays": plays}


def as_json(games) -> list[dict]:
    """Every game as a JSON-ready dict (the store's record: id, game, players, times in
    seconds since the epoch, result, config, inputs)."""
    return [{**g.__dict__, "players": list(g.players)} for g in games]
