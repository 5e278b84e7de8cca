"""Every message a player can see is in its game's ``messages.py`` catalogue (issues 9
and 13), none says "0 cards", "1 cards", a 0-based row, or names a Blast by a count, and
(Sugar Heist, Sweet Deals) no player-visible string literal is left in the game's modules."""

import ast
import inspect
import re
import string
import tomllib
from pathlib import Path

import pytest

from companion.core.events import Outcome
from companion.games.sugar_blast import messages as blast_messages
from companion.games.sugar_blast import rules as blast_rules
from companion.games.sugar_heist import flow as heist_flow
from companion.games.sugar_heist import messages as heist_messages
from companion.games.sugar_heist import rules as heist_rules
from companion.games.sugarrr import messages as sugarrr_messages
from companion.games.sugarrr import rules as sugarrr_rules
from companion.games.sweet_deals import flow as deals_flow
from companion.games.sweet_deals import messages as deals_messages
from companion.games.sweet_deals import rules as deals_rules

GAMES = {"sugarrr": (sugarrr_messages, sugarrr_rules), "sugar-blast": (blast_messages, blast_rules),
         "sugar-heist": (heist_messages, heist_rules), "sweet-deals": (deals_messages, deals_rules)}
PACKAGES = {"sugarrr": ("rules", "parts/checks", "state", "flow", "scoring"),
            "sugar-blast": ("rules", "parts/checks", "flow", "parts/hint", "state", "scoring"),
            "sugar-heist": ("rules", "parts/checks", "parts/prompts", "parts/turns", "parts/vaults", "parts/battle", "parts/effects", "flow", "scoring",
                            "state"),
            "sweet-deals": ("rules", "parts/checks", "parts/turns", "parts/auction", "parts/prompts", "flow", "scoring")}

#: Fields that are always a number of things, already in words (``count``).
COUNTED = {"cards": "card", "deck": "card", "scanned": "card", "spaces": "space", "n_candies": "candy",
           "discarded": "candy", "swaps": "swap", "candies": "candy", "vaults": "vault", "coins": "coin",
           "numbers": "number"}
#: Fields that are a number always 2 or more where they are used (player counts, limits,
#: the line of 3+ at set-up, the Blasts found at once).
MANY = {"n", "most", "rows", "cols"}
#: Fields that are a plain number (1 and up).
NUMBERS = {"col", "need", "rest", "seat", "number", "on", "holes", "cells", "left"}


def bad_words(text: str) -> list[str]:
    """What a child must never read: "0 cards", "1 cards", a row or column 0, a Blast
    named by a number of candies."""
    found = re.findall(r"\b(?:0 (?:cards|candies|spaces|cells|swaps|vaults|coins|numbers)|"
                       r"1 (?:cards|candies|spaces|cells|swaps|vaults|coins|numbers|Candy Cards))\b", text)
    found += re.findall(r"\b(?:row|column|Row|Column)s? 0\b", text)
    for kind in ("5-6-Blast", "3-Blast", "4-Blast"):
        text = text.replace(kind, "")
    found += re.findall(r"[0-9]+-Blast", text)
    found += re.findall(r"totalling|\(copy \d", text)
    return found


def samples(catalogue, key):
    """Every way of filling template ``key``: each counted field with 0, 1 and 2 things,
    each number 1 and 2 (or 2 and 3 for MANY), words for the rest."""
    out = []
    for n in (0, 1, 2):
        values = {}
        for f in catalogue.fields(key):
            if f in COUNTED:
                values[f] = catalogue.count(n, COUNTED[f])
            elif f in MANY:
                values[f] = n + 2
            elif f in NUMBERS:
                values[f] = n + 1
            else:
                values[f] = f"<{f}>"
        out.append(catalogue.say(key, **values))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_no_message_says_0_cards_1_cards_a_0_based_row_or_a_count_named_blast(game):
    catalogue, _ = GAMES[game]
    problems = {key: bad_words(text) for key in catalogue.TEXT for text in samples(catalogue, key)
                if bad_words(text)}
    assert not problems


@pytest.mark.parametrize("game", GAMES)
def test_no_template_puts_a_raw_number_before_a_plural(game):
    catalogue, _ = GAMES[game]
    raw = {key: t for key, t in catalogue.TEXT.items()
           if any(f in NUMBERS for f in re.findall(r"\{(\w+)\} (?:cards|candies|spaces|cells|swaps|columns|vaults|coins)\b",
                                                    t))}
    assert not raw


