"""Expanding the Chaos (arXiv 2601.01021): Wiener-chaos neural operators for SDEs and SPDEs.

WCE-NO projects the driving Brownian path onto Wick-Hermite chaos features and learns the
deterministic chaos coefficients with a neural operator; a trajectory is the contraction of the
coefficients with the path's features. We compare it, at chaos order 1 and 2, with an FNO that
reads the raw noise path and with linear regression on the chaos features, on Ornstein-Uhlenbeck
and geometric Brownian motion (closed forms) and a 1-D stochastic Allen-Cahn (Phi^4_1) SPDE,
trained on paired (noise, solution) data or, for law matching, on solutions alone.
"""
from __future__ import annotations

import numpy as np

from claimbench.api import TIMING_RTOL
from claimbench.api import (
    Amendment,
    Benchmark,
    Claim,
    Grid,
    Headline,
    Metric,
    Paper,
    cfg,
    output_metric,
    sweep,
)
from claimbench.baselines.fourier_neural_operator import FNONoiseOperator
from claimbench.baselines.wiener_chaos_regression import ChaosRegression
from claimbench.checks import NotRun, Ratio
from claimbench.datasets.stochastic_equations import StochasticEquations
from claimbench.methods.wiener_chaos_no import WCENO


def _rel_l2(inst, out):
    y = inst.truth["test_paths"]
    return float(np.linalg.norm(out["pred"] - y) / np.linalg.norm(y))


def _moment_err(inst, out):
    # Pointwise (time, space) mean and standard deviation of the generated law against those of
    # the n_law independent true paths, per test initial condition; relative Frobenius error.
    law, gen = inst.truth["law_paths"], out["law_samples"]
    num = np.sum((gen.mean(1) - law.mean(1)) ** 2) + np.sum((gen.std(1) - law.std(1)) ** 2)
    den = np.sum(law.mean(1) ** 2) + np.sum(law.std(1) ** 2)
    return float(np.sqrt(num / den))


def _mmd_T(inst, out):
    # Unbiased squared MMD, Gaussian kernel (bandwidth^2 = median squared distance of the pooled
    # sample), between generated and true marginals at t = T, averaged over test initial
    # conditions.
    from scipy.spatial.distance import cdist

    law, gen = inst.truth["law_paths"], out["law_samples"]
    vals = []
    for g in range(len(law)):
        x = gen[g, :, -1].reshape(gen.shape[1], -1)
        y = law[g, :, -1].reshape(law.shape[1], -1)
        z = np.concatenate([x, y])
        d = cdist(z, z, "sqeuclidean")
        h = max(float(np.median(d[np.triu_indices(len(z), 1)])), 1e-12)
        k = np.exp(-d / h)
        n, m = len(x), len(y)
        kxx, kyy, kxy = k[:n, :n], k[n:, n:], k[:n, n:]
        vals.append((kxx.sum() - np.trace(kxx)) / (n * (n - 1))
                    + (kyy.sum() - np.trace(kyy)) / (m * (m - 1)) - 2 * kxy.mean())
    return float(np.mean(vals))


METRICS = (
    Metric("rel_l2", _rel_l2, False,
           "||pred - u||_F / ||u||_F over all test paths, observation times (and grid points), "
           "the model given each test path's own noise"),
    Metric("moment_err", _moment_err, False,
           "relative error of the pointwise mean and std of n_law generated paths per test "
           "initial condition (fresh prior noise) against n_law true paths"),
    Metric("mmd_T", _mmd_T, False,
           "unbiased MMD^2 (Gaussian kernel, median bandwidth) between generated and true "
           "marginals at t = T, mean over test initial conditions"),
    output_metric("params", description="trainable parameters (coefficients for regression)"),
    output_metric("train_s", description="process CPU seconds of fitting and prediction"),
)

WCE, WCE1 = "wce_no", "wce_no[order=1]"
UNPAIRED = "wce_no[training=unpaired]"
NO_NOISE = "wce_no[mutant=no_noise]"
DECOUPLED = "wce_no[mutant=decoupled_order2]"
FNO, REG = "fno_noise", "chaos_regression"


def _methods(**over) -> tuple:
    """The same labels in every grid; ``over`` shortens training in the smoke grid."""
    return (
        cfg(WCENO, label=WCE, **over),
        cfg(WCENO, label=WCE1, order=1, **over),
        cfg(WCENO, label=UNPAIRED, training="unpaired", **over),
        cfg(WCENO, label=NO_NOISE, mutant="no_noise", **over),
        cfg(WCENO, label=DECOUPLED, mutant="decoupled_order2", **over),
        cfg(FNONoiseOperator, label=FNO, **over),
        cfg(ChaosRegression, label=REG),
    )


