"""SAGE-NAS: an LLM semantic agent with a dual-modality graph ZCP evaluator and a behavioural
atlas for neural architecture search (ICML 2026 poster; abstract only).

A NAS-Bench-201-style cell space (4 nodes, 6 edges, 5 ops) over small convolutional nets on
scikit-learn digits, tabulated once (3-epoch validation/test accuracy and four zero-cost proxies
at initialisation for 200 sampled cells); each seed draws a 150-cell search pool and a 40-cell
predictor probe. Searchers: random search, regularized evolution, zero-cost-proxy ranking, the
evaluator-guided SAGE loop (scripted agent; its ablations) and the LLM-agent arm through the
model adapter. Checked: the evaluator's rank correlation with test accuracy, fusion against
each single modality, and true evaluations to a target accuracy against regularized evolution.

Changes made after results were seen (2026-12-03, before any report was committed): the
table's training schedule went from constant-rate Adam (global-pool head) to a one-cycle
schedule (2x2-pool head) because accuracies were mostly initialisation noise (Kendall tau
between two initialisation seeds 0.08-0.19, now 0.68); this flipped c1 from not_reproduced
to reproduced. c2b (against synflow) was added after the first quick run showed synflow, not
NASWOT, to be the strongest single proxy.
"""
from __future__ import annotations

import numpy as np

from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Metric, Paper, cfg,
                            output_metric)
from claimbench.baselines.pool_random_search import PoolRandomSearch
from claimbench.baselines.regularized_evolution import RegularizedEvolution
from claimbench.baselines.zero_cost_proxies import ZeroCostRanking
from claimbench.checks import Better, NotRun, Value
from claimbench.datasets.nas_cell_pool import NasCellPool
from claimbench.methods.sage_nas import SageNas

TARGET_QUANTILE = 0.95  # ours: "target accuracy" = the pool's top-5% validation accuracy
REGRET_AT = 20  # ours: the small budget at which test regret is read


def _evals_to_target(inst, out):
    val = np.asarray(inst.truth["val_acc"])
    target = np.quantile(val, TARGET_QUANTILE)
    for k, i in enumerate(out["queried"]):
        if val[int(i)] >= target:
            return float(k + 1)
    return float(inst.data["budget"] + 1)  # censored: not reached within the budget


def _incumbent_test(inst, queried) -> float:
    val, test = np.asarray(inst.truth["val_acc"]), np.asarray(inst.truth["test_acc"])
    q = [int(i) for i in queried]
    return float(test[q[int(np.argmax(val[q]))]])


def _regret_at(inst, out):
    test = np.asarray(inst.truth["test_acc"])
    return float(test.max() - _incumbent_test(inst, out["queried"][:REGRET_AT]))


def _best_test(inst, out):
    return _incumbent_test(inst, out["queried"])


def _kendall_tau(inst, out):
    from scipy.stats import kendalltau

    s = out.get("probe_scores")
    if s is None:
        return None
    rest = np.setdiff1d(np.arange(len(s)), np.asarray(inst.truth["probe"]))
    tau = kendalltau(np.asarray(s)[rest], np.asarray(inst.truth["test_acc"])[rest]).statistic
    return float(tau) if np.isfinite(tau) else 0.0


def _parse_fail_rate(inst, out):
    calls = out.get("llm_calls", 0)
    return float(out["llm_parse_failures"]) / calls if calls else None


METRICS = (
    Metric("evals_to_target", _evals_to_target, False,
           "true evaluations until a cell with top-5% validation accuracy of the pool is "
           "evaluated (budget + 1 if never)"),
    Metric("test_regret_at_20", _regret_at, False,
           "best test accuracy of the pool minus the test accuracy of the best-validation cell "
           "found in the first 20 true evaluations"),
    Metric("best_test_acc", _best_test, True,
           "test accuracy of the best-validation cell found within the budget"),
    Metric("kendall_tau", _kendall_tau, True,
           "Kendall tau between the predictor's scores (fitted on the 40 probe cells; a proxy "
           "ranking uses its raw proxy) and test accuracy on the other pool cells"),
    Metric("llm_parse_fail_rate", _parse_fail_rate, False,
           "fraction of LLM proposals with no parsable cell (LLM arm only)"),
    output_metric("llm_calls", description="LLM calls per search run"),
)

SAGE = "sage_nas"
NO_EVAL = "sage_nas[evaluator=none]"
NO_ATLAS = "sage_nas[atlas=False]"
ZCP_ONLY = "sage_nas[evaluator=zcp_only]"
TOPO_ONLY = "sage_nas[evaluator=topology_only]"
SHUF = "sage_nas[evaluator=shuffled]"
LLM = "sage_nas[agent=llm]"
RE = "reg_evolution"
RS = "random_search"
ZCP = "zcp_rank"  # NASWOT, the strongest single proxy
ZCP_GN = "zcp_rank[proxy=grad_norm]"
ZCP_SF = "zcp_rank[proxy=synflow]"


