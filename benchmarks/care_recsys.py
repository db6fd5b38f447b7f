"""CARE: adaptive calibration of recommendation sets under drift (ICML 2026 poster 62132).

Ten frozen backbone recommenders of graded quality score 51-item candidate lists of a
synthetic interaction stream (500 users per step, 50 steps) whose user preferences are stable
(10 steps), rotate gradually (20 steps), then jump abruptly (20 steps). Each method outputs a
recommendation set per interaction, step by step, and sees the true items of a step only after
committing its sets. We compare CARE (per-backbone thresholds recalibrated on loss-localized
segments, aggregated by a size-weighted vote), its best single constituent with CARE's
threshold, a split-conformal (or Hoeffding) threshold fixed once, global online threshold
updates (per-step, ACI-style; and cumulative, i.e. CARE without localization) and a fixed
top-10 list (plus CARE with a larger segment temperature, as a sensitivity variant), on
miss rate per phase, per-step violations of the target and set size, at
target miss rates alpha in {0.05, 0.1, 0.15}.
"""
from __future__ import annotations

import numpy as np

from claimbench.api import TIMING_RTOL
from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Metric, Paper,
                            TraceMetric, cfg, output_metric, sweep)
from claimbench.baselines.fixed_topk import FixedTopK
from claimbench.baselines.online_threshold_update import OnlineThresholdUpdate
from claimbench.baselines.static_calibration import StaticCalibration, true_in_set
from claimbench.checks import Better, NotRun, Ratio, Value
from claimbench.datasets.drifting_interactions import PHASES, DriftingInteractions
from claimbench.methods.care_recsys import CARE

_ALPHAS = [0.05, 0.1, 0.15]  # quick grid targets (within the repo's list 0.05 ... 0.15)
TOL = 0.02  # research note's proposed slack over alpha (no tolerance of the paper was seen)


def _step_miss(inst, out) -> np.ndarray:
    return 1.0 - true_in_set(np.asarray(out["sets"]), inst.truth["true_pos"]).mean(axis=1)  # (T,)


def _phase_risk(p: int):
    def fn(inst, out) -> float:
        return float(_step_miss(inst, out)[inst.truth["phase"] == p].mean())
    return fn


def max_phase_risk(inst, out) -> float:
    miss, ph = _step_miss(inst, out), inst.truth["phase"]
    return float(max(miss[ph == p].mean() for p in np.unique(ph)))


def max_phase_excess(inst, out) -> float:
    return max_phase_risk(inst, out) - inst.truth["alpha"]


def max_phase_dev(inst, out) -> float:
    """Largest |phase miss rate - alpha|: above alpha the guarantee is lost, below it the sets
    are larger than the target needs (a threshold set misses less only by holding more items)."""
    miss, ph = _step_miss(inst, out), inst.truth["phase"]
    return float(max(abs(miss[ph == p].mean() - inst.truth["alpha"]) for p in np.unique(ph)))


def post_excess(inst, out) -> float:
    return _phase_risk(2)(inst, out) - inst.truth["alpha"]


def violation_rate(inst, out) -> float:
    return float((_step_miss(inst, out) > inst.truth["alpha"] + TOL).mean())


def avg_set_size(inst, out) -> float:
    return float(np.asarray(out["sets"]).sum(axis=-1).mean())


def post_set_size(inst, out) -> float:
    sizes = np.asarray(out["sets"]).sum(axis=-1).mean(axis=1)  # (T,)
    return float(sizes[inst.truth["phase"] == 2].mean())


def risk_trace(inst, out) -> dict:
    miss = _step_miss(inst, out)
    return {"x": list(range(miss.size)), "y": miss.tolist()}


def size_trace(inst, out) -> dict:
    sizes = np.asarray(out["sets"]).sum(axis=-1).mean(axis=1)
    return {"x": list(range(sizes.size)), "y": sizes.tolist()}


METRICS = (
    *(Metric(f"risk_{name}", _phase_risk(p),
             description=f"miss rate (true item not in the set) over the {name} phase")
      for p, name in enumerate(PHASES)),
    Metric("max_phase_risk", max_phase_risk, description="largest of the three phase miss rates"),
    Metric("max_phase_excess", max_phase_excess,
           description="max_phase_risk - alpha (alpha: the dataset's target miss rate)"),
    Metric("max_phase_dev", max_phase_dev,
           description="largest |phase miss rate - alpha|: a miss rate above alpha loses the "
                       "guarantee, one below it means sets larger than the target needs"),
    Metric("post_excess", post_excess, description="risk_post - alpha"),
    Metric("violation_rate", violation_rate,
           description=f"fraction of steps (windows of n_users interactions) whose miss rate "
                       f"exceeds alpha + {TOL}"),
    Metric("avg_set_size", avg_set_size, description="mean set size over all interactions"),
    Metric("post_set_size", post_set_size, description="mean set size over the post-shift phase"),
    output_metric("time_s", description="wall time of the whole online pass"),
)

