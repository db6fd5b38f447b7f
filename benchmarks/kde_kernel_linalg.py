"""kde_kernel_linalg: kernel evaluations needed for K v, K V, ||K||_2 and s(K) via KDE queries.

Every method sees a Gaussian-kernel point cloud, a task and a target relative error eps, and may
touch K only through the counting KDE oracle (baselines/kde_oracle.py). We compare, at the same
eps, the kernel evaluations spent and the relative error reached by the paper's algorithms
(ssx25, reconstructed), the BIMW'21 algorithms (bimw21) and the dense computation (dense, n^2).
"""
from __future__ import annotations

import numpy as np

from claimbench.api import TIMING_RTOL
from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Metric, Paper, Premise, cfg,
                           output_metric, sweep)
from claimbench.baselines.bimw_kernel_linalg import BIMWKernelLinalg
from claimbench.baselines.dense_kernel_linalg import DenseKernelLinalg
from claimbench.checks import Better, NotRun, Slope, SlopeDiff, Value
from claimbench.datasets.kernel_matmat import KernelMatMat
from claimbench.datasets.kernel_point_clouds import KernelPointCloud
from claimbench.methods.kde_kernel_linalg import KDELinalg

P_SAMPLING = 1.0  # the KDE exponent p of a random-sampling oracle: query cost 1 / (mu^p eps^2)


def _rel_err(inst, out):
    task, ans = inst.data["task"], out["answer"]
    if task in ("matvec", "matmat"):  # matmat: the Frobenius norm
        z = inst.truth["Kv" if task == "matvec" else "KV"]
        return float(np.linalg.norm(np.asarray(ans) - z) / np.linalg.norm(z))
    exact = inst.truth["spectral_norm" if task == "spectral" else "sum"]
    return float(min(abs(float(ans) - exact) / exact, 1e6))


def _rel_err_over_eps(inst, out):
    return _rel_err(inst, out) / inst.data["eps"]


def _coord_rms_over_eps(inst, out):
    if inst.data["task"] != "matvec":
        return None
    z = inst.truth["Kv"]
    return float(np.sqrt(np.mean(((np.asarray(out["answer"]) - z) / z) ** 2)) / inst.data["eps"])


def _coord_max(inst, out):
    if inst.data["task"] != "matvec":
        return None
    z = inst.truth["Kv"]
    return float(min(np.max(np.abs(np.asarray(out["answer"]) - z) / z), 1e6))


def _entry_max_over_eps(inst, out):
    # matmat: the worst entry's relative error over eps (the per-coordinate guarantee, entry by entry)
    if inst.data["task"] != "matmat":
        return None
    z = inst.truth["KV"]  # (n, m)
    return float(min(np.max(np.abs(np.asarray(out["answer"]) - z) / z), 1e6)) / inst.data["eps"]


def _evals_over_n2(inst, out):
    return out["kernel_evals"] / inst.data["points"].shape[0] ** 2


def _evals_per_product_over_n2(inst, out):
    # A power method's evaluations per product over the n^2 of the exact product (1: at the dense cap).
    if inst.data["task"] != "spectral" or "iterations" not in out:
        return None
    return out["kernel_evals"] / (out["iterations"] * inst.data["points"].shape[0] ** 2)


METRICS = (
    output_metric("kernel_evals", description="kernel evaluations counted by the oracle (dense: n^2)"),
    Metric("rel_err", _rel_err, False, "relative error: ||z - Kv|| / ||Kv||, ||Z - KV||_F / ||KV||_F, |lam - ||K||_2| / ||K||_2 or "
           "|s - s(K)| / s(K)"),
    Metric("rel_err_over_eps", _rel_err_over_eps, False, "rel_err / target eps (<= 1: target met)"),
    Metric("coord_rms_over_eps", _coord_rms_over_eps, False,
           "matvec: rms over coordinates of |z_i - (Kv)_i| / (Kv)_i, divided by eps"),
    Metric("coord_rel_err_max", _coord_max, False, "matvec: max over coordinates of |z_i - (Kv)_i| / (Kv)_i"),
    Metric("entry_rel_err_max_over_eps", _entry_max_over_eps, False,
           "matmat: max over entries of |Z_ij - (KV)_ij| / (KV)_ij, divided by eps (<= 1: every entry within eps)"),
    Metric("evals_over_n2", _evals_over_n2, False, "kernel evaluations / n^2 (dense = 1)"),
    Metric("evals_per_product_over_n2", _evals_per_product_over_n2, False,
           "spectral: kernel evaluations / (power iterations x n^2); 1 = every product at the dense cap"),
    output_metric("time_s"),
)

SMALL_EPS = 0.05  # the smallest eps of the quick grid
LARGE_EPS = 0.2  # n-slopes: the one eps at which s(K)'s row sample sqrt(n)/eps^2 < n for every n of the grid
N_MAX = 2000  # the largest n of the quick grid
EPS_MAIN = (0.2, 0.1, 0.05, 0.025)  # the main grids' eps values (c3/c4 read these cells only)
# Issue 29 round 4 (premise p1, rule 4: fix the setting): spectral cells where BIMW'21's eps^3 schedule can
# sit below the dense cap. A wider kernel (h = 2 x the rms distance, k ~ e^-1/4) puts the typical query's
# density above 1/2 (every one above 1/4; tested), where the adaptive search stops, so a BIMW'21 query costs
# 4 + 2/eps^6 samples (43, 128, 488 at eps = 0.6, 0.5, 0.4; at most 4 + 4/eps^6 = 981), below the n = 2000
# points of a near-flat Perron vector's one or two weight classes; at eps <= 0.2 it is >= 15625 > n, so
# every product is the dense one, whatever the data.
EXP_BANDWIDTH = 2.0
EXP_EPS = (0.6, 0.5, 0.4)
EXP_WHERE = {"task": "spectral", "n": N_MAX, "bandwidth": EXP_BANDWIDTH}
# "Strictly below 1" for a ratio of integer evaluation counts to an integer cap <= 153 * 2000^2 < 1e9:
# ratio <= 1 - 1e-9 is evals <= cap - 1, so a method at exactly the cap (dense: ratio 1) fails.
BELOW_ONE = 1.0 - 1e-9

# The paper's abstract (ICML 2026 page), quoted by the claims below.
_ABS_EPS = ('"we reduce the power of $1/\\epsilon$ from $\\approx 7.7$ to $\\approx 3.2$ for a '
            '$1-\\varepsilon$ relative error estimation of the spectral norm of a Gaussian kernel matrix" (abstract)')
