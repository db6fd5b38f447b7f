"""Torus graphs at scale (arXiv 2606.00496): stochastic vs exact score matching on synthetic data.

Gibbs samples from torus graphs with a known sparse Gaussian coupling (the authors' synthetic
recovery experiment, Fig. 2a,b); each estimator's phi is scored against the truth (MSE,
squared correlation) and timed. The exact estimator solves the dense 2d^2 x 2d^2 system
(O(d^6) time, O(d^4) memory) and declines above a stated memory budget; stochastic score
matching costs O(batch d^2) per iteration and keeps running where the exact one declines.
"""
from __future__ import annotations

import numpy as np

from claimbench.api import TIMING_RTOL
from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Metric, Paper, cfg,
                            output_metric, sweep)
from claimbench.baselines.exact_score_matching import ExactScoreMatching
from claimbench.checks import Better, Equivalent, NotRun, Ratio, Slope
from claimbench.datasets.torus_graph_samples import TorusGraphSamples
from claimbench.methods.torus_graph import StochasticScoreMatching


def _fit(out) -> np.ndarray | None:
    phi = out.get("phi")
    if phi is None:
        return None
    phi = np.asarray(phi, dtype=np.float64)
    return phi if np.all(np.isfinite(phi)) else None


def _mse(inst, out):
    phi = _fit(out)
    return None if phi is None else float(np.mean((phi - inst.truth["phi"]) ** 2))


def _coupling_mse(inst, out):
    phi = _fit(out)
    if phi is None:
        return None
    off = ~np.eye(phi.shape[0], dtype=bool)  # (d, d)
    return float(np.mean((phi - inst.truth["phi"])[off] ** 2))


def _pseudo_r2(inst, out):
    phi = _fit(out)
    if phi is None or np.ptp(phi) == 0.0:
        return None
    r = np.corrcoef(phi.ravel(), inst.truth["phi"].ravel())[0, 1]
    return float(r * r)


def _finite_fit(inst, out):
    return None if out.get("phi") is None else float(_fit(out) is not None)


METRICS = (
    Metric("mse", _mse, False,
           "mean over all 2d^2 entries of (phi_hat - phi)^2 (authors' Fig. 2 MSE)"),
    Metric("coupling_mse", _coupling_mse, False,
           "mean of (phi_hat - phi)^2 over the off-diagonal (pairwise coupling) entries only"),
    Metric("pseudo_r2", _pseudo_r2, True,
           "squared Pearson correlation of phi_hat and phi over all 2d^2 entries (authors' "
           "pseudo-R^2, experiments/ssm_synthetic_heatmaps.py)"),
    Metric("finite_fit", _finite_fit, True, "1 when the returned phi is finite everywhere, else 0"),
    output_metric("time_s", description="wall time of the whole fit"),
    output_metric("cpu_s", description="process CPU time of the whole fit"),
    output_metric("solve_cpu_s", description="exact: CPU time of the dense LU solve alone"),
    output_metric("form_cpu_s", description="exact: CPU time to form Gamma and H_hat"),
    output_metric("iter_cpu_s", description="SSM: CPU time per Adam iteration (loop / n_iter)"),
    output_metric("iter_time_s", description="SSM: wall time per Adam iteration"),
    output_metric("solve_cpu_min_s", description="exact: fastest CPU time of the dense LU solve "
                  "over timing_repeats passes (3 in the quick and full grids)"),
    output_metric("cpu_min_s", description="exact: fastest formation + fastest solve over "
                  "timing_repeats passes; SSM: set-up + n_iter x iter_cpu_min_s"),
    output_metric("iter_cpu_min_s", description="SSM: CPU time per iteration of the fastest "
                  "block of 100 iterations"),
)

