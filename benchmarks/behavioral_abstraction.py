"""Compositional behavioural semantics under state abstraction (arXiv 2606.25357): numerical
checks of its finite-MDP corollaries.

Random finite MDPs with a planted lumpable block structure; the exact abstraction is the
coarsest bisimulation (partition refinement), a homomorphism onto its quotient. Values,
invariants (closed and controlled-invariant sets) and the Ferns et al. bisimulation metric are
computed on the quotient and pulled back; they must agree with the concrete system exactly.
Approximate abstractions by epsilon-aggregation must keep their value error within the
simulation-lemma bound. A deliberately wrong abstraction (two blocks merged) and other mutants
are the negative controls.
"""
from __future__ import annotations

import numpy as np

from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Metric, Paper, cfg,
                            output_metric, sweep)
from claimbench.baselines.approximate_aggregation import EpsilonAggregation
from claimbench.baselines.bisimulation_metric import FernsBisimulationMetric
from claimbench.checks import Equivalent, Exact, NotRun
from claimbench.datasets.finite_mdps import LumpableMDP
from claimbench.methods.behavioral_abstraction import HomomorphicAbstraction

# Used only by the claims: an assignment rather than an import, so that the module's cell key
# (provenance.cell_hash drops judgement-only assignments, not imports) does not change.


def _value_err(inst, out):
    V = inst.truth["V"]
    return float(np.abs(V - out["V_abs"][out["phi"]]).max())


def _bound_excess(inst, out):
    return _value_err(inst, out) - float(out["bound"])


def _closed_leak(inst, out):
    # closed set: mass leaving under the worst action; controlled invariant: under the best one
    if "invariants" not in out:
        return None
    P = inst.data["P"]
    leak = 0.0
    for kind, C in out["invariants"]:
        exits = P[C][:, :, ~C].sum(axis=2)  # (|C|, A)
        worst = exits.max() if kind == "closed" else exits.min(axis=1).max()
        leak = max(leak, float(worst))
    return leak


def _metric_violation(inst, out):
    if "d" not in out:
        return None
    V = inst.truth["V"]
    return float((np.abs(V[:, None] - V[None, :]) - out["d"]).max())  # diagonal: 0


def _metric_mean(inst, out):
    return None if "d" not in out else float(out["d"].mean())


METRICS = (
    Metric("value_err", _value_err, False,
           "max_s |V*_M(s) - V_abs(phi(s))|, V*_M by exact policy iteration on the concrete MDP"),
    Metric("bound_excess", _bound_excess, False,
           "value_err minus the method's own bound on it (0 for an exact homomorphism)"),
    Metric("closed_leak", _closed_leak, False,
           "largest probability of leaving a pulled-back invariant phi^-1(C): under the worst "
           "action for closed sets, under the best action for controlled invariants"),
    Metric("metric_violation", _metric_violation, False,
           "max_{s,t} |V*(s) - V*(t)| - d(s, t) (>= 0: the diagonal counts)"),
    Metric("metric_mean", _metric_mean, False, "mean of d(s, t) over all ordered pairs"),
    output_metric("n_abstract", description="number of abstract states"),
    output_metric("metric_iters", description="strategy-iteration rounds of the metric"),
)

HOM = "bisim_homomorphism"
MERGE = "bisim_homomorphism[mutant=merge_blocks]"
REWARD_ONLY = "bisim_homomorphism[mutant=reward_only]"
ONE_STEP = "bisim_homomorphism[mutant=one_step_metric]"
AGG = "eps_aggregation"
AGG_REWARD_ONLY = "eps_aggregation[mutant=reward_only]"

METHODS = (
    cfg(HomomorphicAbstraction),
    cfg(HomomorphicAbstraction, label=MERGE, mutant="merge_blocks"),
    cfg(HomomorphicAbstraction, label=REWARD_ONLY, mutant="reward_only"),
    cfg(HomomorphicAbstraction, label=ONE_STEP, mutant="one_step_metric"),
    cfg(EpsilonAggregation),
    cfg(EpsilonAggregation, label=AGG_REWARD_ONLY, mutant="reward_only"),
    cfg(FernsBisimulationMetric),
)

_TRANSFER = ("\"we establish results showing how behavioral structures can be safely "
             "transferred between abstract and concrete systems\" (structures named: \"value "
             "functions, invariants, bisimulation relations, and behavioral metrics\")")
_METRICS_SOUND = ("\"We further show how to construct quantitative metrics from logical "
                  "behavioral semantics with soundness guarantees\"")
_EXACT = {"eps": 0.0}  # instances whose coarsest bisimulation is non-trivial
_WRONG = ("The deliberately wrong abstraction (two bisimulation blocks merged, rows from the first "
          "member) and the refinement-free partition (reward rows only) are not homomorphisms; "
          "an exact identity can only be failed by such mutants. On some instances merged "
          "blocks happen to share their values, so the foils are caught on the other cells.")

