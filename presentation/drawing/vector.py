"""The vector steps of a sheet (shapes and symbols), drawn the same by both ways of drawing
it: from kept parts (presentation/drawing/indexed.py) and whole (presentation/drawing/layout.py)."""

from __future__ import annotations

from PIL import ImageDraw

from presentation.drawing.ops import Shape, Symbol
from presentation.drawing.shapes import symbol


def draw_vector(draw: ImageDraw.ImageDraw, op: Shape | Symbol) -> None:
    """Draw a shape or a symbol step; both ways of drawing a sheet draw them the same."""
    if isinstance(op, Shape):
        if op.kind == "line":
            draw.line(op.xy, fill=op.fill, width=op.width, joint=op.joint)
        else:
            x0, y0, x1, y1 = op.xy
            draw.rounded_rectangle(
                (x0, y0, x1, y1), op.radius, fill=op.fill, outline=op.outline, width=op.width
            )
    else:
        symbol(draw, op.name, op.cx, op.cy, op.r, op.colour)
