"""`companion history --format csv|json|bgstats` and the history screen."""

import csv
import io
import json
import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from companion.games import GAMES
from companion import cli
from companion.core.store import EventStore
from companion.ui.history import HistoryScreen

RESULT = {"game": "sugarrr", "players": [{"name": "Ana", "score": 41, "breakdown": {}},
                                         {"name": "Ben", "score": 55, "breakdown": {}},
                                         {"name": "Cy", "score": 41, "breakdown": {}}],
          "winners": ["Ben"], "tie_break": None, "reason": "deck-out"}


def store_with_games(path):
    store = EventStore(path)
    done = store.new_game("sugarrr", ["Ana", "Ben", "Cy"], 1_700_000_000.0)
    store.finish(done, 1_700_000_000.0 + 45 * 60, RESULT)
    left = store.new_game("sweet-deals", ["Ana", "Dee"], 1_700_010_000.0)
    store.abandon(left, 1_700_010_100.0)
    store.new_game("sugar-heist", ["Ana", "Ben"], 1_700_020_000.0)
    store.close()
    return path


def run(capsys, *args):
    assert cli.main(["history", *args]) == 0
    return capsys.readouterr().out


def test_bgstats_file_has_one_play_per_finished_game_with_ranks_and_winners(tmp_path, capsys):
    db = store_with_games(tmp_path / "t.db")
    data = json.loads(run(capsys, "--store", str(db), "--format", "bgstats"))
    assert [g["name"] for g in data["games"]] == ["Sugarrr!"]
    (play,) = data["plays"]  # the abandoned and the unfinished game are not plays
    assert play["durationMin"] == 45 and play["gameRefId"] == data["games"][0]["id"]
    names = {p["id"]: p["name"] for p in data["players"]}
    rows = {names[s["playerRefId"]]: s for s in play["playerScores"]}
    assert {n: (r["score"], r["rank"], r["winner"], r["seatOrder"]) for n, r in rows.items()} == {
        "Ana": ("41", 2, False, 1), "Ben": ("55", 1, True, 2), "Cy": ("41", 3, False, 3)}
    assert rows["Ana"]["startPlayer"] and play["locationRefId"] == data["locations"][0]["id"]
    again = json.loads(run(capsys, "--store", str(db), "--format", "bgstats"))
    assert again["plays"][0]["uuid"] == play["uuid"]  # importing twice does not count it twice


def test_csv_and_json_formats(tmp_path, capsys):
    db = store_with_games(tmp_path / "t.db")
    rows = list(csv.DictReader(io.StringIO(run(capsys, "--store", str(db), "--format", "csv"))))
    assert [(r["player"], r["rank"], r["status"]) for r in rows if r["game"] == "sugarrr"] == [
        ("Ana", "2", "finished"), ("Ben", "1", "finished"), ("Cy", "3", "finished")]
    assert {r["status"] for r in rows if r["game"] != "sugarrr"} == {"abandoned", "unfinished"}
    games = json.loads(run(capsys, "--store", str(db), "--format", "json"))["games"]
    assert [g["game"] for g in games] == ["sugar-heist", "sweet-deals", "sugarrr"]
    assert games[2]["result"]["winners"] == ["Ben"] and games[2]["players"] == ["Ana", "Ben", "Cy"]


def test_history_screen_lists_the_tables_games_newest_first_and_pages(tmp_path):
    store = EventStore(store_with_games(tmp_path / "t.db"))
    screen = HistoryScreen(store, GAMES)
    words = [w for _, w in screen.rows()]
    assert words == ["Sugar Heist: unfinished", "Sweet Deals: set aside", "Sugarrr!: won by Ben: Ben 55, Ana 41, Cy 41"]
    for i in range(6):
        store.new_game("sugarrr", ["A", "B"], 1_700_030_000.0 + i)
    screen = HistoryScreen(store, GAMES)
    assert screen.handle("older") is None and screen.page == 1
    assert screen.handle("newer") is None and screen.page == 0
    assert screen.handle("back") == "close" and screen.handle("newgame") == "newgame"


