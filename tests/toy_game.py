"""High Card, a toy game with the whole contract of :mod:`companion.core.game` in one page: each player
scans the cards dealt to them into a secret hand; in turn each lays one face down by scanning it; a tap on
Reveal turns them up and the highest takes them all (of equal cards, the first laid). Points are the numbers
on the cards taken; a tie on points goes to the most cards. A real game puts each section in its own module."""

from dataclasses import dataclass, replace

from companion.core.catalogue import from_other_game, lookup
from companion.core.codes import make_code
from companion.core.errors import BadCommand, IllegalAction
from companion.core.events import CardScanned, GameOver, Outcome, Revealed, Touch, TurnEnded
from companion.core.game import CardInfo, Command, Flow, Game, Option, PlayerResult, Result, Rules, Screen, \
    State as CoreState
from companion.core.i18n import count
from companion.ui import chrome, theme
from companion.ui.app import Button
from companion.ui.widgets import Rect, button, draw_text, panel

SLUG, NAME, PREFIX = "toy", "High Card", "TY"
DEAL, PLAY, REVEAL, OVER, ROUNDS = "deal", "play", "reveal", "over", ("2", "3", "4", "5", "6")

# ---------------------------------------------------------------- messages.py: every sentence it says
TEXT = {
    "players": "High Card is for 2-4 players with different names, over 2 to 6 rounds.", "reveal": "Reveal",
    "bad_holding": "Give each player a name and the High Card cards they took, no card twice.",
    "dealt": "{who} has {cards} in hand.", "seen": "That card is in the game already: scan another.",
    "not_now": "Not now. {prompt}", "not_yours": "That card is not in {who}'s hand: play one of yours.",
    "down": "{who} lays a card face down.", "shows": "{who} shows {card}.", "takes": "{who} takes {cards}.",
    "unknown": "High Card has no such command, tray or button: scan a card, or tap Reveal.",
    "deal": "{who}: scan your cards into your hand ({left} to go).", "over": "The game is over.",
    "play": "{who}: scan a card from your hand and lay it face down.", "game_over": "Game over! {line}",
    "reveal_now": "Everyone has played: tap Reveal to turn the cards up.", "in_hands": "Cards in hands",
    "row": "{who}: {cards} in hand{down}   {points}", "face_down": ", one face down",
    "final": "{who}: {points}, {cards} taken", "most_cards": "most cards"}

def say(key: str, **fields) -> str:
    """The sentence ``key`` of :data:`TEXT`, its ``{fields}`` filled in."""
    return TEXT[key].format(**fields)

# ---------------------------------------------------------------- cards.toml: Star 1 to Star 9, three of each
CARDS = {code: CardInfo(code, f"Star {rank}", copy, "star") for rank in range(1, 10) for copy in (1, 2, 3)
         for code in [make_code(PREFIX, f"S{rank}{copy}")]}
RANK = {code: int(card.name.split()[1]) for code, card in CARDS.items()}

# ---------------------------------------------------------------- state.py: the state and the actions
@dataclass(frozen=True)
class State(CoreState):
    """``hands``: each seat's secret hand; ``down``: its card face down (None: none yet); ``won``: cards it took."""
    players: tuple[str, ...]
    rounds: int
    hands: tuple[tuple[str, ...], ...]
    down: tuple[str | None, ...]
    won: tuple[tuple[str, ...], ...]
    phase: str = DEAL
    active: int = 0
    turn: int = 1

    @property
    def over(self) -> bool:
        return self.phase == OVER

@dataclass(frozen=True)
class Action:
    """``deal`` a card into the active seat's hand, ``play`` one from it face down, or ``reveal``."""
    verb: str
    card: str | None = None

@dataclass(frozen=True)
class Flipped(Revealed):
    """A face-down ``card`` turned up: a Revealed, so the tap is never undone."""
    card: str
    def cards(self) -> tuple[str, ...]: return (self.card,)  # noqa: E704

def _at(values: tuple, seat: int, value) -> tuple:
    return values[:seat] + (value,) + values[seat + 1:]

