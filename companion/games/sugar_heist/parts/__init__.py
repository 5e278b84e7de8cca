"""sugar_heist: the parts of the game beside its rules, flow and screen."""