_ABS_N = ('"The runtimes of our algorithms depend linearly on the dimension $d$, sub-quadratically in the number '
          'of points $n$" (abstract)')
_ABS_IMPROVE_WORDS = ("Our improvements over existing best algorithms (particularly those of [Backurs et al. "
                      "ICML `21]) for these tasks reduce the polynomial dependence on $\\varepsilon$")
_ABS_IMPROVE = '"' + _ABS_IMPROVE_WORDS + '" (abstract)'
_ABS_REL = ('"we improve upon the best existing algorithms for computing the following up to $(1+\\varepsilon)$ '
            'relative error for a Gaussian kernel matrix and other kernels: matrix-vector products, '
            'matrix-matrix products, the spectral norm, and sum of all entries" (abstract)')
# The abstract's checkable statements (ICML 2026 abstract), verbatim, for the headlines and the not_run claims.
_Q_MATVEC = ("we improve upon the best existing algorithms for computing the following up to $(1+\\varepsilon)$ "
             "relative error for a Gaussian kernel matrix and other kernels: matrix-vector products")
_Q_MATMAT = "matrix-matrix products"
_Q_SPECTRAL = "the spectral norm"
_Q_SUM = "sum of all entries"
_Q_LINEAR_D = "The runtimes of our algorithms depend linearly on the dimension $d$"
_Q_SUBQUAD = "sub-quadratically in the number of points $n$"
_Q_POLY_EPS = "polynomially on the target error $\\varepsilon$"
_Q_KDE_ACCESS = ("the dependence on $n$ in each case is far lower when accessing the kernel matrix through KDE "
                 "queries as opposed to reading individual entries")
_Q_EPS_DEP = "reduce the polynomial dependence on $\\varepsilon$"
_Q_SUM_N = ("additionally decrease the dependence on $n$ in the case of computing the sum of all entries of the "
            "kernel matrix")
_Q_POWER = ("we reduce the power of $1/\\epsilon$ from $\\approx 7.7$ to $\\approx 3.2$ for a $1-\\varepsilon$ "
            "relative error estimation of the spectral norm of a Gaussian kernel matrix")
_Q_LOWER = ("We complement our upper bounds with several lower bounds for related problems, which provide "
            "(conditional) quadratic time hardness results")
_NOT_BUILT = "not built yet (issue 29): "

_ADDITIVE = "ssx25[mutant=additive_kde]"  # foil: the additive-error KDE primitive (methods/kde_kernel_linalg.py)
# foil (issue 29 round 4): the refined power method with BIMW'21's MVP precision eps^3, i.e. without the reduction
_EPS3 = "ssx25[mvp_eps_power=3]"
_EPS3_NOTE = ("ssx25[mvp_eps_power=3] is the same power method with BIMW'21's product precision eps^3: it has not "
              "reduced the power of 1/eps, so the wording ('we reduce the power of 1/eps from ~7.7 to ~3.2') "
              "says it must fail. ")
_DENSE_NOTE = ("dense reads all n^2 entries: the abstract's point is a KDE algorithm with a lower 1/eps power than "
               "BIMW'21 at sub-quadratic n-dependence, so a check that reading K whole also meets does not test it. "
               "bimw21 is the check's baseline, so it cannot also be a foil (issue 26: Y against Y).")