TRACES = (
    TraceMetric("miss_vs_step", risk_trace, xlabel="step", ylabel="miss rate"),
    TraceMetric("size_vs_step", size_trace, xlabel="step", ylabel="mean set size"),
)

METHODS = (
    cfg(CARE, label="care"),
    cfg(CARE, label="care_best_single", aggregate=False, backbone=0),
    cfg(StaticCalibration, label="static_calibration"),
    cfg(StaticCalibration, label="static_hoeffding", rule="hoeffding"),
    cfg(OnlineThresholdUpdate, label="online_threshold_update"),
    cfg(OnlineThresholdUpdate, label="online_cumulative", window="cumulative",
        init="hoeffding", freeze_every=5),
    cfg(FixedTopK, label="fixed_topk"),
    # Foil only (claims c1, c3, c4): every candidate in the set. topk_sets clips k to the list
    # length, so this is the whole candidate list whatever n_candidates is: miss rate 0.
    cfg(FixedTopK, label="return_all", k=1_000_000),
    # Sensitivity variant, in no claim: the repo's segment temperature is the risk level
    # alpha, at which the (len)^2 factor nearly always keeps the segment at step 0.
    cfg(CARE, label="care_tau1", shift_temperature=1.0),
)

_NO_PAPER_TEXT = ("The paper's text was not available (abstract and authors' code only); "
                  "threshold from the research note's proposal, fixed before running.")
# The ICML 2026 poster abstract, quoted in paper_value.
_GUARANTEE = ("\"finite-sample guarantees for utility-based risk control\"; \"CARE improves "
              "robustness and maintains compact recommendation sets while preserving the "
              "desired statistical guarantees\" (abstract)")

# The ICML 2026 abstract's checkable statements (headlines), verbatim.
_Q_DEGRADE = ("user behavior can evolve substantially during deployment. This can cause ranking "
              "utility to degrade over time")
_Q_LOCALIZE = ("a loss-based monitoring module that localizes behavioral changes and triggers "
               "threshold recalibration")

