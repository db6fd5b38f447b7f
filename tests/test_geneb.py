import numpy as np
import pytest

from claimbench.baselines.kmer_spectrum import kmer_counts, kmer_index
from claimbench.baselines.linear_probe import fit_predict, kshot_indices, mcc
from claimbench.baselines.random_conv_features import n_params, random_conv_features
from claimbench.baselines.random_projection_features import random_projection_features
from claimbench.datasets.genomic_tasks import CATEGORIES, GenomicTaskSuite, revcomp
from claimbench.methods.geneb import GENEB, protocol_statistics, selection_gain


def test_kmer_counts_by_hand():
    X = np.array([[0, 1, 0, 1, 2]])  # ACACG
    assert kmer_index(X, 2).tolist() == [[1, 4, 1, 6]]  # AC, CA, AC, CG
    c = kmer_counts(X, 2, normalise=False)[0]
    assert c[1] == 2 and c[4] == 1 and c[6] == 1 and c.sum() == 4
    assert np.allclose(kmer_counts(X, 1)[0], [0.4, 0.4, 0.2, 0.0])


def test_mcc_matches_sklearn_and_edge_cases():
    from sklearn.metrics import matthews_corrcoef

    rng = np.random.default_rng(0)
    for _ in range(5):
        y, p = rng.integers(0, 2, 50), rng.integers(0, 2, 50)
        assert mcc(y, p) == pytest.approx(matthews_corrcoef(y, p))
    assert mcc([0, 1, 0, 1], [0, 1, 0, 1]) == 1.0
    assert mcc([0, 1, 0, 1], [1, 0, 1, 0]) == -1.0
    assert mcc([0, 1, 0, 1], [1, 1, 1, 1]) == 0.0  # constant prediction


def test_kshot_and_probe_on_separable_data():
    rng = np.random.default_rng(1)
    y = np.arange(200) % 2
    F = rng.standard_normal((200, 5))
    F[:, 0] += 4 * y  # class means 4 apart on one axis
    idx = kshot_indices(y[:100], 10, rng)
    assert len(idx) == 20 and np.sum(y[idx]) == 10 and len(set(idx)) == 20
    p = fit_predict(F[:100][idx], y[idx], F[100:])
    assert mcc(y[100:], p) > 0.8


def test_featurisers_shapes_and_determinism():
    X = np.random.default_rng(2).integers(0, 4, (7, 30))
    a = random_conv_features(X, 8, seed=3)
    assert a.shape == (7, 16) and np.allclose(a, random_conv_features(X, 8, seed=3))
    assert (a >= 0).all() and n_params(8) == 4 * 9 * 8 + 8
    b = random_projection_features(X, 12, seed=4)
    assert b.shape == (7, 12)
    assert not np.allclose(b, random_projection_features(X, 12, seed=5))
    # closed form: an all-A sequence of length L maps to sum_t P[4 t], P as drawn from the seed
    P = np.random.default_rng(4).standard_normal((4 * 30, 12)) / np.sqrt(4 * 30)
    allA = random_projection_features(np.zeros((1, 30), dtype=int), 12, seed=4)[0]
    assert np.allclose(allA, P[0::4].sum(axis=0))


def test_dataset_rules_are_planted():
    inst = GenomicTaskSuite(tasks_per_category=1, seq_len=60, n_train=40, n_test=40).make(0)
    tasks, rules = inst.data["tasks"], inst.truth["rules"]
    assert [t["category"] for t in tasks] == list(CATEGORIES)
    for t in tasks:
        assert t["x_train"].shape == (40, 60) and set(np.unique(t["y_train"])) <= {0, 1}
        assert "pwm" not in t and "rule" not in t  # the rule stays in truth
    prom = tasks[CATEGORIES.index("promoter_position")]
    pos = rules[CATEGORIES.index("promoter_position")]["position"]
    pos_rows = prom["x_train"][prom["y_train"] == 1]
    assert (pos_rows[:, pos:pos + 6] == [3, 0, 3, 0, 0, 0]).all()
    gc = tasks[CATEGORIES.index("gc_content")]
    frac = np.isin(gc["x_train"], (1, 2)).mean(axis=1)
    assert frac[gc["y_train"] == 1].mean() > frac[gc["y_train"] == 0].mean()
    assert (revcomp(np.array([0, 1, 2, 2])) == [1, 1, 2, 3]).all()
    again = GenomicTaskSuite(tasks_per_category=1, seq_len=60, n_train=40, n_test=40).make(0)
    assert (again.data["tasks"][0]["x_test"] == tasks[0]["x_test"]).all()


