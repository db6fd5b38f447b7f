"""Linear Bandits beyond Inner Product Spaces: Bandit Optimal Transport (arXiv 2502.07397).

Known discrete marginals, unknown cost observed through noise: each round the learner plays a
coupling and pays its (noisy) transport cost. An OFUL refinement (ridge regression on the
couplings' densities in L2(mu x nu), confidence ellipsoid, optimism penalised by entropy with a
weight shrinking like 1/sqrt(t)) is run against greedy plug-in, explore-then-commit and uniform
random couplings. The paper is theory-only: its regret rates (sqrt(T) up to logs in finite
dimension, between sqrt(T) and T depending on the cost's regularity otherwise) are tested
numerically by fitting log regret against log T across horizons.
"""
from __future__ import annotations

import numpy as np

from claimbench.api import TIMING_RTOL
from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Metric, Paper,
                            TraceMetric, cfg, output_metric, sweep)
from claimbench.baselines.explore_then_commit import ExploreThenCommitOT
from claimbench.baselines.greedy_plugin_ot import GreedyPluginOT
from claimbench.baselines.random_coupling import RandomCoupling
from claimbench.checks import Better, Slope, SlopeDiff, Value
from claimbench.datasets.bandit_transport import BanditTransport, regret_curve
from claimbench.methods.bandit_ot import OptimisticEntropicOT

# oful_ot with the truncation growing with the horizon (methods/bandit_ot.py, Deviation 4); read
# by c4 only; runs on the 16-atom cells (at n = 4 it is the full basis, the default config's).
HORIZON = "oful_ot[basis=horizon]"
_METHODS = (cfg(OptimisticEntropicOT), cfg(OptimisticEntropicOT, label=HORIZON, basis="horizon"),
            cfg(GreedyPluginOT), cfg(ExploreThenCommitOT), cfg(RandomCoupling))

REGRET_FLOOR = 1e-9  # keeps log regret finite when every play was exactly optimal


def _regret_T(inst, out):
    _, R = regret_curve(inst.truth, out)
    return float(max(R[-1], REGRET_FLOOR))


def _regret_slope(inst, out):
    # Local exponent of the regret trace over the last decade of rounds.
    t, R = regret_curve(inst.truth, out)
    keep = (t >= max(10.0, t[-1] / 10)) & (R > REGRET_FLOOR)
    if keep.sum() < 3:
        return None
    return float(np.polyfit(np.log(t[keep]), np.log(R[keep]), 1)[0])


def _final_gap(inst, out):
    # Mean per-round regret over the last 10% of rounds (0 once the learner plays OT).
    t, R = regret_curve(inst.truth, out)
    i = int(np.searchsorted(t, 0.9 * t[-1]))
    if t[-1] <= t[i]:
        return None
    return float((R[-1] - R[i]) / (t[-1] - t[i]))


def _bound_ratio(inst, out):
    # max_t R(t) / B(t) over the checkpoints, B the OFUL trajectory bound (7) of
    # methods/bandit_ot.py built from the run's own blocks (length, beta, ||a||_{V^-1}, eps).
    blocks = out.get("bound_blocks")
    if not blocks:
        return None
    b = np.asarray(blocks, dtype=float)  # (B, 4)
    n_min = min(len(inst.data.mu), len(inst.data.nu))
    per_round = np.minimum(inst.data.cost_bound, 2 * b[:, 1] * b[:, 2] + b[:, 3] * np.log(n_min))
    starts = np.cumsum(b[:, 0]) - b[:, 0]  # rounds played before each block
    t, R = regret_curve(inst.truth, out)
    rounds_in = np.clip(t[:, None] - starts[None, :], 0, b[None, :, 0])  # (K, B)
    return float(np.max(R / (rounds_in @ per_round)))


