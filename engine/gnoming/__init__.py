"""Gnoming A Round (3-7 players), per rules/gnoming.md.

The package's face is ``GAME`` (``engine.base.Game``); every other name is imported from the
module that defines it: ``cards``, ``actions``, ``state``, ``rules`` (the turn structure),
``scoring`` (a grid's score, first out, winners), ``view`` (a seat's view and its shape),
``game`` (``GAME``), ``ai`` (the computer player: ``easy``, ``normal``, ``hard``).
"""

from engine.gnoming.game import GAME as GAME
