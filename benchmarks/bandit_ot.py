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

from claimbench.api import (Amendment, Benchmark, Claim, Grid, Metric, Paper, TraceMetric,
                            output_metric, sweep)
from claimbench.baselines.explore_then_commit import ExploreThenCommitOT
from claimbench.baselines.greedy_plugin_ot import GreedyPluginOT
from claimbench.baselines.random_coupling import RandomCoupling
from claimbench.checks import Better, Slope
from claimbench.datasets.bandit_transport import BanditTransport, regret_curve
from claimbench.methods.bandit_ot import OptimisticEntropicOT

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


METRICS = (
    Metric("regret_T", _regret_T, False,
           f"cumulative regret at the horizon, sum_t <c*, pi_t> - T OT(c*) (floored at "
           f"{REGRET_FLOOR:g} for the log)"),
    Metric("regret_slope", _regret_slope, False,
           "least-squares slope of log R(t) vs log t over checkpoints t in [T/10, T]"),
    Metric("final_gap", _final_gap, False,
           "mean per-round regret over the last 10% of rounds"),
    output_metric("time_s", description="wall time of the whole interaction loop"),
)

def _regret_trace(inst, out):
    t, R = regret_curve(inst.truth, out)
    return {"x": list(map(float, t)), "y": [max(float(r), REGRET_FLOOR) for r in R]}


TRACES = (TraceMetric("regret_vs_rounds", _regret_trace, "round t", "cumulative regret"),)

_T = [500, 1000, 2000, 4000, 8000]
_SQRT_NOTE = ("Slope interval fixed before running: sqrt(T) up to logs. OFUL's bound is "
              "sqrt(dT) log T times beta_t ~ sqrt(log T), whose local log-log slope "
              "0.5 + 1.5/log T is 0.67-0.74 over T in [500, 8000]; 0.75 leaves room for that, "
              "0.3 for instances where regret saturates (a unique optimal vertex gives "
              "O(log T)). The paper states rates only (theory, no experiments): this is our "
              "numerical test of them. Instances differ across T (seeds derive from T).")

# The paper's abstract (arXiv v2), quoted by the claims below.
_ABS_FINITE = "recovers the parametric rate O~(sqrt(dT)) in finite-dimensional settings"
_ABS_INTERP = ("Its regret interpolates between O~(sqrt(T)) and O(T), depending on the regularity of "
               "the cost function")
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
    fidelity="scaled_down",
    fidelity_note=("The paper has no experiments; we test its regret rates on discrete "
                   "marginals (4 atoms: finite dimension d = 16; 16 atoms with a truncated "
                   "4 x 4 cosine basis: a stand-in for the infinite-dimensional case) over "
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
    claims=(
        Claim(id="c1_sqrtT_finite_smooth", where="abstract",
              text="recovers the parametric rate O~(sqrt(dT)) in finite-dimensional settings",
              paper_value=_ABS_FINITE,
              check=Slope(method="oful_ot", metric="regret_T", x="T", lo=0.3, hi=0.75,
                          where={"n": 4, "cost": "smooth"}),
              note="4 x 4 support, full basis (d = 16), smooth cost. " + _SQRT_NOTE,
              source="paper", foils=("etc_ot", "random_coupling"), foil_note=_ETC_FOIL),
        Claim(id="c2_sqrtT_finite_rough", where="abstract",
              text="recovers the parametric rate O~(sqrt(dT)) in finite-dimensional settings "
                   "(whatever the cost: regularity only matters in infinite dimension)",
              paper_value=_ABS_FINITE,
              check=Slope(method="oful_ot", metric="regret_T", x="T", lo=0.3, hi=0.75,
                          where={"n": 4, "cost": "rough"}),
              note="As c1 with an i.i.d. Uniform[0,1] cost matrix. " + _SQRT_NOTE,
              source="paper", foils=("etc_ot", "random_coupling"), foil_note=_ETC_FOIL),
        Claim(id="c3_sqrtT_regular_cost", where="abstract",
              text="its regret interpolates between O~(sqrt(T)) and O(T) depending on the "
                   "regularity of the cost: O~(sqrt(T)) for a regular cost",
              paper_value=_ABS_INTERP,
              check=Slope(method="oful_ot", metric="regret_T", x="T", lo=0.3, hi=0.75,
                          where={"n": 16, "cost": "smooth"}),
              note="16 x 16 support (256-dim couplings) learned in a truncated 4 x 4 cosine "
                   "basis (D = 16): an analytic cost is nearly in the span. " + _SQRT_NOTE,
              source="paper", foils=("etc_ot", "random_coupling"), foil_note=_ETC_FOIL),
        Claim(id="c4_rough_cost_worse", where="abstract",
              text="its regret interpolates between O~(sqrt(T)) and O(T) depending on the "
                   "regularity of the cost: worse, up to O(T), for an irregular cost",
              paper_value=_ABS_INTERP,
              check=Slope(method="oful_ot", metric="regret_T", x="T", lo=0.75, hi=1.05,
                          where={"n": 16, "cost": "rough"}),
              note="Same learner and support as c3, i.i.d. cost entries (flat spectrum: most "
                   "of it outside the basis). Interval from the sqrt(T)-up-to-logs band of "
                   "c1-c3, not from our runs: above it (> 0.75) and at most linear (1, plus "
                   "0.05 for fit noise). The paper gives no exponent for a given regularity; "
                   "this is our numerical test of the direction of its rate.",
              source="paper", foils=("random_coupling",),
              foil_note="Uniform random couplings have linear regret whatever the cost: a regret "
                        "that does not depend on the cost's regularity, which the sentence rules "
                        "out. etc_ot's rate does depend on it, so it is not a foil here."),
        Claim(id="c5_learns_vs_random", where="abstract",
              text="an inner product structure is not necessary to achieve efficient learning",
              paper_value="we show that an inner product structure is not necessary to achieve "
                          "efficient learning in linear bandits",
              check=Better(method="oful_ot", baseline="random_coupling", metric="regret_T",
                           where={"n": 4}),
              note="Paired over the 4 x 4 cells (both costs, every T); uniform random "
                   "couplings (hit-and-run) have linear regret. Beating them is a sanity check "
                   "of learning, weaker than 'efficient': the paper gives no number here.",
              source="paper", foils=("etc_ot",),
              foil_note="'Efficient learning' means the parametric O~(sqrt(dT)) rate, which "
                        "explore-then-commit (T^{2/3}) does not achieve; random_coupling in the "
                        "subject's place would only be compared with itself."),
    ),
    grids={
        "smoke": Grid(datasets=sweep(BanditTransport, n=[4], cost=["smooth", "rough"],
                                     T=[60, 120, 240]), seeds=1,
                      note="n = 4 so that the claims scoped to n = 4 and their foils have "
                           "smoke evidence"),
        "quick": Grid(datasets=(sweep(BanditTransport, n=[4], cost=["smooth", "rough"], T=_T)
                                + sweep(BanditTransport, n=[16], cost=["smooth", "rough"],
                                        T=_T)),
                      seeds=5,
                      note="T from 500 to 8000 (1.2 decades) for the log-log fits"),
        "full": Grid(datasets=sweep(BanditTransport, n=[4, 8, 16], cost=["smooth", "rough"],
                                    T=_T + [16000, 32000]),
                     seeds=10,
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
    ),
)
