"""The two EoB objectives and the suite assessment shared by targets, generated suites and
baselines (arXiv 2601.21877, Sec. 3; our ELA-lite features replace NeurELA).

(1) Landscape similarity indicator (LSI) of a function f to a target set T:

        O1(f | T) = 1 / (1 + min_{p in T} ||z_f - z_p||^2 / sigma^2),

    z = landscape features computed from a uniform sample of the box.
(2) Algorithm-differentiation capability (ADC) of f: the standard deviation over the solver
    portfolio of the solvers' normalized performance on f,

        ADC(f) = std_s  perf_s(f),
        perf_s(f) = mean_r  log(1 + (b_sr - f_lo) / (delta (f_ref - f_lo))) / log(1 + 1/delta),

    b_sr = best value of solver s in run r; f_lo = the lowest value seen (sample and all
    runs); f_ref = median of the uniform sample (what blind sampling reaches); clipped to
    [0, 1]: 0 = the best precision anyone reached, 1 = no better than a median random point.
    A flat function (f_ref = f_lo) has perf = 0 for all solvers and ADC = 0.
(3) Solver ranking agreement: Kendall's tau-b between the solvers' mean performance over a
    suite and over the targets.

ELA-lite features (all in [-1, 1]): skewness and excess kurtosis of y (squashed by tanh),
adjusted R^2 of linear and quadratic (with interactions) models of y (ela_meta), the
fitness-distance correlation, dispersion (mean distance among the best 10% over the mean
distance among all, minus 1), nearest-better clustering (mean nearest-neighbour over mean
nearest-better distance; correlation of nearest-better distance with y), and the share of
samples in the lowest tenth of the y range.
"""
from __future__ import annotations

import numpy as np

N_FEATURES = 9
BOX = 5.0  # search box [-5, 5]^d, as BBOB
DELTA = 1e-8  # precision floor of perf, relative to f_ref - f_lo; BBOB's final target 1e-8


# -- landscape features --------------------------------------------------------------------
def feature_sample(rng, dim: int, n: int) -> np.ndarray:
    return rng.uniform(-BOX, BOX, size=(n, dim))  # (n, d)


def _corr(a, b) -> float:
    sa, sb = np.std(a), np.std(b)
    if sa < 1e-12 or sb < 1e-12:
        return 0.0
    return float(np.mean((a - a.mean()) * (b - b.mean())) / (sa * sb))


def _adj_r2(A, y) -> float:
    n, p = A.shape
    coef, *_ = np.linalg.lstsq(A, y, rcond=None)
    ss_res = float(np.sum((y - A @ coef) ** 2))
    ss_tot = float(np.sum((y - y.mean()) ** 2))
    r2 = 1.0 - ss_res / ss_tot
    return float(np.clip(1.0 - (1.0 - r2) * (n - 1) / max(n - p, 1), -1.0, 1.0))


def landscape_features(y, X) -> np.ndarray:
    """(9,) ELA-lite features of the values y (n,) at the sample X (n, d)."""
    y = np.asarray(y, dtype=float)
    n, d = X.shape
    s = float(np.std(y))
    if not np.isfinite(s) or s < 1e-12 * (1.0 + abs(float(np.mean(y)))):
        return np.zeros(N_FEATURES)  # flat: no structure to describe
    yz = (y - y.mean()) / s
    ones = np.ones((n, 1))
    iu = np.triu_indices(d)
    quad = (X[:, :, None] * X[:, None, :])[:, iu[0], iu[1]]  # (n, d(d+1)/2)
    lin_r2 = _adj_r2(np.hstack([ones, X]), yz)
    quad_r2 = _adj_r2(np.hstack([ones, X, quad]), yz)
    D = np.sqrt(np.sum((X[:, None, :] - X[None, :, :]) ** 2, axis=-1))  # (n, n)
    fdc = _corr(yz, D[int(np.argmin(y))])
    k = max(2, int(round(0.1 * n)))
    best = np.argsort(y, kind="stable")[:k]
    off = ~np.eye(n, dtype=bool)
    disp = float(D[np.ix_(best, best)][off[:k, :k]].mean() / D[off].mean() - 1.0)
    Dn = np.where(off, D, np.inf)
    nn = Dn.min(axis=1)  # (n,)
    better = y[None, :] < y[:, None]  # (n, n): j better than i
    nb = np.where(better, D, np.inf).min(axis=1)  # (n,) inf for the best point(s)
    has = np.isfinite(nb)
    nbc_ratio = float(nn[has].mean() / nb[has].mean()) if has.any() else 1.0
    nbc_cor = _corr(nb[has], y[has]) if has.sum() > 2 else 0.0
    span = y.max() - y.min()
    low_mass = float(np.mean((y - y.min()) < 0.1 * span))
    skew = float(np.mean(yz ** 3))
    kurt = float(np.mean(yz ** 4) - 3.0)
    return np.array([np.tanh(skew / 3.0), np.tanh(kurt / 10.0), lin_r2, quad_r2, fdc, disp,
                     nbc_ratio, nbc_cor, low_mass])


