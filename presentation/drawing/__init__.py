"""The shared drawing kit: Pillow pictures of cards, hands, tables and score charts.

No Discord import here: every function returns PNG bytes, which the delivery layer attaches to
the messages it sends anyway. :mod:`presentation.drawing.api` is the public face; each game's
card look and pictures live in its own package (``presentation/<package>/look.py`` and
``picture.py``).
"""
