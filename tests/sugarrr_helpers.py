"""Shorthands for Sugarrr! tests: card codes by name, and driving a game by actions."""

from companion.games.sugarrr import rules
from companion.games.sugarrr.parts.cards import code_for


def fruit(name, number, copy=1):
    return code_for("fruit", name, number, copy)


def salad(copy=1):
    return code_for("salad", copy=copy)


def saur(fruit_name, value):
    return code_for("saur", fruit_name, value)


STARTS = [fruit("Pineapple", 2), fruit("Strawberry", 3), fruit("Grapes", 7), fruit("Apricots", 6), fruit("Pear", 9)]


def started(players=("Ana", "Ben"), starts=STARTS):
    """A game past set-up with the given five starting column cards."""
    s = rules.new_game(players)
    for code in starts:
        s, _ = rules.step(s, rules.StartColumn(code))
    return s


def run(state, *actions):
    """Apply actions in order; return the final state and every event."""
    events = []
    for a in actions:
        state, ev = rules.step(state, a)
        events.extend(ev)
    return state, events