_NOTE = ("The research note's plan (its proposal; the paper's own numbers were not read). "
         "Paired on (equation, seed): every method sees the same paths and noise.")
_NO_NOISE_FOIL = ("A WCE-NO with the chaos features removed (only the alpha = 0 coefficient: a "
                  "deterministic mean predictor) ignores the noise the claim is about; it must "
                  "lose to the raw-noise operator.")


def _k_sweep(steps: int) -> tuple:
    """Issue 28's K sweep, full grid only and read by no claim: K = 16 against the grid's K = 8,
    at order 1 and 2. K = 16 is the largest power of two within phi41's 20 noise increments (more
    cosines alias on the solver grid); tests/test_wiener_chaos_no.py checks the OU floor of K."""
    return (cfg(WCENO, label="wce_no[order=1,n_basis=16]", order=1, n_basis=16, steps=steps),
            cfg(WCENO, label="wce_no[n_basis=16]", n_basis=16, steps=steps))


def _application(cid: str, task: str, needs: str) -> Claim:
    """A not_run claim for one of the abstract's application tasks."""
    return Claim(id=cid, where="abstract",
                 text=f"WCE-NO achieves competitive accuracy on {task}",
                 paper_value=("\"Empirically, we achieve competitive accuracy across several "
                              f"tasks\"; \"{task}\" (abstract)"),
                 check=NotRun(method=WCE, reason=f"not built yet (issue 28): {needs}; only OU, "
                                                 "GBM and a 16-point Phi^4_1 run here"),
                 source="paper")


