"""The recorded family game through pty -> serial reader -> session -> store -> screen."""

import json
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from companion.table.replay import replay
from companion.table.logs import json_logger
from companion.table.trace import TraceError, read

DATA = Path(__file__).parent / "data"
TRACE = DATA / "sugarrr-family.trace"
GOLDEN = json.loads((DATA / "sugarrr-family.golden.json").read_text())


class Lines:
    def __init__(self):
        self.text = ""

    def write(self, s):
        self.text += s

    def flush(self):
        pass

    def objects(self):
        return [json.loads(line) for line in self.text.splitlines()]


@pytest.fixture(scope="module")
def replayed(tmp_path_factory):
    log = Lines()
    runner = replay(TRACE, listeners=[json_logger(log)])
    out = tmp_path_factory.mktemp("out")
    png = runner.app.save(out / "final.png")
    yield runner, log.objects(), png
    runner.app.close()


def test_replay_ends_with_the_golden_scores(replayed):
    runner, _, _ = replayed
    assert runner.session.result().to_dict() == GOLDEN


def test_every_scan_has_a_verdict_and_mistakes_are_caught(replayed):
    _, log, _ = replayed
    scans = [o for o in log if o["event"] == "scan"]
    trace = read(TRACE)
    terminators = sum(r.data.count(b"\n") + r.data.count(b"\r") - r.data.count(b"\r\n") for r in trace.records)
    assert len(scans) == terminators  # one verdict per scan, the split read included once
    verdicts = {v: [s for s in scans if s["verdict"] == v] for v in ("accepted", "rejected", "ignored")}
    assert len(verdicts["ignored"]) == 1
    reasons = " | ".join(s["reason"] for s in verdicts["rejected"])
    for words in ("did not read right", "Sugar Heist", "already in column", "does not match"):
        assert words in reasons
    assert "fits columns" not in reasons  # a card that fits two columns is a step, not a rejection (issue 9)
    assert all(s["reason"] for s in verdicts["rejected"] + verdicts["ignored"])
    garbled = [s for s in scans if "did not read right" in s.get("reason", "")]
    assert garbled and all(s["code"] is None and s["raw"] for s in garbled)
    heist = [s for s in scans if "Sugar Heist" in s.get("reason", "")]
    assert heist[0]["code"].startswith("SH")
    assert all("reason" not in s and s["seq"] for s in verdicts["accepted"])
    assert any(o["event"] == "outcome" and o["type"] == "GameOver" for o in log)


def test_the_final_screen_is_written(replayed):
    _, _, png = replayed
    image = pygame.image.load(str(png))
    assert image.get_size() == (800, 480)


def test_demo_command_prints_scores_and_writes_the_png(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "demo", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    winner = GOLDEN["winners"][0]
    assert f"{winner} is the Win-O-Saur!" in proc.stdout
    for p in GOLDEN["players"]:
        assert p["name"] in proc.stdout and str(p["score"]) in proc.stdout
    assert (tmp_path / "sugarrr-final.png").stat().st_size > 1000


def test_replay_json_matches_golden(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "replay", str(TRACE), "--json"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == GOLDEN


@pytest.mark.parametrize("content, words", [
    ("", "no trace header"),
    ('{"trace": 1}\n{"t": 1, "nothing": 2}\n', "line 2"),
    ('{"trace": 1}\n{"t": 5, "touch": "done"}\n{"t": 1, "touch": "done"}\n', "backwards"),
    ("not json\n", "line 1"),
    ('{"trace": 1, "players": ["Ana", "Ben"]}\n{"t": 1, "touch": "done"}\n', "names no game"),
])
def test_a_bad_trace_is_a_clear_error(tmp_path, content, words):
    path = tmp_path / "bad.trace"
    path.write_text(content)
    with pytest.raises(TraceError, match=words):
        read(path)
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "replay", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and words in proc.stderr
