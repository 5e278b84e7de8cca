"""Per-player figures for each game, as score-tracking apps (BG Stats) show them: how
many games a player finished, how many they won, their best and average score, and
their current and longest winning streak.

Only finished games count: an unfinished game, a game set aside or left (stored as
``{"abandoned": true}``) and a result that does not read are left out, so a game nobody
finished never breaks a streak or lowers an average. A shared win is a win for every
winner; a lost solo game (nobody won) is a game played and not won. A streak is a run
of a player's own games of that kind, in the order they were played, each won; the
current streak is the run that ends with their newest game. Players are matched by
name, whatever the case ("mia" is Mia), and shown as their newest game spells them.

>>> from types import SimpleNamespace as Game
>>> def done(gid, winners, **scores):
...     return Game(id=gid, game="sugarrr", finished=1.0, result={"players": [
...         {"name": n, "score": s} for n, s in scores.items()], "winners": winners})
>>> games = [done(3, ["Ben"], Ana=9, Ben=12), done(2, ["Ana"], Ana=20, Ben=3), done(1, ["Ana"], Ana=7, Ben=5)]
>>> [(f.name, f.played, f.won, f.best, f.average, f.current_streak, f.longest_streak)
...  for f in figures(games)["sugarrr"]]
[('Ana', 3, 2, 20, 12.0, 0, 2), ('Ben', 3, 1, 12, 6.7, 1, 1)]
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Iterable


@dataclass(frozen=True)
class PlayerFigures:
    """One player's figures in one game: ``played`` finished games, ``won`` of them,
    ``best`` and ``average`` score (points of that game; average to one decimal),
    ``current_streak`` wins in a row up to their newest game, ``longest_streak`` the
    most wins in a row they ever had."""

    name: str
    played: int
    won: int
    best: int
    average: float
    current_streak: int
    longest_streak: int

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape (``companion history --format json``'s ``figures``)."""
        out = asdict(self)
        out["player"] = out.pop("name")
        return out


def finished(record) -> dict[str, Any] | None:
    """A game record's result when the game was finished with one that reads (players
    with names and whole-number scores), else None (unfinished, set aside, left)."""
    result = record.result
    if record.finished is None or not isinstance(result, dict) or result.get("abandoned"):
        return None
    players = result.get("players")
    if not isinstance(players, list) or not players:
        return None
    try:
        rows = [(str(p["name"]), int(p.get("score", p.get("total", 0)))) for p in players]
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    return {"players": rows, "winners": {str(w).casefold() for w in result.get("winners") or ()}}


def figures(games: Iterable[Any]) -> dict[str, list[PlayerFigures]]:
    """``{game slug: [PlayerFigures, ...]}`` over ``games`` (store records, any order:
    they are counted oldest first by id), each game's players most wins first, then most
    games, best score, name. Games with no finished game are left out."""
    plays: dict[str, dict[str, list[tuple[int, bool]]]] = {}
    spelt: dict[tuple[str, str], str] = {}
    for record in sorted(games, key=lambda g: g.id):
        result = finished(record)
        if result is None:
            continue
        per_game = plays.setdefault(record.game, {})
        for name, score in result["players"]:
            key = name.casefold()
            per_game.setdefault(key, []).append((score, key in result["winners"]))
            spelt[(record.game, key)] = name
    out: dict[str, list[PlayerFigures]] = {}
    for game, players in plays.items():
        rows = [_one(spelt[(game, key)], games_of) for key, games_of in players.items()]
        out[game] = sorted(rows, key=lambda f: (-f.won, -f.played, -f.best, f.name.casefold()))
    return out


def _one(name: str, played: list[tuple[int, bool]]) -> PlayerFigures:
    """One player's figures from their games of one kind, oldest first: (score, won)."""
    scores = [s for s, _ in played]
    run = longest = 0
    for _, won in played:
        run = run + 1 if won else 0
        longest = max(longest, run)
    return PlayerFigures(name, len(played), sum(w for _, w in played), max(scores),
                         round(sum(scores) / len(scores), 1), run, longest)


def figures_json(games: Iterable[Any], names: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """:func:`figures` as JSON: ``[{"game": slug, "name": its display name (from
    ``names``, else the slug), "players": [PlayerFigures.to_dict(), ...]}]``, games in
    ``names``' order, then any other by slug."""
    found = figures(games)
    order = [g for g in (names or {}) if g in found] + sorted(g for g in found if g not in (names or {}))
    return [{"game": g, "name": (names or {}).get(g, g), "players": [f.to_dict() for f in found[g]]} for g in order]
