"""``companion cards``, ``score``, ``labels``, ``quickstart`` and ``hint``: a game's
physical cards, the score of what each player holds, sticker sheets, the printed
quick-start cards, and a game's own hint."""

from __future__ import annotations

import json

from ..core.catalogue import lookup
from ..core.errors import BadScan
from ..core.game import Game, NoCards
from ..core.names import name_problem
from .common import DEVICE, fail, game, game_choices, read_text, user_path


def cmd_cards(args) -> int:
    try:
        cards = game(args.game).cards()
    except NoCards as err:
        return fail(str(err))
    if args.json:
        print(json.dumps([{"code": c.code, "name": c.name, "copy": c.copy, "kind": c.kind} for c in cards], indent=1))
    else:
        for c in cards:
            print(f"{c.code}  {c.name:<28} copy {c.copy}")
    return 0


def parse_holdings(text: str, source: str, desc: Game) -> list[tuple[str, list[str]]]:
    """Parse ``NAME: CODE CODE ...`` lines into ``[(name, [codes])]`` (``#`` starts a
    comment). Raises ValueError naming the line and code for a bad or repeated card."""
    catalogue = desc.catalogue()
    players: list[tuple[str, list[str]]] = []
    seen: dict[str, int] = {}
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if ":" not in line:
            raise ValueError(f"{source}, line {n}: expected 'NAME: CODE CODE ...', got {raw.strip()[:60]!r}")
        name, codes = line.split(":", 1)
        name = name.strip()
        if not name:
            raise ValueError(f"{source}, line {n}: the player has no name")
        problem = name_problem(name)
        if problem is not None:
            shown = ascii(name[:20]) + ("..." if len(name) > 20 else "")
            raise ValueError(f"{source}, line {n}: the name {shown} {problem}")
        if any(name == other for other, _ in players):
            raise ValueError(f"{source}, line {n}: {name} appears twice: one line per player")
        cards = []
        for code in codes.split():
            try:
                card = lookup(code, desc.slug, catalogue)
            except BadScan as err:  # a file, not a scanner: never "scan the card again"
                why = err.message if "scan" not in err.message.lower() else (
                    f"that is not a card code (a letter or digit is wrong or missing; "
                    f"'companion cards {desc.slug}' lists every card's code)")
                raise ValueError(f"{source}, line {n}, code {code[:20]}: {why}") from None
            if card.code in seen:
                raise ValueError(f"{source}, line {n}, code {code}: {card.name} is listed twice "
                                 f"(first on line {seen[card.code]}): one physical card, one place")
            seen[card.code] = n
            cards.append(card.code)
        players.append((name, cards))
    if not players:
        raise ValueError(f"{source}: no players found")
    return players


def cmd_score(args) -> int:
    desc = game(args.game)
    if not desc.has_cards:
        return fail(f"{desc.name} is not scored from cards: {desc.summary}.")
    try:
        text, source = read_text(args.file, "lines of 'NAME: CODE CODE ...'")
        result = desc.score_holdings(parse_holdings(text, source, desc))
    except NoCards as err:
        return fail(str(err))
    except ValueError as err:
        return fail(str(err))
    print(json.dumps(result.to_dict()) if args.json else result.text())
    return 0


def cmd_labels(args) -> int:
    from ..cards.labels import make_labels

    if not str(args.out).strip():
        return fail("--out needs a file name for the PDF, e.g. --out labels.pdf")

    desc = game(args.game)
    try:
        cards = desc.cards()
    except NoCards as err:
        return fail(str(err))
    hidden = [c.kind in desc.hidden_kinds for c in cards]
    try:
        n = make_labels([(c.code, c.name, c.copy, h) for c, h in zip(cards, hidden)], args.out, args.symbology,
                        args.sheet)
    except ValueError as err:
        return fail(str(err))
    except OSError as err:
        return fail(f"cannot write {args.out}: {err.strerror}", DEVICE)
    print(f"{n} stickers written to {args.out}. Print at 100% (\"actual size\"), not \"fit to page\".")
    if any(hidden):
        print(f"{sum(hidden)} of them are for cards kept face down or in a hand: cut off the name along the "
              "dashed line, then stick the sticker on the back of that card.")
    return 0