def test_selection_gain_by_hand():
    # two categories, two featurisers: f0 wins category 0 by 0.4, f1 wins category 1 by 0.1,
    # aggregate winner f0 (0.5 + 0.2 > 0.1 + 0.3): gain = (0 + 0.1) / 2
    C = np.array([[0.5, 0.1], [0.2, 0.3]])
    assert selection_gain(C, C) == pytest.approx(0.05)
    # a dominant featuriser: category winners = aggregate winner, gain 0
    D = np.array([[0.9, 0.1], [0.8, 0.3]])
    assert selection_gain(D, D) == 0.0


def test_protocol_statistics_dominant_vs_crossing():
    cats = ["a", "a", "b", "b", "c", "c"]
    rng = np.random.default_rng(3)
    dom = np.tile([0.9, 0.6, 0.3], (6, 1)) + 0.01 * rng.standard_normal((6, 3))
    S = {k: dom for k in ("full", "fullA", "fullB", "few", "fewA", "fewB")}
    st = protocol_statistics(S, cats, np.array([10.0, 100.0, 1000.0]))
    assert st["tau_cat_agg"] == pytest.approx(1.0) and st["winner_change_frac"] == 0.0
    assert st["selection_gain"] == 0.0 and st["scale_spearman"] == pytest.approx(-1.0)
    # each featuriser wins one category; 10-shot reverses the order in every category
    cross = np.array([[0.9, 0.1, 0.2]] * 2 + [[0.1, 0.9, 0.2]] * 2 + [[0.2, 0.1, 0.9]] * 2)
    few = 1.0 - cross
    S = {"full": cross, "fullA": cross, "fullB": cross, "few": few, "fewA": few, "fewB": few}
    st = protocol_statistics(S, cats, np.array([1.0, 2.0, 3.0]))
    assert st["tau_cat_agg"] < 0.6 and st["winner_change_frac"] == 1.0
    # aggregate winner f2 (0.433); gains by category 0.9 - 0.2, 0.9 - 0.2, 0
    assert st["selection_gain"] == pytest.approx(1.4 / 3)
    assert st["fewshot_regret"] == pytest.approx(0.8)  # 10-shot winners beat by 0.8 each


def test_protocol_and_foils_behave_as_designed():
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1):  # as the runner's workers; BLAS threads only slow small fits
        _protocol_and_foils()


def _protocol_and_foils():
    inst = GenomicTaskSuite(n_categories=13, tasks_per_category=1, seq_len=60, n_train=64,
                            n_test=64).make(5)
    kw = dict(few_shot_draws=1, kmax=3, cnn_widths=(8, 64), proj_dims=(16, 128),
              n_replicas=3, dilution_dims=(0, 512))
    zoo = GENEB(**kw).run(inst.data, 5)
    noisy = GENEB(featurisers="noisy_copies", noise_levels=(0.0, 6.0), **kw).run(inst.data, 5)
    diluted = GENEB(featurisers="diluted", **kw).run(inst.data, 5)
    replicas = GENEB(featurisers="replicas", **kw).run(inst.data, 5)
    assert zoo["n_featurisers"] == 7 and zoo["featuriser_labels"][0] == "kmer1"
    # the noise-free copy wins nearly every category; noise dilution only hurts
    assert noisy["tau_cat_agg"] > zoo["tau_cat_agg"]
    assert diluted["scale_spearman"] == pytest.approx(-1.0)
    assert replicas["scale_spearman"] is None  # one size: rho undefined
    assert zoo["selection_gain"] > noisy["selection_gain"]
