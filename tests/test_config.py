"""The config file: the example documents every key with its default, each bad value
is refused with a message naming the key and what is allowed, and `run` takes its
settings from it (the command line winning)."""

import re
from pathlib import Path

import pytest

from companion.service import config
from companion.service.config import KEYS, ConfigError, load, parse

EXAMPLE = Path(__file__).resolve().parent.parent / "hardware" / "companion.toml.example"


def example_lines() -> dict[tuple[str, str], str]:
    """(section, key) -> its line in the example, commented out or not."""
    found, section = {}, None
    for line in EXAMPLE.read_text().splitlines():
        if m := re.fullmatch(r"\[(\w+)\]", line.strip()):
            section = m.group(1)
        elif m := re.match(r"#? ?(\w+) = ", line):
            found.setdefault((section, m.group(1)), line)
    return found


def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def test_the_example_is_valid_and_has_every_key_with_its_default():
    cfg, _ = load(EXAMPLE)
    lines = example_lines()
    for key in KEYS:
        line = lines.get((key.section, key.name))
        assert line is not None, f"[{key.section}] {key.name} is missing from the example"
        if key.default is None:  # "not set", or where the program looks instead
            assert "default: " in line, line
        elif line.startswith("#"):  # commented out: it must show the default itself
            assert line.split("=", 1)[1].split("#")[0].strip() == toml_value(key.default), line
        else:  # set for the Pi: the comment says the default
            assert f"default: {str(toml_value(key.default)).strip(chr(34))}" in line, line
    for name in config.sections()["tilt"]:
        assert ("tilt", name) in lines, f"[tilt] {name} is missing from the example"


def test_commented_example_values_are_the_real_defaults():
    """Uncomment every `# key = value` line: each value is that key's default (keys whose
    default is "not set" show an example value instead)."""
    import tomllib

    from companion.devices.tilt import TiltConfig

    text = re.sub(r"(?m)^# (\w+ = [^#\n]*?)[ \t]*(#.*)?$", r"\1", EXAMPLE.read_text())
    data = tomllib.loads(text)
    assert TiltConfig.from_dict(data["tilt"]) == TiltConfig()
    commented = {k for k, line in example_lines().items() if line.startswith("#")}
    checked = 0
    for key in KEYS:
        if (key.section, key.name) in commented and key.default is not None:
            assert data[key.section][key.name] == key.default, key
            checked += 1
    assert checked >= 8


def test_an_empty_file_is_every_default():
    cfg = parse({}, "x.toml")
    for key in KEYS:
        assert cfg[key.section][key.name] == key.default


