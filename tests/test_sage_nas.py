import math

import numpy as np
import pytest

from claimbench.api import Instance
from claimbench.baselines.pool_random_search import PoolRandomSearch
from claimbench.baselines.regularized_evolution import RegularizedEvolution, pool_mutation
from claimbench.baselines.zero_cost_proxies import ZeroCostRanking, grad_norm, naswot, synflow
from claimbench.benchmarks.sage_nas import _evals_to_target, _kendall_tau, _regret_at
from claimbench.datasets.nas_cell_pool import (N_ARCH_TOTAL, PoolOracle, arch_to_str, build_net,
                                               compute_table, connected, index_to_arch)
from claimbench.methods.sage_nas import SageNas, descriptor, graph_features, parse_cells


def test_search_space_encoding():
    assert N_ARCH_TOTAL == 15625
    assert len({index_to_arch(i) for i in range(N_ARCH_TOTAL)}) == 15625
    assert index_to_arch(0) == (0,) * 6 and index_to_arch(1) == (1, 0, 0, 0, 0, 0)
    assert arch_to_str((3, 1, 0, 2, 4, 3)) == \
        "|conv3x3~0|+|skip~0|none~1|+|conv1x1~0|avgpool3x3~1|conv3x3~2|"


def test_connectivity_by_hand():
    assert not connected((0,) * 6)
    assert connected((0, 0, 0, 1, 0, 0))  # 3 <- 0 directly
    assert connected((3, 0, 0, 0, 2, 0))  # 0 -> 1 -> 3
    assert not connected((3, 0, 0, 0, 0, 0))  # 1 is reached but never feeds 3


def test_graph_features_count_paths_by_hand():
    # all skip: paths 0-3, 0-1-3, 0-2-3, 0-1-2-3 -> 4 paths with 1+2+2+3 = 8 skip edges
    assert graph_features((1,) * 6).tolist() == [4, 8, 0, 0, 0]
    # conv3x3 on 1<-0 and 3<-1 only: one path with two conv3x3
    assert graph_features((3, 0, 0, 0, 3, 0)).tolist() == [1, 0, 0, 2, 0]
    assert graph_features((0,) * 6)[0] == 0 and descriptor((0,) * 6) == (0, 0)


def test_disconnected_cell_ignores_its_input():
    import torch

    net = build_net((4, 3, 2, 0, 0, 0), 8, seed=0).eval()  # node 3 has no input edge
    x = torch.rand(5, 1, 8, 8)
    out = net(x)
    assert torch.allclose(out, out[:1].expand_as(out))


def test_synflow_of_a_linear_map_is_its_l1_norm():
    import torch

    lin = torch.nn.Linear(3, 2, bias=False)
    with torch.no_grad():
        lin.weight.copy_(torch.tensor([[1.0, -2.0, 0.5], [0.0, 3.0, -1.0]]))
    # R = 1^T |W| 1, dR/dW = 1, so sum |W * dR/dW| = sum |W|
    assert synflow(lin, torch.zeros(4, 3)) == pytest.approx(7.5)


def test_naswot_kernel_by_hand():
    import torch

    net = torch.nn.Sequential(torch.nn.Identity(), torch.nn.ReLU())
    x = torch.tensor([[1.0, 1.0], [1.0, -1.0], [-1.0, -1.0]])
    # codes 11, 10, 00 -> K = [[2,1,0],[1,2,1],[0,1,2]], det = 4
    assert naswot(net, x) == pytest.approx(math.log(4.0))


def test_grad_norm_matches_autograd():
    import torch

    lin = torch.nn.Linear(4, 3)
    x = torch.randn(6, 4, generator=torch.Generator().manual_seed(0))  # (6, 4)
    y = torch.tensor([0, 1, 2] * 2)  # (6,)
    torch.nn.functional.cross_entropy(lin(x), y).backward()
    ref = lin.weight.grad.norm().item() + lin.bias.grad.norm().item()
    lin.zero_grad()
    assert grad_norm(lin, x, y) == pytest.approx(ref, rel=1e-6)


def test_oracle_counts_and_caps():
    o = PoolOracle(np.array([0.1, 0.5, 0.9]), budget=2)
    assert o(2) == 0.9 and o(2) == 0.9 and o.remaining == 1  # a repeat is free
    o(0)
    with pytest.raises(RuntimeError):
        o(1)
    assert o.queried == [2, 0]


