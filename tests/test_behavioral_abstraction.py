"""Unit tests for behavioral_abstraction: MDP dynamics, partition refinement, invariants, the
bisimulation metric and the approximate-aggregation bound, on cases with known answers."""
from __future__ import annotations

import numpy as np
import pytest

from claimbench.baselines.approximate_aggregation import (EpsilonAggregation, block_probs)
from claimbench.baselines.bisimulation_metric import (FernsBisimulationMetric, bisimulation_metric,
                                                      kantorovich)
from claimbench.benchmarks.behavioral_abstraction import (BENCHMARK, _closed_leak,
                                                          _metric_violation, _value_err)
from claimbench.datasets.finite_mdps import LumpableMDP, optimal_values
from claimbench.methods.behavioral_abstraction import (HomomorphicAbstraction,
                                                       bisimulation_partition, closed_sets,
                                                       controlled_invariant, merge_two_blocks)

GAMMA = 0.9


def _two_state():
    # s0: a0 stays (reward 1), a1 moves to s1 (reward 0); s1 absorbing with reward 2 under both.
    R = np.array([[1.0, 0.0], [2.0, 2.0]])
    P = np.zeros((2, 2, 2))
    P[0, 0, 0] = P[0, 1, 1] = P[1, 0, 1] = P[1, 1, 1] = 1.0
    return R, P


def test_policy_iteration_two_state_by_hand():
    R, P = _two_state()
    V, pi = optimal_values(R, P, GAMMA)
    # V(s1) = 2 / (1 - 0.9) = 20; V(s0) = max(1 / 0.1, 0 + 0.9 * 20) = 18 via a1
    assert np.allclose(V, [18.0, 20.0], atol=1e-12) and pi[0] == 1


def test_policy_iteration_matches_linear_program():
    from scipy.optimize import linprog

    inst = LumpableMDP(n_states=12, n_blocks=4).make(3)
    R, P = inst.data["R"], inst.data["P"]
    n, A = R.shape
    # min sum V s.t. V(s) >= R(s,a) + gamma P(s,a) V for all s, a
    A_ub = np.concatenate([GAMMA * P[:, a, :] - np.eye(n) for a in range(A)])
    b_ub = -np.concatenate([R[:, a] for a in range(A)])
    lp = linprog(np.ones(n), A_ub=A_ub, b_ub=b_ub, bounds=[(None, None)] * n, method="highs")
    assert np.allclose(inst.truth["V"], lp.x, atol=1e-7)


@pytest.mark.parametrize("eps", [0.0, 0.05])
def test_lumpable_mdp_dynamics(eps):
    inst = LumpableMDP(n_states=40, n_blocks=6, eps=eps).make(7)
    R, P, block = inst.data["R"], inst.data["P"], inst.truth["block"]
    assert np.allclose(P.sum(axis=2), 1.0) and (P >= 0).all()
    Pb = block_probs(P, block, 6)
    for b in range(6):
        members = block == b
        assert np.allclose(Pb[members], Pb[members][0], atol=1e-12)  # lumpable
        assert np.abs(R[members] - R[members][0]).max() <= 2 * eps + 1e-15
    A_region = inst.truth["region_a"]
    assert np.allclose(P[A_region][:, :, A_region].sum(axis=2), 1.0)  # region A closed
    assert np.allclose(P[~A_region][:, 0, :][:, ~A_region].sum(axis=1), 1.0)  # B under a0


def test_partition_refinement_hand_case():
    # three states, one action, reward 1 everywhere, s1 and s2 move to s0, s0 absorbing:
    # all three are bisimilar (V = 10 each), one block
    R = np.ones((3, 1))
    P = np.zeros((3, 1, 3))
    P[:, 0, 0] = 1.0
    assert bisimulation_partition(R, P).tolist() == [0, 0, 0]
    # now s0 pays 2 and s2 is absorbing: s1 (-> s0) and s2 share rewards but not futures, so
    # rewards alone merge them and the refinement must split them
    R[0, 0] = 2.0
    P[2, 0] = 0.0
    P[2, 0, 2] = 1.0
    assert len(set(bisimulation_partition(R, P).tolist())) == 3
    coarse = bisimulation_partition(R, P, refine=False)
    assert coarse[1] == coarse[2] != coarse[0]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_refinement_is_at_least_as_coarse_as_planted(seed):
    inst = LumpableMDP(n_states=50, n_blocks=8).make(seed)
    phi = bisimulation_partition(inst.data["R"], inst.data["P"])
    block = inst.truth["block"]
    for b in range(8):  # every planted block lies inside one bisimulation block
        assert len(set(phi[block == b])) == 1


