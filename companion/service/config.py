"""The companion's config file: what ``companion run`` does without options.

On a Pi the service reads ``/etc/companion/companion.toml`` (``--config``); a development
run reads ``~/.config/sugar-companion/config.toml`` (``$XDG_CONFIG_HOME``), the same file
that has always held the ``[tilt]`` settings. Every key is optional; ``KEYS`` lists each
one with its default and allowed values, and ``hardware/companion.toml.example`` documents
them for people. Options given on the command line win over the file.

The file is checked as a whole when the companion starts: an unknown section or key (a
typo), a wrong type or a value out of range is a :class:`ConfigError` whose message names
the file, the key and what is allowed, so the service stops at once with a line in the
journal instead of misbehaving later.

>>> cfg = parse({"game": {"game": "sugar-blast", "names": ["Ana", "Ben"]}, "gpio": {"undo": 27}}, "x.toml")
>>> cfg["game"]["game"], cfg["gpio"]["undo"], cfg["gpio"]["confirm"], cfg["readers"]["tap_off"]
('sugar-blast', 27, None, 1.0)
>>> parse({"gpio": {"undo": 40}}, "x.toml")
Traceback (most recent call last):
...
companion.service.config.ConfigError: x.toml: [gpio] undo = 40: allowed values are a BCM GPIO number from 2 to 27 (GPIO17 is pin 11 on the header), or leave the key out for none
"""

from __future__ import annotations

import math
import os
import re
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Callable

from ..core.files import FileProblem, read_text
from ..games import GAMES

#: The most a config file may hold (it is a few hundred bytes; a bigger one is the wrong file).
CONFIG_LIMIT = 1024 * 1024

SYSTEM_CONFIG = Path("/etc/companion/companion.toml")
USER_CONFIG = Path(os.environ.get("XDG_CONFIG_HOME", Path.home() / ".config")) / "sugar-companion" / "config.toml"


class ConfigError(ValueError):
    """A config file that cannot be used; the message names the file and the key.
    ``path`` is the file and ``line`` the line number (from 1) where the mistake is, when
    known (:func:`load` finds it)."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None):
        super().__init__(message)
        self.path, self.line = path, line

    @property
    def problem(self) -> str:
        """The message without the file name in front (the screen shows the file apart)."""
        text = str(self)
        return text[len(self.path) + 2:] if self.path and text.startswith(self.path + ": ") else text


def line_of(text: str, message: str) -> int | None:
    """The line (from 1) of ``text`` a :func:`parse` message is about: the ``[section]
    key`` or the unknown section or key it names, or the line TOML's own error gives."""
    import re

    found = re.search(r"at line (\d+)", message)
    if found:
        return int(found.group(1))
    section = key = None
    if m := re.search(r"unknown section \[([^\]]+)\]", message):
        section = m.group(1)
    elif m := re.search(r"unknown key '([^']+)' in \[([^\]]+)\]", message):
        key, section = m.group(1), m.group(2)
    elif m := re.search(r"\[(\w+)\] (\w+) = ", message):
        section, key = m.group(1), m.group(2)
    elif m := re.search(r"\[(\w+)\]", message):
        section = m.group(1)
    if section is None:
        return None
    current = None
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if m := re.fullmatch(r"\[\s*([^\]]+?)\s*\]", line):
            current = m.group(1)
            if key is None and current == section:
                return n
        elif key is not None and current == section and re.match(rf"{re.escape(key)}\s*=", line):
            return n
    return None


@dataclass(frozen=True)
class Key:
    """One setting: ``[section] name``, its default (None: not set / not fitted), a check
    of a value, and the allowed values in words for the error message."""

    section: str
    name: str
    default: Any
    check: Callable[[Any], bool]
    allowed: str


def _quoted(values) -> str:
    return ", ".join(f'"{v}"' for v in values)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: Any) -> bool:
    return (isinstance(v, (int, float)) and not isinstance(v, bool)) and math.isfinite(v)


def _is_pin(v: Any) -> bool:
    return _is_int(v) and 2 <= v <= 27


def _is_reader(v: Any) -> bool:
    from ..devices.readers import parse_entry

    try:
        parse_entry(v)
    except (ValueError, TypeError, AttributeError):
        return False
    return True


def _is_gap(v: Any) -> bool:
    return _is_number(v) and 0 < v <= 10


def _is_names(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(n, str) and n.strip() and "," not in n for n in v) \
        and len({n.strip() for n in v}) == len(v)


def _game_options() -> dict:
    """Every registered game's set-up options by name (the first game to name one wins),
    so a game's options are config keys of [game] the day it is registered."""
    out = {}
    for game in GAMES.values():
        for option in game.options:
            out.setdefault(option.name, option)
    return out


