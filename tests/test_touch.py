"""Touch as a finger, as SDL's copy of it, and as a real mouse; rotated and scaled panels."""

from __future__ import annotations

import pygame
import pytest

from companion.ui.app import App, Button

CORNERS = {"top-left": (255, 0, 0), "top-right": (0, 255, 0), "bottom-left": (0, 0, 255),
           "bottom-right": (255, 255, 0)}


def corners(surface: pygame.Surface) -> list[Button]:
    w, h = surface.get_size()
    rects = {"top-left": pygame.Rect(0, 0, 64, 64), "top-right": pygame.Rect(w - 64, 0, 64, 64),
             "bottom-left": pygame.Rect(0, h - 64, 64, 64), "bottom-right": pygame.Rect(w - 64, h - 64, 64, 64)}
    out = []
    for name, rect in rects.items():
        surface.fill(CORNERS[name], rect)
        out.append(Button(rect, name))
    return out


def finger(x: float, y: float, kind=pygame.FINGERDOWN) -> None:
    pygame.event.post(pygame.event.Event(kind, x=x, y=y, dx=0.0, dy=0.0, touch_id=1, finger_id=0, pressure=1.0))


def mouse(pos, touch: bool) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=touch))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=touch))


@pytest.fixture
def app():
    a = App()
    a.show(corners)
    pygame.event.clear()
    yield a
    a.close()


def test_a_finger_tap_with_its_emulated_mouse_copy_is_one_action(app):
    finger(10 / 800, 10 / 480)
    mouse((10, 10), touch=True)  # the copy SDL makes of the finger
    finger(10 / 800, 10 / 480, pygame.FINGERUP)
    assert app.poll() == [("touch", "top-left")]


def test_a_finger_tap_alone_is_one_action(app):
    finger(790 / 800, 470 / 480)
    finger(790 / 800, 470 / 480, pygame.FINGERUP)
    assert app.poll() == [("touch", "bottom-right")]


def test_a_real_mouse_click_is_one_action(app):
    mouse((790, 10), touch=False)
    assert app.poll() == [("touch", "top-right")]


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (720, 1280)])
@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_each_rotation_maps_a_corner_tap_to_that_corner(size, rotation):
    app = App(size=size, rotation=rotation)
    try:
        app.show(corners)
        frame = app.frame()
        assert frame.get_size() == size
        for name, colour in CORNERS.items():
            # Where the panel shows that corner's colour is where a finger would tap it.
            mask = pygame.mask.from_threshold(frame, colour, (8, 8, 8, 255))
            assert mask.count() > 48 * 48 * min(app.scale, 1) ** 2 * 0.8, (name, rotation, size)
            x, y = mask.centroid()
            pygame.event.clear()
            finger(x / size[0], y / size[1])
            mouse((x, y), touch=True)
            assert app.poll() == [("touch", name)], (name, rotation, size)
            mouse((x, y), touch=False)
            assert app.poll() == [("touch", name)], (name, rotation, size)
    finally:
        app.close()


def test_the_layout_fills_each_panel_and_touch_targets_stay_48_px():
    for size, rotation, scale in (((800, 480), 0, 1.0), ((1024, 600), 0, 1.25), ((720, 1280), 90, 1.5)):
        app = App(size=size, rotation=rotation)
        try:
            assert app.size == (800, 480) and app.scale == pytest.approx(scale)
            assert 48 * app.scale >= 48
        finally:
            app.close()


def test_screenshots_draw_every_phase_menu_and_the_final_screen(tmp_path):
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "companion.cli", "screenshots", "--out", str(tmp_path),
                           "--game", "sugarrr", "--size", "1024x600"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    files = sorted(p.name for p in (tmp_path / "sugarrr" / "1024x600").glob("*.png"))
    assert any(f.endswith("-setup.png") for f in files) and any(f.endswith("-over.png") for f in files)
    assert any(f.endswith("-deck.png") for f in files) and any(f.endswith("-menu-undo.png") for f in files)
    assert any(f.endswith("-paused.png") for f in files)
    assert pygame.image.load(str(tmp_path / "sugarrr" / "1024x600" / files[0])).get_size() == (1024, 600)
    assert "screenshots;" in proc.stdout
    bad = subprocess.run([sys.executable, "-m", "companion.cli", "screenshots", "--out", str(tmp_path),
                          "--size", "640x480"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "640x480" in bad.stderr