# ---------------------------------------------------------------- what a spreadsheet and BG Stats read

def _finished(store, game, players, result, started, finished, inputs=()):
    gid = store.new_game(game, list(players), started)
    for item in inputs:
        store.append(gid, item)
    store.finish(gid, finished, result)
    return gid


def _result(scores: dict, winners: list):
    return {"game": "sugarrr", "players": [{"name": n, "score": s, "breakdown": {}} for n, s in scores.items()],
            "winners": winners, "tie_break": None, "reason": "deck-out"}


def spreadsheet_cells(text: str) -> list[list[str]]:
    """The CSV as a spreadsheet reads it: the csv module's cells."""
    return list(csv.reader(io.StringIO(text)))


def is_formula(cell_text: str) -> bool:
    """What a spreadsheet (LibreOffice, Excel, Sheets) would evaluate: a cell starting
    with = + - @ (or a tab or line break before one), unless it is a plain number."""
    try:
        float(cell_text)
        return False
    except ValueError:
        return cell_text[:1] in ("=", "+", "-", "@", "\t", "\r", "\n")


def test_names_a_spreadsheet_would_run_as_formulas_are_written_as_text(tmp_path, capsys):
    names = ["=HYPERLINK(\"http://x\",\"win\")", "-Maya", "+Leo", "@SUM(A1)"]
    store = EventStore(tmp_path / "t.db")
    _finished(store, "sugarrr", names, _result(dict(zip(names, [40, 30, 20, -3])), [names[0]]), 1_700_000_000.0,
              1_700_000_600.0)
    store.new_game("sugarrr", ["-Maya", "Ana"], 1_700_001_000.0)
    store.close()
    cells = spreadsheet_cells(run(capsys, "--store", str(tmp_path / "t.db"), "--format", "csv"))
    assert not [c for row in cells for c in row if is_formula(c)]
    players = [row[cells[0].index("player")] for row in cells[1:]]
    assert sorted(p[1:] for p in players if p.startswith("'")) == sorted(names + ["-Maya"])  # readable, text
    assert "-3" in [row[cells[0].index("score")] for row in cells[1:]]  # numbers stay numbers


def test_a_shared_win_is_rank_1_for_every_winner_in_the_csv_and_the_bgstats_file(tmp_path, capsys):
    store = EventStore(tmp_path / "t.db")
    _finished(store, "sugarrr", ["Ana", "Ben", "Cy"], _result({"Ana": 50, "Ben": 50, "Cy": 20}, ["Ana", "Ben"]),
              1_700_000_000.0, 1_700_000_600.0)
    store.close()
    rows = list(csv.DictReader(io.StringIO(run(capsys, "--store", str(tmp_path / "t.db"), "--format", "csv"))))
    assert {r["player"]: (r["rank"], r["winner"]) for r in rows} == {
        "Ana": ("1", "yes"), "Ben": ("1", "yes"), "Cy": ("3", "no")}
    data = json.loads(run(capsys, "--store", str(tmp_path / "t.db"), "--format", "bgstats"))
    names = {p["id"]: p["name"] for p in data["players"]}
    assert {names[s["playerRefId"]]: (s["rank"], s["winner"]) for s in data["plays"][0]["playerScores"]} == {
        "Ana": (1, True), "Ben": (1, True), "Cy": (3, False)}