BAD = [
    ({"venue": {"broker": "http://cafe"}}, "[venue] broker", '"mqtt://HOST[:PORT]"'),
    ({"venue": {"table": "table 3"}}, "[venue] table", "letters, digits, - and _"),
    ({"venue": {"name": "café/1"}}, "[venue] name", "letters, digits, - and _"),
    ({"venue": {"user": ""}}, "[venue] user", "the broker user name"),
    ({"venue": {"password_file": "pw.txt"}}, "[venue] password_file", "an absolute path"),
    ({"venue": {"ca_file": 3}}, "[venue] ca_file", "an absolute path"),
    ({"game": {"game": "chess"}}, "[game] game", '"sugarrr", "sugar-blast"'),
    ({"game": {"names": "Mum,Dad"}}, "[game] names", "a list of different player names"),
    ({"game": {"names": ["Mum", "Mum"]}}, "[game] names", "different player names"),
    ({"game": {"names": ["Mum", ""]}}, "[game] names", "different player names"),
    ({"game": {"players": 0}}, "[game] players", "from 1 to 8"),
    ({"game": {"players": "two"}}, "[game] players", "from 1 to 8"),
    ({"game": {"game": "sugar-blast", "goal": "six-any"}}, "[game] goal", '"five-different"'),
    ({"game": {"solo": "yes"}}, "[game] solo", "true or false"),
    ({"game": {"quick": 1}}, "[game] quick", "true or false"),
    ({"game": {"game": "sugar-heist", "all_cards": "yes"}}, "[game] all_cards", "true or false"),
    ({"game": {"alternate": 0}}, "[game] alternate", "true or false"),
    ({"game": {"game": "sweet-deals", "mode": "secret"}}, "[game] mode", '"tracked", "open"'),
    ({"game": {"hybrid": "both"}}, "[game] hybrid", '"and", "or"'),
    ({"game": {"mode": "open"}}, "[game] mode", 'allowed only with game = "sweet-deals"'),
    ({"display": {"fullscreen": "true"}}, "[display] fullscreen", "true or false"),
    ({"display": {"headless": 0}}, "[display] headless", "true or false"),
    ({"display": {"rotation": 45}}, "[display] rotation", "0, 90, 180 or 270"),
    ({"display": {"output": "HDMI"}}, "[display] output", "a connector name"),
    ({"display": {"theme": "neon"}}, "[display] theme", "high-contrast"),
    ({"timers": {"turn_limit": 0}}, "[timers] turn_limit", "above 0"),
    ({"timers": {"at_zero": "skip"}}, "[timers] at_zero", '"warn" or "pass"'),
    ({"timers": {"chess_clock": -5}}, "[timers] chess_clock", "minutes per player"),
    ({"store": {"path": "table.db"}}, "[store] path", "an absolute file path"),
    ({"readers": {"scanners": "serial:/dev/ttyACM0"}}, "[readers] scanners", '"KIND:PATH[@SEAT]"'),
    ({"readers": {"scanners": ["usb:/dev/ttyACM0"]}}, "[readers] scanners", "serial, hid or nfc"),
    ({"readers": {"scanners": ["serial:/dev/ttyACM0@9"]}}, "[readers] scanners", "KIND:PATH[@SEAT]"),
    ({"readers": {"tap_off": -1}}, "[readers] tap_off", "from 0 up to 60"),
    ({"readers": {"tap_off": float("nan")}}, "[readers] tap_off", "from 0 up to 60"),
    ({"readers": {"end": "enter"}}, "[readers] end", '"auto"'),
    ({"readers": {"gap": 0}}, "[readers] gap", "above 0 and at most 10"),
    ({"readers": {"gap": 0.1 * 200}}, "[readers] gap", "above 0 and at most 10"),
    ({"readers": {"scanners": [{"reader": "hid:auto", "gap": -1}]}}, "[readers] scanners", "gap in seconds"),
    ({"readers": {"scanners": [{"reader": "hid:auto", "end": "tab"}]}}, "[readers] scanners", 'end "auto"'),
    ({"readers": {"scanners": [{"reader": "hid:auto", "gpa": 0.3}]}}, "[readers] scanners", "or tables like"),
    ({"readers": {"scanners": [{"gap": 0.3}]}}, "[readers] scanners", "or tables like"),
    ({"tray": {"sensor": "i2c"}}, "[tray] sensor", '"i2c:1"'),
    ({"tray": {"calibration": "cal.toml"}}, "[tray] calibration", "an absolute file path"),
    ({"gpio": {"confirm": 1}}, "[gpio] confirm", "from 2 to 27"),
    ({"gpio": {"undo": 28}}, "[gpio] undo", "from 2 to 27"),
    ({"gpio": {"buzzer": 18.0}}, "[gpio] buzzer", "from 2 to 27"),
    ({"gpio": {"led": True}}, "[gpio] led", "from 2 to 27"),
    ({"gpio": {"bounce": 0}}, "[gpio] bounce", "above 0 and at most 1"),
    ({"gpio": {"confirm": 17, "undo": 17}}, "[gpio] undo = 17", "already the confirm"),
    ({"gpio": {"confirm": 2}, "tray": {"sensor": "i2c:1"}}, "[gpio] confirm = 2", "I2C bus"),
    ({"game": {"goal": "two-threes"}}, "[game] goal", 'game = "sugar-blast"'),
    ({"game": {"players": 3, "names": ["A", "B"]}}, "[game] players = 3", "number of names"),
    ({"log": {"format": "xml"}}, "[log] format", '"text" or "json"'),
    ({"sound": {"volume": 7}}, "[sound] volume", "from 0 (silent) to 1"),
    ({"sound": {"mute": "yes"}}, "[sound] mute", "true or false"),
    ({"tilt": {"threshold_deg": 95}}, "[tilt]", "threshold_deg must be between 0 and 90"),
    ({"tilt": {"treshold_deg": 18}}, "[tilt]", "treshold_deg"),
    ({"gpoi": {"undo": 27}}, "unknown section [gpoi]", "[gpio]"),
    ({"gpio": {"confrim": 17}}, "unknown key 'confrim' in [gpio]", "confirm, undo, buzzer, led, bounce"),
    ({"gpio": 17}, "gpio must be a section", "[gpio]"),
]