BENCHMARK = Benchmark(
    slug="wiener_chaos_no",
    paper=Paper(
        title=("Expanding the Chaos: Neural Operator for Stochastic (Partial) Differential "
               "Equations"),
        arxiv="2601.01021",
        url="https://arxiv.org/abs/2601.01021",
        version="arXiv v1/v2 (abstract and introduction; method section and tables not read)",
        authors="Dai Shi, Lequan Lin, Andi Han, Luke Thompson, José Miguel Hernández-Lobato, "
                "Zhiyong Wang, Junbin Gao",
    ),
    area="generative_science",
    fidelity="proxy",
    fidelity_note=("The method follows the abstract's construction (Wick-Hermite features of "
                   "the projected noise, chaos coefficients from a neural operator, paired or "
                   "law-matching training), but the paper's tasks, truncation (K, P), backbones, "
                   "baselines (NSPDE, DLR-Net, ...) and numbers were not read. The equations "
                   "(OU, GBM, a Phi^4_1 with 2-mode Q-Wiener noise on 16 points), sizes and "
                   "training lengths are ours, at CPU scale, so the checks are the research "
                   "note's proposals, not the paper's tables."),
    methods=(WCENO,),
    baselines=(FNONoiseOperator, ChaosRegression),
    datasets=(StochasticEquations,),
    metrics=METRICS,
    cost_note=("Every cell but chaos_regression's trains a neural operator for 300 Adam steps on "
               "1024 paths (~85% of its CPU): up to 6 trained methods x 3 equations x 4 seeds, "
               "152 CPU-s, phi41 cells the largest (fno_noise there alone 32 s). fno_noise (47 s) "
               "and wce_no are read by c1_ou_not_worse_than_raw_noise_no, c2 and "
               "c3_phi41_within_1.2x_raw_noise_no; the order-1 and decoupled variants by "
               "c4_order2_beats_order1_phi41. wce_no[order=1] on ou and gbm (8 cells, ~10 s) is "
               "read by no claim, c4 being phi41 only: a later cut could come from there."),
    primary_metric="rel_l2",
    nondeterministic={"train_s": TIMING_RTOL},
    claims=(
        Claim(id="c1_ou_not_worse_than_raw_noise_no", where="abstract; research note plan",
              text="WCE-NO's accuracy is competitive with a neural operator on the raw noise path "
                   "(OU): relative L2 error within 1.2x",
              paper_value="\"Empirically, we achieve competitive accuracy across several tasks, including "
                          "standard SPDE benchmarks\" (abstract)",
              check=Ratio(numerator=WCE, denominator=FNO, metric="rel_l2", at_most=1.2,
                          where={"equation": "ou"}),
              source="paper", foils=(NO_NOISE,), foil_note=_NO_NOISE_FOIL,
              note="Threshold: 'competitive' read as a geometric-mean error ratio within 1.2x, "
                   "the research note's own reading on Phi^4_1 (c3), now on every equation "
                   "(chosen after results were seen; it was the note's 'WCE-NO relL2 <= "
                   "raw-noise NO on OU/GBM', stricter than the word). On OU the solution is "
                   "exactly first-order chaos, so a gap points at the truncation (K = 8) or the "
                   "training. Swept (issue 28; separate check, seeds 0-2, quick-size data): both. "
                   "The K = 8 truncation floor (best predictor on 8 cosine coordinates, a "
                   "closed form, unit-tested) is where order-1 WCE-NO and the linear chaos "
                   "regression sit, 0.054-0.055, 1.35-1.55x the raw-noise operator's 0.036-0.041; "
                   "order-1 WCE-NO at K = 16 reaches 0.040-0.041 (K = 32: 0.043-0.046); order 2, "
                   "the claim's wce_no, is also under-trained at 300 steps (K = 8: 0.065, 0.056 "
                   "at 1000 steps; K = 16: 0.11, 0.043 at 3000 steps). With 3000 steps (seed 1) "
                   "the raw-noise operator learns OU almost exactly (0.0025) and so does order-1 "
                   "WCE-NO on the complete basis K = n_fine = 64 (0.0052; 0.058 at 300 steps), "
                   "while K = 16 stays at its floor (0.036): no bug, the gap is the truncation "
                   "and the training length, both our scale choices. " + _NOTE),
        Claim(id="c2_gbm_not_worse_than_raw_noise_no", where="abstract; research note plan",
              text="WCE-NO's accuracy is competitive with a neural operator on the raw noise path "
                   "(GBM): relative L2 error within 1.2x",
              paper_value="\"Empirically, we achieve competitive accuracy across several tasks, including "
                          "standard SPDE benchmarks\" (abstract)",
              check=Ratio(numerator=WCE, denominator=FNO, metric="rel_l2", at_most=1.2,
                          where={"equation": "gbm"}),
              source="paper", foils=(NO_NOISE,), foil_note=_NO_NOISE_FOIL,
              note="As c1 (within 1.2x), on geometric Brownian motion (nonlinear in the noise). "
                   + _NOTE),
        Claim(id="c3_phi41_within_1.2x_raw_noise_no", where="abstract; research note plan",
              text="on the Phi^4_1 SPDE, WCE-NO is within 1.2x of the raw-noise neural operator",
              paper_value="\"Empirically, we achieve competitive accuracy across several tasks, including "
                          "standard SPDE benchmarks\" (abstract)",
              check=Ratio(numerator=WCE, denominator=FNO, metric="rel_l2", at_most=1.2,
                          where={"equation": "phi41"}),
              source="paper", foils=(NO_NOISE,), foil_note=_NO_NOISE_FOIL,
              note="Threshold: the note's '<= 1.2x on Phi^4_1'. " + _NOTE),
        Claim(id="c4_order2_beats_order1_phi41", where="research note plan",
              text="chaos order 2 is more accurate than order 1 on the Phi^4_1 SPDE",
              paper_value="",
              check=Ratio(numerator=WCE, denominator=WCE1, metric="rel_l2", at_most=1.0,
                          where={"equation": "phi41"}),
              source="derived", foils=(DECOUPLED,),
              foil_note=("Order-2 features computed from an independent copy of the noise "
                         "coordinates: the same number of features and parameters as P = 2 "
                         "but no second-order information, so the gain must vanish."),
              note="The cubic reaction makes the solution nonlinear in the noise, so the "
                   "second chaos should carry signal. " + _NOTE),
        Claim(id="c5_unpaired_close_to_paired", where="research note plan (law matching)",
              text="law-matching (unpaired) training stays close to paired training in the "
                   "generated marginal laws",
              paper_value="",
              check=Ratio(numerator=UNPAIRED, denominator=WCE, metric="moment_err", at_most=2.0),
              source="derived", foils=(NO_NOISE,),
              foil_note=("The deterministic mutant (no chaos features) generates a point mass: "
                         "its standard deviations are 0, so its moment error must exceed 2x."),
              note="Threshold: the note's 'unpaired moment error <= 2x paired', over all three "
                   "equations. " + _NOTE),
        Claim(id="c6_beats_linear_chaos_regression",
              where="not in the paper (our check that the neural-operator parameterisation of "
                    "the chaos coefficients matters; issue 17)",
              text="a neural operator for the chaos coefficients beats linear regression on the "
                   "chaos features when the solution is nonlinear (GBM, Phi^4_1)",
              paper_value="",
              check=Ratio(numerator=WCE, denominator=REG, metric="rel_l2", at_most=1.0,
                          where={"equation": ("gbm", "phi41")}),
              source="derived", foils=(NO_NOISE,),
              foil_note="Without the noise features no predictor can match a regression that "
                        "sees the noise.",
              note="Our sanity check that the learned coefficients matter (issue 17's second "
                   "baseline); the paper's abstract only says it uses 'NO backbones to "
                   "parameterize the corresponding chaos coefficients' and states no comparison "
                   "with a linear regression, so the claim is ours, not placed in the abstract "
                   "(issue 26). " + _NOTE),
        Claim(id="c12_competitive_across_tasks", where="abstract",
              text="WCE-NO's accuracy is competitive with a neural operator on the raw noise path "
                   "across the tasks run here (OU, GBM, Phi^4_1 pooled): relative L2 error within "
                   "1.2x",
              paper_value="\"Empirically, we achieve competitive accuracy across several tasks\" "
                          "(abstract)",
              check=Ratio(numerator=WCE, denominator=FNO, metric="rel_l2", at_most=1.2),
              source="paper", foils=(NO_NOISE,), foil_note=_NO_NOISE_FOIL,
              note="Band: 'competitive' read as a geometric-mean error ratio within 1.2x (error "
                   "at most 20% above the comparator's), the one reading c1-c3 use per "
                   "equation, here over every (equation, seed) cell: the abstract's 'across "
                   "several tasks'. Declared after c1-c3's cells (which it pools) were seen. "
                   "Where the gap comes from (issue 28's K sweep, a separate check on seeds "
                   "0-2 at quick size; no bug found in the basis, normalisation, time grid or "
                   "Wick-Hermite features): see c1's note on OU; on GBM and Phi^4_1 the chaos "
                   "order bounds WCE-NO (the best order-2 predictor on K = 8 coordinates: 0.083 "
                   "on GBM, 0.18 on Phi^4_1, against the raw-noise operator's 0.05-0.07 and "
                   "0.09-0.11), and 300 steps under-train order 2 (Phi^4_1: 0.34 at 300 steps, "
                   "0.25 at 1000) but the raw-noise operator more (1000 steps, seed 1: 0.045 on "
                   "Phi^4_1, 0.028 on GBM, where WCE-NO stays at 0.12): longer training would "
                   "widen the gap there. " + _NOTE),
        _application("c7_one_step_image_sampling", "SDE-based diffusion one-step image sampling",
                     "an image data set and an SDE-based diffusion model whose solution operator "
                     "WCE-NO learns for one-step sampling"),
        _application("c8_graph_interpolation", "topological graph interpolation",
                     "a graph-valued SDE task (interpolation on a graph's topology) and its data"),
        _application("c9_financial_extrapolation", "financial extrapolation",
                     "a financial time-series SDE task with extrapolation beyond the training "
                     "horizon, and its data"),
        _application("c10_parameter_estimation", "parameter estimation",
                     "an inverse task estimating an SDE's parameters from paths, with the paper's "
                     "comparators"),
        _application("c11_flood_forecasting", "manifold SDE flood forecasting",
                     "a manifold-valued SDE and flood (hydrological) data; none ships here"),
    ),
    headlines=(
        Headline(quote="we achieve competitive accuracy across several tasks, including standard "
                       "SPDE benchmarks",
                 claims=("c1_ou_not_worse_than_raw_noise_no",
                         "c2_gbm_not_worse_than_raw_noise_no",
                         "c3_phi41_within_1.2x_raw_noise_no", "c12_competitive_across_tasks")),
        *(Headline(quote=q, claims=(cid,)) for cid, q in (
            ("c7_one_step_image_sampling", "SDE-based diffusion one-step image sampling"),
            ("c8_graph_interpolation", "topological graph interpolation"),
            ("c9_financial_extrapolation", "financial extrapolation"),
            ("c10_parameter_estimation", "parameter estimation"),
            ("c11_flood_forecasting", "manifold SDE flood forecasting"))),
        Headline(quote="show that the proposed framework remains effective by sampling auxiliary "
                       "Brownian paths from the prescribed noise prior",
                 claims=("c5_unpaired_close_to_paired",)),
    ),
    grids={
        "smoke": Grid(datasets=(sweep(StochasticEquations, equation=["ou", "phi41"],
                                      n_train_ic=[8], paths_per_ic=[8], n_test_ic=[4],
                                      test_paths_per_ic=[4], n_law=[32])),
                      seeds=2, methods=_methods(steps=15),
                      note="tiny data, 15 training steps: exercises every path of the code"),
        "quick": Grid(datasets=sweep(StochasticEquations, equation=["ou", "gbm", "phi41"]),
                      seeds=4, methods=_methods(),
                      note="1024 training paths (64 initial conditions x 16), 128 test paths, "
                           "256 law paths per test initial condition; 300 Adam steps; about "
                           "3.1 CPU-minutes (phi41 cells dominate)"),
        "full": Grid(datasets=sweep(StochasticEquations, equation=["ou", "gbm", "phi41"],
                                    n_train_ic=[128], n_law=[512]),
                     seeds=10, methods=_methods(steps=2000) + _k_sweep(2000),
                     note="2048 training paths, 2000 steps, 10 seeds: roughly 2 CPU-hours, plus "
                          "the K sweep (2 labels, about 0.25 CPU-hour)"),
    },
    description=__doc__.split("\n\n")[1].replace("\n", " "),
    amendments=(
        Amendment(date="2026-12-06",
                  claims=("c1_ou_not_worse_than_raw_noise_no",
                          "c2_gbm_not_worse_than_raw_noise_no",
                          "c3_phi41_within_1.2x_raw_noise_no"),
                  what="source derived -> paper; paper_value quotes the ICML abstract ('we "
                       "achieve competitive accuracy', not arXiv v1's 'demonstrating competitive "
                       "accuracy'); thresholds unchanged (the research note's reading of "
                       "'competitive')",
                  why="issue 26: a claim placed in the abstract is the paper's claim",
                  results_seen=True, rule="issue 26: source by placement"),
        Amendment(date="2026-12-06",
                  claims=("c1_ou_not_worse_than_raw_noise_no",
                          "c2_gbm_not_worse_than_raw_noise_no"),
                  what="Ratio(rel_l2 vs fno_noise) at_most 1.0 -> 1.2 on OU (c1) and GBM (c2), "
                       "the band c3 already uses; ids kept, texts say 'within 1.2x'",
                  why="issue 28: 'competitive accuracy' needs a band a reader would accept, not "
                      "'at least as accurate'; 1.2x is the research note's own reading of "
                      "competitive (on Phi^4_1), now one band for every equation",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c7_one_step_image_sampling", "c8_graph_interpolation",
                          "c9_financial_extrapolation", "c10_parameter_estimation",
                          "c11_flood_forecasting"),
                  what="not_run claims added for the abstract's five application tasks; headlines "
                       "declared (the ICML abstract's 7 checkable statements)",
                  why="issue 28: every abstract statement is checked or listed with the reason it "
                      "is not",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c1_ou_not_worse_than_raw_noise_no",
                          "c2_gbm_not_worse_than_raw_noise_no",
                          "c3_phi41_within_1.2x_raw_noise_no", "c4_order2_beats_order1_phi41",
                          "c5_unpaired_close_to_paired", "c6_beats_linear_chaos_regression",
                          "c7_one_step_image_sampling", "c8_graph_interpolation",
                          "c9_financial_extrapolation", "c10_parameter_estimation",
                          "c11_flood_forecasting"),
                  what="code only: the FNO's per-mode complex products as one bmm of contiguous "
                       "per-mode matrices (was einsum into a zero-filled spectrum); WCE-NO "
                       "evaluates its coefficient operator once per distinct initial condition "
                       "when predicting; Wick-Hermite features built factor by factor over all "
                       "multi-indices at once (was a Python loop per index). Same arithmetic, bit "
                       "for bit",
                  why="issue 27 item 5: quick-grid CPU 4.28 -> 3.11 CPU-minutes (84 cells, "
                      "committed run vs a fresh run on the same CPU model)",
                  results_seen=True,
                  rule="issue 27: faster code, same experiment; every non-timing metric of the "
                       "committed quick cells unchanged (claimbench verify)"),
        Amendment(date="2026-12-06", claims=('c10_parameter_estimation', 'c11_flood_forecasting', 'c1_ou_not_worse_than_raw_noise_no', 'c2_gbm_not_worse_than_raw_noise_no', 'c3_phi41_within_1.2x_raw_noise_no', 'c4_order2_beats_order1_phi41', 'c5_unpaired_close_to_paired', 'c6_beats_linear_chaos_regression', 'c7_one_step_image_sampling', 'c8_graph_interpolation', 'c9_financial_extrapolation'),
                  what="baselines/fourier_neural_operator.py makes the gradient reaching the per-mode product contiguous once per step instead of once per mode (autograd's formulas); methods/wiener_chaos_no.py reads a broadcast view when a 256-path chunk shares one initial condition; grids, seeds, steps, checks and foils unchanged",
                  why='issue 27 item 5 (quick-suite CPU): 304 values of the 84 quick cells compared with a fresh run: 0 differences; 0.95x the CPU on paired runs',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
        Amendment(date="2026-12-06", claims=('c10_parameter_estimation', 'c11_flood_forecasting', 'c1_ou_not_worse_than_raw_noise_no', 'c2_gbm_not_worse_than_raw_noise_no', 'c3_phi41_within_1.2x_raw_noise_no', 'c4_order2_beats_order1_phi41', 'c5_unpaired_close_to_paired', 'c6_beats_linear_chaos_regression', 'c7_one_step_image_sampling', 'c8_graph_interpolation', 'c9_financial_extrapolation'),
                  what="the neural operators train with foreach Adam/AdamW (one call per step for the parameter list, the per-tensor loop's arithmetic)",
                  why='issue 27 item 5: the quick suite must fit 30 minutes on 2 cores; this cuts CPU without changing what any cell computes',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
        Amendment(date="2026-12-06", claims=("c12_competitive_across_tasks",),
                  what="new paper claim c12_competitive_across_tasks (abstract: 'Empirically, we "
                       "achieve competitive accuracy across several tasks'): geometric-mean ratio "
                       "wce_no / fno_noise of rel_l2 over every quick (equation, seed) cell at "
                       "most 1.2, foil wce_no[mutant=no_noise]; mapped to the abstract's "
                       "'competitive accuracy' headline",
                  why="issue 28: declare 'competitive accuracy across tasks' as a paper claim with "
                      "a band a reader would accept; 1.2x (error at most 20% above the "
                      "comparator's) is the band c1-c3 already use, kept so that one word has one "
                      "reading",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c1_ou_not_worse_than_raw_noise_no",),
                  what="full grid only: the K sweep, wce_no[order=1,n_basis=16] and "
                       "wce_no[n_basis=16] (order 2), 2000 steps, read by no claim; c1's note "
                       "reports the sweep. Quick grid, methods, sources and every claim's check "
                       "unchanged",
                  why="issue 28: c1's note says a gap on OU (exactly first-order chaos) points at "
                      "the K = 8 truncation, to be swept; a separate check (seeds 0-2, quick-size "
                      "data) found the K = 8 floor 1.3-1.6x the raw-noise operator's error on OU "
                      "and order-1 K = 16 matching it, so the sweep is recorded where it costs no "
                      "quick-grid CPU; the K = 8 floor itself is a unit test (closed form)",
                  results_seen=True),
        Amendment(date="2026-12-07",
                  claims=("c1_ou_not_worse_than_raw_noise_no",
                          "c2_gbm_not_worse_than_raw_noise_no",
                          "c3_phi41_within_1.2x_raw_noise_no", "c4_order2_beats_order1_phi41",
                          "c5_unpaired_close_to_paired", "c6_beats_linear_chaos_regression",
                          "c7_one_step_image_sampling", "c8_graph_interpolation",
                          "c9_financial_extrapolation", "c10_parameter_estimation",
                          "c11_flood_forecasting", "c12_competitive_across_tasks"),
                  what="code only, evaluation only: fno_noise's predictions apply the FNO's "
                       "pointwise projection Q to the observation rows of the fine time grid "
                       "only (FNO.forward's new rows argument), not to every fine row before "
                       "selecting them; training, grids, seeds, steps, checks and foils "
                       "unchanged",
                  why="issue 27 item 5: quick grid CPU 165.7 -> ~163.8 CPU-s (the committed "
                      "cells; phi41 fno_noise cells 11.50 -> 10.56 CPU-s over 4 back-to-back "
                      "pairs on busy cores; evaluation forward 91 -> 63 ms per 256-path chunk)",
                  results_seen=True,
                  rule="issue 27: faster code, same experiment; every non-timing metric of the "
                       "committed quick cells unchanged (compared cell by cell with a fresh run: "
                       "0 differences)"),
    ),
)
