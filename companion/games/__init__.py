"""The four games, one package each: cards.toml, rules.py, flow.py, screen.py."""
