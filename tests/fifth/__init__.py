"""A fifth game as test data: tests/test_fifth_game.py copies the project, drops these two
packages in as ``engine/fifth/`` and ``presentation/fifth/``, adds one registry line, and runs
``served.py`` in the copy."""