def _option_key(option) -> "Key":
    owner = next(g.name for g in GAMES.values() if option in g.options)
    if option.kind == "bool":
        check, allowed = (lambda v: isinstance(v, bool)), "true or false"
    elif option.kind == "choice":
        check, allowed = (lambda v, c=option.choices: v in c), "one of " + _quoted(option.choices)
    else:
        check, allowed = _is_int, "a whole number"
    return Key("game", option.name, option.default, check, f"{allowed} ({owner}: {option.help})")


_PIN = "a BCM GPIO number from 2 to 27 (GPIO17 is pin 11 on the header), or leave the key out for none"

#: Keys holding a file path, where a leading ``~`` is the home folder.
_PATHS = ("path", "calibration", "password_file", "ca_file")


#: A table's or café's name is one level of an MQTT topic (companion.venue.settings.NAME).
_TOPIC_LEVEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")


def _is_topic_name(v: Any) -> bool:
    return isinstance(v, str) and _TOPIC_LEVEL.fullmatch(v) is not None


def _is_broker(v: Any) -> bool:
    return isinstance(v, str) and v.split("://")[0] in ("mqtt", "mqtts") and len(v.split("://")) == 2 \
        and bool(v.split("://")[1].strip("/"))


_TOPIC_NAME = "letters, digits, - and _ (at most 40), e.g. \"table-3\""

KEYS: tuple[Key, ...] = (
    Key("game", "game", next(iter(GAMES)), lambda v: v in GAMES, "one of " + _quoted(GAMES)),
    Key("game", "names", [], _is_names,
        'a list of different player names in seat order, e.g. ["Mum", "Dad"] (no commas in a name), or []'),
    Key("game", "players", None, lambda v: _is_int(v) and 1 <= v <= 8, "a whole number from 1 to 8, or leave it out"),
    *(_option_key(option) for option in _game_options().values()),
    Key("display", "fullscreen", False, lambda v: isinstance(v, bool), "true or false"),
    Key("display", "headless", False, lambda v: isinstance(v, bool), "true or false"),
    Key("display", "rotation", 0, lambda v: v in (0, 90, 180, 270) and _is_int(v),
        "0, 90, 180 or 270 (degrees clockwise; 90 or 270 for a portrait panel such as Touch Display 2)"),
    Key("display", "output", None, lambda v: isinstance(v, str) and re.fullmatch(r"[A-Za-z]+(-[A-Za-z]+)*-\d+", v)
        is not None, 'a connector name as companion doctor lists it ("DSI-1", "HDMI-A-1"), or leave it out for '
        "the first display SDL finds"),
    Key("display", "theme", "default", lambda v: v in ("default", "high-contrast"), '"default" or "high-contrast"'),
    Key("timers", "turn_limit", None, lambda v: _is_number(v) and 0 < v <= 24 * 3600,
        "seconds per turn, above 0 and at most 86400 (24 hours), or leave it out for no limit"),
    Key("timers", "at_zero", "warn", lambda v: v in ("warn", "pass"), '"warn" or "pass"'),
    Key("timers", "chess_clock", None, lambda v: _is_number(v) and 0 < v <= 24 * 60,
        "minutes per player, above 0 and at most 1440 (24 hours), or leave it out for no chess clock"),
    Key("store", "path", None, lambda v: isinstance(v, str) and v.startswith("/") and not v.endswith("/"),
        'an absolute file path such as "/var/lib/companion/table.db" (or "~/table.db"), or leave it out'),
    Key("readers", "scanners", [], lambda v: isinstance(v, list) and all(_is_reader(s) for s in v),
        'a list of "KIND:PATH[@SEAT]" with KIND serial, hid or nfc, e.g. ["serial:/dev/sugar-companion/scanner-1"], '
        'or tables like { reader = "hid:auto", end = "auto", gap = 0.5 } (end "auto", "key" or "gap"; '
        'gap in seconds above 0, at most 10)'),
    Key("readers", "tap_off", 1.0, lambda v: _is_number(v) and 0 <= v < 60, "seconds, from 0 up to 60"),
    Key("readers", "end", "auto", lambda v: v in ("auto", "key", "gap"),
        '"auto" (a terminator ends a scan; silence too until the scanner has sent one), "key" (only a '
        'terminator) or "gap" (the scanner sends none: silence ends each scan)'),
    Key("readers", "gap", 0.5, _is_gap, "seconds of silence that end a scan with no terminator, above 0 and at most 10"),
    Key("tray", "sensor", None, lambda v: isinstance(v, str) and (v == "emulated" or (v.startswith("i2c:") and v[4:].isdigit())),
        '"i2c:1" (I2C bus 1, pins 3 and 5), "emulated", or leave it out for no tray sensor'),
    Key("tray", "calibration", None, lambda v: isinstance(v, str) and v.startswith("/"),
        "an absolute file path (~ for the home folder), or leave it out for "
        "~/.config/sugar-companion/calibration.toml"),
    Key("gpio", "confirm", None, _is_pin, _PIN),
    Key("gpio", "undo", None, _is_pin, _PIN),
    Key("gpio", "buzzer", None, _is_pin, _PIN),
    Key("gpio", "led", None, _is_pin, _PIN),
    Key("gpio", "bounce", 0.05, lambda v: _is_number(v) and 0 < v <= 1, "seconds, above 0 and at most 1"),
    Key("sound", "volume", 0.7, lambda v: _is_number(v) and 0 <= v <= 1,
        "a number from 0 (silent) to 1 (loudest), e.g. 0.7"),
    Key("sound", "mute", False, lambda v: isinstance(v, bool), "true or false"),
    Key("log", "format", "text", lambda v: v in ("text", "json"), '"text" or "json"'),
    Key("venue", "broker", None, _is_broker,
        '"mqtt://HOST[:PORT]" or "mqtts://HOST[:PORT]" (the café\'s broker), or leave it out: no venue mode'),
    Key("venue", "table", None, _is_topic_name, _TOPIC_NAME),
    Key("venue", "name", None, _is_topic_name, _TOPIC_NAME + " (the café; default \"cafe\")"),
    Key("venue", "user", None, lambda v: isinstance(v, str) and bool(v), "the broker user name, or leave it out"),
    Key("venue", "password_file", None, lambda v: isinstance(v, str) and v.startswith("/"),
        "an absolute path of a file holding the broker password on its first line, or leave it out"),
    Key("venue", "ca_file", None, lambda v: isinstance(v, str) and v.startswith("/"),
        "an absolute path of the broker's CA certificate (PEM, for mqtts://), or leave it out"),
)