def test_closed_sets_and_controlled_invariant_by_hand():
    # 0 -> 1 -> 1 (absorbing) under both actions; 2: a0 stays, a1 -> 0
    P = np.zeros((3, 2, 3))
    P[0, :, 1] = 1.0
    P[1, :, 1] = 1.0
    P[2, 0, 2] = 1.0
    P[2, 1, 0] = 1.0
    cs = closed_sets(P)
    assert cs[0].tolist() == [True, True, False] and cs[1].tolist() == [False, True, False]
    assert cs[2].all()
    assert controlled_invariant(P, np.array([False, False, True])).tolist() == [False, False, True]
    # from {0, 2}: 0 must leave to 1, 2 can stay under a0
    assert controlled_invariant(P, np.array([True, False, True])).tolist() == [False, False, True]
    assert not controlled_invariant(P, np.array([True, False, False])).any()


def test_kantorovich_matches_scipy_on_a_line():
    from scipy.stats import wasserstein_distance

    x = np.array([0.0, 1.0, 3.0, 7.0])
    D = np.abs(x[:, None] - x[None, :])
    p, q = np.array([0.5, 0.5, 0, 0]), np.array([0, 0.25, 0.25, 0.5])
    assert kantorovich(p, q, D) == pytest.approx(wasserstein_distance(x, x, p, q), abs=1e-12)


def _naive_metric(R, P, c_T, iters=300):
    n, A = R.shape
    d = np.zeros((n, n))
    for _ in range(iters):
        d = np.array([[max(abs(R[s, a] - R[t, a]) + c_T * kantorovich(P[s, a], P[t, a], d)
                           for a in range(A)) for t in range(n)] for s in range(n)])
    return d


def test_metric_strategy_iteration_matches_value_iteration():
    inst = LumpableMDP(n_states=6, n_blocks=3, n_actions=2).make(5)
    R, P = inst.data["R"], inst.data["P"]
    d, _ = bisimulation_metric(R, P, 1.0, GAMMA)
    assert np.allclose(d, _naive_metric(R, P, GAMMA), atol=1e-10)
    V = inst.truth["V"]
    assert (np.abs(V[:, None] - V[None, :]) <= d + 1e-10).all()
    # bisimilar (same planted block) states are at distance 0
    block = inst.truth["block"]
    assert np.allclose(d[block[:, None] == block[None, :]], 0.0, atol=1e-10)


def test_method_exact_on_lumpable_mdp_and_mutants_caught():
    inst = LumpableMDP(n_states=30, n_blocks=8).make(0)
    out = HomomorphicAbstraction().run(inst.data, 0)
    assert _value_err(inst, out) < 1e-10
    assert _closed_leak(inst, out) < 1e-10
    assert _metric_violation(inst, out) < 1e-8
    ref = FernsBisimulationMetric().run(inst.data, 0)
    assert np.allclose(out["d"], ref["d"], atol=1e-9)  # metric pulls back to the concrete one
    merged = HomomorphicAbstraction(mutant="merge_blocks").run(inst.data, 0)
    assert merged["n_abstract"] == out["n_abstract"] - 1 and _value_err(inst, merged) > 1e-3
    one_step = HomomorphicAbstraction(mutant="one_step_metric").run(inst.data, 0)
    assert _metric_violation(inst, one_step) > 1e-3


def test_reward_only_mutant_caught():
    errs, leaks = [], []
    for seed in range(4):
        inst = LumpableMDP(n_states=30).make(seed)
        out = HomomorphicAbstraction(mutant="reward_only").run(inst.data, seed)
        errs.append(_value_err(inst, out))
        leaks.append(_closed_leak(inst, out))
    assert max(errs) > 1e-3 and max(leaks) > 1e-3


def test_merge_two_blocks():
    phi = np.array([0, 1, 1, 2, 0])
    V_abs = np.array([5.0, 9.0, 1.0])  # blocks 1 (max) and 2 (min) merge
    assert merge_two_blocks(phi, V_abs).tolist() == [0, 1, 1, 1, 0]


@pytest.mark.parametrize("eps", [0.0, 0.05])
def test_eps_aggregation_bound_holds(eps):
    for seed in range(3):
        inst = LumpableMDP(n_states=60, eps=eps).make(seed)
        out = EpsilonAggregation().run(inst.data, seed)
        assert _value_err(inst, out) <= out["bound"] + 1e-9
        assert out["n_abstract"] <= 8 or eps > 0


def test_eps_aggregation_reward_only_mutant_violates_its_bound():
    excess = []
    for seed in range(4):
        inst = LumpableMDP(n_states=30).make(seed)
        out = EpsilonAggregation(mutant="reward_only").run(inst.data, seed)
        excess.append(_value_err(inst, out) - out["bound"])
    assert max(excess) > 1e-3


def test_declaration_foils_in_grids():
    labels = {c.label for c in BENCHMARK.grids["smoke"].methods}
    for claim in BENCHMARK.claims:
        assert set(claim.foils) <= labels