def prompt(state: State, entry=None) -> str:
    """What the table does now, said from what the public view shows."""
    who, left = state.players[state.active], state.rounds - len(state.hands[state.active])
    return say({DEAL: "deal", PLAY: "play", REVEAL: "reveal_now"}.get(state.phase, "over"), who=who, left=left)

# ---------------------------------------------------------------- rules.py and scoring.py
class HighCardRules(Rules):
    """The rules: pure, no I/O. A refusal says only what the public view shows."""
    def new_game(self, players, rounds: str = "3") -> State:
        if not 2 <= len(players) <= 4 or len(set(players)) != len(players) or rounds not in ROUNDS:
            raise ValueError(say("players"))
        return State(tuple(players), int(rounds), ((),) * len(players), (None,) * len(players), ((),) * len(players))

    def check(self, state: State, action: Action) -> None:
        if state.phase != {"deal": DEAL, "play": PLAY, "reveal": REVEAL}[action.verb]:
            raise IllegalAction(None, say("not_now", prompt=prompt(state)))
        if action.verb == "deal" and any(action.card in cards for cards in state.hands + state.won):
            raise IllegalAction(None, say("seen"))
        if action.verb == "play" and action.card not in state.hands[state.active]:
            raise IllegalAction(None, say("not_yours", who=state.players[state.active]))

    def apply(self, state: State, action: Action) -> tuple[State, list[Outcome]]:
        seat, n, who, hand = state.active, len(state.players), state.players[state.active], state.hands[state.active]
        if action.verb == "deal":
            full = len(hand) + 1 == state.rounds
            state = replace(state, hands=_at(state.hands, seat, hand + (action.card,)), active=(seat + full) % n,
                            phase=PLAY if full and seat == n - 1 else DEAL)
            return state, [Outcome(say("dealt", who=who, cards=count(len(hand) + 1, "card")))]
        if action.verb == "play":
            state = replace(state, hands=_at(state.hands, seat, tuple(c for c in hand if c != action.card)),
                            down=_at(state.down, seat, action.card), active=(seat + 1) % n, turn=state.turn + 1,
                            phase=REVEAL if seat == n - 1 else PLAY)
            return state, [Outcome(say("down", who=who)), TurnEnded("", seat, (seat + 1) % n)]
        events: list[Outcome] = [Flipped(say("shows", who=p, card=CARDS[c].name), c)
                                 for p, c in zip(state.players, state.down)]
        top = max(range(n), key=lambda i: (RANK[state.down[i]], -i))
        state = replace(state, won=_at(state.won, top, state.won[top] + state.down), down=(None,) * n,
                        phase=PLAY if any(state.hands) else OVER)
        events.append(Outcome(say("takes", who=state.players[top], cards=count(n, "card"))))
        if state.over:  # (the session puts the result in, ranked by the descriptor's tie-break)
            events.append(GameOver(say("game_over", line=self.result(state).winner_line())))
        return state, events

    def result(self, state: State) -> Result | None:
        return self.score_holdings(list(zip(state.players, state.won))) if state.over else None

    def public_view(self, state: State, viewer) -> State:
        mine = viewer if isinstance(viewer, int) else None  # TABLE (screen, logs, venue) sees no hidden card
        return state if state.over else replace(
            state, hands=tuple(h if i == mine else ("?",) * len(h) for i, h in enumerate(state.hands)),
            down=tuple(c if c is None or i == mine else "?" for i, c in enumerate(state.down)))

    def counters(self, view: State) -> dict[str, int]:
        return {say("in_hands"): sum(map(len, view.hands))}

    def live_scores(self, view: State) -> list[int]:
        return [sum(RANK[c] for c in won) for won in view.won]

    def score_holdings(self, holdings: list[tuple[str, list[str]]]) -> Result:
        """Each player's points are the numbers on the cards they took; a tie, the most cards."""
        holdings = [(name, [c.strip().upper() for c in codes]) for name, codes in holdings]
        codes = [c for _, cs in holdings for c in cs]
        if not holdings or len(dict(holdings)) < len(holdings) or len({*codes}) < len(codes) or {*codes} - CARDS.keys():
            raise ValueError(say("bad_holding"))
        players = tuple(PlayerResult(name, sum(RANK[c] for c in cs), {"cards": len(cs)}) for name, cs in holdings)
        top = [p for p in players if p.score == max(q.score for q in players)]
        most = [p for p in top if p.breakdown["cards"] == max(q.breakdown["cards"] for q in top)]
        tie = None if len(top) == 1 else ("shared" if len(most) > 1 else say("most_cards"))
        return Result(SLUG, players, tuple(p.name for p in most), tie)

