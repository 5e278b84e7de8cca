import os
import sys

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, os.path.dirname(__file__))


import pytest  # noqa: E402


@pytest.fixture(scope="session")
def mosquitto(tmp_path_factory):
    """A private Mosquitto broker on a free port for the whole test session (skipped,
    with the reason, where the binary is missing)."""
    from venue_helpers import Mosquitto

    broker = Mosquitto(tmp_path_factory.mktemp("mosquitto")).start()
    yield broker
    broker.stop()


@pytest.fixture(scope="module")
def app():
    """One headless App window for a test module (a module may define its own ``app``)."""
    from companion.ui.app import App

    window = App()
    yield window
    window.close()


def pytest_configure(config):
    config.addinivalue_line("markers", "toy_game: run the test with the toy game (tests/toy_game.py) registered")


@pytest.fixture
def toy_game(monkeypatch):
    """The toy game (``tests/toy_game.py``) registered for one test, as its line in the
    registry would (``companion.games.GAMES`` and its code prefix), and taken back after it.
    Gives its descriptor."""
    from toy_helpers import register

    return register(monkeypatch)


@pytest.fixture(autouse=True)
def _toy_game_when_marked(request):
    """A test marked ``toy_game`` (``toy_helpers.every_game`` marks the toy's parameter)
    runs with the toy game registered."""
    if request.node.get_closest_marker("toy_game") is not None:
        request.getfixturevalue("toy_game")
