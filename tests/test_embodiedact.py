"""EmbodiedAct proxy: the Octave runtime, references, detectors, repair rules, loops and mutants."""
from __future__ import annotations

import numpy as np
import pytest

from claimbench.baselines.execute_then_respond import ExecuteThenRespond
from claimbench.baselines.octave_simulation import (Detectors, OctaveSession, ScriptedPolicy,
                                                    SimConfig, detect, parse_llm_config,
                                                    simulate)
from claimbench.datasets.stiff_control_odes import (StiffControlTasks, control_reference,
                                                    reference, stiff_linear_exact, task_success)
from claimbench.methods.embodiedact import EmbodiedAct


@pytest.fixture(scope="module")
def session():
    with OctaveSession(timeout=30) as s:
        yield s


def _transient_task(n_segments: int = 20) -> dict:
    """Explicit Euler (h = 0.01) is stable outside a stiffness spike at t = 5 and unstable inside
    it: the error grows to ~1e11 (finite) and decays, so the final state is right and the trajectory
    around t = 5 is wrong."""
    return {"kind": "stiff_linear", "params": {"L0": 50.0, "L1": 1200.0, "w": 0.1, "tc": 5.0},
            "y0": [1.5], "T": 10.0, "bound": 10.0, "spec": None, "design": False,
            "times": list(np.linspace(0, 10, n_segments + 1))}


def test_octave_session_evaluates(session):
    assert session.eval("printf('%d\\n', 2 + 3);").strip() == "5"
    assert "__ERR__" in session.eval("error('boom');")


def test_octave_euler_matches_closed_form(session):
    # y' = -lambda (y - cos t) - sin t with L1 = 0 is linear: Euler with step h on the constant
    # part is checked against numpy running the same recursion
    task = dict(_transient_task(2), params={"L0": 30.0, "L1": 0.0, "w": 0.1, "tc": 5.0})
    segs, err = simulate(session, task, SimConfig(solver="euler", h=0.01), [1.5], [0.0, 1.0])
    assert err == "" and segs[0].steps == 100
    y, h = 1.5, 0.01
    for k in range(100):
        t = k * h
        y = y + h * (-30.0 * (y - np.cos(t)) - np.sin(t))
    assert segs[0].y[-1, 0] == pytest.approx(y, rel=1e-12)


def test_octave_ode15s_robertson_matches_scipy(session):
    task = {"kind": "robertson", "params": {}, "y0": [1.0, 0.0, 0.0], "T": 10.0, "bound": 2.0,
            "spec": None, "design": False, "times": [0.0, 5.0, 10.0]}
    segs, err = simulate(session, task, SimConfig(solver="ode15s", rtol=1e-6), task["y0"],
                         task["times"])
    ref = reference(task)
    got = np.array([s.y[-1] for s in segs])  # (2, 3)
    assert err == ""
    np.testing.assert_allclose(got, ref[1:], rtol=1e-3, atol=1e-9)


