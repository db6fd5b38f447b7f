"""bimetric_nn: accuracy per expensive-metric call of bi-metric graph search against retrieve-then-rerank.

A Vamana graph is built with a cheap proxy metric only; a query spends a quota Q of expensive-metric
calls on a second greedy search of the same graph, seeded by the proxy search (the paper's method).
Retrieve-then-rerank spends the same Q calls on the proxy's top-Q list. A graph built and searched
with the expensive metric is the single-metric reference. Synthetic embeddings from a good to a
poor proxy; recall@10 and NDCG@10 against the exact expensive top-10, per quota Q.
"""
from __future__ import annotations

import numpy as np

from claimbench.api import TIMING_RTOL
from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Metric, Paper, Premise, cfg,
                           output_metric, sweep)
from claimbench.baselines.retrieve_rerank import RetrieveRerank
from claimbench.baselines.vamana_graph import QUOTAS, VamanaSearch
from claimbench.checks import Better, NotRun, Ratio, Value
from claimbench.datasets.bimetric_embeddings import BimetricEmbeddings
from claimbench.methods.bimetric_nn import BimetricSearch

REPORT_QUOTAS = (20, 50, 100, 200, 400, 1000, 2000, 5000)  # quotas with their own metric columns
# The authors' code sweeps Q2 over 10, 20, ..., 400, 500, ..., 30000, up to its stage-1 beam L1
# (5000 on the smaller corpora, 30000 on the large ones; bi_metric_search.py). Full: that list up
# to 5000. Quick (issue 14; it stopped at 400): the list up to 400, then 500, 1000, 2000, 3000,
# 5000 (a subset of the code's list above 400, for time).
CODE_QUOTAS_5000 = QUOTAS + (500, 600, 700, 800, 900, 1000, 1200, 1500, 2000, 2500, 3000, 3500,
                             4000, 5000)
QUICK_QUOTAS = QUOTAS + (500, 1000, 2000, 3000, 5000)
TARGET_RECALL = 0.9  # research note's operating point for the calls-to-recall comparison


def recall_at_k(ids: np.ndarray, knn: np.ndarray) -> np.ndarray:
    """Per-query |returned top-k ∩ true top-k| / k; ids (M, k) may hold -1 for missing items."""
    return np.array([np.intersect1d(a[a >= 0], b).size / b.size for a, b in zip(ids, knn)])


def ndcg_at_k(ids: np.ndarray, knn: np.ndarray) -> np.ndarray:
    """Per-query NDCG@k with binary relevance = membership in the true top-k."""
    k = knn.shape[1]
    disc = 1.0 / np.log2(np.arange(2, k + 2))  # (k,)
    rel = np.array([np.isin(a, b) for a, b in zip(ids, knn)], dtype=float)  # (M, k)
    return rel @ disc / disc.sum()


def _at(q: int, fn):
    def metric(inst, out):
        by = out.get("by_quota", {})
        return None if q not in by else fn(inst, by[q])
    return metric


def _recall(inst, point):
    return float(recall_at_k(point["ids"], inst.truth["knn"]).mean())


def _ndcg(inst, point):
    return float(ndcg_at_k(point["ids"], inst.truth["knn"]).mean())


def calls_to_recall(inst, out, target: float = TARGET_RECALL) -> float | None:
    """Mean expensive calls per query at which mean recall@10 first reaches `target`.

    Linear interpolation between consecutive quotas of the method's sweep. Right-censored when the
    sweep never reaches the target: then the calls spent at the largest quota, a lower bound
    (issue 14: until then a full scan, n, was charged, an upper bound that overstated the
    baseline's cost); ``reached_recall90`` flags the censored cells.
    """
    by = out.get("by_quota")
    if not by:
        return None
    qs = sorted(by)
    x = [by[q]["D_calls"] for q in qs]
    y = [_recall(inst, by[q]) for q in qs]
    for i, (xi, yi) in enumerate(zip(x, y)):
        if yi >= target:
            if i == 0 or y[i - 1] >= yi:
                return float(xi)
            return float(x[i - 1] + (target - y[i - 1]) * (xi - x[i - 1]) / (yi - y[i - 1]))
    return float(x[-1])