CLAIMS = (
    *(Claim(id=f"c1{tag}_care_risk_every_phase_alpha{int(round(a * 100)):02d}",
            where="abstract (finite-sample risk control)",
            text="CARE preserves the desired statistical guarantee (utility risk at most the "
                 "target level) in every phase of drift",
            paper_value=_GUARANTEE, source="paper",
            foils=("static_calibration", "online_threshold_update"),
            foil_note="The abstract credits recalibration triggered by localized change: a "
                      "split-conformal threshold calibrated once (the fixed deployment whose "
                      "utility 'can degrade over time') and a global online update (no "
                      "localization) must not keep the risk at the target in every phase. "
                      "Returning every item and a once-calibrated Hoeffding threshold control "
                      "the risk legitimately (they are conservative), so they are no foils of "
                      "a one-sided guarantee; compactness is c4's.",
            check=Value(method="care", metric="max_phase_excess", hi=TOL, where={"alpha": a}),
            note=f"alpha = {a}: mean over seeds of max over phases of (phase miss rate - "
                 f"alpha) <= {TOL}: risk control is one-sided (risk <= alpha), so a phase "
                 f"that misses less than alpha does not break it (issue 30: the two-sided "
                 f"|phase miss rate - alpha| < {TOL} of issue 14 asked for more than the "
                 f"guarantee; compact sets are left to c4). Tolerance {TOL}: the research "
                 f"note's slack over alpha, as before. At 500 interactions per step the "
                 f"Hoeffding margin of the initial threshold (0.091) exceeds alpha = 0.05 and "
                 f"0.1, so every member starts at lambda = 0 (all items): see the method's "
                 f"header. One claim per alpha (pooling lets slack at one target hide a "
                 f"violation at another). " + _NO_PAPER_TEXT)
      for tag, a in zip("abc", _ALPHAS)),
    Claim(id="c2_static_breaks_after_shift",
          where="abstract (motivation: fixed deployment degrades)",
          text="a threshold calibrated once (no recalibration) loses the guarantee after the "
               "behaviour shift",
          paper_value="\"deployed with parameters held fixed between periodic refreshes, yet "
                      "user behavior can evolve substantially during deployment. This can "
                      "cause ranking utility to degrade over time\" (abstract)",
          source="paper",
          foils=("care", "online_threshold_update"),
          foil_note="Methods that recalibrate (CARE, the online update) are what the "
                    "motivation contrasts with a fixed deployment: they must not lose the "
                    "guarantee after the shift.",
          check=Value(method="static_calibration", metric="post_excess", lo=TOL),
          note=f"Split-conformal threshold of the best backbone on a pre-drift batch: mean "
               f"post-shift miss rate >= alpha + {TOL}. " + _NO_PAPER_TEXT),
    Claim(id="c3_care_beats_static_post_shift", where="abstract ('improves robustness')",
          text="CARE improves robustness over static calibration under drift",
          paper_value="\"CARE improves robustness\" (abstract)", source="paper",
          foils=("fixed_topk", "static_hoeffding", "return_all"),
          foil_note="A fixed top-10 list and a Hoeffding threshold calibrated once do not "
                    "adapt to drift, and returning every item is no recommendation: none may "
                    "'improve robustness' over static calibration.",
          check=Better(method="care", baseline="static_calibration", metric="risk_post"),
          note="Lower post-shift miss rate, paired over (alpha, seed). Margin 0: directional."),
    Claim(id="c4_size_vs_best_constituent", where="abstract ('bounds on the expected set "
                                                 "size relative to the best constituent')",
          text="CARE's aggregated sets are no larger than the best constituent predictor's, "
               "up to the bound",
          paper_value="\"bounds on the expected set size relative to the best constituent "
                      "predictor\" (abstract)", source="paper",
          foils=("return_all", "static_hoeffding"),
          foil_note="Returning every item and a conservative once-calibrated Hoeffding "
                    "threshold give large sets: they must not meet a set-size bound relative "
                    "to the best constituent.",
          check=Ratio(numerator="care", denominator="care_best_single", metric="avg_set_size",
                      at_most=1.1),
          note="Geometric mean of CARE's mean set size over that of its best constituent "
               "(backbone 0, the least noisy, with CARE's own recalibrated threshold) <= 1.1: "
               "the research note's proposal; the paper's bound was not seen. A weighted "
               "majority vote alone only guarantees |C| <= 2 sum_m w_m |C_m|."),
    Claim(id="c5_monitor_localizes_changes", where="abstract (component (i))",
          text="CARE's loss-based monitoring module localizes behavioural changes and triggers "
               "threshold recalibration",
          paper_value="\"" + _Q_LOCALIZE + "\" (abstract)", source="paper",
          check=NotRun(method="care",
                       reason="not built yet (issue 30): CARE records its segment start as "
                              "a trace, but no metric reads it; the check would compare the "
                              "step at which the monitored "
                              "segment restarts with the stream's change points (the start of "
                              "the rotation at step 10 and of the jump at step 30) against a "
                              "monitor that never restarts")),
)

HEADLINES = (
    Headline(quote=_Q_DEGRADE, claims=("c2_static_breaks_after_shift",)),
    Headline(quote="outputs variable-size recommendation sets with finite-sample performance "
                   "guarantees over interaction streams",
             claims=tuple(f"c1{t}_care_risk_every_phase_alpha{int(round(a * 100)):02d}"
                          for t, a in zip("abc", _ALPHAS))),
    Headline(quote=_Q_LOCALIZE, claims=("c5_monitor_localizes_changes",)),
    Headline(quote="an online aggregation rule that promotes compact recommendation sets by "
                   "dynamically reweighting candidate set predictors",
             claims=("c4_size_vs_best_constituent",)),
    Headline(quote="bounds on the expected set size relative to the best constituent predictor",
             claims=("c4_size_vs_best_constituent",)),
    Headline(quote="CARE improves robustness", claims=("c3_care_beats_static_post_shift",)),
    Headline(quote="maintains compact recommendation sets", claims=("c4_size_vs_best_constituent",)),
    Headline(quote="while preserving the desired statistical guarantees",
             claims=tuple(f"c1{t}_care_risk_every_phase_alpha{int(round(a * 100)):02d}"
                          for t, a in zip("abc", _ALPHAS))),
)


