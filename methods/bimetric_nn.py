"""Bi-metric nearest-neighbour search: a graph built with a cheap proxy, searched with the expensive metric.

Paper: Haike Xu, Sandeep Silwal, Piotr Indyk, "A Bi-metric Framework for Fast Similarity Search"
(ICLR 2026 submission "A Bi-metric Framework for Efficient Nearest Neighbor Search"),
arXiv 2406.02891, https://arxiv.org/abs/2406.02891. Read: the arXiv v1 abstract and introduction
and the authors' code (github.com/xuhaike/Bi-metric-search: bi_metric_search.py, vamana-config.yaml,
test.sh); the experimental section's text and figures could not be read offline.

Setting: items and queries carry two dissimilarities, an expensive ground-truth metric D and a
cheap proxy d, with (theory) d(x, y) <= D(x, y) <= C d(x, y) for all pairs. Only d may be used to
build the data structure; a query may call D at most Q times (the quota).

Implemented (numbering used in the code comments):
1. Index: a DiskANN/Vamana graph G built with the proxy d only (RobustPrune, degree R, alpha,
   pool size L_build; baselines/vamana_graph.py); entry point = the proxy medoid. No D call is made
   before queries.
2. Stage 1: greedy beam search on G under d from the entry point with beam width L1 (`first_L`);
   it returns the proxy-ranked list S1 (the code's `greedy_search(..., metric="cos")`).
3. Stage 2: best-first search on the same G under D, seeded with the first
   s = min(max(seed_min, floor(Q * seed_frac)), |S1|) items of S1 (truncated to Q), stopping after
   exactly Q evaluations of D (the code's `greedy_search_quota(..., metric="expensive")`): expand the
   D-closest evaluated unexpanded node, evaluate D on its unseen out-neighbours, repeat.
4. Answer: the k items with the smallest D among all items evaluated in stage 2.
Theory (abstract; statement reconstructed, constants not reproduced): if the graph is built with
alpha larger than the distortion C, greedy search under D reaches an arbitrarily good approximate
D-nearest neighbour with a number of D calls that does not depend on n beyond log factors.

Every D evaluation during stage 2 is counted (the seeds' evaluations included); stage 1 costs
proxy calls only, reported as d_calls.

Deviations:
1. The graph is a batch Vamana (RobustPrune over each node's exact L_build = 125 nearest plus R
   random points, then reverse edges; baselines/vamana_graph.py) instead of diskannpy's two-pass
   incremental build whose pools are greedy-search visited sets; l_build = 125, R = 64 and
   alpha = 1.2 are the code's values (vamana-config.yaml, --graph_degree).
2. Data are synthetic embeddings (datasets/bimetric_embeddings.py), not BEIR/MTEB passages embedded
   by bge-micro (proxy) and SFR-Embedding-Mistral (expensive); NDCG@10 is computed against the exact
   D top-10 (binary relevance) instead of BEIR's human relevance labels.
3. When L1 >= n, stage 1 evaluates every node reachable from the entry point and sorts them, which
   is exactly what the beam search returns then (same list, same number of proxy calls).
4. Stage 1 is computed once per query and reused for every quota in `quotas` (the authors cache it
   the same way, `search_results`), and shared with the rerank baseline of the same instance.
5. The quick grid uses degree R = 32 (the other degree of vamana-config.yaml) and L1 = n (the whole
   corpus ranked under d, as L1 = 5000 does on the paper's smallest corpora) to fit its time budget;
   the full grid uses the code's R = 64 and L1 = 5000. D is the L2 distance (the paper: cosine).
   The quick grid's quotas are the code's list up to 400 and then only 500, 1000, 2000, 3000, 5000
   of its longer list (which runs up to L1), for time; the full grid runs the list up to 5000.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.retrieve_rerank import retrieve
from claimbench.baselines.vamana_graph import (QUOTAS, CountingMetric, build_vamana, dist_trace, quota_search,
                                               quota_summary)


def n_seeds(Q: int, stage1_len: int, seed_min: int, seed_frac: float) -> int:
    """Number of stage-1 items that seed stage 2 (step 3; the code's `second_L`)."""
    return min(max(seed_min, int(Q * seed_frac)), stage1_len)


@dataclass
class BimetricSearch(Method):
    name: ClassVar[str] = "bimetric"

    R: int = 64  # graph degree; authors' code default --graph_degree 64
    alpha: float = 1.2  # vamana-config.yaml group vamana_125_64_1-2 (configurations[-1] in the code)
    L_build: int = 125  # candidate pool size; same group's l_build
    first_L: int = 5000  # stage-1 beam width; code: 5000 on small corpora, 30000 on the 6 largest
    seed_min: int = 100  # stage-2 seeds = max(100, Q / 2) of stage 1; code (`second_L`)
    seed_frac: float = 0.5  # code (`int(second_query_quota / 2)`)
    quotas: tuple = field(default=QUOTAS)  # D-call quotas Q; code's list up to 400

    def run(self, data: dict, seed: int) -> dict:
        k = int(data["k"])
        stage1 = retrieve(data, self.R, self.alpha, self.first_L, "graph", self.L_build)  # steps 1-2
        index = build_vamana(data["proxy_base"], data["proxy_metric"], self.R, self.alpha, self.L_build)  # cached
        metric = CountingMetric(data["base"], data["queries"], data["metric"])  # D, counted
        t0 = time.perf_counter()
        by_quota = {}
        for Q in self.quotas:
            out_ids, out_d, calls = [], [], []
            for qi, S1 in enumerate(stage1["lists"]):
                seeds = S1[: n_seeds(int(Q), len(S1), self.seed_min, self.seed_frac)]
                before = metric.calls
                ids, d = quota_search(metric, qi, index.graph, seeds, int(Q), k)  # steps 3-4
                calls.append(metric.calls - before)
                out_ids.append(ids)
                out_d.append(d)
            by_quota[int(Q)] = quota_summary(out_ids, out_d, calls, stage1["d_calls"], k)
        return {"by_quota": by_quota, "query_time_s": stage1["time_s"] + time.perf_counter() - t0,
                "build_time_s": index.build_time_s, "build_D_calls": 0,
                "mean_degree": float(np.mean([len(g) for g in index.graph])),
                "traces": {"topk_dist_vs_D_calls": dist_trace(by_quota)}}
