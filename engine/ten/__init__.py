"""Ten (push-your-luck and auction, 1-5 players), per rules/ten.md.

The package's face is ``GAME`` (``engine.base.Game``); every other name is imported from the
module that defines it: ``cards``, ``actions``, ``state``, ``rules`` (the turn structure),
``scoring`` (a collection's best wild assignment), ``payments`` (ways to pay a price), ``view``
(a seat's view and its shape), ``game`` (``GAME``), ``ai`` (the computer player: ``easy``,
``normal``, ``hard``).
"""

from engine.ten.game import GAME as GAME
