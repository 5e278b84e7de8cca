"""The dataclass code cache (companion.core.codecache, issue 24): a start after the first
compiles no dataclass method, and what it builds behaves as the compiled ones do."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.core import codecache

ROOT = Path(__file__).resolve().parents[1]

# A fresh interpreter with the cache in XDG_CACHE_HOME: imports the rules of every game
# (their dataclasses), builds one frozen record, says how many texts it compiled new and
# how the record behaves, and saves as the table does after a frame.
PROBE = r"""
import dataclasses, json, sys
import companion
from companion.core import codecache
from companion.games import GAMES
for desc in GAMES.values():
    desc.rules
@dataclasses.dataclass(frozen=True)
class Probe:
    a: int
    b: str = "x"
    c: tuple = dataclasses.field(default_factory=tuple)
p = Probe(1)
try:
    p.a = 2
    frozen = False
except dataclasses.FrozenInstanceError:
    frozen = True
out = {"new": codecache._state["new"], "cached": len(codecache._codes), "repr": repr(p),
       "eq": p == Probe(1, "x", ()), "ne": p != Probe(2), "hash": hash(p) == hash(Probe(1)),
       "frozen": frozen, "replace": repr(dataclasses.replace(p, b="y")), "saved": codecache.save()}
print(json.dumps(out))
"""


def probe(cache: Path, **env) -> dict:
    full = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    full.update(XDG_CACHE_HOME=str(cache), PYTHONPATH=str(ROOT), **env)
    out = subprocess.run([sys.executable, "-c", PROBE], env=full, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_the_second_start_compiles_no_dataclass_method_and_its_records_behave_the_same(tmp_path):
    first = probe(tmp_path)
    assert first["new"] > 100  # every game's actions, states and outcomes: parsed once
    assert first["saved"] is True
    assert (tmp_path / "sugar-companion").is_dir()
    second = probe(tmp_path)
    assert second["new"] == 0 and second["saved"] is False  # nothing parsed, nothing to write
    assert second["cached"] >= first["new"]
    for key in ("repr", "eq", "ne", "hash", "frozen", "replace"):
        assert second[key] == first[key], key
    assert second["repr"] == "Probe(a=1, b='x', c=())" and second["frozen"] is True
    assert second["eq"] and second["ne"] and second["hash"]


def test_a_damaged_cache_or_another_pythons_is_ignored_and_written_anew(tmp_path):
    path = tmp_path / "sugar-companion" / f"dataclass-code.{sys.implementation.cache_tag}.marshal"
    path.parent.mkdir(parents=True)
    for junk in (b"", b"not a cache at all", b"\x00\x01\x02\x03" + b"\xff" * 50, codecache.MAGIC_NUMBER + b"\x00garbage"):
        path.write_bytes(junk)
        got = probe(tmp_path)
        assert got["new"] > 100 and got["saved"] is True and got["frozen"] is True
        assert path.read_bytes()[:len(codecache.MAGIC_NUMBER)] == codecache.MAGIC_NUMBER


def test_a_cache_that_cannot_be_written_only_costs_the_parse(tmp_path):
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("a file where the cache folder would go")
    got = probe(blocked)
    assert got["new"] > 100 and got["saved"] is False and got["eq"] and got["frozen"]
    got = probe(tmp_path, PYTHONDONTWRITEBYTECODE="1")  # asked not to write bytecode: not written either
    assert got["saved"] is False and not (tmp_path / "sugar-companion").exists()


@pytest.mark.parametrize("source", ["def f(a: int = 1):\n return a\n",
                                    "def __create_fn__(x):\n def g(self):\n  return f'{self!r}{x}'\n return g\n"])
def test_compiled_is_what_exec_would_compile(source):
    mine = codecache.compiled(source)
    theirs = compile(source, "<string>", "exec", dont_inherit=True)
    assert mine.co_code == theirs.co_code and mine.co_consts[:1] == theirs.co_consts[:1]
    assert mine.co_filename == "<string>"
    a, b = {}, {}
    exec(mine, {}, a)
    exec(source, {}, b)
    assert a.keys() == b.keys()