CLAIMS = (
    Claim(
        id="c1_spectral_fewer_evals",
        where="abstract",
        text="The refined noisy power method lowers the power of 1/eps for the spectral norm (vs BIMW'21).",
        paper_value=_ABS_EPS,
        check=Better(method="ssx25", baseline="bimw21", metric="kernel_evals",
                     where=EXP_WHERE),
        note="Paired over (eps, family, seed), 18 units, on the premise p1 setting (n = 2000, bandwidth 2, eps in "
             "{0.6, 0.5, 0.4}; issue 29 round 4; before: eps = 0.05 over every n of the main grid, where "
             "BIMW'21 is the dense power method; one eps alone gives 6 units, too few for its Holm level). "
             "Both methods share the oracle and "
             "T = ln(n)/eps iterations; they differ in the MVP (per-coordinate, precision eps) vs (bucketed, "
             "precision eps^3, read off the exponent 7 + 4p). The 7.7 and 3.2 are hashing-KDE (p ~ 0.173) "
             "worst-case exponents; our oracle is sampling (p = 1).",
        source="paper",
        foils=("dense", _EPS3),
        foil_note=_EPS3_NOTE + _DENSE_NOTE,
    ),
    Claim(
        id="c2_spectral_eps_exponent",
        where="abstract",
        text="The refined noisy power method has a lower power of 1/eps than BIMW'21's for the spectral norm.",
        paper_value=_ABS_EPS,
        check=SlopeDiff(method="ssx25", other="bimw21", metric="kernel_evals", x="eps", lo=0.0,
                        where=EXP_WHERE),
        note="Issue 14: the claim is a comparison of exponents, so the check is the difference of the two "
             "log-log slopes of evaluations against eps at the largest quick n: slope(ssx25) - slope(bimw21) > 0 "
             "(strict) means ssx25's evaluations grow more slowly as eps falls, i.e. a lower power of 1/eps. "
             "The paper's 7.7 and 3.2 are worst-case hashing-KDE exponents (7 + 4p, 3 + p, p ~ 0.173) and are "
             "not asserted. Issue 29 round 4: read on the premise p1 setting (n = 2000, bandwidth 2, eps in "
             "{0.6, 0.5, 0.4}), where BIMW'21's products at precision eps^3 can be below the dense cap; on the "
             "main grid (eps <= 0.2) they cost more than n^2 and are answered exactly, so its measured "
             "eps-exponent was that of the T = ln(n)/eps iterations alone (about 1). Caveat: at large eps and "
             "with a p = 1 oracle the check compares our two reconstructions' cost accounting (1 + 2 vs 1 + 6, "
             "precision eps vs eps^3), pre-asymptotic; it cannot tell whether the paper's algorithm is the "
             "one reconstructed.",
        source="paper",
        foils=(_EPS3,),
        foil_note=_EPS3_NOTE + "BIMW'21 is the check's other slope (in the subject's place the difference is zero "
                  "by definition, issue 26: Y against Y), dense is exact with no eps-dependence at all (the wording, "
                  "a lower power of 1/eps than BIMW'21, does not rule it out; it is ruled out by the n-claims c4 and "
                  "c7), and the additive-KDE mutant's eps-power is not what the wording compares.",
    ),
    Claim(
        id="c3_spectral_accuracy",
        where="abstract",
        text="The spectral norm is approximated to 1 +- eps relative error.",
        paper_value=_ABS_REL + ": the spectral norm",
        check=Value(method="ssx25", metric="rel_err_over_eps", hi=1.0, stat="max",
                    where={"task": "spectral", "eps": EPS_MAIN}),
        note="Worst cell over the main grid (the premise p1 cells of issue 29 round 4, eps >= 0.4, are left out: "
             "the same cells as before).",
        source="paper",
        foils=(_ADDITIVE,),
        foil_note="A relative (1 +- eps) guarantee rests on relative-error KDE queries; the same algorithm on the "
                  "additive-error KDE primitive (1/eps^2 samples whatever the density) has no such guarantee. "
                  "dense and bimw21 are exact or relative-error methods, not foils.",
    ),
    Claim(
        id="c4_spectral_subquadratic",
        where="abstract",
        text="Runtimes depend sub-quadratically on the number of points n.",
        paper_value=_ABS_N,
        check=Value(method="ssx25", metric="evals_over_n2", hi=BELOW_ONE, stat="max",
                    where={"task": "spectral", "n": N_MAX, "eps": EPS_MAIN}),
        note="Issue 29: 'sub-quadratically in n' read as fewer kernel evaluations than the n^2 of reading K "
             "whole, at the largest quick n (2000), in every cell (every eps of the grid, eps >= 0.05: the "
             "research note's plan, 'budgets < n^2 for eps >= 0.05'); strict (evals <= n^2 - 1), so the exact "
             "dense method (exactly n^2) fails. It replaces a log-log slope <= 2 in n, which the dense method "
             "met at its boundary and which a method at 140 n^2 passed, and absorbs c4b (the same check, not "
             "strict). With a sampling oracle (p = 1) the paper's worst-case bound n^{1+p} poly(1/eps) is not "
             "below n^2 at all; what can go below n^2 here is the data's density (queries cost 1/(mu eps^2)), "
             "so a miss at n = 2000 is a finding about the constants of this construction. Issue 29 round 4: a "
             "KDE primitive with p < 1 would not change that here: a relative-eps query costs at least 1/eps^2 "
             "whatever p, so the reconstructed T = ceil(ln(n)/eps) products cost at least T n / eps^2, 3.85 n^2 "
             "at eps = 0.1 and 30 n^2 at eps = 0.05 for n = 2000 (below n^2 only from n ~ ln(n) / eps^3). The "
             "premise p1 "
             "cells (issue 29 round 4: bandwidth 2, eps >= 0.4) are left out: c4 reads the same cells as "
             "before.",
        source="paper",
        foils=("dense",),
        foil_note="The exact dense method reads exactly n^2 entries (ratio 1), which a strict 'below n^2' rules "
                  "out.",
    ),
    Claim(
        id="c5_matvec_fewer_evals",
        where="abstract",
        text="Faster non-negative matrix-vector products (per-coordinate guarantee) than BIMW'21.",
        paper_value=_ABS_IMPROVE + " (matrix-vector products are among 'these tasks')",
        check=Better(method="ssx25", baseline="bimw21", metric="kernel_evals",
                     where={"task": "matvec", "eps": SMALL_EPS}),
        note="Per-coordinate weighted KDE queries vs BIMW's one KDE query per (point, weight class), both at eps.",
        source="paper",
        foils=("dense",),
        foil_note=_DENSE_NOTE,
    ),
    Claim(
        id="c5b_matvec_eps_exponent",
        where="abstract",
        text="Non-negative matrix-vector products with a lower power of 1/eps than BIMW'21.",
        paper_value=_ABS_IMPROVE,
        check=SlopeDiff(method="ssx25", other="bimw21", metric="kernel_evals", x="eps", lo=0.0,
                        where={"task": "matvec", "n": 2000}),
        note="Issue 14: as c2, slope(ssx25) - slope(bimw21) of log evaluations against log eps at n = 2000, > 0 "
             "(strict). BIMW'21's product is capped at n^2 where its eps-schedule would exceed it, so the "
             "comparison is pre-asymptotic. Issue 29 round 4: both reconstructed products query at precision eps, "
             "so below the cap, at fixed density and with one weight class, they cost the same n (4 + "
             "ceil(eps^-2)) (unit-tested): this reconstruction has no lower eps-power for K v, and the measured "
             "gap is the cap (at n = 2000 BIMW'21 is at 0.20-0.35, 0.60-0.80, 0.97 n^2 for eps = 0.2, 0.1, "
             "0.05: its weight classes, queried one by one, reach their sizes first).",
        source="paper",
        foils=(),
        foil_note="No foil: BIMW'21 is the check's other slope (Y against Y, issue 26); dense has no "
                  "eps-dependence and is ruled out by the n-claims, not by this wording.",
    ),
    Claim(
        id="c6_matvec_per_coordinate",
        where="abstract",
        text="Non-negative matrix-vector products with per-coordinate (1 +- eps) guarantees.",
        paper_value=_ABS_REL + ": matrix-vector products",
        check=Value(method="ssx25", metric="coord_rms_over_eps", hi=1.0, stat="max", where={"task": "matvec"}),
        note="Our queries target relative standard error eps per coordinate (no log(n/delta) factor), so the "
             "check is on the rms over coordinates of the relative error, worst cell <= eps. 'Per-coordinate' "
             "is not in the abstract: it comes from a third-party summary (sciencestack.ai) of the paper. Issue 26: "
             "placed in the abstract (its (1 + eps) relative error for matrix-vector products), so filed as the "
             "paper's claim; the per-coordinate reading is ours.",
        source="paper",
        foils=(_ADDITIVE, "bimw21"),
        foil_note="Per-coordinate relative guarantees rule out additive-error KDE queries (mutant) and BIMW'21's "
                  "bucketed product, which drops entries of v below eps ||v||_2 / sqrt(n) (a norm-wise guarantee).",
    ),
    Claim(
        id="c7_matvec_subquadratic",
        where="abstract",
        text="Matrix-vector products in sub-quadratic time in n.",
        paper_value=_ABS_N,
        check=Value(method="ssx25", metric="evals_over_n2", hi=BELOW_ONE, stat="max",
                    where={"task": "matvec", "n": N_MAX}),
        note="Issue 29: as c4, for K v: evaluations strictly below n^2 in every cell at n = 2000 (it replaces a "
             "log-log slope <= 2 in n and absorbs c7b, the same check, not strict).",
        source="paper",
        foils=("dense",),
        foil_note="The exact dense method reads exactly n^2 entries (ratio 1), which a strict 'below n^2' rules "
                  "out.",
    ),
    Claim(
        id="c8_sum_fewer_evals",
        where="abstract",
        text="Sum of entries s(K) faster than BIMW'21.",
        paper_value='"' + _ABS_IMPROVE_WORDS + ', and additionally decrease the dependence on $n$ in the case of '
                    'computing the sum of all entries of the kernel matrix" (abstract)',
        check=Better(method="ssx25", baseline="bimw21", metric="kernel_evals",
                     where={"task": "sum", "eps": SMALL_EPS}),
        note="Row sampling at constant per-row precision (ours, reconstructed) vs BIMW's principal submatrix with "
             "per-row precision eps (reconstructed).",
        source="paper",
        foils=("dense",),
        foil_note=_DENSE_NOTE,
    ),
    Claim(
        id="c8b_sum_eps_exponent",
        where="abstract",
        text="The sum of entries s(K) with a lower power of 1/eps than BIMW'21.",
        paper_value=_ABS_IMPROVE,
        check=SlopeDiff(method="ssx25", other="bimw21", metric="kernel_evals", x="eps", lo=0.0,
                        where={"task": "sum", "n": 2000}),
        note="Issue 14: as c2, slope(ssx25) - slope(bimw21) of log evaluations against log eps at n = 2000, > 0 "
             "(strict). BIMW'21's principal submatrix is capped at n^2 where its eps-schedule would exceed it.",
        source="paper",
        foils=(),
        foil_note="No foil: BIMW'21 is the check's other slope (Y against Y, issue 26); dense has no "
                  "eps-dependence and is ruled out by the n-claims, not by this wording.",
    ),
    Claim(
        id="c9_sum_n_exponent",
        where="abstract",
        text="s(K) with a lower dependence on n than BIMW'21's n^{2/3}.",
        paper_value='"additionally decrease the dependence on $n$ in the case of computing the sum of all entries of '
                    'the kernel matrix" (abstract; BIMW\'21: O(d n^{2/3}); the new exponent is not stated in the '
                    'abstract)',
        check=Slope(method="ssx25", metric="kernel_evals", x="n", hi=2.0 / 3.0,
                    where={"task": "sum", "eps": LARGE_EPS}),
        note="hi = 2/3, BIMW's exponent; at eps = 0.2 the row sample 25 sqrt(n) is below n for n >= 625.",
        source="paper",
        foils=("bimw21", "dense"),
        foil_note="BIMW'21 is the n^{2/3} method whose n-dependence the paper lowers; dense is quadratic in n.",
    ),
    Claim(
        id="c10_sum_accuracy",
        where="abstract",
        text="s(K) to 1 +- eps relative error.",
        paper_value=_ABS_REL + ": the sum of all entries",
        check=Value(method="ssx25", metric="rel_err_over_eps", hi=1.0, stat="max", where={"task": "sum"}),
        source="paper",
        foils=(_ADDITIVE,),
        foil_note="As c3: the same estimator on additive-error KDE queries has no relative (1 +- eps) guarantee; "
                  "dense and bimw21 are exact or relative-error methods, not foils.",
    ),
    Claim(
        id="c11_matmat",
        where="abstract",
        text="Matrix-matrix products K V (V >= 0) with fewer kernel evaluations than the best existing "
             "algorithm (BIMW'21's product, column by column).",
        paper_value='"' + _Q_MATVEC + ", " + _Q_MATMAT + '" (abstract)',
        check=Better(method="ssx25", baseline="bimw21", metric="kernel_evals",
                     where={"task": "matmat", "eps": SMALL_EPS}),
        note="Round 6 (issue 29): a reconstruction, not the paper's algorithm (its body is unread): the "
             "per-coordinate MVP applied to each of the m = 4 non-negative columns of V (the TL;DR of "
             "2510.02540: the MVP is 'extend[ed] ... to faster approximate matrix multiplication'; "
             "methods/kde_kernel_linalg.py item 4, Deviation 5), against BIMW'21's bucketed MVP on the same "
             "columns (the baseline of c5). Paired over (n, family, seed), 18 units, at the smallest quick eps "
             "(0.05), the scope of c5: every n of the matmat cells (500, 1000, 2000). 'Improve upon' read as "
             "fewer kernel evaluations (the cost of c5), margin 0. Declared before any matmat cell was run; the "
             "matvec cells of c5 (per column 1.0/1.0/0.84 n^2 for ssx25, 0.97 n^2 for BIMW'21) had been seen.",
        source="paper",
        foils=("dense",),
        foil_note="dense reads K once (n^2 evaluations whatever m) and multiplies: an existing algorithm that is "
                  "not the paper's KDE product; if it too spends fewer evaluations than BIMW'21's m products, "
                  "the check cannot tell the paper's improvement from reading K whole. BIMW'21 is the baseline, "
                  "so it cannot also be a foil (issue 26: Y against Y).",
    ),
    Claim(
        id="c11b_matmat_accuracy",
        where="abstract",
        text="Matrix-matrix products K V up to (1 + eps) relative error, every entry.",
        paper_value=_ABS_REL + ": matrix-matrix products",
        check=Value(method="ssx25", metric="entry_rel_err_max_over_eps", hi=1.0, stat="max",
                    where={"task": "matmat"}),
        note="Round 6 (issue 29): '(1+eps) relative error' read per entry, the per-coordinate guarantee of the "
             "MVP the product is built from (the strictest norm): max over the n m entries of |Z_ij - (KV)_ij| / "
             "(KV)_ij <= eps, in every matmat cell (n 500-2000, eps 0.2-0.05, both families). Reconstruction as "
             "c11. Our queries target relative standard error eps (no log(n m / delta) factor), so the worst of "
             "n m entries may exceed eps; that is what the check reads. Declared before any matmat cell was "
             "run.",
        source="paper",
        foils=(_ADDITIVE,),
        foil_note="As c3/c6: the same product on additive-error KDE queries has no relative (1 + eps) "
                  "guarantee, which the words ('relative error') rule out. dense and bimw21 are exact or "
                  "relative-error products, not foils.",
    ),
    Claim(
        id="c12_linear_in_d",
        where="abstract",
        text="The runtimes depend linearly on the dimension d.",
        paper_value='"' + _Q_LINEAR_D + '" (abstract)',
        check=NotRun(method="ssx25", reason=_NOT_BUILT + "every grid fixes d = 10, and the cost counted here "
                     "(kernel evaluations) does not depend on d (each evaluation costs O(d) by construction); "
                     "the check would sweep d at fixed n and eps and fit the log-log slope of CPU time against d "
                     "(near 1)"),
        source="paper",
    ),
    Claim(
        id="c13_polynomial_in_eps",
        where="abstract",
        text="The runtimes depend polynomially on the target error eps.",
        paper_value='"' + _Q_SUBQUAD + ", and " + _Q_POLY_EPS + '" (abstract)',
        check=NotRun(method="ssx25", reason=_NOT_BUILT + "polynomial rather than exponential growth of kernel "
                     "evaluations in 1/eps is a Growth(form='polynomial') test against 1/eps, which needs 1/eps "
                     "as a dataset parameter (the grids sweep eps, in which evaluations fall) and more than "
                     "three eps values"),
        source="paper",
    ),
    Claim(
        id="c14_kde_access_vs_entries",
        where="abstract",
        text="The dependence on n is far lower with KDE-query access to K than with access to individual "
             "entries.",
        paper_value='"Importantly, ' + _Q_KDE_ACCESS + '" (abstract)',
        check=NotRun(method="ssx25", reason="cannot be separated in this construction: the KDE oracle is random "
                     "sampling (p = 1) that answers each query by reading kernel entries, and cost is counted "
                     "in entries read, so the two access models coincide. " + _NOT_BUILT + "a hashing-based "
                     "KDE oracle (p < 1) whose queries are counted at unit cost, set beside an entry-reading "
                     "algorithm's entry count, against n"),
        source="paper",
    ),
    Claim(
        id="c15_lower_bounds",
        where="abstract",
        text="Lower bounds for related problems give (conditional) quadratic-time hardness and hint at the "
             "limits of KDE-based approaches.",
        paper_value='"' + _Q_LOWER + '" (abstract)',
        check=NotRun(method="ssx25", reason="a (conditional) complexity lower bound is a statement about every "
                     "algorithm under a hardness assumption; no finite run of ours can check it"),
        source="paper",
    ),
)

