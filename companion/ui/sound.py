"""The table's sounds: a player looking at the cards hears the verdict (issue 38;
ACMI's lens reader gives "feedback (light, sound, screen) for every read").

Five sounds, told apart by rhythm and the way the pitch goes as well as by pitch, so
each is known without looking and by ears that hear high notes badly:

- ``accepted``: two quick notes going up (a bright "ding-ding");
- ``refused``: two low buzzing notes going down, longer (a "bonk-bonk");
- ``your_turn``: three notes going up, a chime (the turn passed);
- ``refill``: six short notes tumbling down (candies falling into the board);
- ``time_up``: three long, level beeps.

They are made in code when the mixer opens, not shipped as WAV files: a few lines say
each one (easy to change, nothing binary in the repository, no licence to track), they
take about 60 KB of memory at the mixer's rate. Making them is a Python loop over every
sample (about 57,000: 0.12 s here, a third of a resumed game's cold start, so about a
second on a Zero 2 W), so the samples made are kept in the cache directory beside the
compiled dataclass code (:func:`cached_samples`) and read back on the next start.

Sound never stops a table: no ``pygame.mixer`` (a pygame without SDL_mixer), a mixer
that fails to open (no sound card, a busy device) or SDL's ``dummy`` driver all leave a
silent :class:`Sounds` that says why (:attr:`Sounds.problem`) and plays nothing. Muted,
nothing is played (the device, when open, writes silence); the volume is the config's
``[sound] volume`` (0 to 1).

>>> quiet = Sounds(volume=0.5, muted=True)
>>> quiet.play("accepted")
False
>>> [len(notes(kind)) > 0 for kind in KINDS]
[True, True, True, True, True]
"""

from __future__ import annotations

import array
import math
import os
import sys
from pathlib import Path
import zlib
from typing import Any

#: The sounds there are, by what they tell.
KINDS = ("accepted", "refused", "your_turn", "refill", "time_up")

#: Each sound as notes ``(hertz, seconds, wave)``; hertz 0 is a rest. "sine" is soft,
#: "buzz" (odd harmonics, nearly square) is harsh: a refusal must not sound like a yes.
_NOTES: dict[str, tuple[tuple[float, float, str], ...]] = {
    "accepted": ((880.0, 0.08, "sine"), (0, 0.02, "sine"), (1318.5, 0.12, "sine")),
    "refused": ((311.1, 0.16, "buzz"), (0, 0.05, "buzz"), (207.7, 0.26, "buzz")),
    "your_turn": ((659.3, 0.10, "sine"), (880.0, 0.10, "sine"), (1108.7, 0.20, "sine")),
    "refill": tuple((f, 0.05, "sine") for f in (1568.0, 1318.5, 1174.7, 987.8, 880.0, 784.0)),
    "time_up": ((523.3, 0.28, "buzz"), (0, 0.12, "buzz"), (523.3, 0.28, "buzz"), (0, 0.12, "buzz"),
                (523.3, 0.40, "buzz")),
}

#: The mixer asked for (it may give another rate or two channels: sounds are made for
#: what it gives).
RATE, CHANNELS, BUFFER = 22050, 1, 512


def notes(kind: str) -> tuple[tuple[float, float, str], ...]:
    """The notes of the sound ``kind`` (one of :data:`KINDS`)."""
    return _NOTES[kind]


def samples(kind: str, rate: int = RATE, channels: int = CHANNELS, peak: int = 12000) -> array.array:
    """The sound ``kind`` as signed 16-bit samples at ``rate`` Hz, interleaved for
    ``channels``: each note with a 5 ms rise and a fall to its end, so nothing clicks."""
    out = array.array("h")
    for hertz, seconds, wave in notes(kind):
        n = int(rate * seconds)
        edge = max(1, int(rate * 0.005))
        for i in range(n):
            if not hertz:
                value = 0.0
            else:
                phase = 2 * math.pi * hertz * i / rate
                value = math.sin(phase)
                if wave == "buzz":
                    value = (value + math.sin(3 * phase) / 3 + math.sin(5 * phase) / 5) * 0.8
                value *= min(1.0, i / edge) * (1.0 - i / n) ** 0.5
            sample = int(peak * value)
            out.extend([sample] * channels)
    return out


def _cache_file(kind: str, rate: int, channels: int, peak: int) -> Path:
    from ..core import codecache

    key = zlib.crc32(repr((notes(kind), rate, channels, peak, sys.byteorder)).encode())
    return codecache.cache_path().parent / f"sound-{kind}-{key:08x}.pcm"