BENCHMARK = Benchmark(
    slug="behavioral_abstraction",
    paper=Paper(
        title=("Compositional Behavioral Semantics and Metrics for State Abstraction in "
               "Reinforcement Learning"),
        arxiv="2606.25357",
        url="https://arxiv.org/abs/2606.25357",
        version="ICML 2026 abstract (icml.cc) and arXiv v1 abstract; body not read",
        authors="Yivan Zhang, Ziyan Luo, Manuel Baltieri",
    ),
    area="rl_systems",
    fidelity="proxy",
    fidelity_note=("The paper is categorical theory with no experiments; we check concrete "
                   "finite-MDP corollaries (the research note's plan): value, invariant and "
                   "bisimulation-metric transfer along a bisimulation homomorphism, and the "
                   "simulation-lemma bound for epsilon-aggregation. The paper's general "
                   "coalgebraic statements and its logic-derived metrics beyond Ferns et al.'s "
                   "are not exercised."),
    methods=(HomomorphicAbstraction,),
    baselines=(EpsilonAggregation, FernsBisimulationMetric),
    datasets=(LumpableMDP,),
    metrics=METRICS,
    primary_metric="value_err",
    claims=(
        Claim(id="c1_value_pullback",
              where="textbook: Givan, Dean & Greig 2003 (values preserved by bisimulation "
                    "minimization); the research note's corollary",
              text="value functions pull back exactly along a homomorphism: V_M = V_{M/phi} o phi",
              check=Exact(method=HOM, metric="value_err", hi=0.0, tol=1e-10, where=_EXACT),
              source="derived", foils=(MERGE, REWARD_ONLY), foil_note=_WRONG,
              note="Threshold 1e-10 is the research note's (round-off is ~1e-14 at V ~ 10). A "
                   "known result the abstract does not state (issue 30): it instantiates the "
                   "abstract's general transfer statement, which c2 and c6 read."),
        Claim(id="c2_invariant_pullback", where="abstract",
              text="closed sets and controlled invariants of M/phi pull back to ones of M",
              paper_value=_TRANSFER,
              check=Exact(method=HOM, metric="closed_leak", hi=0.0, tol=1e-10, where=_EXACT),
              source="paper", foils=(MERGE, REWARD_ONLY), foil_note=_WRONG,
              note="Invariants: for every abstract block, its reachable set under all actions "
                   "(closed) and the largest controlled invariant avoiding it; leak threshold "
                   "1e-10 (ours; exact in theory, sums of probabilities have round-off)."),
        Claim(id="c3_metric_sound",
              where="textbook: Ferns, Panangaden & Precup 2004 (the bisimulation metric bounds "
                    "value differences); the research note's corollary",
              text="the behavioural metric is sound: |V*(s) - V*(t)| <= d(s, t) for all pairs",
              check=Exact(method=HOM, metric="metric_violation", hi=0.0, tol=1e-8,
                          where=_EXACT),
              source="derived", foils=(ONE_STEP, MERGE),
              foil_note="The one-step reward distance (Kantorovich term removed) ignores future "
                        "rewards; the wrong abstraction gives distance 0 to non-bisimilar states.",
              note="d = Ferns et al.'s metric (c_R = 1, c_T = gamma) computed on M/phi and pulled "
                   "back; threshold 1e-8 is the research note's. The soundness of the "
                   "bisimulation metric is Ferns et al.'s result, not the paper's (issue 30); "
                   "the paper's metrics built from other logics are c6."),
        Claim(id="c4_approx_value_bound", where="research note, check (d)",
              text="an approximate abstraction's value error stays within (eps_R + gamma eps_T)/(1 - gamma)",
              check=Exact(method=AGG, metric="bound_excess", hi=0.0, tol=1e-9),
              source="derived", foils=(AGG_REWARD_ONLY, MERGE),
              foil_note="Both misstate their model error: reward-only aggregation drops the "
                        "transition term of the bound, the wrong abstraction claims to be "
                        "exact (bound 0).",
              note="Simulation lemma with the one-step model error measured on the abstraction "
                   "built (baselines/approximate_aggregation.py); the note's eps/(1 - gamma) "
                   "with eps = eps_R + gamma eps_T. All cells (eps = 0 and eps = 0.05 reward "
                   "noise); 1e-9 absorbs round-off."),
        Claim(id="c5_metric_transfer",
              where="textbook: Ferns, Panangaden & Precup 2004 (bisimilar states are at distance "
                    "0, so the metric factors through the quotient); the research note's "
                    "corollary",
              text="the metric of the quotient system pulled back equals the concrete system's",
              check=Equivalent(a=HOM, b="ferns_metric", metric="metric_mean", margin=1e-8,
                               where={"eps": 0.0, "n_states": 30}),
              source="derived", foils=(ONE_STEP,),
              foil_note="The one-step reward distance is a different metric.",
              note="Paired over cells: mean over pairs of d_{M/phi}(phi s, phi t) against the "
                   "bisimulation metric computed on the concrete MDP directly (ferns_metric, "
                   "n_states <= 40 only); margin 1e-8 (ours, the note's tolerance). A known "
                   "result the abstract does not state (issue 30)."),
        Claim(id="c6_logic_metrics_sound", where="abstract",
              text="quantitative metrics built from logical behavioural semantics (beyond "
                   "bisimulation) are sound",
              paper_value=_METRICS_SOUND + " (abstract)",
              check=NotRun(method=HOM,
                           reason="not built yet (issue 30): no metric built from a "
                                  "non-bisimulation logic is computed; the check would build "
                                  "one from invariance or reachability semantics (e.g. a "
                                  "distance bounding the difference of two states' reachability "
                                  "probabilities of a target set), pull it back along the "
                                  "homomorphism, and test its soundness bound exactly on every "
                                  "cell, against the merged-blocks mutant"),
              source="paper"),
    ),
    headlines=(
        Headline(quote="behavioral structures can be safely transferred between abstract and "
                       "concrete systems", claims=("c2_invariant_pullback",)),
        Headline(quote="construct quantitative metrics from logical behavioral semantics with "
                       "soundness guarantees", claims=("c6_logic_metrics_sound",)),
    ),
    grids={
        "smoke": Grid(datasets=sweep(LumpableMDP, n_states=[16], n_blocks=[4], eps=[0.0, 0.05]),
                      seeds=2, methods=METHODS, note="seconds"),
        "quick": Grid(datasets=sweep(LumpableMDP, n_states=[30, 100, 200], eps=[0.0, 0.05]),
                      seeds=5, methods=METHODS,
                      note="8 planted blocks; the concrete metric baseline runs at n = 30 only"),
        "full": Grid(datasets=sweep(LumpableMDP, n_states=[30, 60, 100, 200], n_blocks=[8, 16],
                                    eps=[0.0, 0.05]),
                     seeds=20, methods=METHODS,
                     note="the note's |S| = 30-200; about 0.2 CPU-hours"),
    },
    description=__doc__.split("\n\n")[1].replace("\n", " "),
    amendments=(
        Amendment(date="2026-12-03",
                  claims=("c1_value_pullback", "c2_invariant_pullback", "c3_metric_sound",
                          "c5_metric_transfer"),
                  what="paper_value now quotes the ICML/arXiv abstract instead of the research "
                       "note's paraphrase; paper title and authors completed. The foil "
                       "bisim_homomorphism[mutant=merge_blocks] (c1-c4) now merges the two "
                       "blocks of most different abstract value instead of the blocks of states "
                       "0 and n-1; LumpableMDP draws abstract rewards from 3 random levels "
                       "instead of {0, 1}. Checks, thresholds, scopes, subjects and foil labels "
                       "unchanged",
                  why="the abstract was found after the first quick run. In that run every "
                      "claim was reproduced and every foil already failed, but with rewards in "
                      "{0, 1} whole regions had V* = 1/(1 - gamma), so the merged blocks often "
                      "tied in value and the wrong abstraction was caught on only 3 of 15 "
                      "cells by c1; the changes make the negative control bite on every cell "
                      "without touching the subject's checks (no verdict changed)",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c1_value_pullback", "c2_invariant_pullback", "c3_metric_sound",
                          "c4_approx_value_bound"),
                  what="Value(stat='max', hi=h) -> Exact(hi=0, tol=h) on the same method, "
                       "metric and scope (tolerances 1e-10, 1e-10, 1e-8, 1e-9 unchanged: "
                       "round-off)",
                  why="identities and a bound of exact finite-MDP computations, judged until "
                      "now by a sign test over cells; each is 0 up to round-off in every cell",
                  results_seen=True,
                  rule="issue 26: exact kind for a deterministic result"),
        Amendment(date="2026-12-06",
                  claims=("c1_value_pullback", "c3_metric_sound", "c5_metric_transfer"),
                  what="source paper -> derived; where names the textbook result (Givan et al. "
                       "2003; Ferns et al. 2004); paper_value (the abstract's general "
                       "sentences) removed; checks, foils and scopes unchanged",
                  why="issue 30: these are known results the abstract does not state; they "
                      "instantiate its general statements but are not the paper's claims",
                  results_seen=True,
                  rule="issue 26: source by placement (a textbook result the abstract does "
                       "not state is derived)"),
        Amendment(date="2026-12-06", claims=("c6_logic_metrics_sound",),
                  what="headlines declared (2 checkable statements of the ICML abstract); "
                       "metrics from logical semantics and their soundness get the not_run "
                       "claim c6",
                  why="issue 30: what the paper adds (metrics from non-bisimulation logics) "
                      "had no claim",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=('c1_value_pullback', 'c2_invariant_pullback', 'c3_metric_sound', 'c4_approx_value_bound', 'c5_metric_transfer', 'c6_logic_metrics_sound'),
                  what="the Kantorovich fixed point calls POT's network simplex (emd_c) directly, its input preparation done once per (pair, action)",
                  why='issue 27 item 5: the quick suite must fit 30 minutes on 2 cores; this cuts CPU without changing what any cell computes',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
    ),
)
