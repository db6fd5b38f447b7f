"""Kernel-matrix linear algebra through KDE queries with per-coordinate guarantees.

Paper: Rikhav Shah, Sandeep Silwal, Haike Xu, "Even Faster Kernel Matrix Linear Algebra via
Density Estimation", arXiv 2510.02540 (https://arxiv.org/abs/2510.02540), ICML 2026. Read:
the abstract (arXiv v1 and the ICML 2026 page) and a third-party summary (sciencestack.ai TL;DR);
the body of the paper could not be retrieved offline, so every algorithm below is a reconstruction
from the abstract's statements (see Deviations). Issue 29 (2026-12-06) searched again for the body
(the stored pages corpus: six queries on the title, "refined noisy power method", "per-coordinate"
MVP, the eps^{-3-p} / eps^{-7-4p} bounds, the OV/SETH lower bounds; the code index for
"2510.02540"): only the abstract pages (icml.cc, sciencestack.ai, arxiv.deeppaper.ai) are stored,
no section, theorem or pseudo-code. Of BIMW'21 (arXiv 2102.08341) only the abstract and the opening
of Sec. 1 (Introduction) came back; its KNPM section did not.

The abstract's claims used here: (a) a fast non-negative matrix-vector product with a
per-coordinate (1 +- eps) guarantee; (b) the spectral norm by a refined noisy power method whose
power of 1/eps drops from ~7.7 (BIMW'21) to ~3.2 for Gaussian kernels; (c) s(K), the sum of all
entries, with a lower dependence on n than BIMW's n^{2/3}; all sub-quadratic in n.

Implemented (numbers used in code comments):
1. Per-coordinate MVP for v >= 0: (K v)_i = ||v||_1 E_{j ~ v/||v||_1} k(x_i, x_j), one weighted
   KDE query per coordinate with relative error eps, the density mu_i = (Kv)_i / ||v||_1 found
   adaptively (baselines/kde_oracle.py) and lower-bounded by v_i / ||v||_1 (k(x_i, x_i) = 1).
   Cost ~ sum_i 1 / (eps^2 mu_i): each coordinate pays for its own density.
2. Refined noisy power method: u_0 = 1 / sqrt(n); T = ceil(c_T ln(n) / eps) steps
   z_t = MVP_1(u_{t-1}) at precision eps (not eps^3), u_t = z_t / ||z_t||; output the geometric
   mean of the growth factors, lambda = (prod_t ||z_t||)^{1/T}. Why per-coordinate errors suffice:
   with z_t = D_t K u_{t-1}, D_t diagonal in [1 - eps, 1 + eps] and K >= 0 entrywise,
   (1 - eps)^T K^T u_0 <= prod_t ||z_t|| * u_T <= (1 + eps)^T K^T u_0, so the geometric mean lies
   within (1 +- eps) of ||K^T u_0||^{1/T} in [lambda_1 <u_0, u_1>^{1/T}, lambda_1], and
   <u_0, u_1> >= 1 / sqrt(n) for the non-negative Perron vector u_1: T = ln(n) / (2 eps) steps
   make that factor >= 1 - eps. Cost ~ T x MVP(eps), i.e. eps^{-3} with a p = 1 KDE.
3. Sum of entries by row sampling: t = ceil(sqrt(n) / eps^2) rows drawn uniformly with
   replacement (all n rows once when t >= n), each row sum r_i = (K 1)_i by one KDE query over all
   n points at constant relative error eps_row (default 1), s = n * mean(r_hat). The per-row errors
   are independent and unbiased, so they add eps_row^2 * E[r^2] / (t E[r]^2) <= eps_row^2 sqrt(n) / t
   to the relative variance (r_i <= sqrt(s(K)), s(K) >= n), the same order as the row-sampling
   term sqrt(n) / t: constant-precision rows suffice, and no principal submatrix is needed.

Deviations:
1. Items 1-3 are reconstructions consistent with the abstract, not the paper's pseudo-code; the
   eps-precision of item 2 is read off the stated exponent 3 + p = 1 (iterations) + 2 (KDE
   precision eps) + p (density floor ~ eps / n).
2. The KDE primitive is importance sampling (p = 1), not hashing-based KDE (p ~ 0.173 for the
   Gaussian kernel, which gives the abstract's 7.7 and 3.2): measured exponents are those of the
   sampling oracle, and the paper's exponents are worst-case bounds, not predictions.
3. Failure probabilities are not driven down: every query targets relative standard error eps
   (no log(n / delta) factor), for this method and the baselines alike.
4. All constants (c_T, sample constants) are 1 or the oracle's defaults; c_T = 1 (twice the
   ln(n) / (2 eps) of item 2) is shared with the BIMW baseline so that the methods differ only in
   the MVP and its precision.

Check of the reconstruction against the paper (issue 29). The quick run has ssx25's spectral-norm
evaluations grow as eps^-2.7 and BIMW'21's as eps^-1.0 at n = 2000, the reverse of the abstract's
"from ~7.7 to ~3.2". Checked as a possible error in item 2 against what of the paper can be read:
(a) the accounting reproduces both of the abstract's numbers: ours 1 (T ~ ln(n)/eps) + 2 (precision
eps) + p (density floor ~eps/n) = 3 + p = 3.17 at p = 0.173; BIMW'21's 1 + 6 (precision eps^3) + 4p
(floor ~eps^4/n) = 7.69 (consistency only, not independent evidence: the two precisions were read
off these exponents); (b) at fixed density the measured cost is exactly T n (c_locate + ceil(1 /
eps^2)), i.e. eps^-3 (tests: the all-ones kernel), and the measured eps^-2.7 is that, below the n-cap;
(c) BIMW'21's queries at precision eps^3 need 1/eps^6 >= 15625 samples at eps <= 0.2, more than the
n <= 2000 points of a query, so the oracle answers every one exactly: its power method is the exact
dense one, T n^2 evaluations in every spectral cell of the quick grid (39, 77, 153 n^2), and its
measured eps-slope is that of T alone. No error was found in item 2; the inversion is BIMW'21's
cap at n < eps^-6, which the benchmark's premise p1 now judges (the exponent claims need BIMW'21
below its cap). Without the paper's body, items 1-3 stay reconstructions (Deviation 1).
Round 4 (issue 29): the pages corpus searched again (title; "refined noisy power method" with the
per-coordinate MVP and 3.2; the SETH/OV lower bounds; the n^{1+p} eps^-2 query bound): still only
abstract pages of 2510.02540. BIMW'21's full text is stored (ar5iv 2102.08341, a plain-text ICML copy,
the SPIQA LaTeX source) but the search returns only its opening (abstract, start of Sec. 1), not the
KNPM section, so its parameters stay reconstructed (baselines/bimw_kernel_linalg.py). What was
checked instead: at fixed density (all-ones kernel) and below the cap, BIMW'21's power method costs
T n (c_locate + ceil(eps^-6)), eps^-7, against this method's T n (c_locate + ceil(eps^-2)), eps^-3
(both unit-tested): the two reconstructions give the abstract's 7 + 4p and 3 + p at p -> 0 whenever
BIMW'21 is below its cap, so the measured inversion is the setting (n < eps^-6 / mu), and the benchmark's
premise p1 now reads cells built for it.

Round 6 (issue 29, "matrix-matrix products ... are missing"): c11 needs a matrix-matrix product. Read for
it: the abstract ("matrix-vector products, matrix-matrix products, ...") and the sciencestack.ai TL;DR of
2510.02540 ("introduce a rapid non-negative MVP method with per-coordinate guarantees, and extend this to
faster approximate matrix multiplication"); the body, which gives the paper's algorithm, is still unread.
4. K V for V >= 0 with m columns: item 1 applied to each column (per_coordinate_matmat), so every entry
   (K V)_ij has its column's per-coordinate relative standard error eps (no log(n m / delta) factor,
   Deviation 3); cost = the sum of the m MVPs'.

Deviations (continued):
5. Item 4 is our reconstruction of the matrix-matrix product from the TL;DR's "extend this [the
   per-coordinate MVP] to faster approximate matrix multiplication", not the paper's algorithm (unread):
   the paper may share work across columns (e.g. one KDE structure or sample for all columns), which
   column-by-column products do not.

Mutants for foils (not the paper's method; the default mutant="" is the method above, unchanged):
- "additive_kde": every KDE query sized for additive error (the density taken as 1, so
  c_est / eps^2 samples whatever the query's density): the additive-error KDE primitive in place
  of the relative-error one that the (1 +- eps) relative guarantees rest on. All four tasks.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.kde_oracle import SamplingKDE


def per_coordinate_matvec(oracle: SamplingKDE, v: np.ndarray, eps: float, additive: bool = False) -> np.ndarray:
    """Item 1: K v for v >= 0, each coordinate to relative error eps (additive: mutant, see header)."""
    W = float(v.sum())
    return oracle.query(np.arange(oracle.n), v, eps, floor=1.0 if additive else v / W)


def per_coordinate_matmat(oracle: SamplingKDE, V: np.ndarray, eps: float, additive: bool = False) -> np.ndarray:
    """Item 4: K V for V >= 0 (n, m), one per-coordinate MVP per column (reconstruction, Deviation 5)."""
    return np.stack([per_coordinate_matvec(oracle, V[:, j], eps, additive) for j in range(V.shape[1])], axis=1)


def refined_power_method(oracle: SamplingKDE, eps: float, mvp_eps_power: float = 1.0,
                         iters_const: float = 1.0, additive: bool = False) -> tuple[float, int]:
    """Item 2: ||K||_2 as the geometric mean of the power iterates' growth factors."""
    n = oracle.n
    T = max(1, math.ceil(iters_const * math.log(n) / eps))
    mvp_eps = eps**mvp_eps_power
    u = np.full(n, 1.0 / math.sqrt(n))
    log_growth = 0.0
    for _ in range(T):
        z = np.maximum(per_coordinate_matvec(oracle, u, mvp_eps, additive), 1e-300)
        norm = float(np.linalg.norm(z))
        log_growth += math.log(norm)  # ||u|| = 1
        u = z / norm
    return math.exp(log_growth / T), T