def _reached(inst, out):
    by = out.get("by_quota")
    if not by:
        return None
    return float(any(_recall(inst, p) >= TARGET_RECALL for p in by.values()))


METRICS = (
    *(Metric(f"recall10_q{q}", _at(q, _recall), True, f"mean recall@10 vs the exact D top-10, quota Q={q} D-calls")
      for q in REPORT_QUOTAS),
    *(Metric(f"ndcg10_q{q}", _at(q, _ndcg), True, f"mean NDCG@10 (binary relevance = true D top-10), Q={q}")
      for q in REPORT_QUOTAS),
    Metric("D_calls_q200", _at(200, lambda i, p: p["D_calls"]), False,
           "measured mean expensive calls per query at Q=200"),
    Metric("d_calls", _at(200, lambda i, p: p["d_calls"]), False, "measured mean proxy calls per query (stage 1)"),
    Metric("calls_to_recall90", calls_to_recall, False,
           "mean D-calls per query to reach mean recall@10 = 0.9 (interpolated; when never reached, the "
           "calls at the sweep's largest quota: a lower bound)"),
    Metric("reached_recall90", _reached, True, "1 if recall@10 = 0.9 was reached within the quota sweep, else 0 "
           "(censoring flag of calls_to_recall90)"),
    Metric("distortion_C", lambda i, o: i.truth["distortion_C"], False,
           "dataset: q99/q01 of D/d over query-item pairs (proxy distortion)"),
    Metric("proxy_recall10", lambda i, o: i.truth["proxy_recall"], True,
           "dataset: recall@10 of the exact proxy top-10"),
    output_metric("query_time_s", description="wall time of all queries of all quotas (stage 1 once)"),
    output_metric("build_time_s", description="wall time of the graph build (offline)"),
)

_TRADEOFF = ("\"We observe that for almost all the large data sets in the BEIR benchmark, our approach "
             "achieves a considerably better accuracy-efficiency tradeoff than the alternatives, such as "
             "retrieve-then-rerank\" (abstract)")
# "Considerably better" (issue 29: '> 0' was looser than the words): a gain of more than 0.05 in recall@10 or
# NDCG@10 (5 points on a 0-1 scale) at the same number of expensive calls, our reading of "considerably".
CONSIDERABLY = 0.05
SATURATED = 0.99  # a baseline within 1 point of the maximum (1.0) of recall@10 / NDCG@10 is saturated

# The abstract's checkable statements (ICML 2026 abstract), verbatim.
_Q_FRAMEWORK = ("In both theory and practice, we show how to construct data structures using only the proxy "
                "metric such that the query procedure achieves the accuracy of the expensive metric, while only "
                "using a limited number of calls to both metrics")
_Q_INSTANCES = ("Our theoretical results instantiate this framework for two popular nearest neighbor search "
                "algorithms: DiskANN and Cover Tree")
_Q_GUARANTEE = ("as long as the proxy metric used to construct the data structure approximates the ground-truth "
                "metric up to a bounded factor, our data structure achieves arbitrarily good approximation "
                "guarantees with respect to the ground-truth metric")
_Q_TRADEOFF = ("for almost all the large data sets in the BEIR benchmark, our approach achieves a considerably "
               "better accuracy-efficiency tradeoff than the alternatives, such as retrieve-then-rerank")
_NOT_BUILT = "not built yet (issue 29): "
_MARGIN_NOTE = (" Issue 29: margin 0.05 (5 points of a 0-1 score) for the abstract's 'considerably better'; until "
                "then 0, looser than the words.")

_RERANK_FOIL = ("No foil (issue 26): retrieve-then-rerank, the only foil until then, is the check's own "
                "baseline, which in bi-metric's place compared with itself (zero improvement). The wording's "
                "other alternative, the single-metric graph, runs in the smoke and full grids only (not in "
                "quick, for time), so no method of all three grids can be named: the claim cannot be "
                "reproduced, only shown not_discriminating.")