# Exact runs on d <= 48 (Gamma <= 162 MiB); d = 64, 96, 128 exceed the 256 MiB budget. d = 96
# was added in issue 14 so that c6's paired test has 9 units (with 6, an exact signed-rank test
# cannot reach its Holm level) and c5's fit a fourth size.
_EXACT_D = (8, 16, 24, 32, 40, 48)
_BIG_D = (64, 96, 128)
_EXACT_SLOPE_D = (24, 32, 40, 48)
_SSM_SLOPE_D = (48, 64, 96, 128)

# Foil: SSM with the couplings held at 0 (independent von Mises marginals; methods/torus_graph.py
# "Mutants for foils"). It returns a finite phi at every d in O(B d) per iteration.
NO_COUPLING = "tg_ssm[mutant=no_coupling]"
_ALL_CLAIMS = ("c1_r2_matches_exact", "c2_coupling_mse_not_worse", "c3_exact_solve_d6",
               "c4_exact_total_time", "c5_ssm_iteration_d2", "c6_ssm_beyond_exact")

# The exact solve is timed as the fastest of 3 passes (issue 14: complexity fits must not move
# with machine load); its phi, and so every accuracy metric, is the first pass's.
_EXACT_TIMED = cfg(ExactScoreMatching, label="exact_sm", timing_repeats=3)
_METHODS = (cfg(StochasticScoreMatching), _EXACT_TIMED,
            cfg(StochasticScoreMatching, label=NO_COUPLING, mutant="no_coupling"))

# The abstract's checkable statements (ICML 2026 abstract), verbatim.
_Q_D6 = "its score matching inference scales as $\\mathcal{O}(d^{6})$"
_Q_D2 = ("We introduce a stochastic score matching procedure that reduces the per-iteration cost to "
         "$\\mathcal{O}(d^{2})$")
_Q_THOUSANDS = "enabling inference on datasets with thousands of variables"
_Q_LFP = "This scalable foundation supports analyses of 1,860 frequency-phase features from multi-electrode LFPs"
_Q_HMM = "(i) a TG Hidden Markov Model capturing state-dependent phase-coupling changes"
_Q_ARTG = "(ii) an autoregressive TG inferring directional interactions via transfer-entropy estimation"
_Q_WAKE = ("these models reveal state-dependent phase-interaction patterns between wakefulness and NREM "
           "sleep")
_NOT_BUILT = "not built yet (issue 29): "
_UPPER_NOTE = (" Issue 29: O(d^6) is an upper bound, not an exact exponent, so only the upper end of the "
               "band is kept (slope below 6.5: closer to 6 than to 7); a cheaper method meets an upper "
               "bound too, so the claim can no longer tell the exact estimator from SSM.")

_CPU_NOTE = ("Process CPU time (BLAS limited to one thread by the harness), the fastest of "
             "repeated timings (issue 14: the machine is shared, and a busy machine moved c5 "
             "from slope 1.87 to 1.52 when a single timing was used).")

