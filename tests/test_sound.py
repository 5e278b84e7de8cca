"""The table's sounds (companion/ui/sound.py), heard through SDL's ``disk`` audio driver:
SDL writes what the mixer plays to a file (SDL_AUDIODRIVER=disk, SDL_DISKAUDIOFILE), so
a test reads the samples each verdict made. Each case runs in its own process: SDL
chooses its audio driver when the mixer opens, once a process."""

from __future__ import annotations

import array
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.ui import sound

ROOT = Path(__file__).resolve().parent.parent

#: Run in a child: the session of a Sugarrr! game with the table's sounds, muted through
#: set-up, then each input of ``TRIES`` on its own; prints JSON of what was heard.
CHILD = textwrap.dedent('''
    import json, os, sys, time
    sys.path.insert(0, os.path.join(os.environ["ROOT"], "tests"))
    from companion.ui.sound import Sounds, VerdictSounds
    sounds = Sounds(volume=float(os.environ.get("VOLUME", "0.7")), muted=os.environ.get("MUTE") == "1")
    started = sounds.start()
    out = {"started": started, "problem": sounds.problem, "played": []}
    if started:
        import pygame.mixer
        out["format"] = list(pygame.mixer.get_init())
    for kind in json.loads(os.environ.get("KINDS", "[]")):
        out["played"].append(sounds.play(kind))
    if os.environ.get("SESSION"):
        from companion.core.clock import FakeClock
        from companion.core.events import CardScanned, Touch
        from companion.core.store import EventStore
        from companion.table.session import Session
        from sugarrr_helpers import STARTS, fruit
        session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(":memory:"), FakeClock(), tap_off=0)
        session.listeners.append(VerdictSounds(sounds))
        muted, sounds.muted = sounds.muted, True
        t = 0.0
        for code in STARTS:
            t += 1
            session.handle(CardScanned(code, "scanner", t))
        sounds.muted = muted
        for step in os.environ["SESSION"].split(";"):
            t += 1
            name, _, number = step.rpartition(" ")
            item = Touch(step[1:], t) if step.startswith("/") else CardScanned(fruit(name, int(number)), "scanner", t)
            v = session.handle(item)
            out["played"].append(v.verdict)
    time.sleep(0.05)
    while sounds.busy():
        time.sleep(0.02)
    time.sleep(0.25)  # the device's last buffers reach the file
    sounds.close()
    print(json.dumps(out))
''')