CLAIMS = (
    Claim(
        id="c1_recall_q200",
        where="abstract; Fig. 1 (recall vs # expensive evaluations)",
        text="The bi-metric approach achieves a considerably better accuracy-efficiency tradeoff than "
             "retrieve-then-rerank.",
        paper_value=_TRADEOFF,
        check=Better(method="bimetric", baseline="rerank", metric="recall10_q200", margin=CONSIDERABLY),
        note="The paper gives no single number in the text we could read. Matched quota Q = 200 expensive "
             "calls per query, paired over (distortion, seed) cells, margin 0. "
             "The code seeds stage 2 with the first max(100, Q/2) proxy results (truncated to Q), so both "
             "methods are identical for Q <= 100; at Q = 200 bi-metric spends 100 calls on the proxy's top 100 "
             "and 100 on the graph walk, rerank 200 on the proxy's top 200." + _MARGIN_NOTE,
        source="paper",
        foils=(),
        foil_note=_RERANK_FOIL,
    ),
    Claim(
        id="c2_ndcg_q200",
        where="abstract; Fig. 1 (NDCG@10 vs # expensive evaluations)",
        text="Better NDCG@10 than retrieve-then-rerank for the same number of expensive-model evaluations.",
        paper_value=_TRADEOFF,
        check=Better(method="bimetric", baseline="rerank", metric="ndcg10_q200", margin=CONSIDERABLY),
        note="NDCG@10 against the exact expensive top-10 (binary relevance), not BEIR's human labels; Q = 200. "
             "The paper's NDCG@10 curves (Fig. 1, per the research note) were not read." + _MARGIN_NOTE,
        source="paper",
        foils=(),
        foil_note=_RERANK_FOIL,
    ),
    Claim(
        id="c3_recall_q400",
        where="abstract; Fig. 1",
        text="Better accuracy than retrieve-then-rerank at the same number of expensive evaluations.",
        paper_value=_TRADEOFF,
        check=Better(method="bimetric", baseline="rerank", metric="recall10_q400", margin=CONSIDERABLY),
        note="Q = 400: 200 seeds + 200 walk calls against the proxy's top 400." + _MARGIN_NOTE,
        source="paper",
        foils=(),
        foil_note=_RERANK_FOIL,
    ),
    Claim(
        id="c4_calls_to_recall90",
        where="research note's proposal (paper: 'considerably better accuracy-efficiency tradeoff')",
        text="To reach recall 0.9, bi-metric search needs at most half the expensive calls of rerank.",
        paper_value="",
        check=Ratio(numerator="rerank", denominator="bimetric", metric="calls_to_recall90", at_least=2.0),
        note="No number in the paper's text we could read. Threshold 2x is the research note's proposal. "
             "Calls interpolated on the quota sweep (quick: 10..5000, the authors' list to 400 and "
             "500/1000/2000/3000/5000; full: their list to 5000). Censoring (issue 14): a method that never "
             "reaches 0.9 within the sweep is charged the calls of its largest quota, a lower bound (until then "
             "n, a full scan, which overstated a censored rerank's cost by up to 25x at Q <= 400). A censored "
             "rerank (numerator) makes a cell's ratio a lower bound, so the check is conservative there; a "
             "censored bi-metric (denominator) would inflate its cell's ratio, but then rerank is at most the "
             "same largest quota, so such a cell's ratio is at most 1 in either case. reached_recall90 reports "
             "the censored cells.",
        source="derived",
        subject="bimetric",
        foils=(),
        foil_note="No foil (issue 26): rerank, the only foil until then, is the ratio's numerator, so in "
                  "bi-metric's place it gave a ratio of exactly 1 by construction. No other method is in all "
                  "three grids (the single-metric graph is not in quick).",
    ),
    Claim(
        id="c5_diskann_guarantee",
        where="abstract",
        text="A DiskANN graph built with a proxy that approximates the expensive metric up to a bounded factor C "
             "achieves arbitrarily good approximation under the expensive metric with a limited number of calls.",
        paper_value='"' + _Q_GUARANTEE + '" (abstract)',
        check=NotRun(method="bimetric", reason=_NOT_BUILT + "vary the proxy's distortion C with the graph's "
                     "pruning parameter alpha > C, and check the approximation ratio of the returned neighbour "
                     "under the expensive metric (towards 1 as the quota grows) and the expensive-metric calls "
                     "against the bound; no metric holds the approximation ratio, and the grids vary the proxy "
                     "noise but not alpha"),
        source="paper",
    ),
    Claim(
        id="c6_cover_tree_guarantee",
        where="abstract",
        text="The same guarantee for a Cover Tree built with the proxy metric.",
        paper_value='"' + _Q_INSTANCES + '" (abstract)',
        check=NotRun(method="bimetric", reason=_NOT_BUILT + "no Cover Tree is implemented (the grids hold a "
                     "Vamana graph only); the check would be c5's on a bi-metric Cover Tree"),
        source="paper",
    ),
)

