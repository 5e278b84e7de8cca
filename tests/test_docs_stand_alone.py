"""The project's own docs stand alone and say what the program does (issue 22, item 9)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from companion.core.commands import game_commands
from companion.core.store import EventStore
from companion.games import GAMES

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text()


def companion(*args):
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, SDL_VIDEODRIVER="dummy"))


def test_the_docs_point_at_nothing_outside_the_project():
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = doc.read_text()
        assert "../shared" not in text and "/work/" not in text, doc
    assert (ROOT / "docs" / "design.md").exists() and "docs/design.md" in README


def test_the_readme_links_resolve():
    for link in re.findall(r"\]\(([^)#]+)\)", README) + re.findall(r"`(docs/[\w./-]+\.md)`", README):
        if "://" not in link:
            assert (ROOT / link).exists(), link


def test_the_demo_line_lists_every_game_it_replays():
    line = next(line for line in README.splitlines() if line.startswith("| `companion demo"))
    for slug, desc in GAMES.items():
        if desc.demo:
            assert slug in line, slug


def test_every_game_s_typed_commands_are_in_the_readme():
    for slug in ("sugar-heist", "sweet-deals", "sugar-blast"):
        section = README.split(f"### {GAMES[slug].name}", 1)[1].split("\n### ", 1)[0]
        for command in game_commands(GAMES[slug]):
            assert f"/{command.word}" in section, (slug, command.usage)


def test_make_test_says_how_long_it_takes():
    assert re.search(r"make test.*about \d+ minutes", README)


def test_history_says_resumes_on_next_run_only_for_the_game_that_will(tmp_path):
    db = tmp_path / "t.db"
    store = EventStore(db)
    store.new_game("sugarrr", ["Ana", "Ben"], 1_700_000_000.0)
    store.new_game("sweet-deals", ["Ana", "Ben"], 1_700_000_100.0)
    store.close()
    proc = companion("history", "--store", str(db))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert proc.stdout.count("resumes on next run") == 1
    assert "Sweet Deals" in lines[0] and "resumes on next run" in lines[0]
    assert "Sugarrr!" in lines[1] and "resumes when Sugarrr! is run: companion run --game sugarrr" in lines[1]


def family_part() -> str:
    """The README from its top to the "For developers" heading."""
    assert "\n# For developers\n" in README
    return README.split("\n# For developers\n", 1)[0]


def test_the_readme_opens_with_the_two_commands_then_speaks_to_a_family():
    """Issue 38: a family learns what to buy and do first; the developer part is below."""
    first_block = README.split("```", 2)[1].strip().splitlines()
    assert [line.split()[:2] for line in first_block] == [["make", "demo"], ["make", "test"]]
    family = family_part()
    headings = [line for line in family.splitlines() if line.startswith("#")]
    assert headings == ["# Sugar Table Companion", "## What you need", "## From the box to your first game",
                        "## Try it without any hardware"]
    steps = re.findall(r"^(\d)\. \*\*(.+?)\*\*", family, re.M)
    assert [n for n, _ in steps] == ["1", "2", "3", "4", "5"]
    assert [w.split()[0] for _, w in steps] == ["Print", "Stick", "Plug", "Start.", "Play."]
    assert "hardware/BOM.md" in family and "--simulate" in family and "back" in family
    assert len(family.split()) < 1300
    for word in ("daemon", "pytest", "MQTT", "QEMU", "stdin", "benchmark", "venv"):
        assert word.lower() not in family.lower().replace(".venv/bin/companion", ""), word


def test_every_command_the_family_part_gives_is_a_command_there_is():
    from companion.cli import COMMANDS

    used = re.findall(r"\.venv/bin/companion (\w+)", family_part())
    assert used and {"labels", "quickstart", "cards", "run"} <= set(used)
    assert set(used) <= set(COMMANDS)