def _tilt_keys() -> tuple[str, ...]:
    from ..devices.tilt import TiltConfig

    return tuple(f.name for f in fields(TiltConfig))


def sections(tilt: bool = True) -> dict[str, list[str]]:
    """Every section and its keys (``[tilt]``'s come from :class:`TiltConfig`; with
    ``tilt`` False its list is left empty, so a config without ``[tilt]`` does not load
    the tray's modules)."""
    out: dict[str, list[str]] = {}
    for k in KEYS:
        out.setdefault(k.section, []).append(k.name)
    out["tilt"] = list(_tilt_keys()) if tilt else []
    return out


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def _passes(key: Key, value: Any) -> bool:
    """Does ``value`` pass ``key``'s check? A value of a type the check never expected (a
    list or a table where a word goes: ``game = ["sugarrr"]``) fails it, it does not raise."""
    try:
        return bool(key.check(value))
    except (TypeError, ValueError, AttributeError):
        return False


def parse(data: dict, source: str) -> dict[str, dict[str, Any]]:
    """Check a loaded TOML table and fill in every default. Raises :class:`ConfigError`."""
    known = sections(tilt="tilt" in data)
    for section, table in data.items():
        if section not in known:
            raise ConfigError(f"{source}: unknown section [{section}]: allowed sections are "
                              + ", ".join(f"[{s}]" for s in known))
        if not isinstance(table, dict):
            raise ConfigError(f"{source}: {section} must be a section ([{section}] on its own line)")
        for name in table:
            if name not in known[section]:
                raise ConfigError(f"{source}: unknown key {name!r} in [{section}]: allowed keys are "
                                  + ", ".join(known[section]))
    out: dict[str, dict[str, Any]] = {s: {} for s in known}
    for key in KEYS:
        table = data.get(key.section, {})
        if key.name not in table:
            out[key.section][key.name] = list(key.default) if isinstance(key.default, list) else key.default
            continue
        value = table[key.name]
        if key.name in _PATHS and isinstance(value, str):
            value = os.path.expanduser(value)  # "~/table.db": this user's home
        if not _passes(key, value):
            raise ConfigError(f"{source}: [{key.section}] {key.name} = {_show(value)}: allowed values are {key.allowed}")
        out[key.section][key.name] = float(value) if key.name in ("tap_off", "bounce") else value
    if "tilt" in data:  # the defaults need no check (and the tray's modules stay unloaded)
        from ..devices.tilt import TiltConfig

        try:
            TiltConfig.from_dict(data["tilt"])
        except (ValueError, TypeError) as exc:
            raise ConfigError(f"{source}: [tilt] {exc}") from None
    out["tilt"] = dict(data.get("tilt", {}))
    _check_together(out, source, data)
    return out


