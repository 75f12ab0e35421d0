"""A value checked against its declared type at run time: the views' TypedDicts.

mypy checks what the code says a view holds; :func:`mismatches` checks what a real view
holds against the same declaration, key by key, so a key added to a view without its type
(or a type that no longer says what the view holds) shows up as a message with its path.

It knows the forms the views' types use: a ``TypedDict`` (every required key present,
``NotRequired`` ones optional, no other key), ``X | None`` and other unions, ``Literal``,
``list[X]``, ``dict[K, V]``, ``int``, ``str``, ``bool`` and ``None``. A bool is not an int
here (JSON tells them apart).
"""

from __future__ import annotations

import functools
import types
from typing import (
    Any,
    Literal,
    NotRequired,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)


@functools.cache
def fields(typed: Any) -> dict[str, tuple[Any, bool]]:
    """A TypedDict's keys: (type, required). Read from the annotations (``NotRequired[...]``)
    rather than ``__required_keys__``, which Python 3.11 gets wrong for string annotations."""
    found = {}
    for key, hint in get_type_hints(typed, include_extras=True).items():
        if get_origin(hint) is NotRequired:
            found[key] = (get_args(hint)[0], False)
        else:
            found[key] = (hint, True)
    return found


def mismatches(value: Any, hint: Any, path: str = "view") -> list[str]:
    """Where ``value`` does not fit ``hint``: one message per place, empty when it fits."""
    if is_typeddict(hint):
        if not isinstance(value, dict):
            return [f"{path}: {type(value).__name__}, not a {hint.__name__}"]
        declared = fields(hint)
        found = [f"{path}: key {k!r} is not in {hint.__name__}" for k in value if k not in declared]
        for key, (inner, required) in declared.items():
            if key in value:
                found += mismatches(value[key], inner, f"{path}[{key!r}]")
            elif required:
                found.append(f"{path}: {hint.__name__} key {key!r} is missing")
        return found
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        options = [mismatches(value, option, path) for option in get_args(hint)]
        if any(not found for found in options):
            return []
        return [f"{path}: {value!r:.60} fits no part of {hint}", *min(options, key=len)]
    if origin is Literal:
        return [] if value in get_args(hint) else [f"{path}: {value!r} is not one of {hint}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{path}: {type(value).__name__}, not a list"]
        (item,) = get_args(hint)
        return [m for i, v in enumerate(value) for m in mismatches(v, item, f"{path}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{path}: {type(value).__name__}, not a dict"]
        key_hint, value_hint = get_args(hint)
        found = []
        for k, v in value.items():
            found += mismatches(k, key_hint, f"{path} key {k!r}")
            found += mismatches(v, value_hint, f"{path}[{k!r}]")
        return found
    if hint is None or hint is type(None):
        return [] if value is None else [f"{path}: {value!r:.60} is not None"]
    if hint in (int, str, bool):
        fits = isinstance(value, hint) and (hint is bool or not isinstance(value, bool))
        return [] if fits else [f"{path}: {value!r:.60} is not a {hint.__name__}"]
    raise TypeError(f"{path}: no check for the type {hint!r}")
