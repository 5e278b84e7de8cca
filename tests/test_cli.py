"""`companion score`, `cards` and `history` as a user types them."""

import json
import subprocess
import sys

from companion.core.clock import FakeClock
from companion.core.codes import make_code
from companion.core.store import EventStore
from companion.table.session import Session
from sugarrr_helpers import STARTS, fruit, salad, saur


def companion(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_score_json_scores_each_player_and_names_the_winner(tmp_path):
    f = tmp_path / "hands.txt"
    f.write_text(
        "# end of a game\n"
        f"Ana: {fruit('Strawberry', 2)} {fruit('Strawberry', 3)} {saur('Strawberry', 4)} {salad(1)}\n"
        "\n"
        f"Ben: {fruit('Grapes', 2)} {saur('Grapes', 5)}\n")
    proc = companion("score", "sugarrr", str(f), "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert [(p["name"], p["score"]) for p in out["players"]] == [("Ana", 9), ("Ben", 5)]
    assert out["winners"] == ["Ana"] and out["tie_break"] is None and out["game"] == "sugarrr"
    assert out["players"][0]["breakdown"]["Strawberry"] == {"cards": 2, "fruit_o_saurs": [4], "per_card": 4, "points": 8}


def test_score_from_stdin_in_plain_text():
    proc = companion("score", "sugarrr", "-", stdin=f"Ana: {salad(1)}\nBen: {salad(2)}\n")
    assert proc.returncode == 0
    assert "Ana and Ben are Win-O-Saurs! (a shared win)" in proc.stdout


def test_score_rejects_bad_codes_naming_line_and_code(tmp_path):
    cases = {
        f"Ana: {fruit('Pear', 2)}\nBen: SRS7\n": ("line 2", "SRS7", "not a card code", "companion cards sugarrr"),
        f"Ana: {make_code('SH', 'L07')}\n": ("line 1", "Sugar Heist"),
        f"Ana: {salad(1)}\nBen: {salad(1)}\n": ("line 2", "listed twice", "line 1"),
        "just words\n": ("line 1", "NAME: CODE"),
    }
    for text, words in cases.items():
        proc = companion("score", "sugarrr", "-", stdin=text)
        assert proc.returncode == 2, text
        assert proc.stdout == ""
        for w in words:
            assert w in proc.stderr, (w, proc.stderr)
        assert "scan" not in proc.stderr  # a file is read, not scanned


def test_cards_json_lists_all_148_with_names():
    proc = companion("cards", "sugarrr", "--json")
    cards = json.loads(proc.stdout)
    assert len(cards) == 148 and len({c["code"] for c in cards}) == 148
    names = {c["name"] for c in cards}
    assert {"Strawberry 7", "Fruit Salad", "Tyrannostrawbrus Rex 3"} <= names
    assert all({"code", "name", "copy"} <= set(c) for c in cards)


def test_history_lists_unfinished_and_finished_games(tmp_path):
    db = tmp_path / "table.db"
    s = Session.start("sugarrr", ["Ana", "Ben"], EventStore(db), FakeClock(1_700_000_000))
    from companion.core.events import CardScanned
    s.handle(CardScanned(STARTS[0], "scanner", 1_700_000_001))
    proc = companion("history", "--store", str(db))
    assert proc.returncode == 0
    assert "Ana, Ben" in proc.stdout and "  1 input  " in proc.stdout and "unfinished" in proc.stdout


def test_binary_and_missing_files_are_clear_errors(tmp_path):
    blob = tmp_path / "blob"
    blob.write_bytes(bytes(range(128, 256)) * 3)
    for args in (["score", "sugarrr", str(blob)], ["replay", str(blob)],
                 ["score", "sugarrr", str(tmp_path / "missing")], ["replay", str(tmp_path)]):
        proc = companion(*args)
        assert proc.returncode == 2, (args, proc.stderr)
        assert "Traceback" not in proc.stderr and proc.stderr.startswith("companion: ")


def test_a_typo_in_a_reader_or_tray_never_touches_the_unfinished_game(tmp_path):
    db = tmp_path / "table.db"
    s = Session.start("sugarrr", ["Ana", "Ben"], EventStore(db), FakeClock(1_700_000_000))
    from companion.core.events import CardScanned
    s.handle(CardScanned(STARTS[0], "scanner", 1_700_000_001))
    for bad, status in ((["--scanner", "hid:/dev/input/event3"], 2), (["--tray", "bogus"], 2),
                        (["--scanner", "serial:/dev/x@3"], 2), (["--scanner", "usb"], 2)):
        proc = companion("run", "--names", "Cy,Di", "--new-game", "--headless", "--store", str(db), *bad)
        assert proc.returncode == status, (bad, proc.stderr)
    games = EventStore(db).games()
    assert len(games) == 1 and games[0].finished is None and games[0].inputs == 1


def test_run_sugar_blast_draws_a_goal_when_none_is_given_and_keeps_it_on_resume(tmp_path):
    db = tmp_path / "blast.db"
    base = ["run", "--game", "sugar-blast", "--names", "Ana,Ben", "--headless", "--simulate", "--store", str(db)]
    proc = companion(*base, stdin="")  # left out: one is drawn at random (rulebook: "take 1 random Goal Card")
    assert proc.returncode == 0 and "drawn at random: Goal Card: Have " in proc.stderr  # its printed words
    proc = companion(*base, "--new-game", "--goal", "five-different", "--log-format", "json",
                     stdin="/palette R\n/cell 0 0\n")
    assert proc.returncode == 0, proc.stderr
    verdicts = [json.loads(line).get("verdict") for line in proc.stdout.splitlines()]
    assert verdicts.count("accepted") == 2
    resumed = companion("run", "--game", "sugar-blast", "--headless", "--simulate", "--store", str(db),
                        "--log-format", "json", stdin="")
    start = json.loads(resumed.stdout.splitlines()[0])
    assert start["resumed_inputs"] == 2 and start["players"] == ["Ana", "Ben"]
    assert EventStore(db).games()[0].config["goal"] == "five-different"


# ---------------------------------------------------------------- found by a fresh user

def run_headless(tmp_path, *args, stdin=""):
    return companion("run", "--headless", "--simulate", "--store", str(tmp_path / "t.db"), *args, stdin=stdin)


def test_a_sugar_heist_third_card_while_a_pair_waits_is_refused_not_a_crash(tmp_path):
    proc = run_headless(tmp_path, "--game", "sugar-heist", "--names", "Mum,Leo,Maya",
                        stdin="SHN16U\nSHN09S\nSHC12F\n/vault 5\n/vault 1\n")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr + proc.stdout
    assert "Not allowed: The pair of Nutty Butt is waiting: tap its vault first" in proc.stdout
    assert "Not allowed (vault 5): Mum has 2 vaults: there is no vault 5." in proc.stdout
    assert "Mum stashes a pair of Nutty Butt" in proc.stdout


def test_a_refusal_is_said_in_words_a_child_reads_and_the_json_log_keeps_its_fields(tmp_path):
    # Issue 38: a child read "REJECTED card:" as the verdict's first word.
    stdin = "SHN16U\nSHN09S\nSHC12F\n/vault 5\n"
    proc = run_headless(tmp_path, "--game", "sugar-heist", "--names", "Mum,Leo,Maya", stdin=stdin)
    assert "REJECTED" not in proc.stdout
    refused = [line for line in proc.stdout.splitlines() if line.startswith("Not allowed")]
    assert refused == ["Not allowed: The pair of Nutty Butt is waiting: tap its vault first (or tap Clear to scan "
                       "the pair again).", "Not allowed (vault 5): Mum has 2 vaults: there is no vault 5."]
    as_json = run_headless(tmp_path / "j", "--game", "sugar-heist", "--names", "Mum,Leo,Maya", "--log-format", "json",
                           stdin=stdin)
    lines = [json.loads(line) for line in as_json.stdout.splitlines()]
    assert [(line["event"], line.get("command"), line["reason"]) for line in lines if line.get("verdict") == "rejected"] \
        == [("scan", None, refused[0].split(": ", 1)[1]), ("touch", "vault 5", "Mum has 2 vaults: there is no vault 5.")]
    assert "Not allowed" not in as_json.stdout


def test_stopping_a_game_says_the_exact_command_that_carries_it_on(tmp_path):
    # Issue 38: "start the companion again with the same --store to carry on" was jargon.
    import os

    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "config"),
               PYGAME_HIDE_SUPPORT_PROMPT="1")

    def run(*args, stdin=""):
        return subprocess.run([sys.executable, "-m", "companion.cli", "run", "--headless", "--simulate", *args],
                              input=stdin, capture_output=True, text=True, timeout=60, env=env)

    first = run("--game", "sugar-heist", "--names", "Mum,Leo,Maya", stdin="SHN16U\n")
    told = ("companion: stopped. The Sugar Heist game is saved. To carry on where you left off, type: "
            "companion run --game sugar-heist --headless --simulate")  # the usual store: no --store to type
    assert told in first.stderr.splitlines(), first.stderr
    assert "--store" not in first.stderr and "same" not in first.stderr
    again = run(*told.split("type: companion run ")[1].split()[:2])  # the command as told (its flags are run's)
    assert again.stdout.startswith("Sugar Heist: Mum, Leo, Maya (resumed, 1 input)"), again.stdout + again.stderr
    elsewhere = run("--game", "sugarrr", "--names", "Ana,Ben", "--store", str(tmp_path / "our games.db"))
    assert (f"type: companion run --game sugarrr --store '{tmp_path / 'our games.db'}' --headless --simulate"
            in elsewhere.stderr), elsewhere.stderr