METRICS = (
    Metric("regret_T", _regret_T, False,
           f"cumulative regret at the horizon, sum_t <c*, pi_t> - T OT(c*) (floored at "
           f"{REGRET_FLOOR:g} for the log)"),
    Metric("regret_slope", _regret_slope, False,
           "least-squares slope of log R(t) vs log t over checkpoints t in [T/10, T]"),
    Metric("final_gap", _final_gap, False,
           "mean per-round regret over the last 10% of rounds"),
    Metric("traj_bound_ratio", _bound_ratio, False,
           "max over checkpoints t of R(t) / B(t), B(t) = sum_{s<=t} min(1, 2 beta_s "
           "||pi_s||_{V_s^-1} + eps_s log min(n, m)): OFUL's trajectory bound from the run's own "
           "radii, widths and entropic weights (methods/bandit_ot.py, (7))"),
    output_metric("time_s", description="wall time of the whole interaction loop"),
)

def _regret_trace(inst, out):
    t, R = regret_curve(inst.truth, out)
    return {"x": list(map(float, t)), "y": [max(float(r), REGRET_FLOOR) for r in R]}


TRACES = (TraceMetric("regret_vs_rounds", _regret_trace, "round t", "cumulative regret"),)

_T = [500, 1000, 2000, 4000, 8000]
_LAST = tuple(t for t in _T if t >= _T[-1] / 10)  # the last decade of horizons: T in [800, 8000]
_SQRT_NOTE = ("Issue 14: the rate is fitted over the last decade of horizons (T in [800, 8000]) with the "
              "research note's band [0.4, 0.65] ('slope(OFUL-entropic) in [0.4, 0.65] over the last "
              "decade of T'), strict; the band excludes 2/3, explore-then-commit's rate. sqrt(T) up to "
              "logs: OFUL's sqrt(dT) log T bound has a local log-log slope above 1/2 at these T, so the "
              "band's width is the note's, not a derivation of ours. The paper states rates only "
              "(theory, no experiments): this is our numerical test of them. Instances differ across T "
              "(seeds derive from T). The window is fixed to these horizons in every grid (the full "
              "grid's longer horizons are reported, not fitted). The band [0.4, 0.65] and the window "
              "replaced [0.3, 0.75] over [500, 8000] after the committed results had been seen "
              "(amendment 2026-12-03): they are post hoc, not the pre-registered test.")

# The paper's abstract (arXiv v2), quoted by the claims below.
_ABS_FINITE = ("\"recovers the parametric rate $\\tilde{\\mathcal O}(\\sqrt{dT})$ in "
               "finite-dimensional settings\" (abstract)")
_ABS_INTERP = ("\"Its regret interpolates between $\\tilde{\\mathcal O}(\\sqrt{T})$ and "
               "${\\mathcal O}(T)$, depending on the regularity of the cost function\" "
               "(abstract)")
_ABS_TRAJ = ("Up to this approximation term, the resulting algorithm achieves the same "
             "trajectorial regret upper bounds as the OFUL algorithm")
_ETC_FOIL = ("Explore-then-commit has regret of order T^{2/3}, the rate O~(sqrt(T)) improves on; "
             "uniform random couplings never learn (linear regret). Greedy plug-in is not ruled out "
             "by the wording (it can be fast on benign instances).")

