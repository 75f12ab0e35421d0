"""Row dataclasses built from a database row's columns (either engine's rows: mappings)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any, TypeVar

T = TypeVar("T")

_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def from_columns(cls: type[T], row: Mapping[str, Any], /, **converted: Any) -> T:
    """A row dataclass from the row's columns of the same names (a column the row lacks
    leaves its field's default; others are ignored), with ``converted`` values instead of
    the row's own."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
    values = {name: row[name] for name in names if name in row}
    return cls(**{**values, **converted})
