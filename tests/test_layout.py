"""The package's layout holds: every module in its home, dependencies pointing one way,
no import cycles, no module or function too long to read.

The layers, top to bottom (README, Layout): ``cli`` -> (``table``, ``cards``, ``service``,
``venue``) -> (``games``, ``devices``, ``ui``) -> ``core``. A module may import from its
own top-level package and from the layers below it, never from a layer above, and from
a package beside it only where the design says so (:data:`BESIDE`): a game's screen is
drawn with the shared ``ui`` widgets; the shared screens are handed the registry by the
table and never import a game. Every import counts, those inside functions too: an
import put off until call time still ties the two modules together.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "companion"
LAYERS = {"core": 0, "games": 1, "devices": 1, "ui": 1, "table": 2, "cards": 2, "service": 2, "venue": 2, "cli": 3}
#: (importing package, imported package) -> may import which modules of it (a prefix).
BESIDE = {("games", "ui"): "companion.ui"}
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80


def modules() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the package."""
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = modules()


def imports(name: str, path: Path) -> set[str]:
    """The package's modules that ``name`` imports (at any depth of its code)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{a.name}" for a in node.names] + [base]
        else:
            continue
        for target in targets:
            while target and target not in MODULES:  # `from pkg import name`: the module pkg
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


GRAPH = {name: imports(name, path) for name, path in MODULES.items()}


def layer(name: str) -> tuple[str, int] | None:
    parts = name.split(".")
    if len(parts) < 2 or parts[1] not in LAYERS:
        return None
    return parts[1], LAYERS[parts[1]]


def test_nothing_loose_under_the_package():
    loose = sorted(p.name for p in ROOT.glob("*.py") if p.name not in ("__init__.py", "__main__.py"))
    assert loose == []


def test_every_folder_is_a_layer():
    folders = sorted(p.name for p in ROOT.iterdir() if p.is_dir() and p.name != "__pycache__")
    assert set(folders) <= set(LAYERS), set(folders) - set(LAYERS)


def test_dependencies_point_down():
    wrong = []
    for name, targets in GRAPH.items():
        mine = layer(name)
        if mine is None:
            continue
        for target in targets:
            theirs = layer(target)
            if theirs is None or theirs[0] == mine[0]:
                continue
            allowed = BESIDE.get((mine[0], theirs[0]))
            if theirs[1] > mine[1] or (theirs[1] == mine[1] and not (
                    allowed and (target == allowed or (allowed != "companion.games" and target.startswith(allowed))))):
                wrong.append(f"{name} -> {target}")
    assert wrong == []


def test_the_rules_import_only_core_and_the_standard_library():
    """A game's rules, and every module of its own that they reach (state, scoring,
    parts/...), import only ``companion.core``, the standard library and that game (its
    descriptor, whose loaders bring in the screen on first use, is not followed)."""
    wrong = []
    for name in GRAPH:
        parts = name.split(".")
        if not (len(parts) == 4 and parts[1] == "games" and parts[3] == "rules"):
            continue
        game = ".".join(parts[:3])
        seen, todo = set(), [name]
        while todo:
            mod = todo.pop()
            if mod in seen:
                continue
            seen.add(mod)
            for t in GRAPH.get(mod, ()):
                if t.startswith(game + "."):
                    todo.append(t)
                elif t != game and not t.startswith("companion.core"):  # (its __init__ is the descriptor)
                    wrong.append(f"{mod} -> {t}")
    assert wrong == []


def _cycle() -> list[str] | None:
    """One import cycle among the modules (a list of names, first == last), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        stack.append(name)
        for target in sorted(GRAPH.get(name, ())):
            if _package_of(name, target):
                continue
            if state.get(target) == 1:
                return stack[stack.index(target):] + [target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        stack.pop()
        state[name] = 2
        return None

    for name in sorted(GRAPH):
        if name not in state:
            found = visit(name)
            if found:
                return found
    return None


def _package_of(name: str, target: str) -> bool:
    """``target`` is a package containing ``name`` (importing one's own package's
    ``__init__`` is how Python loads a module at all, not a cycle)."""
    return name.startswith(target + ".")


def test_no_import_cycles():
    assert _cycle() is None


@pytest.mark.parametrize("name", sorted(MODULES))
def test_modules_and_functions_are_short_enough_to_read(name):
    path = MODULES[name]
    text = path.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= MAX_MODULE_LINES, f"{path.name}: {len(text.splitlines())} lines"
    long = [f"{node.name}: {node.end_lineno - node.lineno + 1} lines" for node in ast.walk(ast.parse(text))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES]
    assert long == []


def test_the_walk_finds_a_wrong_import_and_a_cycle(monkeypatch):
    """The checks above can fail: a core module importing the CLI is caught, and so is
    a cycle."""
    monkeypatch.setitem(GRAPH, "companion.core.clock", GRAPH["companion.core.clock"] | {"companion.cli.common"})
    with pytest.raises(AssertionError):
        test_dependencies_point_down()
    monkeypatch.setitem(GRAPH, "companion.core.events", GRAPH["companion.core.events"] | {"companion.core.store"})
    monkeypatch.setitem(GRAPH, "companion.core.store", GRAPH["companion.core.store"] | {"companion.core.events"})
    assert _cycle() is not None


#: The names by which shared code holds a game's parts (``desc.rules``, ``self.flow``,
#: ``session.desc.screen``, ...) and its states (``session.view``, ``s.state``).
PARTS = ("rules", "flow", "screen", "view", "state")


def _probes(tree: ast.AST) -> list[str]:
    """``getattr``/``hasattr`` calls whose object is a game's rules, flow or screen (its
    last name is one of :data:`PARTS`), and module lookups by name (``.module(...)``,
    ``importlib.import_module``) anywhere."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id in ("getattr", "hasattr") and node.args:
            target = node.args[0]
            last = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
            if last in PARTS:
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
        elif isinstance(func, ast.Attribute) and func.attr == "module" and isinstance(func.value, (ast.Name, ast.Attribute)):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def test_shared_code_never_asks_a_game_what_it_has():
    """Every capability the shared code uses is a method of the contract's base classes
    (companion.core.game), and what it reads of a state is the State base's: no probe of
    a game's parts or states, no module looked up by name."""
    wrong = {name: found for name, path in MODULES.items() if not name.startswith("companion.games")
             for found in [_probes(ast.parse(path.read_text(encoding="utf-8")))] if found}
    assert wrong == {}


def test_the_probe_walk_finds_a_probe():
    assert _probes(ast.parse("getattr(session.desc.screen, 'hint_words', None)"))
    assert _probes(ast.parse("hasattr(self.rules, 'counters')"))
    assert _probes(ast.parse("desc.module('cards')"))
    assert _probes(ast.parse("getattr(s.view, 'bidding', None)"))
    assert not _probes(ast.parse("getattr(err, 'strerror', None)"))


def test_no_ui_module_imports_a_game():
    wrong = [f"{name} -> {t}" for name, targets in GRAPH.items() if name.startswith("companion.ui")
             for t in targets if t.startswith("companion.games")]
    assert wrong == []


# A fresh interpreter: the standard library's functions the start-up speed-ups replace
# (companion.core.codecache: dataclasses' exec; companion.core.lean_pygame: pygame's
# modules marked absent in sys.modules, its banner's environment variable) and the import
# machinery, kept before ``import companion`` and compared, by identity, with what is
# there after each group of imports (argv[1]: groups split by ";", modules by ","; argv[2]:
# lean_pygame.UNUSED). argv[3] == "start" makes the start-up call first. Its last line on
# stdout: what changed after each group (JSON; pygame may print its banner before it).
UNPATCHED = r"""
import builtins, dataclasses, importlib, json, os, sys
ABSENT = object()
UNUSED = sys.argv[2].split(",")

def seen():
    got = {"builtins.exec": builtins.exec, "builtins.compile": builtins.compile,
           "builtins.__import__": builtins.__import__, "dataclasses.exec": dataclasses.__dict__.get("exec", ABSENT),
           "dataclasses.dataclass": dataclasses.dataclass, "dataclasses._create_fn": dataclasses._create_fn,
           "importlib.import_module": importlib.import_module,
           "importlib._bootstrap._find_and_load": importlib._bootstrap._find_and_load}
    got.update({f"sys.meta_path[{i}]": f for i, f in enumerate(sys.meta_path)})
    got.update({f"sys.path_hooks[{i}]": f for i, f in enumerate(sys.path_hooks)})
    got.update({f"sys.modules[{n!r}]": n in sys.modules and sys.modules[n] is None for n in UNUSED})  # skipped
    got["os.environ['PYGAME_HIDE_SUPPORT_PROMPT']"] = os.environ.get("PYGAME_HIDE_SUPPORT_PROMPT", ABSENT)
    return got

before = seen()
if sys.argv[3:] == ["start"]:
    from companion.core import startup
    startup.speed_ups()
changed = []
for group in sys.argv[1].split(";"):
    for name in group.split(","):
        importlib.import_module(name)
    after = seen()
    changed.append(sorted(k for k in before.keys() | after.keys() if before.get(k, ABSENT) is not after.get(k, ABSENT)))
print(json.dumps(changed))
"""


def _changed_by(*groups: list[str], start: bool = False) -> list[list[str]]:
    """What :data:`UNPATCHED` finds changed after each group of imports, in a fresh
    interpreter (with the start-up call first when ``start``)."""
    from companion.core.lean_pygame import UNUSED

    env = {k: v for k, v in os.environ.items() if k != "PYGAME_HIDE_SUPPORT_PROMPT"}
    env.update(PYTHONPATH=str(ROOT.parent), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    argv = [";".join(",".join(g) for g in groups), ",".join(UNUSED)] + (["start"] if start else [])
    out = subprocess.run([sys.executable, "-c", UNPATCHED, *argv], capture_output=True, text=True, env=env,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])


def test_importing_the_package_leaves_the_standard_library_unpatched():
    """``import companion`` and the game registry patch nothing (issue 35): dataclasses'
    ``exec``, the import machinery and pygame's entries in ``sys.modules`` are the same
    objects after as before, and so is the environment; nor do the command line's module
    and the modules that use the code cache or pygame's skipped modules, pygame imported
    with them. The speed-ups are switched on only by the start-up call of the programs
    that run the table (``companion.core.startup.speed_ups``), and the probe sees it."""
    from companion.core.lean_pygame import UNUSED

    rest = ["companion.cli", "companion.table.runner", "companion.table.build", "companion.ui.theme"]
    assert _changed_by(["companion", "companion.games"], rest) == [[], []]
    started = _changed_by(["companion", "companion.games"], start=True)[0]
    assert "dataclasses.exec" in started and "os.environ['PYGAME_HIDE_SUPPORT_PROMPT']" in started
    assert {f"sys.modules[{n!r}]" for n in UNUSED} <= set(started)


#: Every game folder's floor plan (README, Layout): the same files in each, so that who
#: knows one game's folder knows where everything is in the others.
FLOOR_PLAN = ("__init__.py", "cards.toml", "state.py", "flow.py", "screen.py", "messages.py", "scoring.py")
GAME_FOLDERS = sorted(p for p in (ROOT / "games").iterdir() if p.is_dir() and p.name != "__pycache__")


@pytest.mark.parametrize("folder", GAME_FOLDERS, ids=lambda p: p.name)
def test_every_game_folder_has_the_same_floor_plan(folder):
    """The files above, ``rules.py`` or a ``rules/`` package, and nothing else at the
    top: anything more lives under ``parts/`` (or another named sub-package)."""
    top = {p.name for p in folder.iterdir() if p.name != "__pycache__"}
    missing = [f for f in FLOOR_PLAN if f not in top]
    if "rules.py" not in top and not (folder / "rules" / "__init__.py").exists():
        missing.append("rules.py")
    loose = sorted(n for n in top - set(FLOOR_PLAN) - {"rules.py"}
                   if not (folder / n).is_dir() or not (folder / n / "__init__.py").exists())
    assert (missing, loose) == ([], [])