def lsi(z, Z_targets, sigma2: float = 1.0) -> float:
    """Eq. (1): similarity to the nearest target in feature space."""
    d2 = np.sum((np.asarray(Z_targets) - np.asarray(z)[None, :]) ** 2, axis=1)
    return float(1.0 / (1.0 + d2.min() / sigma2))


# -- solver performance --------------------------------------------------------------------
def normalized_performance(best, y_sample) -> np.ndarray:
    """Eq. (2): (S, R) best values of S solvers in R runs -> (S,) perf in [0, 1]."""
    best = np.asarray(best, dtype=float)
    f_lo = min(float(best.min()), float(np.min(y_sample)))
    f_ref = float(np.median(y_sample))
    gap = f_ref - f_lo
    if not gap > 1e-12 * (1.0 + abs(f_ref)):
        return np.zeros(best.shape[0])
    rel = np.maximum(best - f_lo, 0.0) / (DELTA * gap)
    perf = np.log1p(rel) / np.log1p(1.0 / DELTA)
    return np.clip(perf, 0.0, 1.0).mean(axis=1)


def adc(perf) -> float:
    return float(np.std(perf))


def portfolio_best(f, dim: int, budget: int, seeds) -> np.ndarray:
    """(S, R) best values of each portfolio solver in each run r (seed seeds[s][r])."""
    from claimbench.baselines.solver_portfolio import portfolio

    lower, upper = -BOX * np.ones(dim), BOX * np.ones(dim)
    data = {"f": f, "lower": lower, "upper": upper, "budget": budget}
    return np.array([[solver.run(data, int(sd))["f_best"] for sd in row]
                     for solver, row in zip(portfolio(), seeds)])


def run_seeds(seed: int, n_solvers: int, reps: int) -> np.ndarray:
    """(S, R) solver seeds; common to every function assessed with the same seed."""
    return np.random.default_rng([seed, 7]).integers(0, 2**63 - 1, size=(n_solvers, reps))


def assess_function(f, dim: int, budget: int, reps: int, seed: int, X) -> dict:
    """Features, normalized solver performance and ADC of one function."""
    from claimbench.baselines.solver_portfolio import PORTFOLIO_NAMES

    y = f(X)
    best = portfolio_best(f, dim, budget, run_seeds(seed, len(PORTFOLIO_NAMES), reps))
    perf = normalized_performance(best, y)
    return {"features": landscape_features(y, X), "perf": perf, "adc": adc(perf)}


def assess_suite(funcs, dim: int, budget: int, reps: int, seed: int,
                 n_sample: int) -> dict:
    """Assess every function of a suite with the same sample and the same solver seeds."""
    X = feature_sample(np.random.default_rng([seed, 11]), dim, n_sample)
    rows = [assess_function(f, dim, budget, reps, seed, X) for f in funcs]
    perf = np.array([r["perf"] for r in rows])  # (F, S)
    return {"features": np.array([r["features"] for r in rows]),  # (F, 9)
            "perf": perf, "adc_per_fn": np.array([r["adc"] for r in rows]),  # (F,)
            "adc": float(np.mean([r["adc"] for r in rows])),
            "solver_perf": perf.mean(axis=0)}  # (S,)


# -- ranking agreement ---------------------------------------------------------------------
def kendall_tau(a, b) -> float:
    """Kendall's tau-b (ties in either vector handled as in scipy.stats.kendalltau)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    i, j = np.triu_indices(a.size, k=1)
    da, db = np.sign(a[i] - a[j]), np.sign(b[i] - b[j])
    n0 = i.size
    n1, n2 = np.sum(da == 0), np.sum(db == 0)
    denom = np.sqrt(float(n0 - n1) * float(n0 - n2))
    if denom == 0.0:
        return 0.0  # a constant ranking agrees with nothing (scipy: NaN)
    return float(np.sum(da * db) / denom)


def suite_outputs(funcs, labels, data: dict, seed: int) -> dict:
    """What every suite generator reports: the suite assessed under the dataset's protocol
    (budget, runs, sample size) with solver seeds drawn from ``seed``, plus its LSI to the
    targets measured on the same sample. Methods of one grid cell share ``seed``, so their
    suites meet the same solver seeds (common random numbers)."""
    from claimbench.datasets.eob_targets import target_function

    dim, n_sample = data["dim"], data["n_sample"]
    res = assess_suite(funcs, dim, data["budget"], data["reps"], seed, n_sample)
    X = feature_sample(np.random.default_rng([seed, 11]), dim, n_sample)  # assess_suite's sample
    Z_t = np.array([landscape_features(target_function(s)(X), X) for s in data["targets"]])
    lsi_fn = np.array([lsi(z, Z_t) for z in res["features"]])  # (F,)
    return {"adc": res["adc"], "lsi": float(lsi_fn.mean()),
            "solver_perf": res["solver_perf"].tolist(), "adc_per_fn": res["adc_per_fn"].tolist(),
            "lsi_per_fn": lsi_fn.tolist(), "suite": list(labels), "n_functions": len(funcs)}
