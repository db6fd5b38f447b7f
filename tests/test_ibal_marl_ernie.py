import numpy as np

from claimbench.baselines.ernie import ERNIE, neighbours, regularise, train_ernie
from claimbench.baselines.vdn_adversarial import VDN
from claimbench.datasets.level_foraging import LevelForaging


def test_neighbours_manhattan_ball():
    assert sorted(neighbours(12, 5, 1)) == [7, 11, 13, 17]  # centre of a 5x5 grid
    assert sorted(neighbours(0, 5, 1)) == [1, 5]  # a corner has two
    assert len(neighbours(12, 5, 2)) == 12  # 4 at distance 1, 8 at distance 2


def test_regularise_picks_farthest_row_and_pulls_both():
    q = [[0.0] * 6, [1.0] * 6, [3.0] * 6]
    worst = regularise(q, 0, [1, 2], 0.5)
    assert worst == 2  # ||q0 - q2|| > ||q0 - q1||: the adversarial perturbation
    assert q[0] == [1.5] * 6 and q[2] == [1.5] * 6 and q[1] == [1.0] * 6
    assert regularise(q, 0, [], 0.5) == -1 and q[0] == [1.5] * 6


def _gap(q, data, size=5):
    """Mean over visited clean rows of the largest squared distance to a neighbour row."""
    from claimbench.baselines.vdn_adversarial import ObsCoder
    coder = ObsCoder(size, len(data["food_cells"]))
    q = np.asarray(q)  # (2, n_obs, 6)
    gaps = []
    for i in range(2):
        for own in range(size * size):
            for mate in range(size * size):
                for flags in range(4):
                    row = (own * (coder.cells + 1) + mate) * 4 + flags
                    if not np.any(q[i, row]):
                        continue
                    nb = [(own * (coder.cells + 1) + m) * 4 + flags
                          for m in neighbours(mate, size, 1)]
                    gaps.append(max(((q[i, row] - q[i, o]) ** 2).sum() for o in nb))
    return float(np.mean(gaps))


def test_regulariser_smooths_values_in_the_teammate_view():
    data = LevelForaging().make(0).data
    _, _, q0 = train_ernie(data, 0, 300, 0.1, 0.95, 0.05, 0.0, 1)
    _, _, q1 = train_ernie(data, 0, 300, 0.1, 0.95, 0.05, 2.0, 1)
    assert _gap(q1, data) < 0.5 * _gap(q0, data)


def test_ernie_outputs_every_attack_metric():
    data = LevelForaging().make(0).data
    out = ERNIE(n_episodes=100, n_eval=4, mi_batch=2).run(data, 0)
    assert set(out) == set(VDN(n_episodes=100, n_eval=4, mi_batch=2).run(data, 0))
    assert out["visited_masked_rows"] == 0  # clean training never sees a masked teammate
    assert all(0.0 <= out[f"return_{a}"] <= 1.0
               for a in ("clean", "noise", "value", "ib", "missing", "mi"))
