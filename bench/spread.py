"""The spread of a benchmark's figures over repeated runs: median, lowest and highest.

On this shared machine one run of a load benchmark is one draw: the same code gave an ack p99
of 42 and 72 ms in two runs within ten minutes. ``--repeat`` runs a benchmark several times;
this prints each figure's median and range over the runs, and how many runs met a target.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

F = TypeVar("F")


@dataclass(frozen=True)
class Figure(Generic[F]):
    """One figure of a run: its label, how to read it, its unit and an optional target
    (``at_most`` or ``at_least``)."""

    label: str
    read: Callable[[F], float]
    unit: str = ""
    digits: int = 1
    at_most: float | None = None
    at_least: float | None = None

    def met(self, value: float) -> bool | None:
        if self.at_most is not None:
            return value <= self.at_most
        if self.at_least is not None:
            return value >= self.at_least
        return None

    def target(self) -> str:
        if self.at_most is not None:
            return f"target <= {self.at_most:g}{self.unit}"
        if self.at_least is not None:
            return f"target >= {self.at_least:g}{self.unit}"
        return ""


def lines(runs: Sequence[F], figures: Sequence[Figure[F]]) -> list[str]:
    """One line per figure: median (low-high) over ``runs``, and the runs that met its target."""
    out = []
    for figure in figures:
        values = [figure.read(run) for run in runs]
        d = figure.digits
        text = (
            f"{figure.label}: {statistics.median(values):.{d}f}{figure.unit} "
            f"({min(values):.{d}f}-{max(values):.{d}f})"
        )
        met = [figure.met(v) for v in values]
        if met and met[0] is not None:
            text += f", {figure.target()} met in {sum(bool(m) for m in met)} of {len(values)}"
        out.append(text)
    return out