def test_references_match_solve_ivp():
    from scipy.integrate import solve_ivp

    p = {"L0": 40.0, "L1": 500.0, "w": 0.1, "tc": 1.0}
    t = np.linspace(0, 2, 11)
    lam = lambda s: p["L0"] + p["L1"] * np.exp(-((s - p["tc"]) / p["w"]) ** 2)  # noqa: E731
    sol = solve_ivp(lambda s, y: -lam(s) * (y - np.cos(s)) - np.sin(s), (0, 2), [1.5],
                    method="Radau", t_eval=t, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(stiff_linear_exact(p, 1.5, t), sol.y[0], atol=1e-7)
    q = {"sigma": 0.1, "omega": 1.0}
    sol = solve_ivp(lambda s, y: [y[1], 0.2 * y[1] - y[0] - 0.5 * y[0] - 1.0 * y[1]], (0, 5),
                    [1.0, 0.0], t_eval=t * 2.5, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(control_reference(q, [1.0, 0.0], t * 2.5, 0.5, 1.0), sol.y.T,
                               atol=1e-7)


def test_detectors():
    t = np.linspace(0, 10, 400)
    assert detect(np.cos(t)[:, None], 10.0) == ""
    saw = (1.0 + 0.0 * t) + 1e-3 * (-3.0) ** np.arange(t.size)  # Euler at h lambda = 4
    assert detect(saw[:12, None], 1e9) == "sawtooth"
    assert detect((np.exp(0.3 * t) * np.sin(2 * t))[:, None], 1e9) == "growth"
    assert detect((np.exp(-0.3 * t) * np.sin(2 * t))[:, None], 1e9) == ""
    assert detect(np.array([[1.0], [np.nan]]), 10.0) == "nonfinite"
    assert detect(np.array([[1.0], [11.0]]), 10.0) == "bound"
    assert detect(np.array([[1.0], [11.0]]), 10.0, Detectors(bound=False)) == ""


def test_repair_rules():
    pol, task = ScriptedPolicy(), _transient_task()
    c = pol.initial(task)
    assert (c.solver, c.h) == ("euler", 0.01)
    c1 = pol.repair(task, c, "nonfinite", 0)
    c2 = pol.repair(task, c1, "nonfinite", 1)
    c3 = pol.repair(task, c2, "nonfinite", 2)
    assert c1.h == 0.005 and c2.h == 0.0025 and c3.solver == "ode15s"
    assert pol.repair(task, c3, "sawtooth", 2).rtol == pytest.approx(1e-5)
    design = dict(task, design=True)
    assert pol.repair(design, c, "growth", 0).kd == 1.0
    assert pol.repair(design, SimConfig(kd=1.0), "growth", 0).kd == 3.0


def test_parse_llm_config():
    task = _transient_task()
    got = parse_llm_config("ok: solver=ode15s h=0.002 kd=2", task, SimConfig())
    assert (got.solver, got.h, got.kd) == ("ode15s", 0.002, 2.0)
    assert parse_llm_config("xq#$ solver=matlab h=", task, SimConfig()) is None
    assert parse_llm_config("solver=euler h=-1", task, SimConfig()) is None


def _score(method, task):
    out = method.run({"tasks": [task]}, seed=0)["tasks"][0]
    ok = task_success(task, reference(task), out, 0.05)
    wasted = out["steps_total"] - (out["steps_kept"] if ok else 0)
    return ok, wasted, out


def test_loops_and_mutants_on_a_transient_blow_up():
    task = _transient_task()
    ok, w_ea, out = _score(EmbodiedAct(), task)
    assert ok and out["anomalies"], "perception must catch the finite transient and fix it"
    ok_nan, _, out_nan = _score(EmbodiedAct(mutant="nan_only"), task)
    assert not ok_nan and out_nan["anomalies"] == []  # accepted a wrong, finite trajectory
    ok_etr, _, _ = _score(ExecuteThenRespond(observe="final"), task)
    assert not ok_etr  # the final state looks fine
    ok_traj, w_traj, _ = _score(ExecuteThenRespond(observe="trajectory"), task)
    ok_ns, w_ns, _ = _score(EmbodiedAct(mutant="no_stream"), task)
    ok_rs, w_rs, _ = _score(EmbodiedAct(mutant="restart"), task)
    assert ok_traj and ok_ns and ok_rs
    assert w_ns == w_traj  # no streaming = post-hoc checking of whole runs
    assert w_ea < w_rs < w_traj  # hot fix < perceive-and-restart < rerun whole horizons


def test_control_design_loop():
    task = StiffControlTasks(n_tasks=4).make(3).data["tasks"][3]
    assert task["kind"] == "control"
    ok, _, out = _score(EmbodiedAct(), dict(task))
    ref = control_reference(task["params"], task["y0"], task["times"], 0.0, out["config"]["kd"])
    assert out["config"]["kd"] >= 1.0 and "growth" in out["anomalies"]
    assert task_success(task, ref, out, 0.05) == ok and ok


def test_llm_arm_runs_with_tiny_model():
    task = _transient_task(4)
    out = EmbodiedAct(policy="llm", max_tokens=8).run({"tasks": [task]}, seed=0)["tasks"][0]
    assert out["samples"] is None or isinstance(out["samples"], list)
    assert not task_success(task, reference(task), out, 0.05) or out["runs"] > 0


def test_dataset_is_seeded():
    a, b = StiffControlTasks().make(7), StiffControlTasks().make(7)
    assert a.data == b.data
    assert [t["kind"] for t in a.data["tasks"][:4]] == ["stiff_linear", "vdp", "robertson",
                                                         "control"]