def test_pool_mutation_picks_nearest_free_cell():
    archs = np.array([[0] * 6, [1, 0, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0], [4] * 6])
    rng = np.random.default_rng(0)
    assert pool_mutation(archs, 0, set(), rng) == 1
    assert pool_mutation(archs, 0, {1}, rng) == 2


def synthetic(seed: int, n: int = 150, budget: int = 40) -> dict:
    """Validation accuracy is a known function of one ZCP and the number of conv edges."""
    from claimbench.datasets.nas_cell_pool import sample_archs

    rng = np.random.default_rng(seed)
    archs = sample_archs(n, seed)
    convs = np.isin(archs, (2, 3)).sum(1)
    z = rng.normal(size=(n, 4))
    val = 0.5 * z[:, 3] + 0.3 * convs + 0.05 * rng.normal(size=n)
    zcp = np.c_[np.exp(z[:, :3]), z[:, 3]]
    return {"archs": archs, "val_acc": val, "zcp": zcp, "params": 100.0 + convs,
            "zcp_names": ("synflow", "grad_norm", "snip", "naswot"),
            "probe": rng.choice(n, 40, replace=False), "budget": budget}


def tau_on(data, scores) -> float:
    inst = Instance(data=data, truth={"test_acc": data["val_acc"], "probe": data["probe"]})
    return _kendall_tau(inst, {"probe_scores": scores})


def test_evaluator_learns_and_shuffled_mutant_does_not():
    data = synthetic(1)
    good = tau_on(data, SageNas().run(data, 3)["probe_scores"])
    bad = tau_on(data, SageNas(evaluator="shuffled").run(data, 3)["probe_scores"])
    assert good > 0.6 and abs(bad) < 0.3
    assert "probe_scores" not in SageNas(evaluator="none").run(data, 3)


def test_searchers_respect_budget_and_guided_search_beats_random():
    steps = {"sage": [], "rs": []}
    for s in range(4):
        data = synthetic(10 + s)
        inst = Instance(data=data, truth={"val_acc": data["val_acc"],
                                          "test_acc": data["val_acc"], "probe": data["probe"]})
        for m in (SageNas(), RegularizedEvolution(), PoolRandomSearch(), ZeroCostRanking()):
            q = m.run(data, s)["queried"]
            assert len(q) == data["budget"] == len(set(q))
        steps["sage"].append(_evals_to_target(inst, SageNas().run(data, s)))
        steps["rs"].append(_evals_to_target(inst, PoolRandomSearch().run(data, s)))
    assert np.mean(steps["sage"]) < np.mean(steps["rs"])


def test_metrics_by_hand():
    val = np.arange(20) / 20.0
    inst = Instance(data={"budget": 5}, truth={"val_acc": val, "test_acc": val, "probe": []})
    assert _evals_to_target(inst, {"queried": [0, 3, 19, 1]}) == 3.0
    assert _evals_to_target(inst, {"queried": [0, 3]}) == 6.0  # censored at budget + 1
    assert _regret_at(inst, {"queried": [0, 10, 5]}) == pytest.approx(0.95 - 0.5)


def test_parse_cells():
    s = "|conv3x3~0|+|skip~0|none~1|+|conv1x1~0|avgpool3x3~1|conv3x3~2| and more"
    assert parse_cells(s) == [(3, 1, 0, 2, 4, 3)]
    assert parse_cells("qwz skip conv") == []


def test_llm_arm_runs_end_to_end_with_tiny_model():
    data = synthetic(5, n=40, budget=12)  # 5 warm-start + 7 steps: LLM at steps 3 and 6
    out = SageNas(agent="llm", llm_every=3, max_tokens=24).run(data, 0)
    assert len(out["queried"]) == 12
    assert out["llm_calls"] == 2 and 0 <= out["llm_parse_failures"] <= 2


def test_table_rows_and_chance_level_for_a_disconnected_cell():
    archs = np.array([[0, 0, 0, 0, 0, 0], [3, 3, 3, 3, 3, 3]])
    t = compute_table(archs, channels=4, epochs=1, lr=0.02, batch=64, table_seed=0,
                      zcp_batch=16)
    assert t.shape == (2, 7)
    assert t[0, 0] < 0.2 and t[0, 1] < 0.2  # constant logits: one class, about 10%
    assert t[1, 6] > t[0, 6]  # six conv edges add parameters