def heard(tmp_path: Path, driver: str = "disk", **env) -> tuple[dict, array.array]:
    """Run :data:`CHILD` with SDL's ``driver`` and ``env``; what it printed and the
    samples the disk driver wrote (16-bit signed, as the mixer opened)."""
    raw = tmp_path / "heard.raw"
    run_env = {**os.environ, "SDL_AUDIODRIVER": driver, "SDL_DISKAUDIOFILE": str(raw), "ROOT": str(ROOT),
               "PYGAME_HIDE_SUPPORT_PROMPT": "1", **{k: str(v) for k, v in env.items()}}
    proc = subprocess.run([sys.executable, "-c", CHILD], env=run_env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    samples = array.array("h")
    if raw.exists():
        data = raw.read_bytes()
        samples.frombytes(data[: len(data) // 2 * 2])
    return out, samples


def loud(samples: array.array) -> list[int]:
    return [s for s in samples if abs(s) > 200]


def crossings_per_second(samples: array.array, rate: int, channels: int) -> float:
    """How often the sound crosses zero while it sounds: twice its main pitch."""
    mono = samples[::channels]
    on = [i for i, s in enumerate(mono) if abs(s) > 200]
    if not on:
        return 0.0
    part = mono[on[0]:on[-1] + 1]
    flips = sum(1 for a, b in zip(part, part[1:]) if (a < 0) != (b < 0) and abs(a - b) > 50)
    return flips / (len(part) / rate)


@pytest.mark.parametrize("kind", sound.KINDS)
def test_each_sound_is_heard_through_the_disk_driver(tmp_path, kind):
    """Every sound the table makes writes non-silent samples."""
    out, samples = heard(tmp_path, KINDS=json.dumps([kind]))
    assert out["started"] and out["played"] == [True], out
    assert len(loud(samples)) > 1000, f"{kind}: {len(loud(samples))} loud samples"


def test_muted_the_device_writes_only_silence(tmp_path):
    out, samples = heard(tmp_path, MUTE=1, KINDS=json.dumps(list(sound.KINDS)))
    assert out["started"] and out["played"] == [False] * len(sound.KINDS)
    assert len(samples) > 1000 and loud(samples) == [], "muted, yet something was heard"


def test_volume_zero_is_silent_and_a_lower_volume_is_quieter(tmp_path):
    _, full = heard(tmp_path, VOLUME=1.0, KINDS='["accepted"]')
    _, half = heard(tmp_path, VOLUME=0.3, KINDS='["accepted"]')
    _, none = heard(tmp_path, VOLUME=0.0, KINDS='["accepted"]')
    assert max(map(abs, half)) < max(map(abs, full)) * 0.5 and loud(none) == []


def test_an_accepted_and_a_refused_verdict_each_make_their_own_sound(tmp_path):
    """Issue 38: "there is no sound at all, so a player looking at the cards misses a
    refusal". Through a real session: a play the rules accept sounds high (the two notes
    up), one they refuse sounds low (the buzz down). (The column tap before each sounds
    too: it is accepted.)"""
    yes, yes_samples = heard(tmp_path, SESSION="/column 1;Strawberry 2")
    assert yes["played"] == ["accepted", "accepted"]
    rate, _, channels = yes["format"]
    yes_only, yes_samples = heard(tmp_path, SESSION="Pear 4")  # (fits column 5 only: no tap needed)
    assert yes_only["played"] == ["accepted"], yes_only
    no, no_samples = heard(tmp_path, SESSION="Blueberries 5")  # fits no column's top card
    assert no["played"] == ["rejected"], no
    high, low = crossings_per_second(yes_samples, rate, channels), crossings_per_second(no_samples, rate, channels)
    assert len(loud(yes_samples)) > 1000 and len(loud(no_samples)) > 1000
    assert high > 1500 > 1200 > low, (high, low)  # ~2070 and ~960 crossings a second


def test_no_audio_device_is_silence_never_a_crash(tmp_path):
    """SDL's dummy driver plays into nothing; a driver that cannot open is a silent table
    that says why."""
    out, _ = heard(tmp_path, driver="dummy", KINDS='["refused"]')
    assert out["played"] in ([True], [False])
    out, _ = heard(tmp_path, driver="no-such-driver", KINDS='["refused", "accepted"]')
    assert out["started"] is False and out["played"] == [False, False] and "no sound" in out["problem"]


def test_a_pygame_without_its_mixer_is_silence(monkeypatch):
    from companion.core import lean_pygame

    monkeypatch.setattr(lean_pygame, "allow", lambda name: None)
    monkeypatch.setitem(sys.modules, "pygame.mixer", None)  # as a pygame built without SDL_mixer
    sounds = sound.Sounds()
    assert sounds.start() is False and "no sound" in sounds.problem
    assert sounds.play("accepted") is False and not sounds.busy()
    sounds.close()


def test_the_cues_of_a_verdict():
    """Refused, accepted, accepted then refill (Sugar Blast's refill prompt), accepted
    then your turn; nothing for an ignored input or a step."""
    from types import SimpleNamespace as V

    from companion.core.events import TurnEnded
    from companion.games.sugar_blast.state import RefillPrompt

    assert sound.cues(V(verdict="rejected", events=(), step=False)) == ["refused"]
    assert sound.cues(V(verdict="accepted", events=(), step=False)) == ["accepted"]
    assert sound.cues(V(verdict="accepted", events=(), step=True)) == []
    assert sound.cues(V(verdict="ignored", events=(), step=False)) == []
    refill = RefillPrompt("Fill 3 spaces.", 3, 40)
    assert sound.cues(V(verdict="accepted", events=(refill,), step=False)) == ["accepted", "refill"]
    assert sound.cues(V(verdict="accepted", events=(TurnEnded("", 0, 1),), step=False)) == ["accepted", "your_turn"]


def test_time_up_is_heard_when_the_turn_limit_runs_out(tmp_path):
    from companion.core.clock import FakeClock
    from companion.core.events import CardScanned
    from companion.core.store import EventStore
    from companion.table.runner import Runner
    from companion.table.session import Session
    from companion.ui.timers import Timers
    from sugarrr_helpers import STARTS

    clock = FakeClock(0.0)
    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(tmp_path / "t.db"), clock, tap_off=0)
    for code in STARTS:
        clock.advance(1.0)
        session.handle(CardScanned(code, "scanner", clock.now()))

    class Heard:
        played: list = []

        def play(self, kind):
            self.played.append(kind)
            return True

    runner = Runner(session, clock, timers=Timers(limit=30))
    runner.sounds = Heard()
    clock.advance(10.0)
    runner.timekeeper.check_turn_limit()
    assert Heard.played == []
    clock.advance(25.0)
    runner.timekeeper.check_turn_limit()
    runner.timekeeper.check_turn_limit()  # once a turn
    assert Heard.played == ["time_up"]


def test_the_samples_are_made_once_and_read_back_from_the_cache(tmp_path, monkeypatch):
    """Making the five sounds is 57,000 samples of Python (a third of a resumed cold
    start): a start after the first reads them back; a damaged file is made again."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    made = sound.samples("refused", 22050, 2).tobytes()
    assert sound.cached_samples("refused", 22050, 2) == made
    (kept,) = (tmp_path / "sugar-companion").glob("sound-refused-*.pcm")
    assert oct(kept.stat().st_mode & 0o777) == "0o600"

    def no_making(*args, **kwargs):
        raise AssertionError("made again although the cache holds it")

    monkeypatch.setattr(sound, "samples", no_making)
    assert sound.cached_samples("refused", 22050, 2) == made  # from the file
    data = bytearray(kept.read_bytes())
    data[100] ^= 0xFF  # one flipped byte
    kept.write_bytes(bytes(data))
    with pytest.raises(AssertionError, match="made again"):
        sound.cached_samples("refused", 22050, 2)
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert sound.cached_samples("refused", 22050, 2) == made  # made again, and right
    assert sound.cached_samples("refused", 44100, 2) != made  # another rate is another file


def test_a_cache_that_cannot_be_written_only_costs_the_making(tmp_path, monkeypatch):
    blocked = tmp_path / "file-not-dir"
    blocked.write_text("x")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    assert sound.cached_samples("accepted") == sound.samples("accepted").tobytes()