def cached_samples(kind: str, rate: int = RATE, channels: int = CHANNELS, peak: int = 12000) -> bytes:
    """:func:`samples` as bytes, read from the cache when a start before made them, else
    made now and kept (``$XDG_CACHE_HOME/sugar-companion/sound-KIND-KEY.pcm``, the key a
    CRC-32 of the notes, rate, channels and peak, so a changed sound is made again). The
    file ends in a CRC-32 of the samples (zlib's: hashlib stays out of a table's start):
    a damaged or cut file is made again. A
    cache that cannot be written (a read-only or full card) only costs the making."""
    path = _cache_file(kind, rate, channels, peak)
    try:
        data = path.read_bytes()
        body, digest = data[:-4], data[-4:]
        if len(data) > 4 and zlib.crc32(body).to_bytes(4, "little") == digest:
            return body
    except OSError:
        pass
    body = samples(kind, rate, channels, peak).tobytes()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(body + zlib.crc32(body).to_bytes(4, "little"))
        os.replace(tmp, path)
    except OSError:
        pass
    return body


class Sounds:
    """The table's sounds on ``pygame.mixer``, silent when there is none.

    :meth:`start` opens the mixer (call it once; safe to call with no audio device);
    :meth:`play` plays a sound, or queues it after the one playing (an accepted play
    that passes the turn: ``accepted`` then ``your_turn``). ``volume`` (0 to 1) and
    ``muted`` can be changed at any time."""

    def __init__(self, volume: float = 0.7, muted: bool = False) -> None:
        self.volume = min(1.0, max(0.0, float(volume)))
        self.muted = bool(muted)
        self.problem: str | None = "not started"
        self._mixer: Any = None
        self._sounds: dict[str, Any] = {}
        self._channel: Any = None

    def start(self) -> bool:
        """Open the mixer and make the sounds. False (and :attr:`problem` says why) when
        there is no sound here; never raises."""
        try:
            from ..core import lean_pygame

            lean_pygame.allow("pygame.mixer")  # skipped at start-up: only a table with sound loads it
            import pygame.mixer as mixer

            if not mixer.get_init():
                mixer.init(RATE, -16, CHANNELS, BUFFER)
            rate, _, channels = mixer.get_init()
            self._sounds = {kind: mixer.Sound(buffer=cached_samples(kind, rate, channels)) for kind in KINDS}
            self._channel = mixer.Channel(0)
            mixer.set_reserved(1)  # channel 0 is the table's: cues queue on it in order
        except Exception as err:  # ImportError, pygame.error, NotImplementedError (no SDL_mixer)...
            self.problem = f"no sound: {err}"
            self._mixer, self._sounds, self._channel = None, {}, None
            return False
        self._mixer, self.problem = mixer, None
        return True

    def play(self, kind: str) -> bool:
        """Play ``kind`` now, or after the sound playing; True when it was played or
        queued (False: muted, silent, volume 0, or an unknown kind)."""
        sound = self._sounds.get(kind)
        if sound is None or self.muted or self.volume <= 0:
            return False
        try:
            sound.set_volume(self.volume)
            if self._channel.get_busy():
                self._channel.queue(sound)
            else:
                self._channel.play(sound)
        except Exception as err:  # the device went away mid-game: carry on silent
            self.problem = f"no sound: {err}"
            self._sounds = {}
            return False
        return True

    def busy(self) -> bool:
        """Is a sound playing (or queued)?"""
        try:
            return bool(self._channel is not None and self._channel.get_busy())
        except Exception:
            return False

    def close(self) -> None:
        """Stop and close the mixer (if this opened one)."""
        if self._mixer is not None:
            try:
                self._mixer.quit()
            except Exception:
                pass
        self._mixer, self._sounds, self._channel = None, {}, None


def cues(verdict: Any) -> list[str]:
    """The sounds for one verdict of the session (``verdict.verdict`` "accepted",
    "rejected" or "ignored"; ``verdict.events``, its outcome events; ``verdict.step``):
    ``refused`` for a refusal; for an accepted input ``accepted`` (not for a step of a
    longer input: a column tapped), then ``refill`` when an event asks to refill the
    board (its ``sound``) or ``your_turn`` when the turn passed (a ``TurnEnded``)."""
    if verdict is None or verdict.verdict == "ignored":
        return []
    if verdict.verdict == "rejected":
        return ["refused"]
    from ..core.events import TurnEnded

    out = [] if verdict.step else ["accepted"]
    said = [e.sound for e in verdict.events]
    if "refill" in said:
        out.append("refill")
    elif any(isinstance(e, TurnEnded) for e in verdict.events):
        out.append("your_turn")
    return out


class VerdictSounds:
    """A session listener (``session.listeners``) that plays each verdict's :func:`cues`."""

    def __init__(self, sounds: Sounds) -> None:
        self.sounds = sounds

    def __call__(self, item: Any, verdict: Any) -> None:
        for kind in cues(verdict):
            self.sounds.play(kind)