def row_sampling_sum(oracle: SamplingKDE, eps: float, rng: np.random.Generator,
                     row_eps: float = 1.0, additive: bool = False) -> tuple[float, int]:
    """Item 3: s(K) from sampled row sums at constant precision; returns (estimate, rows queried)."""
    n = oracle.n
    t = math.ceil(math.sqrt(n) / eps**2)
    rows = np.arange(n) if t >= n else rng.integers(0, n, size=t)
    r = oracle.query(rows, np.ones(n), row_eps, floor=1.0 if additive else 1.0 / n)
    return n * float(r.mean()), int(rows.size)


@dataclass
class KDELinalg(Method):
    name: ClassVar[str] = "ssx25"
    mvp_eps_power: float = 1.0  # item 2: MVP precision eps (abstract's exponent 3 + p, see Deviation 1)
    iters_const: float = 1.0  # T = iters_const ln(n) / eps; shared with the BIMW baseline (Deviation 4)
    row_eps: float = 1.0  # item 3: constant per-row precision (our reconstruction)
    mutant: str = ""  # foil only: "additive_kde" (see the header); "" = the paper's method

    def run(self, data, seed: int) -> dict:
        if self.mutant not in ("", "additive_kde"):
            raise ValueError(f"unknown mutant {self.mutant!r}")
        additive = self.mutant == "additive_kde"
        rng = np.random.default_rng(seed)
        oracle = SamplingKDE(data["points"], data["bandwidth"], seed, kernel=data.get("kernel"))
        task, eps = data["task"], data["eps"]
        out: dict = {}
        t0 = time.perf_counter()
        if task == "matvec":
            out["answer"] = per_coordinate_matvec(oracle, data["v"], eps, additive)
        elif task == "matmat":
            out["answer"] = per_coordinate_matmat(oracle, data["V"], eps, additive)  # (n, m)
        elif task == "spectral":
            out["answer"], out["iterations"] = refined_power_method(oracle, eps, self.mvp_eps_power,
                                                                    self.iters_const, additive)
        elif task == "sum":
            out["answer"], out["sample_size"] = row_sampling_sum(oracle, eps, rng, self.row_eps, additive)
        else:
            raise ValueError(task)
        out["time_s"] = time.perf_counter() - t0
        out["kernel_evals"] = oracle.evals
        return out
