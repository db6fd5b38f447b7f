"""Values computed for the last objects seen, compared by identity.

A benchmark's metrics (or a method's variants) often read the same costly intermediate of one
instance, cell or trace one after another in a worker: the float64 dense reference of an
attention instance, a mechanism's revenue on a large test sample. :class:`LastOf` keeps the
values computed for the most recent key objects and drops them when other objects come. It
holds the key objects themselves, so their ids cannot be reused by new objects while the
entry lives, and it keeps one entry only (full-grid values can be hundreds of MB). Callers must
not modify a returned value in place.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any


class LastOf:
    """``get(keys, name, compute)``: ``compute()`` once per name for the current ``keys``."""

    def __init__(self) -> None:
        self._keys: tuple = ()
        self._values: dict[Hashable, Any] = {}

    def get(self, keys: tuple, name: Hashable, compute: Callable[[], Any]) -> Any:
        if len(keys) != len(self._keys) or any(a is not b for a, b in zip(keys, self._keys)):
            self._keys, self._values = tuple(keys), {}
        if name not in self._values:
            self._values[name] = compute()
        return self._values[name]
