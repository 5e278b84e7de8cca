"""`companion history --format csv|json|bgstats` and the history screen."""

import csv
import io
import json
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

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
    games = json.loads(run(capsys, "--store", str(db), "--format", "json"))
    assert [g["game"] for g in games] == ["sugar-heist", "sweet-deals", "sugarrr"]
    assert games[2]["result"]["winners"] == ["Ben"] and games[2]["players"] == ["Ana", "Ben", "Cy"]


def test_history_screen_lists_the_tables_games_newest_first_and_pages(tmp_path):
    store = EventStore(store_with_games(tmp_path / "t.db"))
    screen = HistoryScreen(store)
    words = [w for _, w in screen.rows()]
    assert words == ["Sugar Heist: unfinished", "Sweet Deals: set aside", "Sugarrr!: won by Ben: Ben 55, Ana 41, Cy 41"]
    for i in range(6):
        store.new_game("sugarrr", ["A", "B"], 1_700_030_000.0 + i)
    screen = HistoryScreen(store)
    assert screen.handle("older") is None and screen.page == 1
    assert screen.handle("newer") is None and screen.page == 0
    assert screen.handle("back") == "close" and screen.handle("newgame") == "newgame"
