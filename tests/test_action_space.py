import numpy as np
import pytest

from claimbench.baselines.chunked_behavior_cloning import ChunkedBC, decode_target, encode_chunks
from claimbench.datasets.planar_arm import (NOMINAL_LINKS, PlanarArmEnv, PlanarArmReaching,
                                            dls_step, expert_rollout, fk, jacobian, sample_tasks,
                                            track_joint)
from claimbench.methods.action_space import ChunkDeltaBC

LINKS = np.array(NOMINAL_LINKS)


def test_fk_known_configurations():
    assert np.allclose(fk(np.zeros(3), LINKS), [1.0, 0.0])
    assert np.allclose(fk(np.array([np.pi / 2, 0, 0]), LINKS), [0.0, 1.0])
    # elbow folded back by pi: second link cancels part of the first
    assert np.allclose(fk(np.array([0, np.pi, 0]), LINKS), [0.4 - 0.35 - 0.25, 0.0])


def test_jacobian_matches_finite_differences():
    q = np.random.default_rng(0).uniform(-2, 2, (5, 3))
    J = jacobian(q, LINKS)
    eps = 1e-6
    for j in range(3):
        dq = np.zeros(3)
        dq[j] = eps
        fd = (fk(q + dq, LINKS) - fk(q - dq, LINKS)) / (2 * eps)
        assert np.allclose(J[:, :, j], fd, atol=1e-7)


def test_dls_step_realises_small_displacement():
    q = np.array([[0.3, 0.8, 0.6]])
    dx = np.array([[0.01, -0.005]])
    dq = dls_step(q, dx, LINKS, damping=1e-4)
    assert np.allclose(jacobian(q, LINKS)[0] @ dq[0], dx[0], atol=1e-8)


def test_joint_tracking_is_speed_limited():
    q = np.zeros(3)
    nxt = track_joint(q, np.array([1.0, -0.1, 0.2]), max_dq=0.25)
    assert np.allclose(nxt, [0.25, -0.1, 0.2])


def test_expert_reaches_its_goals():
    inst = PlanarArmReaching(n_demos=100).make(3)
    d = inst.data
    err = np.linalg.norm(fk(d["demo_q"][:, -1], d["links"]) - d["demo_goal"], axis=1)
    assert np.mean(err < inst.truth["tol"]) >= 0.95
    assert d["demo_q"].shape == (100, 33, 3)


def test_noiseless_expert_moves_straight_at_capped_speed():
    rng = np.random.default_rng(1)
    q0, goal = sample_tasks(rng, 4, 1.0)
    traj = expert_rollout(q0, goal, LINKS, 5, ee_speed=0.03, damping=1e-3, max_dq=1.0,
                          noise=0.0, rng=rng)
    steps = np.linalg.norm(np.diff(fk(traj, LINKS), axis=1), axis=-1)  # (4, 5)
    assert np.allclose(steps, 0.03, rtol=0.05)


def test_env_holds_still_and_terminates_at_goal():
    env = PlanarArmEnv(mode="joint")
    obs, _ = env.reset(seed=0)
    q = obs[:3].copy()
    obs2, *_ = env.step(q)
    assert np.allclose(obs2[:3], q)
    env = PlanarArmEnv(mode="eef")
    env.reset(seed=0, options={"q0": [0.0, 1.0, 1.0], "goal": [0.5, 0.3]})
    for _ in range(40):
        _, reward, terminated, truncated, info = env.step(env.goal)
        if terminated:
            break
    assert terminated and info["dist"] < env.tol and reward > -env.tol


@pytest.mark.parametrize("mode", ["abs", "step_delta", "chunk_delta"])
def test_encode_decode_roundtrip(mode):
    s = np.random.default_rng(2).normal(size=(2, 11, 3)).cumsum(1)  # (B, T + 1, d)
    a = encode_chunks(s, 4, mode)  # (B, T, H, d)
    t = 3
    for k in range(4):
        target = decode_target(a[:, t, k], s[:, t], s[:, t + k], mode)
        assert np.allclose(target, s[:, t + k + 1])
    # past the end the arm holds still
    assert np.allclose(decode_target(a[:, -1, -1], s[:, -2], s[:, -1], mode), s[:, -1])


def test_mutant_decoding_overshoots_exact_labels():
    s = np.linspace(0, 1, 9)[None, :, None]  # straight-line state, (1, 9, 1)
    a = encode_chunks(s, 4, "chunk_delta")
    # decoding chunk-relative labels against the current state adds the past offsets again
    wrong = decode_target(a[:, 0, 2], s[:, 0], s[:, 2], "step_delta")
    assert np.allclose(wrong, s[:, 2] + (s[:, 3] - s[:, 0]))
    assert not np.allclose(wrong, s[:, 3])


def test_method_learns_and_mutant_fails():
    import torch

    torch.set_num_threads(1)
    inst = PlanarArmReaching(n_demos=20, n_eval=30).make(0)

    def success(out):
        return np.mean(np.linalg.norm(out["final_ee"] - inst.truth["eval_goal"], axis=1)
                       < inst.truth["tol"])

    good = ChunkDeltaBC(space="eef", steps=300).run(inst.data, 1)
    bad = ChunkDeltaBC(space="eef", steps=300, mutant="decode_stepwise").run(inst.data, 1)
    assert success(good) >= 0.7 and success(bad) <= 0.2
    assert good["final_ee"].shape == (30, 2) and np.isfinite(good["jerk"])


def test_seeded_and_validated():
    inst = PlanarArmReaching(n_demos=5, n_eval=4).make(0)
    a = ChunkedBC(steps=20).run(inst.data, 7)
    b = ChunkedBC(steps=20).run(inst.data, 7)
    assert np.array_equal(a["final_ee"], b["final_ee"])
    with pytest.raises(ValueError):
        ChunkDeltaBC(steps=1, mutant="nope").run(inst.data, 0)
    with pytest.raises(ValueError):
        ChunkedBC(steps=1, mode="nope").run(inst.data, 0)
