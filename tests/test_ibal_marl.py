import numpy as np

from claimbench.baselines.vdn_adversarial import (PLANS, VDN, ObsCoder, cross_mi, episode,
                                                fit_mi_attack, observe, train_vdn)
from claimbench.datasets.level_foraging import EAST, LOAD, NOOP, NORTH, WEST, Foraging, LevelForaging
from claimbench.methods.ibal_marl import IBAL


def test_level2_food_needs_both_agents():
    # Food of level 2 at cell 7 (row 1, col 2); agents at 6 (west) and 8 (east) on a 5x5 grid.
    env = Foraging(5, (7,), (2,), (1, 1), horizon=5)
    env.reset(np.random.default_rng(0))
    env.pos = [6, 8]
    _, r, done = env.step([LOAD, NOOP])
    assert r == 0.0 and not done  # one level-1 agent cannot lift a level-2 food
    _, r, done = env.step([LOAD, LOAD])
    assert r == 1.0 and done  # together they collect it: the optimal return of 1


def test_moves_blocked_by_food_walls_and_agents():
    env = Foraging(5, (7, 18), (2, 1), (1, 1), horizon=20)
    env.reset(np.random.default_rng(0))
    env.pos = [6, 0]
    env.step([EAST, WEST])  # 6 -> 7 is a food: stays; 0 -> west is off the grid: stays
    assert env.pos == [6, 0]
    env.pos = [5, 0]
    env.step([NOOP, NORTH])  # north from row 0 is off the grid
    assert env.pos == [5, 0]
    env.pos = [1, 3]
    env.step([EAST, WEST])  # both target cell 2: contested, neither moves
    assert env.pos == [1, 3]


def test_single_agent_collects_level1_food_optimal_return():
    env = Foraging(5, (7, 18), (2, 1), (1, 1), horizon=20)
    env.reset(np.random.default_rng(0))
    env.pos = [17, 0]  # 17 is west of food 18
    _, r, _ = env.step([LOAD, NOOP])
    assert np.isclose(r, 1 / 3)  # level 1 of total 3


def test_dataset_seeded_and_obs_mask():
    a, b = LevelForaging().make(3), LevelForaging().make(3)
    assert a.data == b.data
    coder = ObsCoder(5, 2)
    state = ((0, 24), (True, True))
    masked = observe(state, coder, True, -1, np.random.default_rng(0))
    clean = observe(state, coder, False, -1, np.random.default_rng(0))
    assert masked != clean and masked[0] == coder(0, coder.mask, (True, True))


def test_vdn_update_and_missing_agent():
    env = Foraging(5, (7,), (1,), (1, 1), horizon=3)
    coder = ObsCoder(5, 1)
    q = [np.zeros((coder.n, 6)) for _ in range(2)]
    rng = np.random.default_rng(0)
    rets = [episode(env, q, coder, rng, "none", 0.3, eps=1.0, learn=True) for _ in range(50)]
    assert max(rets) <= 1.0 and any(np.abs(qi).sum() > 0 for qi in q)
    # A missing agent (frozen at NOOP) leaves the level-2 food out of reach: return <= 1/3.
    env2 = Foraging(5, (7, 18), (2, 1), (1, 1), horizon=30)
    coder2 = ObsCoder(5, 2)
    q0 = [np.zeros((coder2.n, 6)) for _ in range(2)]
    rng2 = np.random.default_rng(1)
    rets = [episode(env2, q0, coder2, rng2, "missing", 0.0, eps=1.0) for _ in range(40)]
    assert max(rets) <= 1 / 3 + 1e-12


def test_ibal_trains_on_masked_rows_vanilla_does_not():
    data = LevelForaging().make(0).data
    ib = IBAL(n_episodes=150, n_eval=5).run(data, 0)
    va = VDN(n_episodes=150, n_eval=5).run(data, 0)
    nm = IBAL(n_episodes=150, n_eval=5, mutant="no_mask").run(data, 0)
    assert ib["visited_masked_rows"] > 0
    assert va["visited_masked_rows"] == 0 and nm["visited_masked_rows"] == 0
    assert set(ib) == set(va)


def test_plugin_mi_independent_vs_copied():
    rng = np.random.default_rng(0)
    x = rng.integers(4, size=20000)
    copied = np.c_[x, x]  # I(X; X) = H(X) = log 4 for a uniform 4-valued X
    assert np.isclose(cross_mi(copied), np.log(4), atol=1e-3)
    indep = np.c_[x, rng.integers(4, size=20000)]
    assert cross_mi(indep) < 2e-3  # plug-in bias about (4-1)^2 / (2n)
    assert cross_mi(np.c_[x, np.zeros_like(x)]) == 0.0  # a constant carries no information
    assert cross_mi([]) == 0.0


def test_mi_attacker_picks_min_estimate_constant_action_is_zero():
    data = LevelForaging().make(0).data
    env, coder, q = train_vdn(data, 0, "none", 0.3, 200, 0.1, 0.95, 0.05)
    # Budget p = 1: a NOOP victim action on every step is constant, so its MI estimate is 0.
    plan, est = fit_mi_attack(env, coder, q, np.random.default_rng(0), 1.0, 3, "min")
    assert est[("keep", "noop")] == 0.0 and est[plan] == min(est.values()) == 0.0
    plan_max, est_max = fit_mi_attack(env, coder, q, np.random.default_rng(0), 1.0, 3, "max")
    assert est_max == est and est[plan_max] == max(est.values()) > 0.0
    assert len(est) == len(PLANS) == 9


def test_mi_attack_outputs_for_every_method():
    data = LevelForaging().make(0).data
    out = VDN(n_episodes=100, n_eval=4, mi_batch=2).run(data, 0)
    for k in ("return_mi", "interaction_mi", "interaction_clean", "return_drop_mi_vs_noise"):
        assert k in out
    assert np.isclose(out["return_drop_mi_vs_noise"], out["return_noise"] - out["return_mi"])
    assert set(IBAL(n_episodes=100, n_eval=4, mi_batch=2).run(data, 0)) == set(out)