def _methods(llm_every: int) -> tuple:
    return (cfg(SageNas, label=SAGE),
            cfg(SageNas, label=NO_EVAL, evaluator="none"),
            cfg(SageNas, label=NO_ATLAS, atlas=False),
            cfg(SageNas, label=ZCP_ONLY, evaluator="zcp_only"),
            cfg(SageNas, label=TOPO_ONLY, evaluator="topology_only"),
            cfg(SageNas, label=SHUF, evaluator="shuffled"),
            cfg(SageNas, label=LLM, agent="llm", llm_every=llm_every),
            cfg(RegularizedEvolution, label=RE),
            cfg(PoolRandomSearch, label=RS),
            cfg(ZeroCostRanking, label=ZCP),
            cfg(ZeroCostRanking, label=ZCP_GN, proxy="grad_norm"),
            cfg(ZeroCostRanking, label=ZCP_SF, proxy="synflow"))


_ABS_EVAL = ("\"a Dual-Modality Graph Evaluator that serves as a rapid performance predictor by "
             "fusing ZCP statistics with topological features\" (abstract)")
_ABS_EFF = ("\"SAGE-NAS achieves state-of-the-art performance ... exhibiting a superior balance "
            "between search efficiency, model accuracy, and cross-task generalization\" "
            "(abstract)")

