"""sugar_blast: the parts of the game beside its rules, flow and screen."""