# The claims that existed before round 6: earlier amendments that name "every claim" name these (not c11b,
# declared 2026-12-07 before its results, which those amendments' results_seen must not reach).
_PRE_R6_IDS = tuple(c.id for c in CLAIMS if c.id != "c11b_matmat_accuracy")

HEADLINES = (
    Headline(quote=_Q_MATVEC, claims=("c5_matvec_fewer_evals", "c6_matvec_per_coordinate")),
    Headline(quote=_Q_MATMAT, claims=("c11_matmat", "c11b_matmat_accuracy")),
    Headline(quote=_Q_SPECTRAL, claims=("c1_spectral_fewer_evals", "c3_spectral_accuracy")),
    Headline(quote=_Q_SUM, claims=("c8_sum_fewer_evals", "c10_sum_accuracy")),
    Headline(quote=_Q_LINEAR_D, claims=("c12_linear_in_d",)),
    Headline(quote=_Q_SUBQUAD, claims=("c4_spectral_subquadratic", "c7_matvec_subquadratic")),
    Headline(quote=_Q_POLY_EPS, claims=("c13_polynomial_in_eps",)),
    Headline(quote=_Q_KDE_ACCESS, claims=("c14_kde_access_vs_entries",)),
    Headline(quote=_Q_EPS_DEP, claims=("c2_spectral_eps_exponent", "c5b_matvec_eps_exponent",
                                       "c8b_sum_eps_exponent")),
    Headline(quote=_Q_SUM_N, claims=("c9_sum_n_exponent",)),
    Headline(quote=_Q_POWER, claims=("c1_spectral_fewer_evals", "c2_spectral_eps_exponent")),
    Headline(quote=_Q_LOWER, claims=("c15_lower_bounds",)),
)