HEADLINES = (
    Headline(quote=_Q_FRAMEWORK, claims=("c4_calls_to_recall90", "c5_diskann_guarantee",
                                         "c6_cover_tree_guarantee")),
    Headline(quote=_Q_INSTANCES, claims=("c5_diskann_guarantee", "c6_cover_tree_guarantee")),
    Headline(quote=_Q_GUARANTEE, claims=("c5_diskann_guarantee", "c6_cover_tree_guarantee")),
    Headline(quote=_Q_TRADEOFF, claims=("c1_recall_q200", "c2_ndcg_q200", "c3_recall_q400",
                                        "c4_calls_to_recall90")),
)

PREMISES = (
    Premise(id="p1_rerank_recall_q200_not_saturated",
            text="retrieve-then-rerank is not saturated at Q = 200: its mean recall@10 is below 0.99 (within "
                 "1 point of the maximum 1 is saturated), so a better tradeoff has room to show",
            check=Value(method="rerank", metric="recall10_q200", hi=SATURATED, stat="mean"),
            claims=("c1_recall_q200",)),
    Premise(id="p2_rerank_ndcg_q200_not_saturated",
            text="retrieve-then-rerank is not saturated at Q = 200: its mean NDCG@10 is below 0.99",
            check=Value(method="rerank", metric="ndcg10_q200", hi=SATURATED, stat="mean"),
            claims=("c2_ndcg_q200",)),
    Premise(id="p3_rerank_recall_q400_not_saturated",
            text="retrieve-then-rerank is not saturated at Q = 400: its mean recall@10 is below 0.99",
            check=Value(method="rerank", metric="recall10_q400", hi=SATURATED, stat="mean"),
            claims=("c3_recall_q400",)),
)


def _methods(R: int, quotas: tuple, first_L: int = 5000, single: bool = True) -> tuple:
    """Same labels in every grid so that claims resolve; degree, stage-1 beam and quotas differ per grid."""
    out = (
        cfg(BimetricSearch, label="bimetric", R=R, quotas=quotas, first_L=first_L),
        cfg(RetrieveRerank, label="rerank", R=R, quotas=quotas, first_L=first_L),
    )
    return out + ((cfg(VamanaSearch, label="single_metric", R=R, quotas=quotas),) if single else ())


_SMOKE_DATA = (cfg(BimetricEmbeddings, n=2000, n_queries=10, dim=32, proxy_dim=8, noise=1.0),)
# Proxy quality (issue 14: the quick grid had only the easy 0.25 / 0.5, where rerank saturates): noise 0.25 /
# 0.5 / 1.0 / 2.0 spans a proxy whose exact top-10 holds ~30% of the expensive top-10 (distortion C ~ 2.1) down to
# ~1% (C ~ 5.9), the range between a near-copy and a proxy as weak as a tiny model against a 7B embedder.
_QUICK_DATA = sweep(BimetricEmbeddings, n=[10000], n_queries=[50], noise=[0.25, 0.5, 1.0, 2.0])
_FULL_DATA = sweep(BimetricEmbeddings, n=[20000], n_queries=[300], noise=[0.25, 0.5, 1.0, 2.0])

