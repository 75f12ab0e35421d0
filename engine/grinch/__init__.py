"""Dr. Seuss: Grinch, Grow Your Heart! (2-6 players), per rules/grinch.md.

The package's face is ``GAME`` (``engine.base.Game``); every other name is imported from the
module that defines it: ``cards``, ``actions``, ``state``, ``rules`` (the round flow),
``scoring`` (row scoring), ``view`` (a seat's view and its shape), ``game`` (``GAME``),
``ai`` (the computer player: ``easy``, ``normal``, ``hard``).
"""

from engine.grinch.game import GAME as GAME
