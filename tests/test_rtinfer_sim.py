"""Unit tests of the simulated-GPU schedulers: hand-computed schedules, known placements."""
from __future__ import annotations

import numpy as np
import pytest

from claimbench.baselines.early_exit_scheduling import EarlyExitEDF
from claimbench.baselines.edf_scheduling import ConcurrentEDF, PreemptiveEDF
from claimbench.baselines.gpu_inference_sim import (OVERHEAD, U_FULL, Arena, Policy, capacity,
                                                   water_fill)
from claimbench.benchmarks.rtinfer_sim import (BC_LOAD, BC_SIZES, BENCHMARK, BURST_CANDIDATES,
                                               CAL_CANDIDATES, CAL_LOADS, CAL_TARGET,
                                               calibrate_bursts, pick_load)
from claimbench.datasets.inference_workloads import InferenceWorkload, variant_profile
from claimbench.methods.rtinfer_sim import RTInferLike

ACC = (72.0, 69.8, 65.4)


def _task(period, work=(1.0, 0.5, 0.25), exit_work=(0.4, 0.7, 1.0), weights=(0.0, 0.0, 0.0),
          act=(0.1, 0.075, 0.05)):
    return {"period": period, "work": work, "exit_work": exit_work, "weights": weights,
            "act": act, "acc": ACC}


def _data(tasks, jobs, horizon=100.0):
    return {"tasks": tasks, "jobs": sorted(jobs), "horizon": horizon}


def test_water_fill_hand_values():
    assert np.allclose(water_fill(np.array([0.5, 0.5]), capacity(2)), [0.475, 0.475])
    assert np.allclose(water_fill(np.array([0.25, 0.5]), 0.95), [0.25, 0.5])
    assert np.allclose(water_fill(np.array([0.5, 0.5, 0.5]), 0.9), [0.3, 0.3, 0.3])
    assert capacity(3) == pytest.approx(1 - 2 * OVERHEAD)


def test_arena_first_fit_best_fit_and_compaction():
    a = Arena(size=1.0, blocks={1: (0.0, 0.3), 2: (0.6, 0.2)})
    assert a.holes() == [(0.3, pytest.approx(0.3)), (0.8, pytest.approx(0.2))]
    ff, bf = Arena(1.0, dict(a.blocks)), Arena(1.0, dict(a.blocks))
    assert ff.allocate(3, 0.2, "first_fit") and ff.blocks[3][0] == pytest.approx(0.3)
    assert bf.allocate(3, 0.2, "best_fit") and bf.blocks[3][0] == pytest.approx(0.8)
    assert a.fragmentation() == pytest.approx(1 - 0.3 / 0.5)
    assert not a.allocate(4, 0.4, "first_fit")  # 0.5 free, no hole of 0.4
    moved = a.compact()
    assert moved == pytest.approx(0.2) and a.blocks[2] == (pytest.approx(0.3), 0.2)
    assert a.allocate(4, 0.4, "first_fit") and a.fragmentation() == 0.0


def test_hand_schedule_serial_vs_concurrent():
    # Two jobs of work 1 at t=0, deadline 3. Alone a job runs at U_FULL = 0.5.
    # Serial EDF: finishes at 2, the second would finish at 4 > 3: one miss.
    # Concurrent: both at 0.475, done at 1/0.475 = 2.1 < 3: no miss.
    d = _data([_task(3.0)], [(0.0, 0), (0.0, 0)])
    assert U_FULL == 0.5
    assert PreemptiveEDF().run(d, 0)["dmr"] == 0.5
    out = ConcurrentEDF().run(d, 0)
    assert out["dmr"] == 0.0 and out["acc"] == 72.0


def test_eager_weight_load_delays_start():
    # Weights 0.25 at 0.1 units/ms: 2.5 ms eager stall, then 2 ms of work: 4.5 ms > deadline 4.
    d = _data([_task(4.0, weights=(0.25, 0.14, 0.06))], [(0.0, 0)])
    assert PreemptiveEDF().run(d, 0)["dmr"] == 1.0
    d5 = _data([_task(4.6, weights=(0.25, 0.14, 0.06))], [(0.0, 0)])
    assert PreemptiveEDF().run(d5, 0)["dmr"] == 0.0
    # On demand: stall 2.5 / 4 layers = 0.625 ms, full model fits by 2.625 < 4.
    out = RTInferLike().run(d, 0)
    assert out["dmr"] == 0.0 and out["acc"] == 72.0


