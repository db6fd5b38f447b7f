"""A budgeted black-box objective shared by the continuous solvers (random search, (1+1)-ES,
Nelder-Mead, CMA-ES, differential evolution, particle swarm).

The solvers see ``f`` only through :class:`BudgetedObjective`: it evaluates batches ``(n, d)``,
counts evaluations, keeps the best point and the best-so-far curve, and raises
:class:`BudgetExhausted` once the budget is spent, so every solver stops at exactly
``budget`` evaluations whatever its own stopping rules. Points are clipped into the box
(a bound-handling choice shared by all solvers, so none of them gains by leaving it).

A solver's Method ``run(data, seed)`` takes ``data = {"f": callable (n, d) -> (n,),
"lower": (d,), "upper": (d,), "budget": int}`` and returns :func:`solver_outputs`.
"""
from __future__ import annotations

import numpy as np

BIG = 1e12  # stands in for a non-finite objective value


class BudgetExhausted(Exception):
    """The evaluation budget is spent."""


class BudgetedObjective:
    def __init__(self, f, lower, upper, budget: int) -> None:
        self.f = f
        self.lower = np.asarray(lower, dtype=float)  # (d,)
        self.upper = np.asarray(upper, dtype=float)  # (d,)
        self.budget = int(budget)
        self.n_evals = 0
        self.f_best = np.inf
        self.x_best = None
        self.best_curve: list[float] = []  # best-so-far after each evaluation

    @property
    def dim(self) -> int:
        return self.lower.size

    @property
    def remaining(self) -> int:
        return self.budget - self.n_evals

    def __call__(self, X) -> np.ndarray:
        """Evaluate a batch (n, d); a batch that overruns the budget is cut, then it raises."""
        if self.remaining <= 0:
            raise BudgetExhausted
        X = np.clip(np.atleast_2d(np.asarray(X, dtype=float)), self.lower, self.upper)  # (n, d)
        cut = X.shape[0] > self.remaining
        X = X[: self.remaining]
        y = np.asarray(self.f(X), dtype=float).reshape(-1)  # (n,)
        y = np.where(np.isfinite(y), y, BIG)
        self.n_evals += y.size
        prev = self.best_curve[-1] if self.best_curve else np.inf
        self.best_curve.extend(np.minimum(np.minimum.accumulate(y), prev).tolist())
        i = int(np.argmin(y))
        if y[i] < self.f_best:
            self.f_best, self.x_best = float(y[i]), X[i].copy()
        if cut:
            raise BudgetExhausted
        return y

    def scalar(self, x) -> float:
        """One point, for scalar-interface solvers (scipy's Nelder-Mead)."""
        return float(self(np.asarray(x, dtype=float)[None, :])[0])

    def random_points(self, rng, n: int) -> np.ndarray:
        return rng.uniform(self.lower, self.upper, size=(n, self.dim))  # (n, d)


def solver_outputs(obj: BudgetedObjective, time_s: float) -> dict:
    evals = list(range(1, len(obj.best_curve) + 1))
    return {"f_best": float(obj.f_best), "x_best": obj.x_best, "n_evals": obj.n_evals,
            "time_s": time_s,
            "traces": {"best_vs_evals": {"x": [float(e) for e in evals],
                                         "y": [float(v) for v in obj.best_curve],
                                         "xlabel": "evaluations", "ylabel": "best f"}}}


def run_solver(solver, data: dict, seed: int) -> dict:
    """Method.run body shared by the solvers: build the budgeted objective, minimize, report."""
    import time

    obj = BudgetedObjective(data["f"], data["lower"], data["upper"], data["budget"])
    rng = np.random.default_rng(seed)
    t0 = time.perf_counter()
    try:
        solver.minimize(obj, rng)
    except BudgetExhausted:
        pass
    return solver_outputs(obj, time.perf_counter() - t0)
