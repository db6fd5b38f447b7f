"""Unit tests for the early-exit benchmark: ECE, temperature scaling, exit rule, curve area, EEFP."""
from __future__ import annotations

import numpy as np
import pytest

from claimbench.baselines.early_exit_network import (PlainEarlyExit, accuracy_at_cost,
                                                     cost_accuracy_curve, curve_area, exit_costs,
                                                     exit_indices, softmax)
from claimbench.baselines.temperature_scaling import expected_calibration_error, fit_temperature
from claimbench.benchmarks.eefp_early_exit import BENCHMARK
from claimbench.datasets.early_exit_tasks import DigitsExitTask, SyntheticExitTask
from claimbench.methods.eefp_early_exit import auroc, eefp_labels, eefp_score, exit_features


def test_ece_hand_example():
    # bin (0.8, 0.9]: conf 0.9, accuracy 1/2 -> gap 0.4; bin (0.5, 0.6]: conf 0.6, accuracy 1 -> 0.4
    conf = np.array([0.9, 0.9, 0.6, 0.6])
    correct = np.array([1, 0, 1, 1])
    assert expected_calibration_error(conf, correct, n_bins=10) == pytest.approx(0.4)
    # calibrated within each bin: 3 of 4 right at 0.75, 1 of 4 right at 0.25
    conf = np.array([0.75] * 4 + [0.25] * 4)
    correct = np.array([1, 1, 1, 0, 1, 0, 0, 0])
    assert expected_calibration_error(conf, correct) == pytest.approx(0.0, abs=1e-12)


def test_temperature_scaling_recovers_known_temperature():
    rng = np.random.default_rng(0)
    logits = 3.0 * rng.standard_normal((20000, 5))  # (N, C)
    p = softmax(logits / 2.0)  # the labels' true distribution has temperature 2
    labels = (rng.random((20000, 1)) > p.cumsum(axis=1)).sum(axis=1)
    assert fit_temperature(logits, labels) == pytest.approx(2.0, rel=0.05)


def test_exit_rule_extremes():
    conf = np.random.default_rng(1).random((4, 50))  # (E, N)
    assert np.all(exit_indices(conf, 0.0) == 0)
    assert np.all(exit_indices(conf, 1.01) == 3)
    conf = np.array([[0.2, 0.9], [0.6, 0.1], [0.1, 0.1]])
    assert exit_indices(conf, 0.5).tolist() == [1, 0]


def test_curve_area_perfect_and_hand_cases():
    conf = np.random.default_rng(2).random((3, 40))
    costs = np.array([0.2, 0.5, 1.0])
    cost, acc = cost_accuracy_curve(conf, np.ones((3, 40), bool), costs)
    assert cost[0] == pytest.approx(0.2) and cost[-1] == pytest.approx(1.0)
    assert curve_area(cost, acc) == pytest.approx(1.0)
    assert curve_area([0.2, 1.0], [0.5, 1.0]) == pytest.approx(0.75)
    assert accuracy_at_cost(np.array([0.2, 1.0]), np.array([0.5, 1.0]), 0.6) == pytest.approx(0.75)
    assert accuracy_at_cost(np.array([0.2, 1.0]), np.array([0.5, 1.0]), 0.1) is None


def test_exit_costs_increase_to_one():
    c = exit_costs(64, (8, 16, 32, 64), 10)
    assert np.all(np.diff(c) > 0) and c[-1] == pytest.approx(1.0)
    # block 1: 2*64*8 + head 2*8*10 = 1184 of the total 23136 FLOPs
    assert c[0] == pytest.approx(1184 / 23136)


def test_eefp_labels_hand_example():
    # samples: right-then-wrong, wrong-then-right, always wrong, right only at the end
    correct = np.array([[1, 0, 0, 0],
                        [0, 1, 0, 0],
                        [0, 1, 0, 1]], bool)  # (E=3, N=4)
    # the first sample is wrong at the second exit and nothing later fixes it: a positive
    assert eefp_labels(correct).astype(int).tolist() == [[1, 0, 1, 0], [1, 1, 1, 0]]


def test_auroc_matches_sklearn_and_eefp_of_oracle():
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(3)
    y = rng.random(300) < 0.3
    s = np.round(rng.random(300) + 0.5 * y, 1)  # ties on purpose
    assert auroc(s, y) == pytest.approx(roc_auc_score(y, s))
    assert auroc(s, np.ones(300, bool)) is None
    correct = rng.random((4, 200)) < 0.7  # (E, N)
    oracle = np.vstack([eefp_labels(correct).astype(float), np.ones((1, 200))])
    assert eefp_score(oracle, correct) == pytest.approx(1.0)
    assert eefp_score(1.0 - oracle, correct) == pytest.approx(0.0)


def test_exit_features_shape_and_range():
    probs = softmax(np.random.default_rng(4).standard_normal((3, 20, 10)))
    f = exit_features(probs, 1)
    assert f.shape == (20, 15)
    assert np.all((f[:, :5] >= 0) & (f[:, :5] <= 1 + 1e-12))
    assert np.allclose(f[:, 5:].sum(axis=1), 1.0)


def test_datasets_split_and_hide_test_labels():
    for ds in (DigitsExitTask(pixel_noise=2.0), SyntheticExitTask(n_samples=500)):
        inst = ds.make(0)
        d = inst.data
        assert "y_test" not in d and len(inst.truth["y_test"]) == len(d["X_test"])
        assert len(d["X_train"]) > len(d["X_val"]) > 0
        again = ds.make(0).data
        assert np.array_equal(d["X_test"], again["X_test"])


def test_plain_network_is_seeded():
    data = DigitsExitTask().make(0).data
    a = PlainEarlyExit(epochs=2).run(data, 5)["probs"]
    b = PlainEarlyExit(epochs=2).run(data, 5)["probs"]
    assert a.shape == (4, len(data["X_test"]), 10)
    assert np.array_equal(a, b)


def test_smoke_grid_cells_run():
    from claimbench.testing import run_grid_inline

    rows = run_grid_inline(BENCHMARK, "smoke")
    assert rows and all(r["status"] == "ok" for r in rows)
    by = {r["cell"].method.label: r["metrics"] for r in rows}
    for label in ("plain_ee", "temp_scaled", "eefp"):
        assert 0.0 < by[label]["auc_cost_acc"] <= 1.0 and 0.5 <= by[label]["eefp"] <= 1.0
    # the three share one network: the last exit's accuracy is identical
    assert by["plain_ee"]["final_acc"] == by["temp_scaled"]["final_acc"] == by["eefp"]["final_acc"]
    assert by["proxy_study"]["rho_gap"] is not None
