"""The table's history as records: each game in words, and the exports a spreadsheet and
the Board Game Stats app read (CSV, JSON and a BG Stats play file). Printed by
``companion history``; the games come from :meth:`companion.core.store.EventStore.games`."""

from __future__ import annotations

import csv
import datetime as dt
import uuid
from pathlib import Path

from ..core.game import Result, result_from_dict
from ..games import GAMES


def resume_notes(games) -> dict[int, str]:
    """For each unfinished game (``games`` newest first, as the store lists them), when
    it is carried on: the newest unfinished game on the next ``companion run`` (or its
    green button on the start screen); the newest unfinished game of each other kind
    when that game is run; any older one of the same kind never (it was set aside)."""
    notes: dict[int, str] = {}
    kinds: set[str] = set()
    for g in games:
        if g.finished is not None:
            continue
        name = GAMES[g.game].name if g.game in GAMES else g.game
        if not notes and not kinds:
            notes[g.id] = "unfinished (resumes on next run)"
        elif g.game not in kinds:
            notes[g.id] = f"unfinished (resumes when {name} is run: companion run --game {g.game})"
        else:
            notes[g.id] = "unfinished (set aside: a newer game of it is carried on instead)"
        kinds.add(g.game)
    return notes


def stored_result(record) -> Result:
    """A finished game's stored result, ranked by its game's tie-break (a game this
    version does not know: by points and seats). Raises ValueError when it is not a result."""
    desc = GAMES.get(record.game)
    return desc.result_from_dict(record.result) if desc is not None else result_from_dict(record.result)


def describe(record, resumes: str | None = None) -> str:
    """One game's outcome in words: unfinished (``resumes``: when it is carried on, from
    :func:`resume_notes`), abandoned, or who won with the scores."""
    if record.finished is None:
        return resumes or "unfinished"
    if not record.result or record.result.get("abandoned"):
        return "abandoned"
    try:
        result = stored_result(record)
    except ValueError:
        return "finished (its result could not be read)"
    scores = ", ".join(f"{p.name} {p.score}" for p in result.ranked())
    won = f"won by {' and '.join(result.winners)}" if result.winners else "nobody won"
    return f"{won}: {scores}"


CSV_FIELDS = ("game_id", "date", "game", "seat", "player", "score", "rank", "winner", "tie_break", "reason",
              "status")


#: What makes a spreadsheet read a cell as a formula (or a DDE command) when it starts a
#: cell: OWASP's list for CSV injection. Such a text cell is written with a leading ``'``.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")


