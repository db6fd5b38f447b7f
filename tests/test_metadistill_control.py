"""Tests for metadistill's control task (c6): the numpy Acrobot against Gymnasium's
Acrobot-v1 where it is installed, closed-form cases of the episode count and the policy
layout, and the link to the BBOB split's training set."""
import numpy as np
import pytest

from claimbench.datasets.metabbo_control import (
    N_WEIGHTS, TORQUES, MetaBBOControl, acrobot_step, at_goal, episode_steps, observe,
    policy_actions)
from claimbench.datasets.metabbo_transfer import MetaBBOTransfer
from claimbench.methods.metadistill import MetaDistill


def test_policy_layout_is_the_codes_evonet():
    # 6*32 + 32 + 32*3 + 3 weights, laid out w1 (32, 6), b1, w2 (3, 32), b2 (EvoNet.set_params)
    assert N_WEIGHTS == 323
    W = np.zeros((2, N_WEIGHTS))
    W[0, -3:] = [0.0, 0.0, 1.0]  # b2 alone picks action 2
    W[1, -3:] = [1.0, 0.0, 0.0]
    obs = np.ones((2, 6))
    assert policy_actions(W, obs).tolist() == [2, 0]
    # a single hidden unit reading obs[5] through w1[0, 5], b1 = 0, w2[1, 0] = 1: action 1 iff obs[5] > 0
    W = np.zeros((2, N_WEIGHTS))
    W[:, 5] = 1.0
    W[:, 6 * 32 + 32 + 1 * 32 + 0] = 1.0
    W[:, -3:] = [0.0, 0.0, -1.0]  # keeps action 2 out; action 0 wins ties (argmax)
    obs = np.zeros((2, 6))
    obs[:, 5] = [2.0, -2.0]
    assert policy_actions(W, obs).tolist() == [1, 0]


def test_hanging_at_rest_stays_at_rest_and_never_reaches_the_goal():
    s = np.zeros((1, 4))
    for _ in range(5):
        s = acrobot_step(s, np.zeros(1))
    assert np.allclose(s, 0.0)
    # action 1 (no torque) everywhere: b2 picks it; the episode runs out at 256 steps
    W = np.zeros((1, N_WEIGHTS))
    W[0, -3:] = [0.0, 1.0, 0.0]
    assert episode_steps(W, np.zeros(4)).tolist() == [256.0]
    assert episode_steps(W, np.zeros(4), max_steps=10).tolist() == [10.0]


def test_goal_test_and_observation():
    s = np.array([[np.pi, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]])  # upright / hanging
    assert at_goal(s).tolist() == [True, False]
    assert np.allclose(observe(s)[0], [-1.0, 0.0, 1.0, 0.0, 0.0, 0.0], atol=1e-12)


def test_matches_gymnasium_acrobot():
    gym = pytest.importorskip("gymnasium")
    env = gym.make("Acrobot-v1").unwrapped
    env.reset(seed=3)
    s = env.state.copy()[None]
    for a in np.random.default_rng(0).integers(0, 3, 120):
        obs, reward, term, _, _ = env.step(int(a))
        s = acrobot_step(s, TORQUES[[a]])
        assert np.allclose(s[0], env.state, atol=1e-6)
        assert np.allclose(observe(s)[0], obs, atol=1e-5)
        assert bool(at_goal(s)[0]) == term
        if term:
            break


def test_episode_count_matches_a_gymnasium_rollout():
    gym = pytest.importorskip("gymnasium")
    rng = np.random.default_rng(4)
    W = rng.uniform(-5, 5, (12, N_WEIGHTS))
    start = rng.uniform(-0.1, 0.1, 4)
    ours = episode_steps(W, start)
    for w, n in zip(W, ours):
        env = gym.make("Acrobot-v1").unwrapped
        env.reset(seed=0)
        env.state = start.copy()
        s, total = start[None].copy(), 0.0
        for _ in range(256):
            a = int(policy_actions(w[None], observe(s))[0])
            _, reward, term, _, _ = env.step(a)
            s = env.state.copy()[None]
            total += reward
            if term:
                break
        assert n == -total
    assert ours.min() < 256  # some random policy reaches the goal: the comparison is not vacuous


def test_control_cell_shares_the_bbob_splits_training_set():
    a = MetaBBOControl(split=3).make(0).data["train"]
    b = MetaBBOTransfer(split=3, fid=7, dim=20).make(0).data["train"]
    assert a["key"] == b["key"] and a["seed"] == b["seed"]
    ta, tb = a["sample_tasks"](np.random.default_rng(1)), b["sample_tasks"](np.random.default_rng(1))
    assert [np.array_equal(x[0].offset, y[0].offset) for x, y in zip(ta, tb)] == [True] * 5
    # the objective is deterministic and the start differs across splits
    d = MetaBBOControl(split=3).make(0).data
    X = np.random.default_rng(2).uniform(-5, 5, (4, N_WEIGHTS))
    assert np.array_equal(d["f"](X), d["f"](X))
    assert not np.array_equal(d["f"].start, MetaBBOControl(split=4).make(0).data["f"].start)


def test_ssft_variants_do_not_apply_to_the_control_task():
    ctrl, bbob = MetaBBOControl(split=0), MetaBBOTransfer(split=0)
    assert MetaDistill(ssft_interval=1).applies_to(ctrl)
    assert MetaDistill(ssft_interval=1).applies_to(bbob) is None
    assert MetaDistill().applies_to(ctrl) is None
