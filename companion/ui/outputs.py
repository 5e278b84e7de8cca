"""``[display] output``: which connected display the table uses, by its connector name
(``DSI-1``, ``HDMI-A-1``, as /sys/class/drm and ``companion doctor`` name them).

With the DSI panel and an HDMI screen both connected, SDL numbers the displays in the
order the DRM driver lists its connectors, which on a Pi 5 can change between boots.
The table asks SDL for each display's name (``SDL_GetDisplayName``, through the SDL
library pygame loaded) and uses the display whose name contains the connector name.

What is proved here without a Pi: the matching, given SDL's names (tests with made-up
names), and that an unmatched name falls back to SDL's first display with a log line.
What needs the hardware (the appliance VM with two outputs, or a Pi): that SDL's kmsdrm
driver names its displays after their connectors at all. Where it does not, a second
try matches by position: SDL's displays in the order of the connected connectors in
/sys/class/drm, which is the DRM driver's order only when the connector ids are.
"""

from __future__ import annotations

import ctypes
import logging
from pathlib import Path

log = logging.getLogger(__name__)


def _sdl():
    """The SDL2 library pygame has loaded (its wheel bundles one under another name)."""
    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:
        maps = ""
    paths = sorted({line.split()[-1] for line in maps.splitlines() if "libSDL2-2" in line or "libSDL2." in line})
    for path in paths or ["libSDL2-2.0.so.0"]:
        try:
            return ctypes.CDLL(path)
        except OSError:
            continue
    return None


def sdl_display_names() -> list[str]:
    """SDL's name of each display, in SDL's order ([] when SDL cannot say)."""
    lib = _sdl()
    if lib is None:
        return []
    try:
        lib.SDL_GetDisplayName.restype = ctypes.c_char_p
        lib.SDL_GetDisplayName.argtypes = [ctypes.c_int]
        count = lib.SDL_GetNumVideoDisplays()
        return [(lib.SDL_GetDisplayName(i) or b"").decode("utf-8", "replace") for i in range(max(0, count))]
    except (AttributeError, OSError):
        return []


def connected_connectors(root: str = "/") -> list[str]:
    """The connected connectors' names in /sys/class/drm (``DSI-1``, ``HDMI-A-1``)."""
    drm = Path(root) / "sys/class/drm"
    out = []
    for p in sorted(drm.glob("card*-*")) if drm.is_dir() else []:
        try:
            if (p / "status").read_text().strip() == "connected":
                out.append(p.name.split("-", 1)[1])
        except OSError:
            continue
    return out


def display_index(output: str | None, names: list[str] | None = None, connectors: list[str] | None = None) -> int:
    """SDL's index of the display for connector ``output`` (0 without one, or when it
    matches none: logged). ``names``: SDL's display names (default: asked of SDL);
    ``connectors``: the connected connectors (default: from /sys/class/drm)."""
    if not output:
        return 0
    names = sdl_display_names() if names is None else names
    want = output.lower()
    for i, name in enumerate(names):
        if want == name.lower() or want in name.lower().replace(" ", "-"):
            return i
    connectors = connected_connectors() if connectors is None else connectors
    if output in connectors and len(connectors) == len(names):
        return connectors.index(output)
    log.warning("[display] output = %r: SDL's displays are %s: using the first", output,
                ", ".join(repr(n) for n in names) or "unnamed")
    return 0