BENCHMARK = Benchmark(
    slug="bimetric_nn",
    paper=Paper(
        title="A Bi-metric Framework for Fast Similarity Search",
        arxiv="2406.02891",
        url="https://arxiv.org/abs/2406.02891",
        version="arXiv v1 (abstract, introduction) and the authors' code xuhaike/Bi-metric-search",
        authors="Haike Xu, Sandeep Silwal, Piotr Indyk",
    ),
    area="privacy_estimation",
    fidelity="proxy",
    methods=(BimetricSearch,),
    baselines=(RetrieveRerank, VamanaSearch),
    datasets=(BimetricEmbeddings,),
    metrics=METRICS,
    primary_metric="recall10_q200",
    nondeterministic={"query_time_s": TIMING_RTOL, "build_time_s": TIMING_RTOL},
    claims=CLAIMS,
    headlines=HEADLINES,
    premises=PREMISES,
    grids={
        "smoke": Grid(datasets=_SMOKE_DATA, seeds=3, methods=_methods(16, (10, 50, 200, 400)),
                      note="2000 items (proxy noise 1.0, so quotas do not saturate), 10 queries, degree 16, "
                           "four quotas; three seeds so the "
                           "claims and their foils have paired smoke evidence"),
        "quick": Grid(datasets=_QUICK_DATA, seeds=3,
                      methods=_methods(32, QUICK_QUOTAS, first_L=10000, single=False),
                      note="10000 items (256-d expensive, 32-d proxy), 50 queries, proxy noise 0.25 / 0.5 / 1.0 / 2.0 "
                           "(distortion C about 2.1 / 3.0 / 4.4 / 5.9), 3 seeds, degree 32 (vamana-config.yaml's "
                           "other degree), the code's quotas 10..400 then 500, 1000, 2000, 3000, 5000, and stage-2 "
                           "seeds max(100, Q/2); stage 1 ranks the whole corpus "
                           "under d (L1 = n, as the code's L1 = 5000 does on its small corpora); the single-metric "
                           "graph (a 256-d build per instance) only in smoke and full, for time"),
        "full": Grid(datasets=_FULL_DATA, seeds=5, methods=_methods(64, CODE_QUOTAS_5000),
                     note="the research note's 20000 items and 300 queries, noise 0.25 / 0.5 / 1.0 / 2.0, the code's "
                          "degree 64, stage-1 beam L1 = 5000 and quota list up to L1"),
    },
    description="Nearest-neighbour search with a cheap proxy metric (graph build and stage-1 search) and a "
                "quota of expensive-metric calls per query: bi-metric graph search against retrieve-then-rerank "
                "and a single-metric graph, recall@10 / NDCG@10 per quota on synthetic two-embedding corpora.",
    amendments=(
        Amendment(date="2026-12-03", claims=tuple(c.id for c in CLAIMS),
                  what="source and foils declared (rerank in bi-metric's place; no mutant); c4's subject "
                       "set to bimetric (the ratio's denominator); paper_value now quotes the abstract, "
                       "our remarks ('no single number in the text') moved to note",
                  why="claims layer rebuilt around foils (issue 13); thresholds unchanged",
                  results_seen=True),
        Amendment(date="2026-12-03", claims=("c4_calls_to_recall90",),
                  what="c4: check unchanged; calls_to_recall90 now charges a method that never reaches recall 0.9 "
                       "the calls of its largest quota (a lower bound, flagged by reached_recall90) instead of n; "
                       "the quick grid's quotas extend from 400 to 5000 (the authors' list to 400, then 500, 1000, "
                       "2000, 3000, 5000), its proxies from noise 0.25 / 0.5 to 0.25 / 0.5 / 1.0 / 2.0 (3 seeds "
                       "instead of 5, for time); the full grid adds noise 2.0 and the code's quotas to 5000",
                  why="issue 14: the quick grid covered only easy proxies, where rerank saturates, and stopped at "
                      "400 expensive calls while the authors' code sweeps Q2 up to its stage-1 beam (5000 or "
                      "30000, bi_metric_search.py); charging a full scan to a method censored at 400 overstated "
                      "the baseline's cost",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c1_recall_q200", "c2_ndcg_q200", "c3_recall_q400",
                                             "c4_calls_to_recall90"),
                  what="foil rerank removed (foils now empty); checks unchanged",
                  why="rerank is the check's own baseline (c1-c3) or the ratio's numerator (c4): in "
                      "bi-metric's place it compared with itself (difference 0, ratio 1) and failed by "
                      "construction; no other method is in all three grids",
                  results_seen=True,
                  rule="issue 26: Y-vs-Y foil removed"),
        Amendment(date="2026-12-06", claims=("c1_recall_q200", "c2_ndcg_q200", "c3_recall_q400"),
                  what="Better margin 0 -> 0.05 (recall@10, NDCG@10) for the abstract's 'considerably better'; "
                       "metric, scope and (empty) foils unchanged",
                  why="issue 29: '> 0' is looser than 'considerably better'; 5 points of a 0-1 score is our "
                      "reading of the word, chosen after results were seen",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c5_diskann_guarantee", "c6_cover_tree_guarantee",
                          "p1_rerank_recall_q200_not_saturated", "p2_rerank_ndcg_q200_not_saturated",
                          "p3_rerank_recall_q400_not_saturated"),
                  what="headlines declared (the ICML abstract's 4 checkable statements, mapped to claims); the "
                       "theory (DiskANN and Cover Tree guarantees with a C-approximate proxy) gets not_run "
                       "claims c5, c6; premises p1-p3: retrieve-then-rerank not saturated (mean below 0.99) on "
                       "the metric and quota of c1, c2 and c3, which each gates",
                  why="issue 29: every checkable statement of the abstract is declared and mapped, and the "
                      "effect must have room to show; 'saturated' is within 1 point of the maximum 1 (a "
                      "definition, not a result)",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c1_recall_q200", "c2_ndcg_q200", "c3_recall_q400", "c4_calls_to_recall90",
                          "c5_diskann_guarantee", "c6_cover_tree_guarantee"),
                  what="baselines/vamana_graph.py made faster, same arithmetic: CountingMetric computes an L2 "
                       "query's distances to all items once (row by row, the same bits as a call on a subset) "
                       "and shares them by content between the methods of an instance, a call being a lookup "
                       "that still counts the items asked for; quota_search walks the graph as Python lists; "
                       "smallest_k takes np.nonzero's pairs from one flat index",
                  why="issue 27 item 5: quick-grid CPU 60 -> 44 CPU-s (24 cells, one process, old and new code "
                      "on the same machine; the committed run, 2 workers, took 76)",
                  results_seen=True,
                  rule="issue 27: faster code, same experiment; every non-timing metric of the committed quick "
                       "cells unchanged (claimbench verify)"),
    ),
    fidelity_note="The paper's experiments embed BEIR/MTEB corpora with bge-micro (proxy) and SFR-Embedding-Mistral "
                  "(expensive) and index them with diskannpy; we use synthetic embeddings whose proxy is a random "
                  "32-d projection of the 256-d expensive vectors plus per-item noise (controlled distortion), a "
                  "numpy Vamana-style graph (RobustPrune over exact candidate pools plus random long-range "
                  "candidates, then reverse edges), 10000-20000 items instead of 3.6k-8.8M, and the exact expensive "
                  "top-10 as relevance. The query algorithm, quotas, seeding rule, degree and alpha follow the "
                  "authors' code.",
)