BENCHMARK = Benchmark(
    slug="sage_nas",
    paper=Paper(
        title="SAGE-NAS: Synergizing LLM-Based Semantic Agent with Graph-Based Evaluator for "
              "Neural Architecture Search",
        arxiv="",
        url="https://icml.cc/virtual/2026/poster/62021",
        version="ICML 2026 poster abstract (no arXiv copy, body or code found)",
    ),
    area="llm_agents",
    fidelity="proxy",
    fidelity_note=("The paper searches NAS-Bench-201/DARTS-style spaces on CIFAR/ImageNet with "
                   "an LLM agent; here a NAS-Bench-201-style cell space of one-cell 8-channel "
                   "nets on 8x8 digits trained 3 epochs, tabulated for 200 sampled cells (like "
                   "NAS-Bench-201, one fixed table; seeds draw the 150-cell search pool, the "
                   "probe and the search randomness), a scripted agent in place of the LLM, and "
                   "our reconstruction of every component from the abstract. Only directions "
                   "compare with the paper, which reports no number we could read."),
    methods=(SageNas,),
    baselines=(RegularizedEvolution, PoolRandomSearch, ZeroCostRanking),
    datasets=(NasCellPool,),
    metrics=METRICS,
    cost_note=("Under its share since the issue 27 speed-ups of 2026-12-06 (every value "
               "unchanged): 57 CPU-s on idle cores, ~39 of it one cell: tabulating the search "
               "space (200 small CNN cells trained 3 epochs each, cached for the other cells), "
               "which every search is scored against (c1_evaluator_rank_corr, "
               "c4_fewer_evals_than_re, c5_lower_regret_small_budget and the rest)."),
    primary_metric="evals_to_target",
    claims=(
        Claim(id="c1_evaluator_rank_corr", where="abstract",
              text="the graph evaluator is a rapid performance predictor",
              paper_value=_ABS_EVAL,
              check=Value(method=SAGE, metric="kendall_tau", lo=0.5),
              source="paper", foils=(SHUF, ZCP_GN),
              foil_note="An evaluator fitted to shuffled accuracies and the weakest single "
                        "proxy (grad_norm) carry no usable ranking and must not reach tau 0.5.",
              note="Our threshold, fixed before running: mean Kendall tau over seeds above 0.5 "
                   "(a moderately strong ranking) on the pool cells outside the 40-cell probe."),
        Claim(id="c2_fusion_beats_best_zcp", where="abstract",
              text="fusing ZCP statistics with topology predicts better than the ZCP alone",
              paper_value=_ABS_EVAL,
              check=Better(method=SAGE, baseline=ZCP, metric="kendall_tau", margin=0.0),
              source="paper", foils=(SHUF, ZCP_ONLY),
              foil_note="Without topology (a GBM on the ZCPs only) or with shuffled labels the "
                        "evaluator has nothing beyond the proxies; neither must beat NASWOT.",
              note="Paired Kendall tau against NASWOT ranking, the strongest single proxy."),
        Claim(id="c2b_fusion_beats_synflow", where="abstract",
              text="fusing ZCP statistics with topology predicts better than the ZCP alone",
              paper_value=_ABS_EVAL,
              check=Better(method=SAGE, baseline=ZCP_SF, metric="kendall_tau", margin=0.0),
              source="paper", foils=(SHUF, ZCP_ONLY),
              foil_note="As c2.",
              note="Added after the first quick run: on this table synflow, not NASWOT, is the "
                   "strongest single proxy, so c2's comparator is not 'the best ZCP' here. "
                   "Same check as c2 against synflow ranking."),
        Claim(id="c3_fusion_beats_topology", where="abstract",
              text="fusing ZCP statistics with topology predicts better than topology alone",
              paper_value=_ABS_EVAL,
              check=Better(method=SAGE, baseline=TOPO_ONLY, metric="kendall_tau", margin=0.0),
              source="paper", foils=(SHUF, ZCP_GN),
              foil_note="Shuffled labels and a single weak proxy must not beat the "
                        "topology-only evaluator.",
              note="Same GBM and probe, with and without the ZCP modality."),
        Claim(id="c4_fewer_evals_than_re", where="abstract; research note",
              text="guided search reaches a target accuracy in fewer true evaluations than "
                   "regularized evolution",
              paper_value=_ABS_EFF,
              check=Better(method=SAGE, baseline=RE, metric="evals_to_target", margin=0.0),
              source="paper", foils=(RS, NO_EVAL),
              foil_note="Random search and SAGE without its evaluator (candidates taken at "
                        "random) have no predictor and must not beat regularized evolution.",
              note="Target: the pool's top-5% validation accuracy; censored at budget + 1."),
        Claim(id="c5_lower_regret_small_budget", where="abstract",
              text="better accuracy at a small search budget than regularized evolution",
              paper_value=_ABS_EFF,
              check=Better(method=SAGE, baseline=RE, metric="test_regret_at_20", margin=0.0),
              source="paper", foils=(RS, NO_EVAL),
              foil_note="As c4.",
              note="Test regret of the best-validation cell after 20 true evaluations."),
        Claim(id="c6_atlas_helps", where="abstract",
              text="the behavioural atlas guides sparsity-driven exploration to escape local "
                   "optima",
              paper_value=("\"a State-Aware Behavioral Atlas that guides sparsity-driven "
                           "exploration to escape local optima\" (abstract)"),
              check=Better(method=SAGE, baseline=NO_ATLAS, metric="evals_to_target",
                           margin=0.0),
              source="paper", foils=(RS, RE),
              foil_note="Searchers with no atlas (random search, regularized evolution) must "
                        "not beat the atlas-free SAGE.",
              note="SAGE against itself with uniform instead of sparsity-driven exploration."),
        Claim(id="c7_llm_agent_efficiency", where="abstract",
              text="the LLM semantic agent searches more efficiently than evolution",
              paper_value=_ABS_EFF,
              check=Better(method=LLM, baseline=RE, metric="evals_to_target", margin=0.0),
              source="paper", foils=(RS, NO_EVAL), needs_capable_model=True,
              foil_note="Searchers with neither an agent nor an evaluator must not beat "
                        "regularized evolution.",
              note="The LLM proposes candidates every 5th step (scripted steps between); "
                   "with the tiny model its answers are unparsable, so not_run."),
        Claim(id="c8_sota_search_spaces", where="abstract",
              text="state-of-the-art performance across multiple mainstream search spaces and "
                   "downstream tasks",
              paper_value=_ABS_EFF,
              check=NotRun(method=SAGE,
                           reason="needs NAS-Bench-201/DARTS on CIFAR/ImageNet tables or "
                                  "training, a capable LLM and the paper's numbers (not read)"),
              source="paper"),
        Claim(id="c9_cross_task_generalisation", where="abstract",
              text="SAGE-NAS's searched architectures generalise across tasks",
              paper_value="\"exhibiting a superior balance between search efficiency, model "
                          "accuracy, and cross-task generalization capability\" (abstract)",
              check=NotRun(method=SAGE, reason="one task (8x8 digits) is tabulated here; not "
                           "built yet (issue 30): the test accuracy, on a second tabulated "
                           "task, of the cell each searcher selects on the first, SAGE against "
                           "regularized evolution"),
              source="paper"),
    ),
    headlines=(
        Headline(quote="SAGE-NAS coordinates an LLM-driven Semantic Agent to construct candidate "
                       "architectures by dynamically scheduling complementary sub-policies that "
                       "balance exploitation with exploration",
                 claims=("c7_llm_agent_efficiency",)),
        Headline(quote="a Dual-Modality Graph Evaluator that serves as a rapid performance "
                       "predictor by fusing ZCP statistics with topological features",
                 claims=("c1_evaluator_rank_corr", "c2_fusion_beats_best_zcp",
                         "c2b_fusion_beats_synflow", "c3_fusion_beats_topology")),
        Headline(quote="a State-Aware Behavioral Atlas that guides sparsity-driven exploration "
                       "to escape local optima",
                 claims=("c6_atlas_helps",)),
        Headline(quote="SAGE-NAS achieves state-of-the-art performance across multiple "
                       "mainstream search spaces and downstream tasks",
                 claims=("c8_sota_search_spaces",)),
        Headline(quote="a superior balance between search efficiency, model accuracy",
                 claims=("c4_fewer_evals_than_re", "c5_lower_regret_small_budget",
                         "c7_llm_agent_efficiency")),
        Headline(quote="cross-task generalization capability",
                 claims=("c9_cross_task_generalisation",)),
    ),
    grids={
        "smoke": Grid(datasets=(cfg(NasCellPool, n_arch=12, n_pool=12, n_probe=6, budget=9,
                                    epochs=1, channels=4),), seeds=2,
                      methods=_methods(llm_every=2),
                      note="12 one-epoch 4-channel cells: plumbing only"),
        "quick": Grid(datasets=(cfg(NasCellPool),), seeds=12, methods=_methods(llm_every=5),
                      note="200 tabulated cells (3 epochs), 150-cell pools, budget 50"),
        "full": Grid(datasets=(cfg(NasCellPool, n_arch=15625, n_pool=15625, n_probe=100,
                                   budget=200, epochs=12, channels=16),),
                     seeds=20, methods=_methods(llm_every=1),
                     note="all 15625 cells tabulated at 16 channels, 12 epochs; not run"),
    },
    amendments=(
        Amendment(date="2026-12-06",
                  claims=("c1_evaluator_rank_corr", "c2_fusion_beats_best_zcp",
                          "c2b_fusion_beats_synflow", "c3_fusion_beats_topology",
                          "c4_fewer_evals_than_re", "c5_lower_regret_small_budget",
                          "c6_atlas_helps"),
                  what="source derived -> paper; checks, thresholds and foils unchanged; "
                       "paper_values name their location (abstract)",
                  why="each is placed in the abstract",
                  results_seen=True,
                  rule="issue 26: a claim placed in the abstract is source='paper'"),
        Amendment(date="2026-12-06",
                  claims=("c1_evaluator_rank_corr", "c2_fusion_beats_best_zcp",
                          "c2b_fusion_beats_synflow", "c3_fusion_beats_topology",
                          "c4_fewer_evals_than_re", "c5_lower_regret_small_budget",
                          "c6_atlas_helps", "c7_llm_agent_efficiency"),
                  what="recorded now (made 2026-12-03, before the first committed report, after "
                       "the first quick run): the tabulated cells' training schedule went from "
                       "constant-rate Adam with a global-pool head to a one-cycle schedule with "
                       "a 2x2-pool head; every claim reading the table (c1-c7) reads the new "
                       "one; checks, thresholds and foils unchanged",
                  why="issue 30: the change flipped c1 from not_reproduced to reproduced and had "
                      "no amendment. It was made because the accuracies were mostly "
                      "initialisation noise (Kendall tau between two initialisation seeds "
                      "0.08-0.19, 0.68 after), but it was chosen after every claim's first "
                      "results were seen",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c2b_fusion_beats_synflow",),
                  what="recorded now: c2b (the evaluator against synflow ranking) was added "
                       "2026-12-03, after the first quick run",
                  why="issue 30: that run showed synflow, not NASWOT (c2's comparator), to be "
                      "the strongest single proxy on this table; a claim chosen after results",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c9_cross_task_generalisation",),
                  what="not_run paper claim added for 'cross-task generalization capability'; "
                       "headlines declared (6 statements of the ICML abstract)",
                  why="issue 30: cross-task generalisation had no claim",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=('c1_evaluator_rank_corr', 'c2_fusion_beats_best_zcp', 'c2b_fusion_beats_synflow', 'c3_fusion_beats_topology', 'c4_fewer_evals_than_re', 'c5_lower_regret_small_budget', 'c6_atlas_helps', 'c7_llm_agent_efficiency', 'c8_sota_search_spaces', 'c9_cross_task_generalisation'),
                  what="one cross-entropy backward for grad_norm and snip; the search-space cells train with foreach Adam/AdamW (one call per step for the parameter list, the per-tensor loop's arithmetic)",
                  why='issue 27 item 5: the quick suite must fit 30 minutes on 2 cores; this cuts CPU without changing what any cell computes',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
    ),
)