@pytest.mark.parametrize("data, names, allowed", BAD, ids=[b[1] + " " + repr(b[0])[:40] for b in BAD])
def test_every_bad_value_names_its_key_and_what_is_allowed(data, names, allowed):
    with pytest.raises(ConfigError) as err:
        parse(data, "/etc/companion/companion.toml")
    message = str(err.value)
    assert message.startswith("/etc/companion/companion.toml: ")
    assert names in message and allowed in message, message


def test_every_key_has_a_bad_value_tested():
    tested = {name.split(" = ")[0] for _, name, _ in BAD}
    missing = [f"[{k.section}] {k.name}" for k in KEYS if f"[{k.section}] {k.name}" not in tested]
    assert missing == []


def test_a_file_that_is_not_toml_or_missing_says_so(tmp_path):
    bad = tmp_path / "c.toml"
    bad.write_text("[gpio\nundo = 27\n")
    with pytest.raises(ConfigError, match="c.toml: not valid TOML"):
        load(bad)
    with pytest.raises(ConfigError, match="no such config file"):
        load(tmp_path / "nope.toml")


def test_the_old_tilt_only_user_config_still_loads(tmp_path):
    """~/.config/sugar-companion/config.toml held only [tilt] before; it stays valid."""
    old = tmp_path / "config.toml"
    old.write_text("[tilt]\nthreshold_deg = 18\n")
    cfg, path = load(old)
    assert path == old and cfg["tilt"] == {"threshold_deg": 18}
    from companion.devices.tray import load_tilt_config
    assert load_tilt_config(old).threshold_deg == 18


def test_run_takes_its_settings_from_the_config_and_the_command_line_wins(tmp_path):
    from companion.cli import build_parser
    from companion.core.store import DEFAULT_STORE

    f = tmp_path / "c.toml"
    f.write_text('[game]\ngame = "sugar-blast"\nnames = ["Ana", "Ben"]\ngoal = "nine-any"\n'
                 '[store]\npath = "/var/lib/companion/table.db"\n[readers]\nscanners = ["serial:/dev/x@1"]\n'
                 'tap_off = 2\n[display]\nfullscreen = true\n[log]\nformat = "json"\n')
    args = build_parser().parse_args(["run", "--config", str(f), "--names", "Cy,Di"])
    config.apply_to_run(args, str(DEFAULT_STORE))
    assert (args.game, args.names, args.goal, args.store, args.scanner, args.tap_off, args.fullscreen, args.log_format) == \
        ("sugar-blast", "Cy,Di", "nine-any", "/var/lib/companion/table.db", ["serial:/dev/x@1"], 2.0, True, "json")


def test_run_refuses_a_bad_config_with_status_2(tmp_path, capsys):
    from companion.cli import main

    f = tmp_path / "c.toml"
    f.write_text("[gpio]\nundo = 99\n")
    assert main(["run", "--config", str(f), "--headless", "--names", "A,B", "--store", str(tmp_path / "t.db")]) == 2
    assert "[gpio] undo = 99: allowed values are a BCM GPIO number from 2 to 27" in capsys.readouterr().err
    assert not (tmp_path / "t.db").exists()
