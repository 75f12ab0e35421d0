"""2-Player Hearts, per rules/hearts2p.md.

The package's face is ``GAME`` (``engine.base.Game``); every other name is imported from the
module that defines it: ``cards``, ``actions``, ``state``, ``rules`` (the deal and trick play),
``scoring`` (a hand's score, the game's end), ``view`` (a seat's view and its shape), ``game``
(``GAME``), ``ai`` (the computer player: ``easy``, ``normal``, ``hard``, on
``infer``, ``sim``, ``solve``, ``equity``).
"""

from engine.hearts2p.game import GAME as GAME
