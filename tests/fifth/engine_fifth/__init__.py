"""High card, a fifth game made for tests/test_fifth_game.py (rules in ``game``).

Relative imports: the same files type-check here and as ``engine/fifth/`` in the copy.
"""

from .game import GAME as GAME
