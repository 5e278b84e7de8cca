"""Every screen of every registered game, as PNG, at
each supported panel size, drawn headless from the games' recorded demo sessions, and
the shared start and history screens.
Printed by ``companion screenshots``.

For each game and size: the first screen of each phase of the demo, each menu its
screen offers there (Swap, Fruit Deck, the Undo dialog...), the paused screen and the
final screen. Each text a widget drew cut off or under the minimum size is listed, so a
screen that reads badly is found without opening every file.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from ..games import GAMES

#: Panels the companion supports: (width, height, rotation). The Touch Display 2
#: (720x1280) upright gets the portrait layout (800 px wide, 1422 tall:
#: :func:`companion.ui.app.design_for`); turned a quarter (``rotation = 90``) the
#: landscape one fills it ("720x1280-turned").
SIZES = {"800x480": (800, 480, 0), "1024x600": (1024, 600, 0), "720x1280": (720, 1280, 0),
         "720x1280-turned": (720, 1280, 90)}


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "screen"


def _save(app, path: Path, draw, report: list[str]) -> Path:
    """Draw one frame, save it as the panel shows it, and list what reads badly."""
    from ..ui.widgets import record_text

    with record_text() as drawn:
        app.show(draw)
    app.save(path, as_panel=True)
    _check(path, drawn, app, report)
    return path


def _check(path: Path, drawn, app, report: list[str]) -> None:
    """List each text of the frame cut off or under the minimum size (em px), and each
    overlap :func:`companion.ui.fit.overlaps` finds."""
    from ..ui.fit import overlaps

    for d in drawn:
        if not d.readable and d.text.strip():
            report.append(f"{path}: {'cut off' if d.clipped else f'{d.size} px'}: {d.text!r}")
    for problem in overlaps(drawn, app.surface, [b.rect for b in app.buttons]):
        report.append(f"{path}: {problem}")


def shoot_screen(path: Path, size: tuple[int, int], rotation: int, draw, report: list[str]) -> Path:
    """One screen drawn by ``draw(surface) -> buttons`` (the doctor's report), saved as
    the panel shows it and checked like every other."""
    from ..ui.app import App

    app = App(size=size, rotation=rotation)
    try:
        return _save(app, path, draw, report)
    finally:
        app.close()


def shoot_shared(out: Path, size: tuple[int, int], rotation: int, report: list[str], finished=()) -> list[Path]:
    """The screens every game shares: each step of the start screen (with an unfinished
    game to carry on), each game's player and option steps, the roster and the keyboard,
    and the history of ``finished`` results with each one's score sheet and the players'
    figures. Returns the files."""
    from ..core.store import EventStore
    from ..ui.app import App
    from ..ui.history import HistoryScreen
    from ..ui.start import StartFlow

    app = App(size=size, rotation=rotation)
    store = EventStore(":memory:")
    for i, result in enumerate(finished):
        gid = store.new_game(result.game, [p.name for p in result.players], 1_700_000_000.0 + 3600 * i)
        store.finish(gid, 1_700_000_000.0 + 3600 * i + 1800, result.to_dict())
    store.new_game(list(GAMES)[-1], ["Grandma Josephine", "Maya"], 1_700_100_000.0)  # one to carry on
    saved: list[Path] = []

    def save(name: str, draw) -> None:
        saved.append(_save(app, out / f"{len(saved) + 1:02d}-{_slug(name)}.png", draw, report))

    try:
        flow = StartFlow(store, GAMES)
        save("start-games", flow.draw)
        for slug, desc in GAMES.items():
            flow = StartFlow(store, GAMES)
            flow.handle(f"game {slug}")
            flow.handle(f"players {desc.max_players}")
            save(f"start-{slug}-players", flow.draw)
            if desc.options:
                flow.handle("next")
                save(f"start-{slug}-options", flow.draw)
                flow.handle("back")
            if slug == next(iter(GAMES)):
                flow.handle("name 2")
                if flow.roster:  # the names of the games above: the roster, its Remove question, then New name
                    save("start-roster", flow.draw)
                    for command in ("removing", "forget 1"):
                        flow.handle(command)
                    save("start-roster-remove", flow.draw)
                    for command in ("keep", "removing", "new"):
                        flow.handle(command)
                for key in ("M", "I", "A"):
                    flow.handle(f"key {key}")
                save("start-keyboard", flow.draw)
        from dataclasses import replace

        from .window import drawable_result

        sheets = {(r.game, tuple(p.name for p in r.players)): drawable_result(replace(r, players=tuple(r.ranked())))
                  for r in finished}
        history = HistoryScreen(store, GAMES, sheet_of=lambda g: sheets.get((g.game, g.players)))
        save("history", history.draw)
        for g in history.games:
            if history.openable(g):
                history.handle(f"open {g.id}")
                save(f"history-sheet-{g.game}", history.draw)
                history.handle("back")
        if history.figures:
            history.handle("figures")
            save("history-figures", history.draw)
    finally:
        app.close()
    return saved


def shoot_game(game, out: Path, size: tuple[int, int], rotation: int, report: list[str],
               finished: list | None = None) -> list[Path]:
    """Replay ``game``'s demo and save its screens under ``out`` (the final result is
    added to ``finished``). Returns the files."""
    from .replay import data_dir, replay
    from .runner import Runner
    from .window import UI_COMMANDS
    from ..ui import chrome
    from ..ui.app import App
    from ..ui.widgets import record_text

    app = App(size=size, rotation=rotation)
    saved: list[Path] = []
    seen: set[str] = set()
    holder: dict = {}

    def save(name: str, draw=None) -> None:
        runner = holder["runner"]
        with record_text() as drawn:
            app.show(draw or runner.draw)
        path = out / f"{len(saved) + 1:02d}-{_slug(name)}.png"
        app.save(path, as_panel=True)
        saved.append(path)
        _check(path, drawn, app, report)

    def shoot_state() -> None:
        runner, session = holder["runner"], holder["session"]
        phase = "over" if session.over else str(session.state.phase)
        if phase in seen:
            return
        seen.add(phase)
        runner.window.menu = None
        save(phase)
        if session.over:
            return
        menus = [b.command for b in app.buttons
                 if b.command.split()[0] in UI_COMMANDS and b.command.split()[0] != "cancel"
                 and (b.command.split()[0] == "menu" or len(b.command.split()) == 1)]
        for command in dict.fromkeys(menus):
            runner.touch(command)
            save(f"{phase}-{command}")
            runner.touch("cancel")
        if "paused" not in seen:
            seen.add("paused")
            save(f"{phase}-paused", lambda s: chrome.overlay(s, replace(runner.info(), paused=True), runner.draw(s)))

    def begin(session) -> None:
        holder["session"] = session
        holder["runner"] = Runner(session, session.clock, app=None)
        holder["runner"].new_session = lambda choice: None  # the final screen shows History / New game
        shoot_state()

    def listen(item, verdict) -> None:
        if verdict is not None and verdict.verdict == "accepted":
            shoot_state()

    try:
        replay(data_dir() / game.demo, window=False, listeners=[listen], on_start=begin)
        shoot_state()
        if finished is not None and holder["session"].result() is not None:
            finished.append(holder["session"].result())
    finally:
        app.close()
    return saved
