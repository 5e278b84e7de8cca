"""Sugar Blast: swap candies on a tray to make Blasts, tilt, refill, meet the Goal Card
(rulebooks/sugar-blast.txt). ``board`` is the board geometry, ``rules`` the game."""
