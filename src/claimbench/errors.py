"""Errors the command line reports as one line with exit code 2."""
from __future__ import annotations

import difflib
from typing import Iterable


class UserError(Exception):
    """A mistake in what the user asked for."""


def suggest(name: str, valid: Iterable[str]) -> str:
    """'did you mean x, y' for close names, else a few valid names."""
    valid = sorted(set(valid))
    close = difflib.get_close_matches(name, valid, n=3, cutoff=0.5)
    shown = close or valid[:8]
    return ("did you mean " if close else "valid: ") + ", ".join(shown)