PREMISES = (
    Premise(id="p1_bimw21_below_dense_cap",
            text="BIMW'21's power method spends fewer evaluations per product than the exact dense product "
                 "(n^2) in every spectral cell of the exponent setting (n = 2000, bandwidth 2, eps 0.6-0.4), so "
                 "that its eps-schedule, not the oracle's cap, sets its cost",
            check=Value(method="bimw21", metric="evals_per_product_over_n2", hi=BELOW_ONE, stat="max",
                        where=EXP_WHERE),
            claims=("c1_spectral_fewer_evals", "c2_spectral_eps_exponent"),
            note="Issue 29: the claims compare the power of 1/eps of the two power methods ('we reduce the "
                 "power of 1/eps from ~7.7 to ~3.2', abstract). BIMW'21's products at precision eps^3 need "
                 "1/eps^6 samples per query (15625 at eps = 0.2), more than the n <= 2000 points a query "
                 "sums, so the oracle answers them exactly (T n^2 evaluations, T = ln(n)/eps): its measured "
                 "eps-slope is then T's, about -1, whatever its eps-power, and c1/c2 compare ssx25 with the "
                 "dense power method, not with BIMW'21's eps-dependence. Threshold: strictly below the cap "
                 "(1 = at the cap, by the metric's definition). Declared after the quick run had shown BIMW'21 "
                 "at exactly T n^2 in every spectral cell. Issue 29 round 4: the premise failed for the setting, "
                 "not the data (at eps <= 0.2 a query needs >= 1/eps^6 = 15625 > n samples whatever the "
                 "density), so p1, c1 and c2 now read spectral cells built for it (threshold unchanged): n = "
                 "2000, bandwidth 2 (densities above 1/2: 4 + 2/eps^6 samples per BIMW'21 query), eps in "
                 "{0.6, 0.5, 0.4}."),
)

TASKS = ["matvec", "spectral", "sum"]
FAMILIES = ["clustered", "uniform"]
# The setting of premise p1 and claims c1/c2 (issue 29 round 4): see EXP_BANDWIDTH above.
P1_CELLS = sweep(KernelPointCloud, task=["spectral"], n=[N_MAX], eps=list(EXP_EPS), family=FAMILIES,
                 bandwidth=[EXP_BANDWIDTH])