BENCHMARK = Benchmark(
    slug="bandit_ot",
    paper=Paper(
        title="Linear Bandits beyond Inner Product Spaces, the case of Bandit Optimal Transport",
        arxiv="2502.07397",
        url="https://arxiv.org/abs/2502.07397",
        version="arXiv v2 abstract + third-party summaries (body not read)",
        authors="Lorenzo Croissant",
    ),
    area="games",
    fidelity="proxy",
    fidelity_note=("Proxy (issue 29; scaled_down until then): the paper has no experiments, so "
                   "there is no experiment of its to scale down; we test its regret rates on discrete "
                   "marginals (4 atoms: finite dimension d = 16; 16 atoms with a truncated "
                   "4 x 4 cosine basis, and for c4 one growing with the horizon, K(T) = "
                   "ceil(T^(1/4)) per axis: a stand-in for the infinite-dimensional case) over "
                   "T <= 8000 (quick). The algorithm follows the abstract (OFUL on the "
                   "couplings' densities in L2(mu x nu), optimism penalised by entropy, "
                   "entropic-to-Kantorovich approximation with eps_t -> 0); the entropic "
                   "form, eps_t = 0.1/sqrt(t), the multi-start CCCP solve of the optimistic "
                   "step, rarely-switching updates and the cosine basis are reconstructions "
                   "(Deviations in methods/bandit_ot.py)."),
    methods=(OptimisticEntropicOT,),
    baselines=(GreedyPluginOT, ExploreThenCommitOT, RandomCoupling),
    datasets=(BanditTransport,),
    metrics=METRICS,
    traces=TRACES,
    primary_metric="regret_T",
    cost_note=("87 CPU-s: 55 s is oful_ot[basis=horizon] on the 16-atom cells, mostly T = 4000 and "
               "8000 (a T = 8000 cell runs ~31k Newton iterations of 16 x 16 and 8k exact OT "
               "calls); oful_ot on all 20 datasets takes 22 s. c4_rough_cost_worse reads the "
               "horizon config as a log-log slope difference over T in [800, 8000], the window "
               "c1-c3 fit on oful_ot and fixed in every grid, so the long horizons cannot be cut "
               "without changing it. Its T = 500 cells (~3 s) lie outside c4's window."),
    nondeterministic={"time_s": TIMING_RTOL},
    claims=(
        Claim(id="c1_sqrtT_finite_smooth", where="abstract",
              text="recovers the parametric rate O~(sqrt(dT)) in finite-dimensional settings",
              paper_value=_ABS_FINITE,
              check=Slope(method="oful_ot", metric="regret_T", x="T", lo=0.4, hi=0.65,
                          where={"n": 4, "cost": "smooth", "T": _LAST}),
              note="4 x 4 support, full basis (d = 16), smooth cost. " + _SQRT_NOTE,
              source="paper", foils=("etc_ot", "random_coupling"), foil_note=_ETC_FOIL),
        Claim(id="c2_sqrtT_finite_rough", where="abstract",
              text="recovers the parametric rate O~(sqrt(dT)) in finite-dimensional settings "
                   "(whatever the cost: regularity only matters in infinite dimension)",
              paper_value=_ABS_FINITE,
              check=Slope(method="oful_ot", metric="regret_T", x="T", lo=0.4, hi=0.65,
                          where={"n": 4, "cost": "rough", "T": _LAST}),
              note="As c1 with an i.i.d. Uniform[0,1] cost matrix. " + _SQRT_NOTE,
              source="paper", foils=("etc_ot", "random_coupling"), foil_note=_ETC_FOIL),
        Claim(id="c3_sqrtT_regular_cost", where="abstract",
              text="its regret interpolates between O~(sqrt(T)) and O(T) depending on the "
                   "regularity of the cost: O~(sqrt(T)) for a regular cost",
              paper_value=_ABS_INTERP,
              check=Slope(method="oful_ot", metric="regret_T", x="T", lo=0.4, hi=0.65,
                          where={"n": 16, "cost": "smooth", "T": _LAST}),
              note="16 x 16 support (256-dim couplings) learned in a truncated 4 x 4 cosine "
                   "basis (D = 16): an analytic cost is nearly in the span. " + _SQRT_NOTE,
              source="paper", foils=("etc_ot", "random_coupling"), foil_note=_ETC_FOIL),
        Claim(id="c4_rough_cost_worse", where="abstract",
              text="its regret interpolates between O~(sqrt(T)) and O(T) depending on the "
                   "regularity of the cost: a rough cost has a worse rate than a smooth one",
              paper_value=_ABS_INTERP,
              check=SlopeDiff(method=HORIZON, metric="regret_T", x="T", lo=0.0,
                              where={"n": 16, "cost": "rough", "T": _LAST},
                              other_where={"n": 16, "cost": "smooth", "T": _LAST}),
              note="Issue 14: 'rough is worse than smooth' as a difference of rates: the log-log slope "
                   "of regret in T with the rough cost minus that with the smooth cost, same learner and "
                   "16 x 16 support, last decade of T, > 0 (strict; Welch t). The paper gives no exponent for a "
                   "given regularity; the direction is its statement. Issue 29: read on oful_ot with a cosine "
                   "basis that grows with the horizon as in series regression (config " + HORIZON + "), "
                   "K(T) = ceil(T^(1/(2s+2))) per axis with s = 1 (D = 36, 49, 64, 100 at T = 1000 ... "
                   "8000), the same rule for both costs (the learner does not know the cost's regularity); "
                   "until then the fixed 4 x 4 basis, misspecified for the rough cost whatever T. Caveat "
                   "(methods/bandit_ot.py, Deviation 4): that rule is regression-optimal, not "
                   "bandit-optimal, and pushes both costs toward linear regret at these T.",
              source="paper", foils=("random_coupling",),
              foil_note="Uniform random couplings have linear regret whatever the cost: a rate that does "
                        "not depend on the cost's regularity (difference ~0), which the sentence rules "
                        "out. etc_ot's rate does depend on it, so it is not a foil here."),
        Claim(id="c5_learns_vs_random", where="abstract",
              text="an inner product structure is not necessary to achieve efficient learning",
              paper_value="\"this article shows that an inner product structure is "
                          "\\emph{not} necessary to achieve efficient learning in linear "
                          "bandits\" (abstract)",
              check=Better(method="oful_ot", baseline="random_coupling", metric="regret_T",
                           where={"n": 4}),
              note="Paired over the 4 x 4 cells (both costs, every T); uniform random "
                   "couplings (hit-and-run) have linear regret. Beating them is a sanity check "
                   "of learning, weaker than 'efficient': the paper gives no number here.",
              source="paper", foils=("etc_ot",),
              foil_note="'Efficient learning' means the parametric O~(sqrt(dT)) rate, which "
                        "explore-then-commit (T^{2/3}) does not achieve; random_coupling in the "
                        "subject's place would only be compared with itself."),
        Claim(id="c6_beats_etc", where="research note (plan)",
              text="the optimistic learner has lower regret than explore-then-commit in finite "
                   "dimension",
              check=Better(method="oful_ot", baseline="etc_ot", metric="regret_T",
                           where={"n": 4, "T": _LAST}),
              note="Issue 14: the research note's planned comparison 'R_T(OFUL) < R_T(ETC)', paired "
                   "over the 4 x 4 cells (both costs) of the last decade of T. The abstract states "
                   "rates, not this comparison: derived.",
              source="derived", foils=("random_coupling",),
              foil_note="Uniform random couplings never learn: they must not beat explore-then-commit."),
        Claim(id="c7_trajectorial_bound", where="abstract",
              text="up to the entropic approximation term, the algorithm achieves the same "
                   "trajectorial regret upper bounds as OFUL",
              paper_value="\"" + _ABS_TRAJ + "\" (abstract)",
              check=Value(method="oful_ot", metric="traj_bound_ratio", hi=1.0, stat="max",
                          where={"n": 4}),
              note="Issue 29: each run's cumulative regret R(t) stays below OFUL's trajectory "
                   "bound built from that run's own quantities, B(t) = sum_{s<=t} min(1, 2 beta_s "
                   "||pi_s||_{V_s^-1} + eps_s log min(n, m)) (eps_s log min(n, m) bounds the "
                   "entropic approximation term eps KL(pi* | mu x nu); derivation (7) in "
                   "methods/bandit_ot.py, ours: the paper's constants were not read). Threshold "
                   "1 = the bound itself: max over the checkpoints (40 log-spaced rounds) of "
                   "R(t)/B(t) <= 1 in every run (one violation refutes). Only n = 4 (full basis, "
                   "c* in the span, so the confidence set holds with probability >= 1 - delta = "
                   "0.95 per run); at n = 16 the truncation is misspecified and OFUL's bound does "
                   "not apply.",
              source="paper", foils=("greedy_ot",),
              foil_note="Greedy plug-in runs the same least squares and reports the same radius "
                        "and widths, but without optimism OFUL's argument (the optimistic choice "
                        "turns the width into a bound on the round's regret) does not cover it: "
                        "it can lock onto a suboptimal plan with linear regret, which the bound's "
                        "O~(sqrt(T)) growth rules out. random_coupling and etc_ot report no "
                        "radius, so they cannot produce the statistic."),
    ),
    headlines=(
        Headline(quote="this article shows that an inner product structure is \\emph{not} "
                       "necessary to achieve efficient learning in linear bandits",
                 claims=("c5_learns_vs_random",)),
        Headline(quote=_ABS_TRAJ, claims=("c7_trajectorial_bound",)),
        Headline(quote="Its regret interpolates between $\\tilde{\\mathcal O}(\\sqrt{T})$ and "
                       "${\\mathcal O}(T)$, depending on the regularity of the cost function",
                 claims=("c3_sqrtT_regular_cost", "c4_rough_cost_worse")),
        Headline(quote="recovers the parametric rate $\\tilde{\\mathcal O}(\\sqrt{dT})$ in "
                       "finite-dimensional settings",
                 claims=("c1_sqrtT_finite_smooth", "c2_sqrtT_finite_rough")),
    ),
    grids={
        "smoke": Grid(datasets=sweep(BanditTransport, n=[4], cost=["smooth", "rough"],
                                     T=[1000, 2000]), seeds=1, methods=_METHODS,
                      note="n = 4 and horizons in the last decade of the quick grid, so that "
                           "the claims scoped there and their foils have smoke evidence"),
        "quick": Grid(datasets=(sweep(BanditTransport, n=[4], cost=["smooth", "rough"], T=_T)
                                + sweep(BanditTransport, n=[16], cost=["smooth", "rough"],
                                        T=_T)),
                      seeds=5, methods=_METHODS,
                      note="T from 500 to 8000 (1.2 decades) for the log-log fits"),
        "full": Grid(datasets=sweep(BanditTransport, n=[4, 8, 16], cost=["smooth", "rough"],
                                    T=_T + [16000, 32000]),
                     seeds=10, methods=_METHODS,
                     note="research note's scale: n in {4, 8, 16}, 10 seeds; T up to 32000"),
    },
    description=__doc__.split("\n\n")[1].replace("\n", " "),
    amendments=(
        Amendment(date="2026-12-03",
                  claims=("c1_sqrtT_finite_smooth", "c2_sqrtT_finite_rough",
                          "c3_sqrtT_regular_cost", "c4_rough_cost_worse", "c5_learns_vs_random"),
                  what="source and foils declared (etc_ot, random_coupling; no mutant); "
                       "paper_value now quotes the abstract (rate shorthands and 'sublinear "
                       "regret' replaced)",
                  why="claims layer rebuilt around foils (issue 13); thresholds unchanged",
                  results_seen=True),
        Amendment(date="2026-12-03",
                  claims=("c1_sqrtT_finite_smooth", "c2_sqrtT_finite_rough",
                          "c3_sqrtT_regular_cost", "c4_rough_cost_worse", "c6_beats_etc"),
                  what="c1-c3: slope band [0.3, 0.75] over T in [500, 8000] -> [0.4, 0.65] over the "
                       "last decade T in [800, 8000]; c4: Slope in [0.75, 1.05] at (n = 16, rough) -> "
                       "SlopeDiff(rough - smooth) > 0 at n = 16 over the last decade (foil "
                       "random_coupling); c6 added (derived): Better(oful_ot, etc_ot, regret_T) at "
                       "n = 4 over the last decade (foil random_coupling)",
                  why="issue 14: the band [0.3, 0.75] contained explore-then-commit's 2/3, so the "
                      "'O~(sqrt(dT))' claims could not tell the two apart; the research note's band and "
                      "window ('slope in [0.4, 0.65] over the last decade of T') exclude it; the note's "
                      "planned comparison with ETC ('R_T(OFUL) < R_T(ETC)') was missing; 'interpolates "
                      "... depending on the regularity of the cost function' is a difference of rates, "
                      "not a band random couplings also meet. Results had been seen (committed quick "
                      "run: etc_ot's slopes 0.58-0.63 at n = 4 and 16 smooth; OFUL's regret at T = 8000 "
                      "on n = 4 about equal to ETC's)",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c7_trajectorial_bound",),
                  what="headlines declared (the ICML abstract's 4 checkable statements: "
                       "efficient learning without an inner product -> c5; OFUL's trajectorial "
                       "bounds -> c7; the interpolation with regularity -> c3, c4; the parametric "
                       "rate in finite dimension -> c1, c2); c7 added as not_run (the OFUL "
                       "trajectory bound had no claim); fidelity scaled_down -> proxy",
                  why="issue 29: every checkable statement of the abstract mapped to a claim, "
                      "one that cannot run here declared with its reason; a paper with no "
                      "experiments has nothing to scale down",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c1_sqrtT_finite_smooth", "c2_sqrtT_finite_rough",
                          "c3_sqrtT_regular_cost", "c4_rough_cost_worse", "c5_learns_vs_random",
                          "c6_beats_etc", "c7_trajectorial_bound"),
                  what="design: a config oful_ot[basis=horizon] (grids' methods now declared: "
                       "the default four plus it) whose cosine truncation grows with the horizon, "
                       "K(T) = ceil(T^(1/(2s+2))) per axis with s = 1, capped at the support "
                       "(method parameter basis='horizon'; the default basis='fixed' keeps K = 4 "
                       "for oful_ot, greedy_ot and etc_ot): at n = 16 D = 25, 36, 49, 64, 100 for "
                       "T = 500 ... 8000 instead of 16; it runs on the 16-atom cells only. c4 "
                       "reads it; c1-c3, c5-c7 read the default configs (named because the "
                       "sources they run changed: oful_ot and greedy_ot also report bound_blocks "
                       "for c7). c4 note says so; c1-c3 notes now say the band [0.4, 0.65] was "
                       "tightened after results were seen. Review (lead, same day): the helper "
                       "first applied the rule to every config; on its private run that made "
                       "c3 not_reproduced (slope 0.988) because the regression-optimal rule "
                       "makes OFUL's D sqrt(T) grow like T (our rule, not the paper's), so the "
                       "growing basis is kept for c4 only, as the issue asks, and c3 stays on "
                       "the fixed basis it was declared on",
                  why="issue 29: c4 ('rough cost gives worse regret') was read through a "
                      "fixed 4 x 4 truncation that the method itself calls misspecified for rough "
                      "costs; the abstract turns the OFUL bound into worst-case regret 'using "
                      "functional regression techniques', where the truncation grows with the "
                      "sample size (series regression: D ~ T^(d/(2s+d)), d = 2; s = 1 assumed "
                      "for both costs since the learner does not know the cost's regularity); "
                      "the band's post hoc status was only in the amendments",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c7_trajectorial_bound",),
                  what="c7 not_run -> Value(oful_ot, traj_bound_ratio, max <= 1) at n = 4, foil "
                       "greedy_ot; oful_ot and greedy_ot report their per-block radius, width and "
                       "entropic weight (bound_blocks); metric traj_bound_ratio added",
                  why="issue 29: the OFUL trajectory bound had no check; the bound is computed "
                      "from each run's own quantities. Declared before any run reported the "
                      "metric; the n = 4 regret trajectories it compares had been seen",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=('c1_sqrtT_finite_smooth', 'c2_sqrtT_finite_rough', 'c3_sqrtT_regular_cost', 'c4_rough_cost_worse', 'c5_learns_vs_random', 'c6_beats_etc', 'c7_trajectorial_bound'),
                  what="methods/bandit_ot.py calls POT's network simplex (emd_c) directly with ot.emd's post-processing, falling back to ot.emd outside float64 marginals without zero atoms or when POT's private wrapper is missing or takes other arguments (a new test checks it bit for bit against ot.emd), and builds the Newton matrix in place with the same sums in the same order; grids, seeds, horizons, checks and foils unchanged",
                  why='issue 27 item 5 (quick-suite CPU): 1600 values of the 500 quick cells compared with a fresh run: 0 differences; 0.84x the CPU on paired cells',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
    ),
)
