"""A benchmark's stored rows, selected by scope and aggregated to the unit of replication."""
from __future__ import annotations

from typing import Callable, Iterable

import numpy as np

from .outcome import NoEvidence


def _dataset_name(label: str) -> str:
    return label.split("[", 1)[0]


def _matches(row: dict, where: dict) -> bool:
    for key, want in where.items():
        wants = want if isinstance(want, (tuple, list, set, frozenset)) else (want,)
        if key == "dataset":
            if row["dataset"] not in wants and _dataset_name(row["dataset"]) not in wants:
                return False
        elif row["dataset_params"].get(key) not in wants:
            return False
    return True


class Evidence:
    """A benchmark's stored rows, indexed for checks and aggregated to the unit of replication.

    ``unit`` () keys each value by (dataset label, seed): every cell is a replicate. Otherwise
    rows that share the unit's dataset parameters and seed are one run, averaged before any
    test (evaluation instances are not replicates)."""

    def __init__(self, rows: Iterable[dict], unit: tuple[str, ...] = ()) -> None:
        self.rows = list(rows)
        self.unit = tuple(unit)
        self._memo: dict[tuple, dict[tuple, float]] = {}

    def methods(self) -> list[str]:
        return sorted({r["method"] for r in self.rows})

    def method_rows(self, method: str, where: dict) -> list[dict]:
        rows = [r for r in self.rows if r["method"] == method and _matches(r, dict(where))]
        if not rows:
            known = sorted({r["method"] for r in self.rows})
            raise NoEvidence("not_run", f"no stored cells of {method!r}"
                             + (f" matching {dict(where)}" if where else "")
                             + (f" (stored: {', '.join(known)})" if known else ""))
        return rows

    def unit_key(self, row: dict, extra: tuple = ()) -> tuple:
        if not self.unit:
            return (row["dataset"], row["rep"], *extra)
        # "seed" alone: one run per seed, scored on every dataset config.
        return (*extra, *(repr(row["dataset_params"].get(u)) for u in self.unit if u != "seed"),
                row["rep"])

    def values(self, method: str, metric: str, where: dict,
               extra: Callable[[dict], tuple] | None = None) -> dict[tuple, float]:
        """unit key -> metric value (mean over the unit's ok cells), sorted by key: a statistic
        must not depend on the order rows were stored."""
        key = (method, metric, repr(sorted(dict(where).items())))
        if extra is None and key in self._memo:
            return self._memo[key]
        out = self._values(method, metric, where, extra)
        if extra is None:
            self._memo[key] = out
        return out

    def _values(self, method, metric, where, extra) -> dict[tuple, float]:
        rows = self.method_rows(method, where)
        groups: dict[tuple, list[float]] = {}
        for r in rows:
            v = r["metrics"].get(metric) if r["status"] == "ok" else None
            if v is None:
                continue
            groups.setdefault(self.unit_key(r, extra(r) if extra else ()), []).append(float(v))
        if not groups:
            statuses = sorted({r["status"] for r in rows})
            if statuses == ["tool_missing"]:  # nothing was measured: not run, not an error
                raise NoEvidence("not_run", f"{method!r} needs an external program that is not "
                                 "installed (its cells are tool_missing): run make tools, then "
                                 "run again")
            raise NoEvidence("error", f"{method!r} has no usable {metric!r} values "
                             f"(statuses: {', '.join(statuses)})")
        return {k: float(np.mean(groups[k])) for k in sorted(groups, key=repr)}

    def pairs(self, a: str, b: str, metric: str, where: dict) -> tuple[np.ndarray, np.ndarray]:
        va, vb = self.values(a, metric, where), self.values(b, metric, where)
        keys = [k for k in va if k in vb]
        if not keys:
            raise NoEvidence("error", f"{a!r} and {b!r} share no (dataset, seed) unit with "
                             f"{metric!r}")
        return np.array([va[k] for k in keys]), np.array([vb[k] for k in keys])