def test_slack_picks_the_most_accurate_feasible_variant():
    # Deadline 1.6: full needs 1/0.5 = 2 ms, half needs 0.5/0.375 = 1.33 ms -> half (69.8).
    d = _data([_task(1.6)], [(0.0, 0)])
    out = RTInferLike().run(d, 0)
    assert out["dmr"] == 0.0 and out["acc"] == 69.8
    assert PreemptiveEDF().run(d, 0)["dmr"] == 1.0


def test_early_exit_degrades_on_burst():
    # Three jobs at once: the first reaches exit 1 (0.4 work) with 2 others queued -> exits
    # (65.4); the second and third see fewer than 2 others queued and run to the end (72.0).
    d = _data([_task(100.0)], [(0.0, 0)] * 3)
    out = EarlyExitEDF().run(d, 0)
    assert out["dmr"] == 0.0
    assert out["acc"] == pytest.approx((65.4 + 72.0 + 72.0) / 3)


def test_workload_load_definition_and_profile():
    prof = variant_profile()
    assert prof["work"][0] == 1.0 and prof["work"][0] > prof["work"][1] > prof["work"][2] > 0.2
    assert prof["exit_work"][-1] >= 1.0 > prof["exit_work"][0]
    inst = InferenceWorkload(load=1.2, burst_rate=0.0).make(5)
    tasks = inst.data["tasks"]
    util = sum(t["work"][0] / (U_FULL * t["period"]) for t in tasks)
    assert util == pytest.approx(1.2)
    again = InferenceWorkload(load=1.2, burst_rate=0.0).make(5)
    assert again.data["jobs"] == inst.data["jobs"]
    bursty = InferenceWorkload(load=1.2, burst_rate=0.5).make(5)
    assert len(bursty.data["jobs"]) > len(inst.data["jobs"])


def test_mutant_serial_differs_and_default_is_the_method():
    inst = InferenceWorkload(load=1.4, burst_rate=0.3, horizon_ms=500.0).make(1)
    full = RTInferLike().run(inst.data, 0)
    serial = RTInferLike(mutant="serial").run(inst.data, 0)
    assert serial["dmr"] > full["dmr"]
    assert RTInferLike().policy() == Policy(4, "slack", "best_fit", True, "on_demand")
    with pytest.raises(ValueError):
        RTInferLike(mutant="nope").policy()


def test_labels_in_grids():
    labels = {c.label for c in BENCHMARK.grids["quick"].methods}
    assert {"rtinfer", "preemptive_edf", "early_exit", "concurrent_edf"} <= labels


def test_edf_meets_every_deadline_at_utilisation_one():
    # Liu & Layland: preemptive EDF with implicit deadlines is feasible iff U <= 1. Alone a job
    # runs at U_FULL = 0.5, so work 2.5 every 10 ms and 5 every 20 ms is U = 0.5 + 0.5 = 1.
    tasks = [_task(10.0, work=(2.5, 1.25, 0.6)), _task(20.0, work=(5.0, 2.5, 1.2))]
    jobs = [(float(r), 0) for r in range(0, 200, 10)] + [(float(r), 1) for r in range(0, 200, 20)]
    out = PreemptiveEDF().run(_data(tasks, jobs, 200.0), 0)
    assert out["dmr"] == 0.0 and out["throughput"] == pytest.approx(1000 * 30 / 200)
    # 10% more work in task 0 (U = 1.05): EDF must miss.
    tasks[0] = _task(10.0, work=(2.75, 1.4, 0.7))
    assert PreemptiveEDF().run(_data(tasks, jobs, 200.0), 0)["dmr"] > 0.0


def test_load_stall_eager_mutant_vs_on_demand():
    # One job, deadline 4. On demand: the full model's first of 4 layers, 0.25 / 0.1 / 4 =
    # 0.625 ms, + 2 ms of work fits. Eager: full 2.5 + 2 > 4, so slack picks width 0.75
    # (weights 0.14: 1.4 ms, + 0.5 / 0.375 = 1.33 ms of work fits), accuracy 69.8.
    d = _data([_task(4.0, weights=(0.25, 0.14, 0.06))], [(0.0, 0)])
    eager = RTInferLike(mutant="eager_load")
    assert eager.policy().loading == "eager"
    out_e, out_o = eager.run(d, 0), RTInferLike().run(d, 0)
    assert out_o["load_stall"] == pytest.approx(0.625) and out_o["acc"] == 72.0
    assert out_e["load_stall"] == pytest.approx(1.4) and out_e["acc"] == 69.8
    # A second job of the same task hits the weight cache: no stall for it.
    d2 = _data([_task(10.0, weights=(0.25, 0.14, 0.06))], [(0.0, 0), (10.0, 0)], horizon=20.0)
    assert PreemptiveEDF().run(d2, 0)["load_stall"] == pytest.approx(2.5 / 2)


