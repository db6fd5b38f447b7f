"""Unit tests for bimetric_nn: graph build and searches, call counting, metrics, methods."""
from __future__ import annotations

import numpy as np
import pytest

from claimbench.api import Instance
from claimbench.baselines.retrieve_rerank import RetrieveRerank
from claimbench.baselines.vamana_graph import (CountingMetric, VamanaSearch, _Space, beam_search, build_vamana,
                                               full_beam, quota_search, reachable, robust_prune, smallest_k)
from claimbench.benchmarks.bimetric_nn import BENCHMARK, calls_to_recall, ndcg_at_k, recall_at_k
from claimbench.datasets.bimetric_embeddings import BimetricEmbeddings, exact_topk, pairwise_distances
from claimbench.methods.bimetric_nn import BimetricSearch, n_seeds
from claimbench.testing import run_grid_inline


class RecordingMetric(CountingMetric):
    """Also records which items were evaluated, to check that none is evaluated twice."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.seen_ids: list = []

    def __call__(self, qi, ids):
        self.seen_ids.extend(np.asarray(ids).tolist())
        return super().__call__(qi, ids)


def _line():
    """Ten points on a line, a path graph 0 - 1 - ... - 9, one query at 6.3."""
    base = np.arange(10, dtype=float)[:, None]
    graph = [np.array([j for j in (i - 1, i + 1) if 0 <= j < 10]) for i in range(10)]
    return base, np.array([[6.3]]), graph


def test_greedy_walks_the_path_to_the_nearest_point_and_counts_each_call():
    base, q, graph = _line()
    m = RecordingMetric(base, q)
    ids, d = beam_search(m, 0, graph, 0, L=1)
    assert ids[0] == 6 and d[0] == pytest.approx(0.3)
    # 0 is evaluated, then each expansion evaluates one new node: 0..7 (7 is seen when expanding 6)
    assert sorted(m.seen_ids) == list(range(8)) and m.calls == 8


def test_full_beam_returns_the_exact_ranking_on_a_built_graph():
    rng = np.random.default_rng(0)
    base, queries = rng.standard_normal((60, 3)), rng.standard_normal((5, 3))
    index = build_vamana(base, "l2", R=8, alpha=1.2, L_build=None)
    truth = exact_topk(pairwise_distances(queries, base), 60)
    for qi in range(5):
        m = RecordingMetric(base, queries)
        ids, _ = beam_search(m, qi, index.graph, index.start, L=60)
        assert len(reachable(index.graph, index.start)) == 60
        assert np.array_equal(ids, truth[qi])
        assert m.calls == 60 == len(set(m.seen_ids))  # every node once, never twice
        m2 = CountingMetric(base, queries)
        ids2, _ = full_beam(m2, qi, index.graph, index.start)
        assert np.array_equal(ids2, ids) and m2.calls == m.calls


def test_slow_preprocessing_graph_is_navigable_for_data_points():
    # alpha > 1, pools = all points, no degree cap: greedy search with beam 1 finds any data point
    rng = np.random.default_rng(1)
    base = rng.standard_normal((80, 4))
    index = build_vamana(base, "l2", R=80, alpha=1.5, L_build=None)
    for qi in range(80):
        ids, d = beam_search(CountingMetric(base, base), qi, index.graph, index.start, L=1)
        assert ids[0] == qi and d[0] == pytest.approx(0.0, abs=1e-9)


def test_robust_prune_keeps_one_point_per_direction():
    # node at 0; candidates at 1, 2, 3 on one ray, -1 on the other; alpha = 1
    pts = np.array([[0.0], [1.0], [2.0], [3.0], [-1.0]])
    space = _Space(pts, "l2")
    cand = np.array([[1, 2, 3, 4]])
    cd = np.array([[1.0, 2.0, 3.0, 1.0]], dtype=np.float32)
    out = robust_prune(space, cand, cd, R=4, alpha=1.0)
    assert sorted(out[0][out[0] >= 0].tolist()) == [1, 4]
    # alpha = 2.5: 2 is kept (2.5 * d(1, 2) = 2.5 > 2), 3 is covered by 2 (2.5 * 1 <= 3)
    out = robust_prune(space, cand, cd, R=4, alpha=2.5)
    assert sorted(out[0][out[0] >= 0].tolist()) == [1, 2, 4]


def test_smallest_k_is_exact():
    rng = np.random.default_rng(2)
    X = rng.random((7, 5000)).astype(np.float32)
    X[3] = 0.5  # ties everywhere: falls back to the whole row
    got = smallest_k(X, 40)
    for i in range(7):
        assert np.allclose(np.sort(X[i, got[i]]), np.sort(X[i])[:40])
        assert len(set(got[i].tolist())) == 40


def test_quota_search_spends_exactly_the_quota_once_per_item():
    rng = np.random.default_rng(3)
    base, queries = rng.standard_normal((200, 5)), rng.standard_normal((4, 5))
    index = build_vamana(base, "l2", R=12, alpha=1.2, L_build=50)
    for Q in (10, 37, 100):
        m = RecordingMetric(base, queries)
        ids, d = quota_search(m, 1, index.graph, [index.start, 5, 5, 9], Q, k=10)
        assert m.calls == Q == len(set(m.seen_ids))
        assert np.all(np.diff(d) >= 0) and len(ids) == 10
        # the answer is the best 10 of what was evaluated
        dist = pairwise_distances(queries[1:2], base)[0]
        assert np.allclose(d, np.sort(dist[np.array(m.seen_ids)])[:10])
    m = CountingMetric(base, queries)
    quota_search(m, 0, index.graph, np.arange(30), quota=20, k=10)
    assert m.calls == 20  # seeds beyond the quota are not evaluated


def test_counting_metric_lookup_gives_the_bits_of_a_direct_evaluation():
    # distances are kept per query for all items; a call must return exactly what computing it on the
    # subset gives (ranking ties depend on the last bit) and count only the items asked for
    rng = np.random.default_rng(5)
    base, queries = rng.standard_normal((3000, 24)), rng.standard_normal((3, 24))
    m, other = CountingMetric(base, queries), CountingMetric(base.copy(), queries.copy())
    for qi, ids in ((0, rng.integers(0, 3000, 40)), (2, np.arange(3000)[::-7]), (0, [5, 5, 9])):
        diff = base[np.asarray(ids)] - queries[qi]
        assert np.array_equal(m(qi, ids), np.sqrt(np.einsum("ij,ij->i", diff, diff)))
        assert np.array_equal(other(qi, ids), m(qi, ids))
    assert m.calls == 2 * (40 + len(np.arange(3000)[::-7]) + 3) and other.calls == m.calls // 2
    assert other._rows is m._rows  # same content: the methods of an instance share the rows


def test_recall_and_ndcg_by_hand():
    knn = np.array([[0, 1, 3], [5, 6, 7]])
    ids = np.array([[0, 1, 2], [8, -1, 5]])
    assert recall_at_k(ids, knn) == pytest.approx([2 / 3, 1 / 3])
    idcg = 1 + 1 / np.log2(3) + 1 / 2
    assert ndcg_at_k(ids, knn) == pytest.approx([(1 + 1 / np.log2(3)) / idcg, 0.5 / idcg])
    assert ndcg_at_k(knn, knn) == pytest.approx([1.0, 1.0])


def test_calls_to_recall_interpolates_and_censors():
    knn = np.array([[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]])
    inst = Instance(data={"base": np.zeros((1000, 2))}, truth={"knn": knn})
    hit = lambda r: {"ids": np.array([list(range(r)) + [-1] * (10 - r)]), "D_calls": None}  # noqa: E731
    by = {10: {**hit(5), "D_calls": 10.0}, 20: {**hit(8), "D_calls": 20.0}, 40: {**hit(10), "D_calls": 40.0}}
    assert calls_to_recall(inst, {"by_quota": by}) == pytest.approx(30.0)  # 0.8 at 20 calls, 1.0 at 40: 0.9 at 30
    by.pop(40)
    # never reached: charged the calls of the largest quota, a lower bound (issue 14; was n)
    assert calls_to_recall(inst, {"by_quota": by}) == 20.0


def test_dataset_truth_is_the_exact_expensive_top_k_and_seeded():
    ds = BimetricEmbeddings(n=300, n_queries=7, dim=16, proxy_dim=4, noise=0.5)
    a, b = ds.make(4), ds.make(4)
    assert np.array_equal(a.data["proxy_base"], b.data["proxy_base"])
    D = pairwise_distances(a.data["queries"], a.data["base"])
    for qi in range(7):
        assert set(a.truth["knn"][qi]) == set(np.argsort(D[qi])[:10])
    assert a.truth["distortion_C"] > 1.0 and 0.0 <= a.truth["proxy_recall"] <= 1.0
    exact = BimetricEmbeddings(n=300, n_queries=7, dim=16, proxy_dim=16, noise=0.0).make(4)
    assert exact.truth["distortion_C"] < a.truth["distortion_C"]


def _small(noise=0.5):
    return BimetricEmbeddings(n=250, n_queries=6, dim=16, proxy_dim=6, noise=noise).make(0)


def test_rerank_with_unlimited_quota_is_the_exact_top_k():
    inst = _small()
    for retriever in ("graph", "exhaustive"):
        out = RetrieveRerank(R=10, quotas=(250,), retriever=retriever).run(inst.data, 0)
        assert np.array_equal(out["by_quota"][250]["ids"], inst.truth["knn"])
        assert out["by_quota"][250]["max_D_calls"] == 250


def test_bimetric_equals_rerank_while_the_quota_only_covers_seeds():
    inst = _small()
    assert n_seeds(50, 250, 100, 0.5) == 100 and n_seeds(300, 250, 100, 0.5) == 150
    assert n_seeds(600, 250, 100, 0.5) == 250
    bi = BimetricSearch(R=10, quotas=(20, 60, 100)).run(inst.data, 0)["by_quota"]
    rr = RetrieveRerank(R=10, quotas=(20, 60, 100)).run(inst.data, 0)["by_quota"]
    for Q in (20, 60, 100):
        assert np.array_equal(bi[Q]["ids"], rr[Q]["ids"])
        assert bi[Q]["max_D_calls"] == rr[Q]["max_D_calls"] == Q


def test_bimetric_with_an_exact_proxy_and_full_quota_is_exact():
    inst = _small()
    data = dict(inst.data, proxy_base=inst.data["base"], proxy_queries=inst.data["queries"])
    out = BimetricSearch(R=10, seed_min=5, quotas=(250,)).run(data, 0)
    assert np.array_equal(out["by_quota"][250]["ids"], inst.truth["knn"])


def test_single_metric_search_counts_expensive_calls_only():
    inst = _small()
    out = VamanaSearch(R=10, quotas=(30, 120)).run(inst.data, 0)
    assert out["by_quota"][30]["max_D_calls"] <= 30 and out["by_quota"][120]["d_calls"] == 0.0
    assert out["build_D_calls"] == 250 * 249 // 2


def test_smoke_grid_runs_and_respects_quotas():
    rows = run_grid_inline(BENCHMARK, "smoke")
    assert rows and all(r["status"] == "ok" for r in rows)
    for r in rows:
        for Q, point in r["outputs"]["by_quota"].items():
            assert point["max_D_calls"] <= Q
        assert r["metrics"]["D_calls_q200"] <= 200
        assert all(v is None or np.isfinite(v) for v in r["metrics"].values())