def test_counts_and_places_read_as_a_person_counts():
    assert [sugarrr_messages.count(n, "card") for n in (0, 1, 2)] == ["no cards", "1 card", "2 cards"]
    assert [blast_messages.count(n, "candy") for n in (0, 1, 3)] == ["no candies", "1 candy", "3 candies"]
    assert blast_messages.where((0, 0)) == "row 1, column 1"
    assert blast_messages.line_of([(0, 1), (1, 1), (2, 1)]) == "column 2"
    assert blast_messages.numbers(range(5, 13)) == "5 to 12" and blast_messages.numbers([6]) == "6"
    assert {blast_messages.blast_name(k) for k in ("3", "4", "5-6", "box")} == {
        "3-Blast", "4-Blast", "5-6-Blast", "Box-Blast"}


MESSAGE_CALLS = {"IllegalAction", "_no", "BadCommand", "AmbiguousAction", "BoardError", "ValueError"}


@pytest.mark.parametrize("game", GAMES)
def test_every_refusal_and_outcome_takes_its_words_from_the_catalogue(game):
    """No refusal or outcome event in the game's modules is built from a literal string:
    its words come from ``say`` (so they are all in ``messages.TEXT``)."""
    catalogue, rules = GAMES[game]
    events = {name for name, obj in vars(rules).items() if inspect.isclass(obj) and issubclass(obj, Outcome)}
    folder = Path(catalogue.__file__).parent
    literal = []
    for module in PACKAGES[game]:
        tree = ast.parse((folder / f"{module}.py").read_text())
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name not in MESSAGE_CALLS | events:
                continue
            for arg in node.args[:2]:
                if isinstance(arg, ast.JoinedStr) or (isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                                                      and " " in arg.value):
                    literal.append(f"{module}.py:{node.lineno}")
    assert not literal


# ---------------------------------------------------------------- nothing left inline

#: Games whose every player-visible string is in ``messages.TEXT`` (issue 13), with the
#: flow that names their typed commands.
WHOLE = {"sugar-heist": (heist_messages, heist_flow), "sweet-deals": (deals_messages, deals_flow)}
#: String literals that read like words but are not for a player, by game: (module, text) -> why.
ALLOWED: dict[str, dict[tuple[str, str], str]] = {
    "sugar-heist": {
        ("cards", "Vault"): "the name printed on a Vault Card (cards.toml counts vaults, it names none)",
        **{("screen", short): "a flavour's name cut to fit a vault chip (a card name, as on the box)"
           for short in ("Nutty", "Choc", "Lucky", "Fruity", "Gummy", "Sour", "Sugar")},
        ("screen", "menu targets {}"): "the window menu a group of targets opens (a command a button sends, "
                                       "never shown; issue 36)",
    },
    "sweet-deals": {},
}
LOGGING = {"debug", "info", "warning", "error", "exception", "critical"}
#: Calls whose string arguments are compared or cut, never shown.
STR_METHODS = {"startswith", "endswith", "split", "rsplit", "replace", "removeprefix", "removesuffix", "strip"}


def card_names(folder: Path) -> set[str]:
    """Every ``name`` in the game's cards.toml: names printed on the cards (proper nouns
    of the box, compared against the rules), not sentences."""
    names = set()

    def walk(x):
        if isinstance(x, dict):
            names.update(v for k, v in x.items() if k == "name" and isinstance(v, str))
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(tomllib.loads((folder / "cards.toml").read_text()))
    return names


def literal_words(node) -> str:
    """The literal text of a string constant or f-string (fields as ``{}``)."""
    if isinstance(node, ast.Constant):
        return node.value
    return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)


def looks_like_words(text: str) -> bool:
    """A sentence or a label: a letter and a space ("Tap Done", "no sets"), or one word
    written as a label ("Done", "Fight!", "MOM"); not a code, a letter or an identifier."""
    if re.search(r"[A-Za-z]", text) and " " in text:
        return True
    return bool(re.fullmatch(r"[A-Z][a-z]+[!?.]?|[A-Z]{3,}!?", text))


def is_typed_command(text: str, commands) -> bool:
    """``vault 2``, ``target {} {}``, ``buy vault``: what a button sends, as typed headless
    (its first word a command of the game's flow, no more words than its usage)."""
    words = text.split()
    if len(words) == 2 and words[0] == "menu":  # the screen's own: opens the menu for a command
        return True
    return bool(words) and any(words[0] == c.word and len(words) <= len(c.usage.split()) for c in commands)


