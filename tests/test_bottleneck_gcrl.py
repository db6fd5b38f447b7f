import numpy as np
import pytest

from claimbench.baselines.tabular_gcrl import (FlatGCPolicy, GCValue, KMeansSubgoalGraph,
                                               SubgoalGraph, TimeSubgoalPolicy)
from claimbench.benchmarks.bottleneck_gcrl import doorway_iou
from claimbench.api import Instance
from claimbench.datasets.grid_mazes import (RoomMaze, bfs_distances, make_env, random_walks,
                                            room_maze, step_cell)
from claimbench.methods.bottleneck_gcrl import (LaplacianKeypoints, bottleneck_keypoints,
                                                spectral_regions)


def test_four_rooms_layout_and_dynamics():
    walls, doors = room_maze(2, 3, np.random.default_rng(0))
    assert walls.shape == (9, 9) and len(doors) == 4
    assert (~walls).sum() == 4 * 9 + 4  # four 3x3 rooms plus four doorways
    side = 9
    # Moving into the border leaves the agent in place; a free move changes one coordinate.
    assert step_cell(walls, 1 * side + 1, 0) == 1 * side + 1
    assert step_cell(walls, 1 * side + 1, 1) == 1 * side + 2
    assert step_cell(walls, 1 * side + 1, 2) == 2 * side + 1


def test_corridor_distance_and_env_episode():
    # A 1x5 corridor: the optimal return from one end to the other is -4 (4 moves).
    walls = np.ones((3, 7), dtype=bool)
    walls[1, 1:6] = False
    assert bfs_distances(walls, 1 * 7 + 1)[1 * 7 + 5] == 4
    env = make_env({"walls": walls, "max_steps": 10}, 8, 12)
    s, _ = env.reset(seed=0)
    ret, done = 0.0, False
    while not done:
        s, r, done, trunc, _ = env.step(1)
        ret += r
    assert s == 12 and ret == -4.0
    env = make_env({"walls": walls, "max_steps": 3}, 8, 12)
    env.reset(seed=0)
    outs = [env.step(3) for _ in range(3)]  # pushing into the wall: truncated, never terminated
    assert outs[-1][3] and not any(o[2] for o in outs)


def test_value_is_dataset_distance_without_noise():
    walls, _ = room_maze(2, 4, np.random.default_rng(1))
    cells, acts = random_walks(walls, 300, 60, 0.3, np.random.default_rng(2))
    v = GCValue(cells, acts, walls.size, sigma=0.0, seed=0)
    s = int(v.states[0])
    true = bfs_distances(walls, s)
    # Dataset distances are never shorter than true ones, and equal where the data covers it.
    d = v.D[v.index[s]]
    assert np.all(d >= true[v.states] - 1e-9)
    assert np.mean(d == true[v.states]) > 0.9
    # The greedy controller reaches any covered goal along a shortest dataset path.
    g = int(v.states[np.argmax(np.where(np.isfinite(d), d, -1))])
    env = make_env({"walls": walls, "max_steps": 200}, s, g)
    x, _ = env.reset()
    rng = np.random.default_rng(0)
    for t in range(200):
        x, _, term, _, _ = env.step(v.act(x, g, rng))
        if term:
            break
    assert term and t + 1 == d[v.index[g]]


def test_spectral_regions_find_the_rooms_and_doorways():
    inst = RoomMaze(rooms=2, room=5, n_traj=300).make(3)
    d = inst.data
    v = GCValue(d["cells"], d["actions"], d["side"] ** 2, 0.0, 0)
    labels, k = spectral_regions(v, 10, seed=0)
    assert k == 4
    # Each region is one room: room cells of one room share a label.
    side = d["side"]
    for r0, c0 in [(1, 1), (1, 7), (7, 1), (7, 7)]:
        cells = [(r0 + i) * side + c0 + j for i in range(5) for j in range(5)]
        idx = v.index[cells]
        assert len(set(labels[idx[idx >= 0]])) == 1
    kps = bottleneck_keypoints(v, d["cells"], labels, 3)
    assert doorway_iou(inst, {"keypoints": kps}) == 1.0


def test_doorway_iou_by_hand():
    inst = Instance(data={"side": 10}, truth={"doors": [(1, 1), (5, 5)]})
    assert doorway_iou(inst, {"keypoints": [11, 55]}) == 1.0
    assert doorway_iou(inst, {"keypoints": [12, 88]}) == pytest.approx(1 / 3)  # 1 matched of 3
    assert doorway_iou(inst, {"keypoints": [11, 12]}) == pytest.approx(1 / 3)  # one-to-one
    assert doorway_iou(inst, {}) is None


def test_subgoal_graph_edges_from_trajectories():
    walls = np.ones((3, 9), dtype=bool)
    walls[1, 1:8] = False
    cells = np.array([[10, 11, 12, 13, 14, 15, 16]])
    acts = np.ones((1, 6), dtype=int)
    v = GCValue(cells, acts, walls.size, 0.0, 0)
    g = SubgoalGraph([10, 13, 16], cells, v, horizon=3)
    assert set(g.graph.edges) == {(10, 13), (13, 16)}  # 10 -> 16 is 6 steps, beyond the horizon
    g.reset(10, 16)
    assert g.plan == [13]


def test_method_beats_mutant_and_flat_on_sixteen_rooms():
    inst = RoomMaze(rooms=4, room=4, n_traj=250, n_tasks=10).make(5)
    kp = LaplacianKeypoints().run(inst.data, 1)
    rnd = LaplacianKeypoints(mutant="random_kp").run(inst.data, 1)
    flat = FlatGCPolicy().run(inst.data, 1)
    assert doorway_iou(inst, kp) > 0.8 > doorway_iou(inst, rnd)
    assert kp["success_rate"] > flat["success_rate"]
    assert kp["n_keypoints"] == rnd["n_keypoints"]
    for m in (TimeSubgoalPolicy(), KMeansSubgoalGraph()):
        out = m.run(inst.data, 1)
        assert 0.0 <= out["success_rate"] <= 1.0
    with pytest.raises(ValueError):
        LaplacianKeypoints(mutant="nope").run(inst.data, 1)


def test_normalised_laplacian_spectrum_matches_dense_reference():
    # Four rooms: four near-zero Laplacian eigenvalues (one per room), then a gap; the eigsh
    # path and the dense path must agree on the number of regions.
    import scipy.linalg

    inst = RoomMaze(rooms=2, room=5, n_traj=300).make(4)
    d = inst.data
    v = GCValue(d["cells"], d["actions"], d["side"] ** 2, 0.0, 0)
    w = (v.adj + v.adj.T).toarray()
    w[w > 0] = 1.0
    deg = w.sum(1)
    lap = np.eye(len(w)) - w / np.sqrt(np.outer(deg, deg))
    lam = scipy.linalg.eigvalsh(lap)
    assert lam[0] == pytest.approx(0.0, abs=1e-10)
    assert lam[4] - lam[3] > 3 * lam[3]
    assert spectral_regions(v, 10, seed=0)[1] == 4  # eigsh path (11 of ~100 eigenpairs)
    assert spectral_regions(v, 30, seed=0)[1] == 4  # dense path (31 >= n / 4)