# Round 6 (c11/c11b): K V for m = 4 non-negative columns, on the matvec claims' scope (n, eps, families).
MATMAT_QUICK = sweep(KernelMatMat, task=["matmat"], n=[500, 1000, N_MAX], eps=[0.2, 0.1, SMALL_EPS], family=FAMILIES)
# Every grid runs the three methods and two foils: the additive-KDE mutant and the eps^3-precision variant.
METHODS = (cfg(KDELinalg), cfg(BIMWKernelLinalg), cfg(DenseKernelLinalg),
           cfg(KDELinalg, label=_ADDITIVE, mutant="additive_kde"), cfg(KDELinalg, label=_EPS3, mvp_eps_power=3.0))

BENCHMARK = Benchmark(
    slug="kde_kernel_linalg",
    paper=Paper(
        title="Even Faster Kernel Matrix Linear Algebra via Density Estimation",
        arxiv="2510.02540",
        url="https://arxiv.org/abs/2510.02540",
        version="arXiv v1 abstract + ICML 2026 abstract (body not read)",
        authors="Rikhav Shah, Sandeep Silwal, Haike Xu",
    ),
    area="privacy_estimation",
    fidelity="proxy",
    methods=(KDELinalg,),
    baselines=(BIMWKernelLinalg, DenseKernelLinalg),
    datasets=(KernelPointCloud, KernelMatMat),
    metrics=METRICS,
    primary_metric="kernel_evals",
    nondeterministic={"time_s": TIMING_RTOL},
    claims=CLAIMS,
    premises=PREMISES,
    headlines=HEADLINES,
    grids={
        "smoke": Grid(datasets=sweep(KernelPointCloud, task=TASKS, n=[150], eps=[0.2])
                      + sweep(KernelMatMat, task=["matmat"], n=[150], eps=[0.2]), seeds=1, methods=METHODS,
                      note="four tiny instances, one per task"),
        "quick": Grid(datasets=sweep(KernelPointCloud, task=TASKS, n=[500, 1000, 2000], eps=[0.2, 0.1, 0.05],
                                     family=FAMILIES) + P1_CELLS + MATMAT_QUICK, seeds=3, methods=METHODS,
                      note="n up to 2000, eps down to 0.05, clustered and uniform clouds, d = 10; plus the "
                           "premise p1 spectral cells (n = 2000, bandwidth 2, eps 0.6-0.4); plus the matmat cells "
                           "of c11/c11b (K V, m = 4, the matvec sweep of n, eps and families)"),
        "full": Grid(datasets=sweep(KernelPointCloud, task=TASKS, n=[1000, 2000, 4000],
                                    eps=list(EPS_MAIN), family=FAMILIES) + P1_CELLS
                     + sweep(KernelMatMat, task=["matmat"], n=[1000, 2000, 4000], eps=list(EPS_MAIN), family=FAMILIES),
                     seeds=10, methods=METHODS,
                     note="the note's scale n in {2k, 5k, 10k} is beyond a cached dense oracle; n up to 4000; "
                          "plus the premise p1 spectral cells"),
    },
    description="Kernel-matrix linear algebra through KDE queries: kernel evaluations to reach relative error "
                "eps for non-negative K v, ||K||_2 and s(K), new (per-coordinate MVP, refined noisy power "
                "method, row-sampled s(K)) vs BIMW'21 vs dense.",
    fidelity_note="The paper's body could not be read: its algorithms and BIMW'21's parameter schedules are "
                  "reconstructed from the abstracts (the 1/eps exponents 7 + 4p and 3 + p fix the MVP precision "
                  "eps^3 vs eps). The KDE primitive is random sampling (p = 1) instead of hashing-based KDE, with "
                  "kernel evaluations counted exactly and large-sample means simulated by a CLT draw of the exact "
                  "variance. n <= 4000, so measured slopes are pre-asymptotic. The eps-power comparison of the "
                  "spectral norm (p1, c1, c2) runs on its own cells (bandwidth 2, eps 0.6-0.4) where BIMW'21's "
                  "eps^3-precision products are below the dense cap; on the main grid they are not.",
    cost_note="Issue 29 round 4, measured on one fresh quick run (2 shared cores): the main grid's cells "
              "29.0 CPU-s (committed run: 25.7); the premise p1 cells (6 spectral configs x 3 seeds, needed by "
              "p1/c1/c2) add 7.1 CPU-s with every method, of which the foil ssx25[mvp_eps_power=3] 1.2; that "
              "foil adds 1.9 CPU-s on the main grid's cells, which no claim reads (a grid runs every method on "
              "every cell): 38.0 CPU-s in all. Round 6 (2026-12-07, one quick run, 1 job, shared cores): the matmat "
              "cells of c11/c11b (18 configs x 3 seeds x 5 methods) add 3.5 CPU-s (ssx25 1.2, bimw21 1.1, the two "
              "foils/variants 0.9, dense 0.4); the whole quick grid 29.5 CPU-s of cells (30.3 s wall).",
    amendments=(
        Amendment(date="2026-12-03", claims=_PRE_R6_IDS,
                  what="source and foils declared (dense, bimw21, and the mutant ssx25[mutant=additive_kde] added "
                       "to every grid); paper_value now quotes the abstract, our exponent readings moved to note; "
                       "c6 marked derived (its 'per-coordinate' wording is a third-party summary's)",
                  why="claims layer rebuilt around foils (issue 13); thresholds unchanged",
                  results_seen=True),
        Amendment(date="2026-12-03",
                  claims=("c2_spectral_eps_exponent", "c4b_spectral_below_n2", "c5b_matvec_eps_exponent",
                          "c7b_matvec_below_n2", "c8b_sum_eps_exponent"),
                  what="c2: Slope(ssx25, evals vs eps) in [-4, 0] -> SlopeDiff(ssx25 - bimw21) > 0 at n = 2000, "
                       "foil bimw21; added c5b/c8b (the same exponent comparison for K v and s(K), foil bimw21) "
                       "and c4b/c7b (derived: evaluations / n^2 < 1 in every cell at n = 2000 for the spectral "
                       "norm and K v, foil dense); c4/c7/c9 unchanged (their bounds are now strict, so dense's "
                       "exact slope 2 fails c4/c7)",
                  why="issue 14: the abstract claims a lower power of 1/eps than BIMW'21 ('we reduce the power "
                      "of 1/eps from ~7.7 to ~3.2'; 'reduce the polynomial dependence on eps' for these tasks), a "
                      "comparison of exponents, which a one-method slope band that BIMW'21 also met did not "
                      "test; 'sub-quadratically in n' is tested with strict bounds and, per the research note's "
                      "plan ('budgets < n^2 for eps >= 0.05'), as evaluations below n^2, with dense as the foil. "
                      "Results had been seen: the committed quick run shows ssx25 at 3-126 n^2 on every spectral "
                      "cell and BIMW'21's eps-slope near -1 (capped at n^2 per product), so c2/c4b are expected "
                      "not to reproduce",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c1_spectral_fewer_evals", "c5_matvec_fewer_evals", "c8_sum_fewer_evals",
                          "c2_spectral_eps_exponent", "c5b_matvec_eps_exponent", "c8b_sum_eps_exponent"),
                  what="foil bimw21 removed: c1/c5/c8 keep dense; c2/c5b/c8b are left with no foil",
                  why="bimw21 is the Better baseline (c1/c5/c8) and the other slope of the SlopeDiff (c2/c5b/c8b): "
                      "in the subject's place it compares BIMW'21 with itself and fails by construction; the "
                      "wording of c2/c5b/c8b calls for no other grid method",
                  results_seen=True, rule="issue 26: Y-vs-Y foils removed"),
        Amendment(date="2026-12-06", claims=("c4b_spectral_below_n2", "c6_matvec_per_coordinate",
                                             "c7b_matvec_below_n2"),
                  what="source derived -> paper",
                  why="placed in the abstract (sub-quadratic in n; (1 + eps) relative error for matrix-vector "
                      "products), so filed as the paper's claims",
                  results_seen=True, rule="issue 26: source by placement"),
        Amendment(date="2026-12-06",
                  claims=("c11_matmat", "c12_linear_in_d", "c13_polynomial_in_eps", "c14_kde_access_vs_entries",
                          "c15_lower_bounds"),
                  what="headlines declared (the ICML abstract's 12 checkable statements, mapped to claims); the "
                       "five with no claim get not_run claims: matrix-matrix products (c11), linear in d (c12), "
                       "polynomial in eps (c13), KDE-query against entry access (c14), the lower bounds (c15)",
                  why="issue 29: every checkable statement of the abstract is declared and mapped; what cannot "
                      "run here is listed with its reason instead of being absent",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c4_spectral_subquadratic", "c7_matvec_subquadratic", "c4b_spectral_below_n2",
                          "c7b_matvec_below_n2", "c2_spectral_eps_exponent"),
                  what="c4/c7: Slope(kernel_evals vs n, eps = 0.2) <= 2 -> Value(max evals_over_n2 <= 1 - 1e-9) "
                       "over every cell at n = 2000 (evaluations strictly below n^2), foil dense; c4b/c7b removed "
                       "(the same check with a non-strict bound, which dense at exactly n^2 passed), the "
                       "'sub-quadratically' headline maps to c4/c7; c2's foil note no longer names c4b/c7b",
                  why="issue 29: the slope reproduced c4 at 1.17 while every cell used up to 140 n^2 evaluations "
                      "(c4b: 18 of 18 cells violate), and with a sampling KDE (p = 1) the bound n^{1+p} is n^2, "
                      "so a slope says nothing about sub-quadratic cost here: judge it by evaluations < n^2 at "
                      "the largest n, strictly, so the exactly-n^2 dense method fails. Results had been seen "
                      "(the committed quick run: c4b 18/18 violate at up to 140 n^2, c7b max 0.92 n^2)",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("p1_bimw21_below_dense_cap", "c1_spectral_fewer_evals", "c2_spectral_eps_exponent"),
                  what="premise p1_bimw21_below_dense_cap added (BIMW'21's evaluations per power-iteration "
                       "product strictly below n^2 in every spectral cell at n = 2000; new metric "
                       "evals_per_product_over_n2), gating c1 and c2",
                  why="issue 29 rule 4: c2 came out with ssx25's eps-exponent 1.68 larger than BIMW'21's; "
                      "checked first as a reconstruction error of the refined power method "
                      "(methods/kde_kernel_linalg.py, 'Check of the reconstruction'): none found, the cost "
                      "accounting gives the abstract's 3.2 and 7.7, and the inversion is BIMW'21's products "
                      "capped at the dense n^2 for n < eps^-6. A comparison of 1/eps powers needs BIMW'21 below "
                      "that cap. Declared after the quick run had shown BIMW'21 at exactly T n^2 in every "
                      "spectral cell, so the premise is expected to fail",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=_PRE_R6_IDS,
                  what="methods/kde_kernel_linalg.py: provenance header (what of the paper and of BIMW'21 was "
                       "searched for and read; the check of the reconstruction of the refined power method); "
                       "benchmarks/kde_kernel_linalg.py: the metric evals_per_product_over_n2 added; no method's "
                       "code path changed",
                  why="issue 29 rule 8 and the reconstruction check it asked for; the files' hashes are part of "
                      "every claim's design",
                  results_seen=True,
                  rule="issue 29: the method file's provenance header (sections read); same experiment, every "
                       "metric of the previous quick cells but time_s unchanged (compared cell by cell with the "
                       "previous store), one metric added"),
        Amendment(date="2026-12-06", claims=("c11_matmat",),
                  what="not_run reason extended: the paper's matrix-matrix algorithm is in the unread body",
                  why="issue 29 asked for a check if the paper's algorithm is clear enough; it cannot be read "
                      "here, so the claim stays not_run with that reason",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=('c10_sum_accuracy', 'c11_matmat', 'c12_linear_in_d', 'c13_polynomial_in_eps', 'c14_kde_access_vs_entries', 'c15_lower_bounds', 'c1_spectral_fewer_evals', 'c2_spectral_eps_exponent', 'c3_spectral_accuracy', 'c4_spectral_subquadratic', 'c5_matvec_fewer_evals', 'c5b_matvec_eps_exponent', 'c6_matvec_per_coordinate', 'c7_matvec_subquadratic', 'c8_sum_fewer_evals', 'c8b_sum_eps_exponent', 'c9_sum_n_exponent'),
                  what="the sampling oracle's binary search starts from a lookup table (exactly np.searchsorted(side='right')) and gathers by flat index",
                  why='issue 27 item 5: the quick suite must fit 30 minutes on 2 cores; this cuts CPU without changing what any cell computes',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
        Amendment(date="2026-12-06",
                  claims=("p1_bimw21_below_dense_cap", "c1_spectral_fewer_evals", "c2_spectral_eps_exponent",
                          "c3_spectral_accuracy", "c4_spectral_subquadratic"),
                  what="setting of p1/c1/c2 changed (rule 4): 6 spectral dataset configs (18 units) added to the quick and "
                       "full grids (n = 2000, bandwidth 2, eps in {0.6, 0.5, 0.4}, both families); p1, c1 and c2 read "
                       "them (before: p1/c2 every spectral cell at n = 2000, eps 0.2-0.05; c1 eps = 0.05 at every "
                       "n); thresholds, statistics and foils unchanged; c3/c4 restricted "
                       "to the main grid's eps values, so they read the same cells as before",
                  why="issue 29 round 4: the premise failed for a reason the setting fixes by arithmetic, not "
                      "the data: BIMW'21's products at precision eps^3 need >= 1/eps^6 samples per query, >= "
                      "15625 at eps <= 0.2, more than n = 2000, so every product was the dense one and c1/c2 "
                      "compared ssx25 with the dense power method; at densities above 1/2 (bandwidth 2) and eps "
                      ">= 0.4 a query needs 4 + 2/eps^6 <= 492 samples, below the cap. The reconstruction was "
                      "checked first (methods/kde_kernel_linalg.py: at fixed density the two power methods cost "
                      "T n (4 + ceil(eps^-2)) and T n (4 + ceil(eps^-6)), eps^-3 and eps^-7, unit-tested); the "
                      "paper's body is still not stored. Results had been seen: c2 is expected to reproduce in "
                      "this setting by our construction (precision eps vs eps^3), which is what it then checks",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=_PRE_R6_IDS,
                  what="methods/kde_kernel_linalg.py: provenance header extended (round-4 search for the body; "
                       "BIMW'21's uncapped eps^-7 at fixed density); no code path changed",
                  why="issue 29 rule 8; the method file's hash is part of every claim's design",
                  results_seen=True,
                  rule="issue 29: the method file's provenance header (sections read); no code path changed"),
        Amendment(date="2026-12-06", claims=("c1_spectral_fewer_evals", "c2_spectral_eps_exponent"),
                  what="foil ssx25[mvp_eps_power=3] (the refined power method at BIMW'21's product precision "
                       "eps^3) added to c1 (beside dense) and c2 (it had none), and to every grid's methods",
                  why="issue 29 round 4 (rule 6): a method that keeps BIMW'21's precision has not reduced the power "
                      "of 1/eps, so the wording says it must fail both; declared after the quick run of the new "
                      "setting had shown c1 and c2 not_discriminating (c2 had no foil, dense was inconclusive on "
                      "c1) and before this foil had been run",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c4_spectral_subquadratic",),
                  what="note extended: why a p < 1 KDE primitive would not move c4 at n = 2000 (T n / eps^2 "
                       ">= 3.85 n^2 at eps <= 0.1); check, threshold and cells unchanged",
                  why="issue 29 round 4 offered a p < 1 primitive as an alternative to the evaluation count; "
                      "the arithmetic shows it cannot decide c4 at this n, so the count stays",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c5b_matvec_eps_exponent",),
                  what="note extended: why c5b does not reproduce (the two reconstructed products share the "
                       "precision eps; the gap is BIMW'21's cap); check, threshold and cells unchanged",
                  why="issue 29 round 4 asked to treat the wrong-sign exponents first as reconstruction errors: "
                      "for K v the reconstruction itself gives equal eps-powers (unit-tested), which the note "
                      "now says",
                  results_seen=True),
        Amendment(date="2026-12-07", claims=("c11_matmat", "c11b_matmat_accuracy"),
                  what="c11_matmat: NotRun -> Better(ssx25 vs bimw21, kernel_evals, task = matmat, eps = 0.05), "
                       "foil dense; c11b_matmat_accuracy added: Value(ssx25, max entry_rel_err_max_over_eps <= 1, "
                       "every matmat cell), foil ssx25[mutant=additive_kde]; both map to the 'matrix-matrix "
                       "products' headline. New dataset datasets/kernel_matmat.py (K V, V >= 0 with m = 4 columns) "
                       "on the matvec sweep (n 500-2000, eps 0.2-0.05, both families) in the quick grid (full: "
                       "n 1000-4000, eps to 0.025); methods: ssx25's per-coordinate MVP per column (a "
                       "reconstruction, methods/kde_kernel_linalg.py Deviation 5), BIMW'21's bucketed MVP per "
                       "column, dense reads K once",
                  why="issue 29: 'Matrix-matrix products ... are missing'; the abstract states (1 + eps) relative "
                      "error and an improvement on the best existing algorithms for them, and the sciencestack.ai "
                      "TL;DR says the per-coordinate MVP is extended to matrix multiplication, which supports the "
                      "column-by-column reconstruction. Checks, thresholds, scope and foils written down "
                      "(/tmp/hb/r6/kde_kernel_linalg/plan.md, 03:40 UTC) before any matmat cell was run; the "
                      "matvec cells of c5/c6 had been seen (the same primitive per column)",
                  results_seen=False),
        Amendment(date="2026-12-07", claims=tuple(c.id for c in CLAIMS if c.id not in ("c11_matmat",
                                                                                       "c11b_matmat_accuracy")),
                  what="methods/kde_kernel_linalg.py, baselines/bimw_kernel_linalg.py, "
                       "baselines/dense_kernel_linalg.py: a 'matmat' branch and provenance/deviation text added; "
                       "benchmark: the matmat metric and the Frobenius rel_err for matmat; no code path of the "
                       "matvec, spectral or sum tasks changed, and these claims read no matmat cell",
                  why="round 6 (issue 29): the files' hashes are part of every claim's design; every non-timing "
                      "metric of the existing tasks' quick cells is compared with the committed cells",
                  results_seen=True,
                  rule="issue 28-30 review: a change these claims do not read (new configs, cells or branches); "
                       "every non-timing metric of the committed quick cells unchanged (compared cell by cell "
                       "with the fresh run: 0 differences in 4428 values of its 900 cells)"),
    ),
)
