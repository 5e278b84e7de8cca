"""The table's settings from the game menu (issue 38): the sound's volume and mute, the
theme, and the panel's brightness where it has a backlight.

Each change is live (the next sound, the next frame) and is written to the config file
the table was started with (``[sound] volume``, ``[sound] mute``, ``[display] theme``),
so the next ``companion run`` starts with it, whatever is on the command line aside
(the command line still wins). Why the config and not the store: these keys already live
there and nothing else reads them; the store holds games, and a new table there would
be a new store format that an older companion refuses. A config file that cannot be
written (the Pi's ``/etc/companion/companion.toml`` is root's, the service is not) keeps
the change until the table stops and says so. The brightness is the panel's own
(``/sys/class/backlight/*/brightness``): it stays set until the panel is powered off and
is not written to the config; a panel with no backlight there is not offered one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import theme
from .messages import text

BACKLIGHTS = Path("/sys/class/backlight")
#: The volume steps offered (- and + walk them).
VOLUMES = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
BRIGHTNESS = (0.2, 0.4, 0.6, 0.8, 1.0)


@dataclass(frozen=True)
class Shown:
    """What the settings panel shows: the volume (0 to 1), muted, the theme, the
    brightness (None: no backlight to set) and a word about where it was kept."""

    volume: float
    muted: bool
    theme: str
    brightness: float | None
    sound: bool            # a sound device is open (else the volume is kept, and silent)


def theme_word(name: str) -> str:
    """A theme's name as its button says it ("default" -> "Usual")."""
    return {"default": text("theme_default"), "high-contrast": text("theme_high_contrast")}.get(name, name)


def backlight(root: Path = BACKLIGHTS) -> Path | None:
    """The first backlight with a writable ``brightness`` and a ``max_brightness``."""
    try:
        found = sorted(root.iterdir())
    except OSError:
        return None
    for light in found:
        if (light / "max_brightness").is_file() and (light / "brightness").is_file():
            return light
    return None


def set_key(path: Path, section: str, key: str, value: str) -> None:
    """Write ``key = value`` under ``[section]`` of the TOML file at ``path`` (made when
    missing), keeping every other line, comment and key as it was."""
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    current, head, at = None, None, None
    for n, raw in enumerate(lines):
        line = raw.split("#", 1)[0].strip()
        if m := re.fullmatch(r"\[\s*([^\]]+?)\s*\]", line):
            current = m.group(1)
            head = n if current == section else head
        elif current == section and re.match(rf"{re.escape(key)}\s*=", line):
            at = n
    if at is not None:
        lines[at] = f"{key} = {value}"
    elif head is not None:
        lines.insert(head + 1, f"{key} = {value}")
    else:
        lines += ([""] if lines else []) + [f"[{section}]", f"{key} = {value}"]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


class Settings:
    """The settings a menu changes, live, and where they are kept (:attr:`config`, the
    config file, None: kept only until the table stops). ``sounds`` is the table's
    :class:`~companion.ui.sound.Sounds` (None: no sound at this table)."""

    def __init__(self, sounds: Any = None, config: Path | None = None, light: Path | None = None,
                 volume: float = 0.7, muted: bool = False) -> None:
        self.sounds, self.config, self.light = sounds, config, light
        self.volume = sounds.volume if sounds is not None else volume
        self.muted = sounds.muted if sounds is not None else muted
        self.theme = theme.current

    def shown(self) -> Shown:
        return Shown(self.volume, self.muted, self.theme, self.brightness(), self.sounds is not None
                     and getattr(self.sounds, "problem", None) is None)

    def brightness(self) -> float | None:
        if self.light is None:
            return None
        try:
            most = int((self.light / "max_brightness").read_text().strip())
            return int((self.light / "brightness").read_text().strip()) / most if most > 0 else None
        except (OSError, ValueError):
            return None

    def change(self, words: list[str]) -> tuple[str, bool]:
        """One settings input (``volume up|down``, ``mute``, ``theme NAME``,
        ``brightness up|down``): ``(verdict, accepted)``. Live at once; written to the
        config when it can be (the verdict says when it could not)."""
        what = words[0] if words else ""
        arg = words[1] if len(words) > 1 else ""
        if what == "volume" and arg in ("up", "down"):
            steps = [v for v in VOLUMES if (v > self.volume + 1e-6 if arg == "up" else v < self.volume - 1e-6)]
            if not steps:
                return text("set_volume_end", volume=round(self.volume * 100)), False
            self.volume = min(steps) if arg == "up" else max(steps)
            if self.sounds is not None:
                self.sounds.volume = self.volume
                self.sounds.play("accepted")  # hear how loud it is now
            return self._kept(text("set_volume", volume=round(self.volume * 100)), "sound", "volume",
                              f"{self.volume:.1f}")
        if what == "mute":
            self.muted = not self.muted
            if self.sounds is not None:
                self.sounds.muted = self.muted
            return self._kept(text("set_muted") if self.muted else text("set_unmuted"), "sound", "mute",
                              "true" if self.muted else "false")
        if what == "theme" and arg in theme.THEMES:
            theme.use(arg)
            self.theme = arg
            return self._kept(text("set_theme", theme=theme_word(arg)), "display", "theme", f'"{arg}"')
        if what == "brightness" and arg in ("up", "down"):
            return self._brightness(arg)
        return text("set_unknown"), False

    def _brightness(self, way: str) -> tuple[str, bool]:
        now = self.brightness()
        if now is None:
            return text("set_no_backlight"), False
        steps = [b for b in BRIGHTNESS if (b > now + 0.01 if way == "up" else b < now - 0.01)]
        if not steps:
            return text("set_brightness_end", percent=round(now * 100)), False
        new = min(steps) if way == "up" else max(steps)
        try:
            most = int((self.light / "max_brightness").read_text().strip())
            (self.light / "brightness").write_text(str(max(1, round(most * new))))
        except (OSError, ValueError):
            return text("set_brightness_failed"), False
        return text("set_brightness", percent=round(new * 100)), True

    def _kept(self, said: str, section: str, key: str, value: str) -> tuple[str, bool]:
        if self.config is None:
            return said + " " + text("set_for_now"), True
        try:
            set_key(self.config, section, key, value)
        except (OSError, UnicodeError):
            return said + " " + text("set_not_written"), True
        return said, True
