"""sweet_deals: the parts of the game beside its rules, flow and screen."""