def _check_together(cfg: dict, source: str, given: dict) -> None:
    """Settings that are fine alone but not together."""
    pins: dict[int, str] = {}
    for name in ("confirm", "undo", "buzzer", "led"):
        pin = cfg["gpio"][name]
        if pin is None:
            continue
        if pin in pins:
            raise ConfigError(f"{source}: [gpio] {name} = {pin}: GPIO{pin} is already the {pins[pin]}: "
                              "allowed values are a pin no other part uses")
        pins[pin] = name
        if pin in (2, 3) and (cfg["tray"]["sensor"] or "").startswith("i2c:"):
            raise ConfigError(f"{source}: [gpio] {name} = {pin}: GPIO2 and GPIO3 are the I2C bus of the tray sensor: "
                              f"allowed values are {_PIN.split(', or')[0]} except 2 and 3")
    game = cfg["game"]
    mine = {o.name for o in GAMES[game["game"]].options}
    for name in given.get("game", {}):
        if name in _game_options() and name not in mine:
            owners = [g for g in GAMES.values() if any(o.name == name for o in g.options)]
            raise ConfigError(f"{source}: [game] {name} = {_show(game[name])}: {name} is a {owners[0].name} setting: "
                              f'allowed only with game = "{owners[0].slug}"')
    if game["players"] is not None and game["names"] and len(game["names"]) != game["players"]:
        raise ConfigError(f"{source}: [game] players = {game['players']} but names has {len(game['names'])}: "
                          "allowed values are the number of names, or leave players out")


def load(path: Path | str | None = None) -> tuple[dict[str, dict[str, Any]], Path | None]:
    """Read and check ``path`` (default: the user's config.toml). A missing default file is
    all defaults; a missing file that was asked for is an error. Returns ``(config, path
    read or None)``. Raises :class:`ConfigError`."""
    asked = path is not None
    path = Path(path) if asked else USER_CONFIG
    try:
        text = read_text(path, "the config file", CONFIG_LIMIT)  # a FIFO or /dev/zero: refused, not waited on
    except FileProblem as exc:
        if not exc.missing:
            raise ConfigError(str(exc), str(path)) from None
        if asked:
            raise ConfigError(f"{path}: no such config file (the example with every key: "
                              "hardware/companion.toml.example)", str(path)) from None
        return parse({}, str(path)), None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}", str(path), line_of(text, str(exc))) from None
    try:
        return parse(data, str(path)), path
    except ConfigError as exc:
        raise ConfigError(str(exc), str(path), line_of(text, str(exc))) from None


# ---------------------------------------------------------------- into `companion run`

# (section, key, run option, the option's default in the CLI parser).
RUN_OPTIONS = (
    ("game", "game", "game", next(iter(GAMES))),
    ("game", "players", "players", None),
    ("display", "fullscreen", "fullscreen", False),
    ("display", "headless", "headless", False),
    ("display", "rotation", "rotation", 0),
    ("display", "output", "output", None),
    ("display", "theme", "theme", None),
    ("timers", "turn_limit", "turn_limit", None),
    ("timers", "at_zero", "at_zero", "warn"),
    ("timers", "chess_clock", "chess_clock", None),
    ("readers", "tap_off", "tap_off", 1.0),
    ("readers", "end", "scan_end", None),
    ("readers", "gap", "scan_gap", None),
    ("tray", "sensor", "tray", None),
    ("gpio", "buzzer", "buzzer", None),
    ("log", "format", "log_format", "text"),
    ("venue", "broker", "venue", None),
    ("venue", "table", "table", None),
    ("venue", "name", "venue_name", None),
    ("venue", "user", "venue_user", None),
    ("venue", "password_file", "venue_password_file", None),
    ("venue", "ca_file", "venue_ca", None),
)


def apply_to_run(args, store_default: str | None = None) -> dict[str, dict[str, Any]]:
    """Load ``args.config`` (or the user's config) and fill every ``run`` option the
    command line left at its default (``store_default``: the CLI's default ``--store``).
    Returns the config. Raises :class:`ConfigError`."""
    cfg, _ = load(getattr(args, "config", None))
    for section, key, option, default in RUN_OPTIONS:
        if getattr(args, option, default) in (None, default) and cfg[section][key] is not None:
            setattr(args, option, cfg[section][key])
    for name in (o.name for o in GAMES[args.game].options):  # unless given as --goal etc.
        if getattr(args, name, None) is None and cfg["game"][name] is not None:
            setattr(args, name, cfg["game"][name])
    if not args.names and cfg["game"]["names"]:
        args.names = ",".join(cfg["game"]["names"])
    if not args.scanner and cfg["readers"]["scanners"]:
        args.scanner = list(cfg["readers"]["scanners"])
    if args.store == store_default and cfg["store"]["path"]:
        args.store = cfg["store"]["path"]
    return cfg