def test_play_uuids_differ_between_tables_and_after_a_fresh_start_and_stay_for_the_same_game(tmp_path, capsys):
    def export(path):
        return json.loads(run(capsys, "--store", str(path), "--format", "bgstats"))

    paths = []
    for n, folder in enumerate(["kitchen", "cafe"]):  # two tables, both with the default file name
        (tmp_path / folder).mkdir()
        path = tmp_path / folder / "table.db"
        store = EventStore(path)
        _finished(store, "sugarrr", ["Ana", "Ben"], _result({"Ana": 5, "Ben": 3}, ["Ana"]),
                  1_700_000_000.25 + n * 3600.5, 1_700_000_600.0 + n * 3600)
        store.close()
        paths.append(path)
    first, second = (export(p)["plays"][0]["uuid"] for p in paths)
    assert first != second
    paths[0].rename(tmp_path / "kitchen" / "old.db")  # moved aside, started afresh: game 1 again
    store = EventStore(paths[0])
    _finished(store, "sugarrr", ["Ana", "Ben"], _result({"Ana": 5, "Ben": 3}, ["Ana"]), 1_700_090_000.75,
              1_700_090_600.0)
    store.close()
    fresh = export(paths[0])["plays"][0]["uuid"]
    assert fresh not in (first, second)
    assert export(paths[0])["plays"][0]["uuid"] == fresh  # the same game: the same uuid every export


def test_bgstats_duration_leaves_paused_time_out(tmp_path, capsys):
    """The report: 48 min for a game whose own clock said 8.3 (40 minutes paused)."""
    from companion.core.events import ButtonPressed, Touch

    t0 = 1_700_000_000.0
    inputs = [Touch("done", t0 + 60), Touch("pause", t0 + 120), Touch("resume", t0 + 120 + 30 * 60),
              ButtonPressed("pause", t0 + 200 + 30 * 60), Touch("done", t0 + 200 + 40 * 60)]  # a play ends a pause
    store = EventStore(tmp_path / "t.db")
    _finished(store, "sugarrr", ["Ana", "Ben"], _result({"Ana": 5, "Ben": 3}, ["Ana"]), t0, t0 + 48 * 60 + 18, inputs)
    store.close()
    play = json.loads(run(capsys, "--store", str(tmp_path / "t.db"), "--format", "bgstats"))["plays"][0]
    assert play["durationMin"] == 8  # 48.3 min less 30 and 10 paused


def test_the_bgstats_file_validates_against_the_apps_play_file_schema(tmp_path, capsys):
    """Imported as the app would: the JSON Schema written from its play-file fields
    (tests/data/bgstats-play-file.schema.json), then every reference resolves."""
    import jsonschema

    from pathlib import Path

    schema = json.loads((Path(__file__).parent / "data" / "bgstats-play-file.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    store = EventStore(tmp_path / "t.db")
    _finished(store, "sugarrr", ["-Maya", "Ana", "Ben"], _result({"-Maya": 9, "Ana": 9, "Ben": 2}, ["-Maya", "Ana"]),
              1_700_000_000.0, 1_700_000_900.0)
    _finished(store, "sugarrr", ["Ana", "Ben"], _result({"Ana": 1, "Ben": 3}, ["Ben"]), 1_700_100_000.0,
              1_700_100_900.0)
    store.close()
    data = json.loads(run(capsys, "--store", str(tmp_path / "t.db"), "--format", "bgstats"))
    jsonschema.Draft202012Validator(schema).validate(data)
    ids = {kind: {x["id"] for x in data[kind]} for kind in ("players", "locations", "games")}
    for play in data["plays"]:
        assert play["gameRefId"] in ids["games"] and play["locationRefId"] in ids["locations"]
        assert {s["playerRefId"] for s in play["playerScores"]} <= ids["players"]
        assert sorted(s["seatOrder"] for s in play["playerScores"]) == list(range(1, len(play["playerScores"]) + 1))
        assert any(s["winner"] and s["rank"] == 1 for s in play["playerScores"])
    uuids = [x["uuid"] for kind in ("players", "locations", "games", "plays") for x in data[kind]]
    assert len(uuids) == len(set(uuids))
    bad = dict(data, plays=[dict(data["plays"][0], durationMin="15")])
    with pytest.raises(jsonschema.ValidationError):  # the schema does catch a wrong field
        jsonschema.Draft202012Validator(schema).validate(bad)