def cmd_quickstart(args) -> int:
    import difflib

    from ..cards.quickstart import make_quickstart

    slugs = game_choices() if [g.strip().lower() for g in args.game] == ["all"] else [g.strip().lower() for g in args.game]
    for slug in slugs:
        if slug not in game_choices():
            near = difflib.get_close_matches(slug, game_choices(), n=1)
            hint = f"did you mean {near[0]}?" if near else f"the games are {', '.join(game_choices())}, or all"
            return fail(f"no game {slug!r}: {hint}")
    if not str(args.out).strip():
        return fail("--out needs a file name for the PDF, e.g. --out quickstart.pdf")
    pages = [(slug, game(slug).name, game(slug).load_quickstart()) for slug in slugs
             if game(slug).load_quickstart is not None]
    try:
        n = make_quickstart(pages, args.out, args.paper)
    except ValueError as err:
        return fail(str(err))
    except OSError as err:
        return fail(f"cannot write {args.out}: {err.strerror}", DEVICE)
    print(f"{n} quick-start {'card' if n == 1 else 'cards'} written to {args.out}, one page each.")
    return 0


def hint_games() -> list[str]:
    """Games that offer ``companion hint`` (a descriptor with ``load_hint``)."""
    return [g for g in game_choices() if game(g).load_hint is not None]


def cmd_hint(args) -> int:
    desc = game(args.game)
    try:
        text, source = read_text(args.board, "one row per line, one letter per cell")
    except ValueError as err:
        return fail(str(err))
    try:
        print(desc.hint(text, as_json=args.json))
    except ValueError as err:
        return fail(f"{source}: {err}")
    return 0


def add_parsers(sub) -> None:
    games = game_choices()
    c = sub.add_parser("cards", help="list every card and its code")
    c.add_argument("game", choices=games, help="the game")
    c.add_argument("--json", action="store_true", help="as JSON: code, name, copy, kind")
    c.set_defaults(func=cmd_cards)

    s = sub.add_parser("score", help="score the cards each player holds")
    s.add_argument("game", choices=games, help="the game")
    s.add_argument("file", nargs="?", default="-", type=user_path, help="lines of 'NAME: CODE CODE ...'; - for stdin (default)")
    s.add_argument("--json", action="store_true", help="print the result as JSON")
    s.set_defaults(func=cmd_score)

    lb = sub.add_parser("labels", help="sticker sheets: one label per physical card")
    lb.add_argument("game", choices=games, help="the game")
    lb.add_argument("--out", required=True, type=user_path, help="the PDF to write")
    lb.add_argument("--symbology", default="code128", help="code128 (default) or qr")
    lb.add_argument("--sheet", default="avery-l7160",
                    help="avery-l7160 (default), avery-l7163, avery-l7651 (A4), avery-5160, avery-5163 (Letter)")
    lb.set_defaults(func=cmd_labels)

    qs = sub.add_parser("quickstart", help="a printed quick-start card per game: what to scan when, the taps")
    qs.add_argument("game", nargs="+", metavar="GAME", help=f"one or more of {', '.join(games)}, or all")
    qs.add_argument("--out", required=True, type=user_path, help="the PDF to write")
    qs.add_argument("--paper", default="a4", choices=("a4", "letter"), help="a4 (default) or letter")
    qs.set_defaults(func=cmd_quickstart)

    hn = sub.add_parser("hint", help="every legal move on a typed board and what it makes (Sugar Blast)")
    hn.add_argument("game", choices=hint_games(), help="the game")
    hn.add_argument("board", nargs="?", default="-", type=user_path, help="a file with one row per line, one letter per cell; - for stdin")
    hn.add_argument("--json", action="store_true", help="print the hint as JSON (0-based rows and columns)")
    hn.set_defaults(func=cmd_hint)