def cell(value):
    """A CSV cell a spreadsheet shows as the text it is: text starting with one of
    :data:`FORMULA_STARTS` gets a leading apostrophe (OWASP, "CSV Injection"); numbers
    are left alone.

    >>> cell("-Maya"), cell("=1+1"), cell("Ana"), cell(-3)
    ("'-Maya", "'=1+1", 'Ana', -3)
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def ranks(result) -> dict[str, int]:
    """Each player's rank for the exports: 1 for every winner (a shared win is a shared
    first place), the others their place in :meth:`Result.ranked` (1 + how many are
    ranked ahead of them). ``{name: rank}``."""
    order = [p.name for p in result.ranked()]
    return {name: 1 if name in result.winners else i for i, name in enumerate(order, 1)}


def write_csv(games, out, table_of=None) -> None:
    """One row per player per game (spreadsheet-ready): rank 1 is the best (every winner
    of a shared win); an unfinished or abandoned game has one row per player with no
    score. Text a spreadsheet would run as a formula is escaped (:func:`cell`).
    ``table_of(game)`` (a café's history, several tables) adds a first column, ``table``."""
    w = csv.DictWriter(out, (("table",) if table_of else ()) + CSV_FIELDS)
    w.writeheader()

    def write(row: dict) -> None:
        w.writerow({k: cell(v) for k, v in row.items()})

    for g in games:
        when = dt.datetime.fromtimestamp(g.started).strftime("%Y-%m-%d %H:%M")
        base = {"game_id": g.id, "date": when, "game": g.game}
        if table_of:
            base["table"] = table_of(g)
        result = None
        if g.finished is not None and g.result and not g.result.get("abandoned"):
            try:
                result = stored_result(g)
            except ValueError:
                result = None
        if result is None:
            status = "unfinished" if g.finished is None else "abandoned"
            for seat, name in enumerate(g.players, 1):
                write({**base, "seat": seat, "player": name, "status": status})
            continue
        rank = ranks(result)
        for seat, p in enumerate(result.players, 1):
            write({**base, "seat": seat, "player": p.name, "score": p.score, "rank": rank[p.name],
                        "winner": "yes" if p.name in result.winners else "no", "tie_break": result.tie_break or "",
                        "reason": result.reason or "", "status": "finished"})


def finished_results(games):
    """(record, Result) of each finished game whose result reads (abandoned and
    unfinished games left out)."""
    for g in games:
        if g.finished is None or not g.result or g.result.get("abandoned"):
            continue
        try:
            yield g, stored_result(g)
        except ValueError:
            continue


#: The namespace of the UUIDs in a BG Stats file: the same game exports with the same
#: UUID every time, so importing a file twice does not count a play twice.
BGSTATS_NS = uuid.UUID("6f1c3f8e-6a52-4d6e-9f4b-5ad1c0b7e7a1")
LOCATION = "Sugar Table"


def played_seconds(record, inputs) -> float:
    """Seconds a finished game was played: start to finish, paused time left out, as the
    game clock counts it (a Pause or Resume toggles; any other input ends a pause, as
    the session does). ``inputs``: the game's stored inputs."""
    from ..ui.timers import game_seconds
    from .verdicts import is_pause

    pauses: list[tuple[float, float | None]] = []
    for item in inputs:
        paused = bool(pauses) and pauses[-1][1] is None
        if is_pause(item):
            if paused:
                pauses[-1] = (pauses[-1][0], item.t)
            else:
                pauses.append((item.t, None))
        elif paused:
            pauses[-1] = (pauses[-1][0], item.t)
    return game_seconds(record.started, record.finished, pauses)


def bgstats(games, store_path: str, inputs_of=None, location: str = LOCATION, table_of=None) -> dict:
    """This table's finished games as a Board Game Stats play file (the JSON the app
    opens with "open in" / import): ``players``, ``locations``, ``games`` and ``plays``,
    each play with ``playerScores`` pointing at them by ``playerRefId``/``gameRefId``.

    Field names follow the play files BG Stats shares and reads (see
    docs/scoreboard.md for the sources): dates ``YYYY-MM-DD HH:MM:SS`` local time,
    scores as text, ``rank`` 1 for the best, ``seatOrder`` from 1, ``startPlayer`` the
    first seat. Players are matched by name across games (a table's names are its
    regulars). Every winner of a shared win has rank 1 (:func:`ranks`). A play's
    ``uuid`` comes from the game's own record (id, game, players and its start time to
    the microsecond), so two tables with the same file name, or a store started afresh,
    never give two games one uuid, and the same game exports with the same uuid every
    time. ``durationMin`` leaves paused time out when ``inputs_of(game_id)`` gives the
    stored inputs (:func:`played_seconds`). A café's history (``table_of(game)``: the
    table it was played at; game ids are each table's own) names the table in each
    play's comment, and ``location`` is the café."""
    def uid(*parts) -> str:
        return str(uuid.uuid5(BGSTATS_NS, "/".join(map(str, (Path(store_path).name, *parts)))))

    def play_uid(g) -> str:
        where = f"{table_of(g)}/" if table_of else ""  # a café: each table numbers its own games
        return str(uuid.uuid5(BGSTATS_NS, f"play/{where}{g.id}/{g.game}/{','.join(g.players)}/{g.started!r}"))

    players: dict[str, dict] = {}
    kinds: dict[str, dict] = {}
    plays = []
    order = (lambda gr: gr[0].id) if table_of is None else (lambda gr: (gr[0].finished or 0, table_of(gr[0])))
    for g, result in sorted(finished_results(games), key=order):
        desc = GAMES.get(g.game)
        if g.game not in kinds:
            kinds[g.game] = {"id": len(kinds) + 1, "uuid": uid("game", g.game), "name": desc.name if desc else g.game,
                             "cooperative": False, "highestWins": True, "noPoints": False, "usesTeams": False}
        rank = ranks(result)
        scores = []
        for seat, p in enumerate(result.players, 1):
            if p.name not in players:
                players[p.name] = {"id": len(players) + 1, "uuid": uid("player", p.name), "name": p.name,
                                   "isAnonymous": False}
            scores.append({"playerRefId": players[p.name]["id"], "score": str(p.score),
                           "winner": p.name in result.winners, "rank": rank[p.name], "seatOrder": seat,
                           "startPlayer": seat == 1, "newPlayer": False})
        when = dt.datetime.fromtimestamp(g.started)
        seconds = played_seconds(g, inputs_of(g.id)) if inputs_of is not None else g.finished - g.started
        plays.append({"uuid": play_uid(g), "gameRefId": kinds[g.game]["id"], "locationRefId": 1,
                      "playDate": when.strftime("%Y-%m-%d %H:%M:%S"),
                      "durationMin": max(0, round(seconds / 60)),
                      "ignored": False, "manualWinner": False, "rounds": 0, "usesTeams": False,
                      "board": "", "comments": f"Sugar Table Companion game #{g.id}"
                      + (f" at {table_of(g)}" if table_of else ""),
                      "playerScores": scores})
    return {"about": "Plays from the Sugar Table Companion: open this file with Board Game Stats to import them.",
            "players": list(players.values()),
            "locations": [{"id": 1, "uuid": uid("location"), "name": location}],
            "games": list(kinds.values()), "plays": plays}


def as_json(games) -> list[dict]:
    """Every game as a JSON-ready dict (the store's record: id, game, players, times in
    seconds since the epoch, result, config, inputs)."""
    return [{**g.__dict__, "players": list(g.players)} for g in games]


def score_sheet(store, record):
    """A finished game's full result for its final screen (``Screen.draw_final``), with
    each player's score sheet: the stored inputs replayed through the rules, as a
    restart replays them (nothing is written). None for a game that is not finished,
    was set aside or left, or whose inputs no longer replay (its stored result, which
    carries no sheets, is then all there is: :func:`stored_result`)."""
    from dataclasses import replace

    from ..core.clock import FakeClock
    from ..core.errors import StoreError
    from .session import Session

    desc = GAMES.get(record.game)
    if desc is None or record.finished is None or not record.result or record.result.get("abandoned"):
        return None
    try:
        session = Session(record.game, store, record.id, desc.rules.new_game(list(record.players), **record.config),
                          FakeClock(record.started), entry=desc.flow.new_entry(), started=record.started)
        session._replay(store.inputs(record.id))
        result = session.result()
    except StoreError:
        return None
    except Exception:  # a game's code failing on an old game: its stored scores are shown, the table goes on
        import logging

        logging.getLogger(__name__).exception("the score sheet of game %s could not be rebuilt", record.id)
        return None
    return None if result is None else replace(result, players=tuple(result.ranked()))


def sheets(store, shown=None):
    """:func:`score_sheet` for ``store``'s records, each passed through ``shown`` (the
    names as the screen can show them: :func:`companion.table.window.drawable_result`):
    the start and history screens' ``sheet_of``."""
    def sheet_of(record):
        result = score_sheet(store, record)
        return result if result is None or shown is None else shown(result)
    return sheet_of
