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

# A fresh interpreter with the cache in XDG_CACHE_HOME: makes the table's start-up call
# (companion.core.startup.speed_ups, which installs the cache), imports the rules of every
# game (their dataclasses), builds one frozen record, says how many texts it compiled new
# and how the record behaves, and saves as the table does after a frame.
PROBE = r"""
import dataclasses, json, sys
from companion.core import startup
startup.speed_ups()
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


def child_env(cache: Path, **extra) -> dict:
    """A fresh interpreter's environment: the cache in ``cache``, bytecode writing allowed
    (unless ``extra`` says otherwise), this checkout importable."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(XDG_CACHE_HOME=str(cache), PYTHONPATH=str(ROOT), **extra)
    return env


def probe(cache: Path, **env) -> dict:
    out = subprocess.run([sys.executable, "-c", PROBE], env=child_env(cache, **env), capture_output=True, text=True,
                         timeout=60)
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


# A small cache written and read in this process (a path of its own; the module's state
# put back after each test).
@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(codecache, "_codes", {})
    monkeypatch.setattr(codecache, "_used", set())
    monkeypatch.setattr(codecache, "_state", {"new": 0, "path": tmp_path / "c" / "dataclass-code.marshal"})
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    return codecache._state["path"]


def test_a_cache_that_cannot_be_written_is_not_tried_again_every_frame(own_cache, monkeypatch):
    own_cache.mkdir(parents=True)  # a folder where the file goes: every write fails
    codecache.compiled("def f():\n return 1\n")
    dumps = []
    real = codecache.marshal.dumps
    monkeypatch.setattr(codecache.marshal, "dumps", lambda obj: dumps.append(1) or real(obj))
    for _ in range(5):  # the table's turns: it saves after each
        assert codecache.save() is False
    assert len(dumps) <= 1  # one try, not the whole cache marshalled (and written) every frame
    assert list(own_cache.parent.iterdir()) == [own_cache]  # no temporary file left behind


def test_what_is_compiled_while_a_save_writes_is_saved_by_the_next(own_cache, monkeypatch):
    codecache.compiled("def f():\n return 1\n")
    real = os.replace

    def replace(src, dst):  # another thread defines a dataclass while this one writes
        codecache.compiled("def g():\n return 2\n")
        real(src, dst)

    monkeypatch.setattr(codecache.os, "replace", replace)
    assert codecache.save() is True
    monkeypatch.setattr(codecache.os, "replace", real)
    assert codecache.save() is True  # g is new since the file was written
    assert set(codecache.load(own_cache)) == {"def f():\n return 1\n", "def g():\n return 2\n"}


@pytest.mark.parametrize("damage", ["flip", "huge"])
def test_a_damaged_cache_is_ignored_whatever_marshal_would_make_of_it(own_cache, damage):
    codecache.compiled("def f(a, b=3):\n return a + b\n")
    assert codecache.save() is True
    data = bytearray(own_cache.read_bytes())
    if damage == "flip":  # one bit of a constant (b=3 -> b=2): marshal reads it without a complaint
        at = max(data.rfind(b"i\x03\x00\x00\x00"), data.rfind(b"\xe9\x03\x00\x00\x00"))  # the int 3
        assert at > 0
        data[at + 1] ^= 1
    else:  # a length that asks for gigabytes (marshal: MemoryError, or SystemError for others)
        data[len(codecache.MAGIC_NUMBER):] = b"(" + b"\xff\xff\xff\x0f" + bytes(data[len(codecache.MAGIC_NUMBER) + 1:])
    own_cache.write_bytes(bytes(data))
    assert codecache.load(own_cache) == {}


def test_a_marshal_error_of_any_kind_leaves_the_companion_startable(tmp_path):
    assert probe(tmp_path)["saved"] is True  # a cache as a table leaves it
    code = ("import marshal, sys\n"
            "real = marshal.loads\n"
            "def loads(data):\n"  # the cache's load raises as marshal does for some damaged files
            " if sys._getframe(1).f_globals.get('__name__') == 'companion.core.codecache':\n"
            "  raise SystemError('Objects/codeobject.c:250: bad argument to internal function')\n"
            " return real(data)\n"
            "marshal.loads = loads\n"
            "from companion.core import startup\nstartup.speed_ups()\nimport companion.games\nprint('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], env=child_env(tmp_path), capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0 and out.stdout == "ok\n", out.stderr