BENCHMARK = Benchmark(
    slug="care_recsys",
    paper=Paper(
        title="CARE: Adaptive Calibration for Reliable Recommendations",
        arxiv="",
        url="https://icml.cc/virtual/2026/poster/62132",
        version="ICML 2026 poster abstract + authors' code (github kalpiree/CARE)",
        authors="(anonymous in the sources read)",
    ),
    area="reliable_prediction",
    fidelity="proxy",
    fidelity_note=("CARE's rule is re-implemented from the authors' code (the paper's text "
                   "was not available). Real datasets and trained sequential recommenders are "
                   "replaced by a synthetic latent-factor stream with frozen, noisy scoring "
                   "functions; 500 users per step, 50 steps, 10 backbones, 51 candidates "
                   "(the repo's per-event protocol). Risk is measured on every step, not only "
                   "on the repo's frozen evaluation steps."),
    methods=(CARE,),
    baselines=(StaticCalibration, OnlineThresholdUpdate, FixedTopK),
    datasets=(DriftingInteractions,),
    metrics=METRICS,
    primary_metric="max_phase_excess",
    nondeterministic={"time_s": TIMING_RTOL},
    claims=CLAIMS,
    traces=TRACES,
    grids={
        "smoke": Grid(datasets=(cfg(DriftingInteractions, n_users=60, n_items=200,
                                    n_backbones=3, steps_pre=3, steps_drift=3,
                                    steps_post=4),),
                      seeds=1, methods=METHODS),
        "quick": Grid(datasets=sweep(DriftingInteractions, alpha=_ALPHAS), seeds=5,
                      methods=METHODS,
                      note="3 target levels x 5 seeds; 500 users x 50 steps, 10 backbones"),
        "full": Grid(datasets=sweep(DriftingInteractions, alpha=[0.05, 0.07, 0.1, 0.12, 0.15],
                                    n_users=[500, 2000]),
                     seeds=10, methods=METHODS,
                     note="the repo's alpha list; 2000 users per step tightens the Hoeffding "
                          "start"),
    },
    description=__doc__.split("\n\n")[1].replace("\n", " "),
    amendments=(
        Amendment(date="2026-12-03", claims=tuple(c.id for c in CLAIMS),
                  what="source and foils declared (baseline return_all = fixed_topk with k "
                       "above the candidate count added to all grids, a foil of c1, c3, c4); "
                       "paper_value now quotes the poster abstract",
                  why="claims layer rebuilt around foils (issue 13); thresholds unchanged",
                  results_seen=True),
        Amendment(date="2026-12-03", claims=tuple(c.id for c in CLAIMS[:3]),
                  what="c1a-c1c: metric max_phase_excess (largest phase miss rate - alpha, "
                       "<= 0.02) -> max_phase_dev (largest |phase miss rate - alpha|, < 0.02): "
                       "the guarantee and the set-size side together",
                  why="issue 14: returning every item, a once-calibrated Hoeffding threshold "
                      "and the online update passed a check on the miss rate alone; the "
                      "abstract claims the guarantee together with 'compact recommendation "
                      "sets', and over-coverage below alpha is what makes a threshold set "
                      "larger than the target needs; tolerance unchanged (research note, "
                      "0.02), now on both sides",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c2_static_breaks_after_shift",),
                  what="source derived -> paper",
                  why="placed in the abstract (its motivation: fixed deployment 'can cause "
                      "ranking utility to degrade over time'), so it is the paper's claim",
                  results_seen=True,
                  rule="issue 26: a claim placed in the abstract is source='paper'"),
        Amendment(date="2026-12-06", claims=tuple(c.id for c in CLAIMS[:3]),
                  what="c1a-c1c one-sided: metric max_phase_dev (|phase miss rate - alpha| < "
                       "0.02) -> max_phase_excess (phase miss rate - alpha <= 0.02, the same "
                       "research-note tolerance); foils (return_all, static_hoeffding, "
                       "online_threshold_update) -> (static_calibration, "
                       "online_threshold_update); text and where drop the set-size side",
                  why="issue 30: a risk-control guarantee is risk <= alpha; the two-sided check "
                      "failed CARE for over-covering phases (alpha = 0.10, 0.15), which the "
                      "guarantee allows. Compactness is c4's claim. Conservative methods "
                      "(every item, a Hoeffding threshold) satisfy a one-sided guarantee, so "
                      "they are no foils; the once-calibrated split-conformal threshold is the "
                      "fixed deployment the abstract says degrades (its post-shift excess is "
                      "c2)",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c5_monitor_localizes_changes",),
                  what="headlines declared (8 statements of the ICML abstract); the one no "
                       "claim checked (the monitor localizes changes) gets the not_run claim c5",
                  why="issue 30: coverage of the abstract; a statement with no check is shown "
                      "as not_run with its reason",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=('c1a_care_risk_every_phase_alpha05', 'c1b_care_risk_every_phase_alpha10', 'c1c_care_risk_every_phase_alpha15', 'c2_static_breaks_after_shift', 'c3_care_beats_static_post_shift', 'c4_size_vs_best_constituent', 'c5_monitor_localizes_changes'),
                  what='the drifting-interactions generator gathers candidate scores by plain indexing',
                  why='issue 27 item 5: the quick suite must fit 30 minutes on 2 cores; this cuts CPU without changing what any cell computes',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
    ),
    headlines=HEADLINES,
)