# ---------------------------------------------------------------- flow.py: table inputs -> actions
class HighCardFlow(Flow):
    """A scan deals a card or lays one face down; Reveal is a tap."""
    commands = (Command("reveal", ("Reveal",)),)
    prompt = staticmethod(prompt)

    def read(self, state: State, entry, item):
        if isinstance(item, CardScanned):  # lookup raises BadScan: garbled, another game's, unknown
            return None, Action("deal" if state.phase == DEAL else "play", lookup(item.code, SLUG, CARDS).code), ""
        if isinstance(item, Touch) and item.command.strip().lower() == "reveal":
            return None, Action("reveal"), ""
        if isinstance(item, Touch):
            raise BadCommand(item.command, say("unknown"))
        raise IllegalAction(None, say("unknown"))

    def hidden_refusal(self, view: State, entry) -> str:
        """A hidden card refused, in the words its phase gives any card (from the view, never the card)."""
        return say("seen") if view.phase == DEAL else say("not_yours", who=view.players[view.active])

    def secret(self, state: State, item) -> bool:
        """Every scan is a hidden card (dealt, or laid face down) but another game's."""
        return isinstance(item, CardScanned) and not state.over and from_other_game(item.code, NAME) is None

# ---------------------------------------------------------------- screen.py: drawn with companion.ui
class HighCardScreen(Screen):
    """A row a player, the verdict and the prompt, the turn clock, and Reveal once all have played."""
    def draw_game(self, surface, view: State, info) -> list:
        buttons = chrome.top_bar(surface, Rect(0, 0, 800, 48), info, view.turn, clock_below=True)
        _rows(surface, [say("row", who=who, cards=count(len(hand), "card"), down=say("face_down") if down else "",
                            points=count(points, "point")) for who, hand, down, points in
                        zip(view.players, view.hands, view.down, HighCardRules().live_scores(view))],
              view.active if view.phase in (DEAL, PLAY) else None)
        chrome.verdict_and_prompt(surface, Rect(8, 312, 564, 162), info, info.prompt, 76)
        chrome.turn_clock(surface, Rect(580, 312, 212, 56), info)
        if view.phase == REVEAL:
            buttons.append(Button(button(surface, Rect(580, 376, 212, 98), say("reveal"), theme.OK), "reveal"))
        return buttons

    def draw_final(self, surface, result: Result, info) -> list:
        _rows(surface, [result.winner_line()] + [say("final", who=p.name, points=count(p.score, "point"), cards=count(
            p.breakdown["cards"], "card")) for p in result.players], 0, top=8)
        if info is not None and (info.prompt or info.verdict):
            chrome.footer(surface, info.prompt or info.verdict, info)
        return []

def _rows(surface, lines: list[str], lit: int | None, top: int = 56) -> None:
    """One line of text a row from ``top``, row ``lit`` highlighted."""
    for i, line in enumerate(lines):
        row = panel(surface, Rect(8, top + i * 62, 784, 56), theme.HIGHLIGHT if i == lit else theme.PANEL)
        draw_text(surface, line, row.inflate(-24, 0), theme.MEDIUM, theme.TEXT_DARK if i == lit else theme.TEXT, True)

# ---------------------------------------------------------------- __init__.py: the descriptor
GAME = Game(
    slug=SLUG, name=NAME, prefix=PREFIX, min_players=2, max_players=4, load_rules=HighCardRules,
    load_flow=HighCardFlow, load_screen=HighCardScreen, load_messages=lambda: {"TEXT": TEXT}, load_cards=lambda: CARDS,
    options=(Option("rounds", "choice", "rounds to play, one card each", "3", ROUNDS),), demo="toy-family.trace",
    setup_phases=(DEAL,), tie_break=lambda breakdown: breakdown["cards"], summary="a secret hand, one card a round",
    new_game_message="New game: deal the cards; each player scans theirs into their hand.")