def inline_strings(folder: Path, commands, names: set[str]) -> list[tuple[str, int, str]]:
    """(module, line, text) of each string literal with a letter and a space in the game's
    modules (not ``messages.py``) outside docstrings, dict keys, comparisons, indexes,
    logging, string-method arguments, a Command's usage and samples, card names and typed
    commands."""
    found = []
    for path in sorted(folder.rglob("*.py")):  # parts/ too
        if path.name == "messages.py":
            continue
        tree = ast.parse(path.read_text())
        skip: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body \
                    and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant):
                skip.add(id(node.body[0].value))
            inside = []
            if isinstance(node, ast.Dict):
                inside = [k for k in node.keys if k is not None]
            elif isinstance(node, ast.Compare):
                inside = [node.left, *node.comparators]
            elif isinstance(node, ast.Subscript):
                inside = [node.slice]
            elif isinstance(node, ast.Call):
                name = getattr(node.func, "id", getattr(node.func, "attr", ""))
                if name in LOGGING and isinstance(node.func, ast.Attribute) or name in STR_METHODS:
                    inside = node.args
                elif name == "Command":
                    inside = node.args[:1] + node.args[2:] + [k.value for k in node.keywords
                                                               if k.arg in ("tries", "example")]
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inside = [a.annotation for a in node.args.args + node.args.kwonlyargs if a.annotation] + \
                    ([node.returns] if node.returns else [])
            elif isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__all__" for t in node.targets):
                inside = [node.value]
            for sub in inside:
                skip.update(id(n) for n in ast.walk(sub))
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                skip.update(id(v) for v in node.values)
            if id(node) in skip or not (isinstance(node, ast.JoinedStr) or isinstance(node, ast.Constant)
                                        and isinstance(node.value, str)):
                continue
            text = literal_words(node)
            if looks_like_words(text) and text not in names and not is_typed_command(text, commands):
                found.append((path.stem, node.lineno, text))
    return found


@pytest.mark.parametrize("game", WHOLE)
def test_no_player_visible_string_is_left_in_the_games_modules(game):
    """Every sentence, label and word a player of Sugar Heist or Sweet Deals can see
    comes from ``messages.say``: a literal with a letter and a space anywhere else in the
    game's modules is a string that was missed (or one to allow here, with a reason)."""
    catalogue, flow = WHOLE[game]
    folder = Path(catalogue.__file__).parent
    left = [f"{module}.py:{line}: {text!r}" for module, line, text in
            inline_strings(folder, flow.COMMANDS, card_names(folder))
            if (module, text) not in ALLOWED[game]]
    assert not left


def test_the_inline_scan_finds_a_sentence_and_passes_a_typed_command():
    """The scan above can fail: it finds an f-string sentence, a plain one and a label, and
    passes a docstring, a dict key, a comparison, a log line and a typed command."""
    source = '''"""Doc string here."""
def f(who, log):
    """Doc string here."""
    log.info("state saved to disk")
    if who == "Night Raid":
        return {"a key": 1}
    return [f"{who} takes the card.", "Tap Done", "vault 2", f"give {who}", "no candy", "Done", "SH", "done"]
'''
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "mod.py").write_text(source)
        found = inline_strings(Path(tmp), heist_flow.COMMANDS, {"Night Raid"})
    assert [text for _, _, text in found] == ["{} takes the card.", "Tap Done", "no candy", "Done"]


@pytest.mark.parametrize("game", WHOLE)
def test_every_template_formats_and_every_key_is_used(game):
    """Each template's fields are plain names (``str.format`` with names, never positional,
    so a translation may reorder them), and each key is said somewhere in the game."""
    catalogue, _ = WHOLE[game]
    folder = Path(catalogue.__file__).parent
    source = "\n".join(p.read_text() for p in folder.rglob("*.py") if p.name != "messages.py")
    for key, template in catalogue.TEXT.items():
        names = [f for _, f, _, _ in string.Formatter().parse(template) if f is not None]
        assert all(re.fullmatch(r"[a-z_][a-z0-9_]*", f) for f in names), (key, names)
        assert catalogue.say(key, **{f: "x" for f in names}) is not None
    unused = [key for key in catalogue.TEXT if f'"{key}"' not in source]
    assert not unused


def test_every_catalogue_template_is_marked_for_gettext():
    """xgettext --keyword=_ (or pybabel extract) must find every template: each value of
    every catalogue is written ``_("...")`` in the source, a literal string (no f-string,
    no variable), so the English text is the message id."""
    import ast
    from pathlib import Path

    import companion

    root = Path(companion.__file__).parent
    catalogues = {root / "ui" / "messages.py": "CATALOGUE"}
    catalogues.update({p: "TEXT" for p in (root / "games").glob("*/messages.py")})
    assert len(catalogues) == 5  # the shared screen and the four games
    for path, name in catalogues.items():
        tree = ast.parse(path.read_text())
        found = [node.value for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
                 and name in [t.id for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
                              if isinstance(t, ast.Name)]]
        assert len(found) == 1 and isinstance(found[0], ast.Dict), path
        unmarked = [key.value for key, value in zip(found[0].keys, found[0].values)
                    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "_"
                            and len(value.args) == 1 and isinstance(value.args[0], ast.Constant)
                            and isinstance(value.args[0].value, str))]
        assert unmarked == [], f"{path.relative_to(root)}: not written _(\"...\"): {unmarked[:5]}"