def test_calibration_rule_picks_closest_to_target():
    assert CAL_TARGET == 0.328
    assert pick_load({1.1: 0.0, 1.3: 0.30, 1.5: 0.36}) == 1.3
    assert pick_load({1.3: 0.30, 1.1: 0.30}) == 1.1  # equal distance: the lower load
    assert set(CAL_LOADS.values()) <= set(CAL_CANDIDATES)
    assert not {0.6, 1.0, 1.4} & set(CAL_CANDIDATES)  # the regime never coincides with a grid load
    quick = {(c.params["load"], c.params["burst_rate"]) for c in BENCHMARK.grids["quick"].datasets}
    assert {(lo, b) for b, lo in CAL_LOADS.items()} <= quick


def test_burst_calibration_rule_and_scope():
    from claimbench.claims import design
    assert 3 not in BURST_CANDIDATES and set(BC_SIZES.values()) <= set(BURST_CANDIDATES)
    # the recorded size is what the rule gives (on a neighbourhood of candidates: the rule's
    # choice among all candidates implies its choice among these)
    chosen, table = calibrate_bursts(rates=(1.0,), candidates=(20, BC_SIZES[1.0], 24))
    assert chosen == {1.0: BC_SIZES[1.0]}
    strongest = min(table[1.0, BC_SIZES[1.0]].values())
    assert abs(strongest - CAL_TARGET) < 0.05
    # the burst-size scope selects the two burst-calibrated cells alone (2 configs x 5 seeds),
    # and no claim outside that regime reads load BC_LOAD
    scope = {"burst_size": tuple(sorted(set(BC_SIZES.values())))}
    assert design.units(BENCHMARK, scope) == 10
    for c in BENCHMARK.claims:
        loads = dict(getattr(c.check, "where", {}) or {}).get("load", ())
        assert BC_LOAD not in (loads if isinstance(loads, tuple) else (loads,))


def test_preload_fills_what_fits_full_models_first():
    # Two tasks, weights 0.4 / 0.2 / 0.1, memory 0.6: task 0's full model (0.4), task 1's does
    # not fit (0.8), task 0's width 0.75 (0.6) fits, nothing else does: 0.6 / 0.1 = 6 ms.
    from claimbench.baselines.gpu_inference_sim import WEIGHT_CAP, preload
    assert WEIGHT_CAP == 0.6
    tasks = [_task(10.0, weights=(0.4, 0.2, 0.1)), _task(10.0, weights=(0.4, 0.2, 0.1))]
    cache = {}
    assert preload(tasks, cache, Policy(4, "slack", loading="preload")) == pytest.approx(6.0)
    assert set(cache) == {(0, 0), (0, 1)}
    cache = {}  # a full-model-only policy preloads full models only
    assert preload(tasks, cache, Policy(1, "full", loading="preload")) == pytest.approx(4.0)
    assert set(cache) == {(0, 0)}


def test_preload_mutant_waits_for_the_up_front_transfer():
    # One task, weights 0.25 + 0.14 + 0.06 = 0.45 all fit: served from 4.5 ms. Job 1 (t=0)
    # waits 4.5 ms, then 2 ms of work < deadline 10 (full model, 72); job 2 (t=10) hits: 0.
    # Eager per job: 2.5 ms then a hit; on demand: 0.625 ms then a hit.
    d = _data([_task(10.0, weights=(0.25, 0.14, 0.06))], [(0.0, 0), (10.0, 0)], horizon=20.0)
    pre = RTInferLike(mutant="preload")
    assert pre.policy() == Policy(4, "slack", "best_fit", True, "preload")
    out = pre.run(d, 0)
    assert out["load_stall"] == pytest.approx(4.5 / 2) and out["acc"] == 72.0
    assert out["dmr"] == 0.0
    assert RTInferLike(mutant="eager_load").run(d, 0)["load_stall"] == pytest.approx(2.5 / 2)
    assert RTInferLike().run(d, 0)["load_stall"] == pytest.approx(0.625 / 2)
    # Deadline 6: the wait (4.5) + full work (2) misses it, so slack picks width 0.75
    # (cached: 0.5 / 0.375 = 1.33 ms, done by 5.83 < 6), accuracy 69.8.
    d6 = _data([_task(6.0, weights=(0.25, 0.14, 0.06))], [(0.0, 0)], horizon=10.0)
    out6 = pre.run(d6, 0)
    assert out6["dmr"] == 0.0 and out6["acc"] == 69.8