def test_a_repeated_scan_is_said_to_be_ignored(tmp_path):
    proc = run_headless(tmp_path, "--names", "A,B", stdin="SRS215\nSRS215\n")
    assert "ignored card: That card was just scanned: it counts once." in proc.stdout


def test_names_with_control_characters_or_too_long_are_refused(tmp_path):
    for names in ("A\tB,C", "A,\x1b[31mD", "A," + "x" * 41):
        proc = run_headless(tmp_path, "--names", names)
        assert proc.returncode == 2 and proc.stderr.startswith("companion: --names")
    assert not (tmp_path / "t.db").exists()


def test_a_record_file_that_cannot_be_written_is_a_usage_error(tmp_path):
    for bad in ("/nonexistent/dir/x.trace", str(tmp_path)):
        proc = run_headless(tmp_path, "--names", "A,B", "--record", bad)
        assert proc.returncode == 2 and "--record" in proc.stderr and "Traceback" not in proc.stderr


def test_without_game_or_names_the_stores_unfinished_game_is_carried_on(tmp_path):
    run_headless(tmp_path, "--game", "sugar-heist", "--names", "Mum,Leo", stdin="SHN16U\n")
    proc = run_headless(tmp_path, stdin="SHN09S\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("Sugar Heist: Mum, Leo (resumed, 1 input)")