BENCHMARK = Benchmark(
    slug="torus_graph",
    paper=Paper(
        title="Torus Graphs for Large Scale Neural Phase Analysis",
        arxiv="2606.00496",
        url="https://arxiv.org/abs/2606.00496",
        version="arXiv v1 (text not available offline: research note + authors' code read)",
        authors="Jack Goffinet, Casey Hanks, David E. Carlson",
    ),
    area="privacy_estimation",
    fidelity="scaled_down",
    fidelity_note=("The authors' synthetic recovery experiment (random sparse phi, SSM with their "
                   "heatmap settings against the exact solve) at CPU scale: d <= 128 (paper: "
                   "d up to ~1.3^27 and 1,860 LFP features on a GPU), n in {1000, 2000}, Gibbs "
                   "sampling instead of HMC, numpy instead of JAX. The paper's text was not "
                   "read; claims and thresholds come from the research note or are ours (each "
                   "claim's note says which)."),
    methods=(StochasticScoreMatching,),
    baselines=(ExactScoreMatching,),
    datasets=(TorusGraphSamples,),
    metrics=METRICS,
    primary_metric="coupling_mse",
    nondeterministic={
        "time_s": TIMING_RTOL,
        "cpu_s": TIMING_RTOL,
        "solve_cpu_s": TIMING_RTOL,
        "form_cpu_s": TIMING_RTOL,
        "iter_cpu_s": TIMING_RTOL,
        "iter_time_s": TIMING_RTOL,
        "solve_cpu_min_s": TIMING_RTOL,
        "cpu_min_s": TIMING_RTOL,
        "iter_cpu_min_s": TIMING_RTOL,
    },
    claims=(
        Claim(id="c1_r2_matches_exact", where="Fig. 2a,b",
              text="stochastic score matching recovers phi as well as the exact solution where "
                   "the exact solution can be computed",
              paper_value="",
              check=Equivalent(a="tg_ssm", b="exact_sm", metric="pseudo_r2", margin=0.05,
                               where={"d": _EXACT_D}),
              note="Margin 0.05 in pseudo-R^2 is the research note's proposal (the heatmap "
                   "values were not read). Paired over (d, seed) at d = 8..48, n = 2000.",
              source="derived",
              foils=(NO_COUPLING,),
              foil_note="A fit with no couplings recovers none of the pairwise structure, so "
                        "its pseudo-R^2 must not match the exact solve's."),
        Claim(id="c2_coupling_mse_not_worse", where="Fig. 2a,b",
              text="SSM's error in phi is no worse than the exact solution's",
              paper_value="",
              check=Ratio(numerator="tg_ssm", denominator="exact_sm", metric="coupling_mse",
                          at_most=1.25, where={"d": _EXACT_D}),
              note="Geometric-mean ratio of off-diagonal MSE, SSM / exact, at most 1.25 (our "
                   "choice, fixed before running; one-sided: SSM's group lasso and early "
                   "stopping may make it better than the unregularised exact solve).",
              source="derived",
              foils=(NO_COUPLING,),
              foil_note="Zero couplings have the error of the truth itself (about 0.5 per "
                        "entry); 'no worse than exact' must rule that out."),
        Claim(id="c3_exact_solve_d6", where="method text (section not read; research note)",
              text="the exact score-matching solution costs O(d^6) time",
              paper_value="\"its score matching inference scales as $\\mathcal{O}(d^{6})$\" (abstract)",
              check=Slope(method="exact_sm", metric="solve_cpu_min_s", x="d", hi=6.5,
                          where={"d": _EXACT_SLOPE_D}),
              note="Dense LU of the 2d^2 x 2d^2 system, (16/3) d^6 flops: exponent 6. Issue 14: "
                   "the band is the paper's exponent 6 +- 0.5 (the exponents closer to 6 than "
                   "to 5 or 7), so d^5 fails; until then [5.0, 6.5], lowered for BLAS "
                   "efficiency, which still grows with N = 2d^2 = 1152..4608 and lowers the "
                   "measured exponent (an effect of the sizes a CPU can hold, recorded as "
                   "such if the claim fails). Fastest of 3 solves per cell. " + _CPU_NOTE
                   + _UPPER_NOTE,
              source="paper",
              foils=("tg_ssm",),
              foil_note="SSM has no dense solve (no solve_cpu_min_s), so it can only fail; the "
                        "claim is about the exact estimator alone."),
        Claim(id="c4_exact_total_time", where="method text (section not read; research note)",
              text="the exact score-matching estimator's cost grows like d^6",
              paper_value="\"its score matching inference scales as $\\mathcal{O}(d^{6})$\" (abstract)",
              check=Slope(method="exact_sm", metric="cpu_min_s", x="d", hi=6.5,
                          where={"d": _EXACT_SLOPE_D}),
              note="Whole fit: forming Gamma (~32 n d^3 flops, O(n d^3) with the block "
                   "structure) plus the solve ((16/3) d^6). At n = 2000 and d = 24..48 the flop "
                   "model gives an exponent of about 5.2, below the asymptotic 6; interval "
                   "[4.5, 6.5] fixed before running (kept in issue 14: the flop model, not the "
                   "asymptotic exponent, sets it at these sizes). Fastest formation plus "
                   "fastest solve of 3 passes. " + _CPU_NOTE + _UPPER_NOTE,
              source="paper",
              foils=("tg_ssm",),
              foil_note="SSM's whole fit grows about like d^1.3 at fixed iterations: a d^6 "
                        "claim must not hold for it (its cpu_min_s: set-up plus n_iter times "
                        "its fastest block's per-iteration time). Since issue 29 the check is an "
                        "upper bound, which SSM meets too: this foil is expected to pass, making "
                        "the claim not_discriminating."),
        Claim(id="c5_ssm_iteration_d2", where="method text (section not read; research note)",
              text="each stochastic score-matching iteration costs O(d^2) per sample",
              paper_value="\"We introduce a stochastic score matching procedure that reduces the per-iteration cost to $\\mathcal{O}(d^{2})$\" (abstract)",
              check=Slope(method="tg_ssm", metric="iter_cpu_min_s", x="d", lo=1.5, hi=2.5,
                          where={"d": _SSM_SLOPE_D}),
              note="Batch 512 fixed, so cost O(512 d^2) per iteration: exponent 2. Interval "
                   "[1.5, 2.5] is the research note's; per-iteration costs linear in d (exp, "
                   "gathers) and fixed overheads lower the exponent at small d, so only "
                   "d = 48..128 is used. Per-iteration CPU time of the fastest block of 100 "
                   "iterations (of 2000). " + _CPU_NOTE,
              source="paper",
              foils=("exact_sm", NO_COUPLING),
              foil_note="exact_sm runs no iterations (no iter_cpu_min_s: it can only fail); the "
                        "coupling-free mutant's iteration is O(d), which the exponent-2 reading "
                        "of O(d^2) must reject."),
        Claim(id="c6_ssm_beyond_exact",
              where="Fig. 2a,b (exact entries missing past OOM; research note)",
              text="SSM fits torus graphs at sizes where the exact solve does not fit in memory",
              paper_value="\"is limited to $\\sim \\! 100$ variables because its score "
                          "matching inference scales as $\\mathcal{O}(d^{6})$\" ... \"enabling "
                          "inference on datasets with thousands of variables\" (abstract); exact "
                          "fails near d = 100 on a 24 GB GPU (Fig. 2a,b, per research note; not "
                          "verified)",
              check=Better(method="tg_ssm", baseline=NO_COUPLING, metric="coupling_mse",
                           where={"d": _BIG_D}),
              note="At d = 64, 96 and 128 the exact estimator declines (applies_to): its Gamma "
                   "would take 512 MiB, 2.5 GiB and 8 GiB, over the stated budget "
                   "max_gamma_mb = 256. "
                   "Issue 14: 'fits' now means a coupling fit better than none: SSM's "
                   "off-diagonal MSE must be below that of the same SSM with the couplings held "
                   "at 0 (paired over (d, seed), margin 0, 9 units in the quick grid); until then "
                   "the check was 'returns a "
                   "finite phi', which zero couplings also pass.",
              source="paper",
              foils=("exact_sm",),
              foil_note="exact_sm declines at these d (it can only fail, and gives no values, "
                        "so it refutes nothing). The coupling-free fit is the check's baseline, "
                        "so it cannot also be a foil (issue 26: Y against Y; it improved on "
                        "itself by exactly 0)."),
        Claim(id="c7_tg_hmm", where="abstract",
              text="a TG hidden Markov model captures state-dependent phase-coupling changes",
              paper_value="\"" + _Q_HMM + "\" (abstract)",
              check=NotRun(method="tg_ssm",
                           reason=_NOT_BUILT + "no TG hidden Markov model is implemented; the "
                                  "synthetic check would simulate a two-state HMM whose states have "
                                  "different coupling matrices and test that the fitted TG-HMM "
                                  "recovers the state sequence and each state's couplings better "
                                  "than a single torus graph"),
              source="paper"),
        Claim(id="c8_ar_tg_transfer_entropy", where="abstract",
              text="an autoregressive TG infers directional interactions via transfer entropy",
              paper_value="\"" + _Q_ARTG + "\" (abstract)",
              check=NotRun(method="tg_ssm",
                           reason=_NOT_BUILT + "no autoregressive TG or transfer-entropy estimator "
                                  "is implemented; the synthetic check would simulate coupled phase "
                                  "oscillators with a known direction of coupling and test that the "
                                  "estimated transfer entropy is larger in the true direction"),
              source="paper"),
        Claim(id="c9_lfp_1860_features", where="abstract",
              text="the method supports analyses of 1,860 frequency-phase features from "
                   "multi-electrode LFPs",
              paper_value="\"" + _Q_LFP + "\" (abstract)",
              check=NotRun(method="tg_ssm",
                           reason="the authors' multi-electrode LFP recordings are not available "
                                  "here, and the CPU grids stop at d = 128 variables (full: 256)"),
              source="paper"),
        Claim(id="c10_wake_nrem_patterns", where="abstract",
              text="applied to LFPs, the models reveal state-dependent phase-interaction patterns "
                   "between wakefulness and NREM sleep",
              paper_value="\"Applied to LFP recordings, " + _Q_WAKE + "\" (abstract)",
              check=NotRun(method="tg_ssm",
                           reason="needs the authors' LFP recordings with wake / NREM sleep labels "
                                  "(not available here) and the TG-HMM and autoregressive TG "
                                  "(not implemented; c7, c8)"),
              source="paper"),
    ),
    headlines=(
        Headline(quote=_Q_D6, claims=("c3_exact_solve_d6", "c4_exact_total_time")),
        Headline(quote=_Q_D2, claims=("c5_ssm_iteration_d2",)),
        Headline(quote=_Q_THOUSANDS, claims=("c6_ssm_beyond_exact",)),
        Headline(quote=_Q_LFP, claims=("c9_lfp_1860_features",)),
        Headline(quote=_Q_HMM, claims=("c7_tg_hmm",)),
        Headline(quote=_Q_ARTG, claims=("c8_ar_tg_transfer_entropy",)),
        Headline(quote=_Q_WAKE, claims=("c10_wake_nrem_patterns",)),
    ),
    grids={
        "smoke": Grid(datasets=sweep(TorusGraphSamples, d=[4, 6, 8], n=[300], sweeps=[10]),
                      seeds=2,
                      methods=(cfg(StochasticScoreMatching, label="tg_ssm", n_iter=200),
                               cfg(ExactScoreMatching),
                               cfg(ExactScoreMatching, label="exact_sm_tiny_budget",
                                   max_gamma_mb=0.001),
                               cfg(StochasticScoreMatching, label=NO_COUPLING, n_iter=200,
                                   mutant="no_coupling")),
                      note="tiny sizes; the tiny-budget exact config exercises applies_to; d = 8 "
                           "and two seeds so that c1/c2 and their foil have smoke evidence"),
        "quick": Grid(datasets=(sweep(TorusGraphSamples, d=list(_EXACT_D), n=[2000])
                                + sweep(TorusGraphSamples, d=list(_BIG_D), n=[1000])),
                      seeds=3,
                      methods=_METHODS,
                      note="d = 8..48 (n = 2000): both estimators; d = 64, 96, 128 (n = 1000): "
                           "SSM only (exact over its memory budget). 27 dataset cells. The "
                           "coupling-free mutant is a foil (under a second per cell)."),
        "full": Grid(datasets=(sweep(TorusGraphSamples, d=list(_EXACT_D),
                                     n=[1000, 4000, 16000])
                               + sweep(TorusGraphSamples, d=[64, 128, 256], n=[4000, 16000])),
                     seeds=5,
                     methods=_METHODS,
                     note="closer to the paper's d x n heatmap; hours on one core"),
    },
    cost_note=("tg_ssm fits (2000 Adam iterations of batch 512) take ~80 of ~120-135 CPU-s (two "
               "runs of 2026-12-06, the machine's speed varying by 10-20%), most of it at d = "
               "64, 96, 128, where two complex matrix products per iteration run near the core's "
               "peak; exact_sm ~28-37 s, mostly the dense 2d^2 x 2d^2 solve at d = 40, 48, timed 3 "
               "times; Gibbs-sampled data ~7.4 s a seed. The large-d SSM cells feed "
               "c5_ssm_iteration_d2 (slope over d = 48..128) and c6_ssm_beyond_exact (past the "
               "exact memory budget); the exact timings feed c3_exact_solve_d6 and "
               "c4_exact_total_time (slope over d = 24..48). No cell feeds tables only."),
    description=__doc__.split("\n\n")[1].replace("\n", " "),
    amendments=(
        Amendment(date="2026-12-03", claims=_ALL_CLAIMS,
                  what="source and foils declared; mutant tg_ssm[mutant=no_coupling] (SSM with "
                       "the couplings held at 0) added to every grid, so the quick and full "
                       "grids now list their methods",
                  why="claims layer rebuilt around foils (issue 13); thresholds unchanged",
                  results_seen=True),
        Amendment(date="2026-12-03",
                  claims=("c3_exact_solve_d6", "c4_exact_total_time", "c5_ssm_iteration_d2",
                          "c6_ssm_beyond_exact"),
                  what="c3: metric solve_cpu_s -> solve_cpu_min_s (fastest of 3 solves), band "
                       "[5.0, 6.5] -> [5.5, 6.5]; c4: metric cpu_s -> cpu_min_s (fastest "
                       "formation + fastest solve of 3), band unchanged; c5: metric iter_cpu_s "
                       "-> iter_cpu_min_s (fastest block of 100 iterations), band unchanged; c6: "
                       "Value(tg_ssm, finite_fit, min >= 1) -> Better(tg_ssm over "
                       "tg_ssm[mutant=no_coupling], coupling_mse) at d = 64, 96, 128; the "
                       "quick and full grids time the exact solve 3 times (timing_repeats=3, same phi); the "
                       "quick grid adds d = 96 (n = 1000), used by c5 (d = 48..128) and c6 "
                       "(d = 64..128)",
                  why="issue 14: c3's band admitted d^5 while the paper states O(d^6) (band now "
                      "6 +- 0.5); c3-c5 were single CPU timings whose slopes moved with machine "
                      "load (c5: 1.87 -> 1.52); c6 was met by a method returning zero couplings, "
                      "and the paper's point is that SSM still fits the model where the exact "
                      "solve runs out of memory; d = 96 added after seeing that c6's 6 paired "
                      "units (all positive) cannot reach the Holm level of an exact signed-rank "
                      "test (p >= 1/64)",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c6_ssm_beyond_exact",),
                  what="foil tg_ssm[mutant=no_coupling] removed (foils: exact_sm only)",
                  why="issue 26: the coupling-free mutant is the Better check's baseline, so in "
                      "the subject's place it compared with itself (improvement exactly 0)",
                  results_seen=True, rule="issue 26: Y-vs-Y foil removed"),
        Amendment(date="2026-12-06", claims=("c3_exact_solve_d6", "c4_exact_total_time"),
                  what="c3: Slope band [5.5, 6.5] -> slope < 6.5 (lower end removed); c4: [4.5, 6.5] "
                       "-> slope < 6.5; metrics, scopes and foils unchanged",
                  why="issue 29: the abstract's O(d^6) is an upper bound, not an exact exponent; the "
                      "upper end 6.5 is the band's pre-registered one (closer to 6 than to 7). Chosen "
                      "after results were seen",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c7_tg_hmm", "c8_ar_tg_transfer_entropy", "c9_lfp_1860_features",
                          "c10_wake_nrem_patterns"),
                  what="headlines declared (the ICML abstract's 7 checkable statements, mapped to "
                       "claims); the four with no claim get not_run claims: the TG-HMM (c7), the "
                       "autoregressive TG with transfer entropy (c8), the 1,860-feature LFP analysis "
                       "(c9) and the wake / NREM findings (c10)",
                  why="issue 29: every checkable statement of the abstract is declared and mapped; "
                      "what cannot run here is listed with its reason instead of being absent",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=_ALL_CLAIMS + (
                      "c7_tg_hmm", "c8_ar_tg_transfer_entropy", "c9_lfp_1860_features",
                      "c10_wake_nrem_patterns"),
                  what="methods/torus_graph.py: SSM's iteration does less work for the same "
                       "numbers: [z, conj z] formed once for the data set, the coupling matrix and "
                       "gradient triangles selected rather than summed with zeros, the minibatch "
                       "loss computed only where the trace records it, Adam in place, and the "
                       "no_coupling mutant's Adam on its 2d diagonal terms alone (its couplings' "
                       "moments are exactly 0); tests/test_torus_graph.py checks phi and the loss "
                       "trace bit for bit against the plain loop; grids, seeds, iterations, sizes, "
                       "checks and foils unchanged",
                  why="issue 27 item 5: CPU of the 72 ok quick cells 2.23 -> 1.84 CPU-minutes (2.39 "
                      "with the 9 not_applicable cells, whose dataset a second worker had drawn "
                      "again; claimbench verify re-ran all 72: every non-timing metric bit for "
                      "bit, no verdict or "
                      "foil verdict moved; 94 timing values (declared nondeterministic) beyond "
                      "their tolerance, the slopes of c3, c4, c5 moved 5.76 -> 5.51, 4.71 -> 4.30, "
                      "1.72 -> 1.82, inside their bands); SSM's iteration 15-35% and the mutant's "
                      "about 50% less CPU in paired in-process timings",
                  results_seen=True,
                  rule="issue 27: faster code, same experiment; every non-timing metric of the "
                       "committed quick cells unchanged (claimbench verify)"),
        Amendment(date="2026-12-06", claims=('c10_wake_nrem_patterns', 'c1_r2_matches_exact', 'c2_coupling_mse_not_worse', 'c3_exact_solve_d6', 'c4_exact_total_time', 'c5_ssm_iteration_d2', 'c6_ssm_beyond_exact', 'c7_tg_hmm', 'c8_ar_tg_transfer_entropy', 'c9_lfp_1860_features'),
                  what='methods/torus_graph.py runs the untraced SSM iterations through preallocated buffers (the same ufuncs on the same operands in the same order) and draws minibatch indices one timing block at a time (the same random stream, tested); baselines/exact_score_matching.py fills Gamma block by block and solves with G.T (Gamma is exactly symmetric); grids, seeds, checks and foils unchanged',
                  why='issue 27 item 5 (quick-suite CPU): methods about 0.90x the CPU on paired cells; 288 values of the 81 quick cells compared with a fresh run: 0 differences',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
        Amendment(date="2026-12-06", claims=('c10_wake_nrem_patterns', 'c1_r2_matches_exact', 'c2_coupling_mse_not_worse', 'c3_exact_solve_d6', 'c4_exact_total_time', 'c5_ssm_iteration_d2', 'c6_ssm_beyond_exact', 'c7_tg_hmm', 'c8_ar_tg_transfer_entropy', 'c9_lfp_1860_features'),
                  what='the buffered PairStep of the SSM iterations is removed again (the untraced iterations go back to pair_grad and adam_step, the code the traced ones run); minibatch indices are still drawn a timing block at a time and Gamma is still filled block by block; grids, seeds, checks and foils unchanged',
                  why='review of issue 27 round 3: PairStep rewrote pair_grad and adam_step (~90 lines kept in step by a bit-for-bit test) for about 10 CPU-s of the quick suite; the quick grid re-run: 288 values, 0 differences',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
    ),
)
