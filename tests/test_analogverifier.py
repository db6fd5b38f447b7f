import math

import numpy as np
import pytest

from claimbench.baselines.direct_testbench_generation import DirectTestbench, generic_repair
from claimbench.baselines.ngspice_testbench import parse_analysis, parse_number, run_testbench
from claimbench.datasets.analog_testbenches import (AnalogTestbenches, closed_form, netlist,
                                                    tasks_of_spec, violations)
from claimbench.methods.analogverifier import AnalogVerifier, oracle, schedule


def rc(R=1e3, C=1e-6) -> dict:
    v = {"R": R, "C": C}
    tau = R * C
    return {"kind": "rc_lowpass", "specs": ["dc_gain", "fc", "settling"], "tol": 0.05,
            "values": v, "netlist": netlist("rc_lowpass", v, 1e5),
            "dut_netlist": netlist("rc_lowpass", v, 1e5), "tran": (tau / 200, 10 * tau),
            "mentions": ["m_fc", "ac", "stim_ac", "tran", "m_settling", "stim_step",
                         "m_dc_gain", "stim_dc", "op"]}


def test_ngspice_measures_rc_lowpass_in_order_and_fails_out_of_order():
    c = rc()
    order = ["stim_dc", "op", "m_dc_gain", "stim_ac", "ac", "m_fc", "stim_step", "tran",
             "m_settling"]
    got, _ = run_testbench(c, order)
    assert got["dc_gain"] == pytest.approx(1.0, rel=1e-6)
    assert got["fc"] == pytest.approx(1 / (2 * math.pi * 1e-3), rel=2e-3)  # 159.15 Hz
    assert got["settling"] == pytest.approx(1e-3 * math.log(50), rel=2e-3)
    # the measurement before its analysis, and the AC stimulus after the analysis: unmeasured
    got, fb = run_testbench(c, ["m_fc", "ac", "stim_ac"])
    assert "fc" not in got and fb


def test_oracle_matches_hand_derived_thresholds():
    assert oracle(rc()) == pytest.approx({"dc_gain": 1.0, "fc": 1 / (2 * math.pi * 1e-3),
                                         "settling": 1e-3 * math.log(50)}, rel=1e-12)
    v = {"L": 0.01, "C": 1e-6, "R": 50.0}
    bp = {"specs": ["f0", "bw"], "netlist": netlist("rlc_bandpass", v, 1e5)}
    assert oracle(bp)["f0"] == pytest.approx(1 / (2 * math.pi * 1e-4), rel=1e-12)  # 1591.5 Hz
    assert oracle(bp)["bw"] == pytest.approx(50 / 0.01 / (2 * math.pi), rel=1e-12)
    v = {"Rin": 1e3, "Rf": 1e4}
    inv = {"specs": ["dc_gain", "ac_gain"], "netlist": netlist("inv_amp", v, 1e5)}
    g = -10 / (1 + 11 / 1e5)  # finite-gain inverting amplifier
    assert oracle(inv) == pytest.approx({"dc_gain": g, "ac_gain": -g}, rel=1e-12)
    non = {"specs": ["dc_gain"], "netlist": netlist("noninv_amp", v, 1e5)}
    assert oracle(non)["dc_gain"] == pytest.approx(closed_form("noninv_amp", v, 1e5)["dc_gain"])


def test_violations_and_schedulers_by_hand():
    specs = ["dc_gain", "fc", "settling"]
    good = ["stim_dc", "op", "m_dc_gain", "stim_ac", "ac", "m_fc"]
    assert violations(good, specs) == (0, 6)  # 4 edges + 2 plot reads among present tasks
    # fc measured after op ran: a read-after-write hazard on the current plot
    assert violations(["stim_dc", "stim_ac", "ac", "op", "m_dc_gain", "m_fc"], specs) == (1, 6)
    m = rc()["mentions"]
    assert violations(schedule(m), specs) == (0, 9)
    plain = schedule(m, plain=True)  # all stimuli, all analyses, then all measurements
    assert violations(plain, specs)[0] == 2


def test_generic_repair_inserts_before_the_failed_measurement():
    assert generic_repair(["m_fc", "stim_ac"], "fc", ["stim_ac", "ac"]) == ["ac", "m_fc",
                                                                           "stim_ac"]
    assert generic_repair(["stim_ac"], "fc", ["ac"]) == ["stim_ac", "ac", "m_fc"]


def test_dataset_seeded_and_truth_consistent():
    a, b = AnalogTestbenches(n_circuits=8).make(3), AnalogTestbenches(n_circuits=8).make(3)
    assert [c["dut_netlist"] for c in a.data["circuits"]] == [c["dut_netlist"]
                                                             for c in b.data["circuits"]]
    for c, t in zip(a.data["circuits"], a.truth):
        if t["fault"] is None:
            assert all(t["verdict"].values()) and c["netlist"] == c["dut_netlist"]
        need = {x for s in c["specs"] for x in tasks_of_spec(s)}
        assert set(c["mentions"]) == need and len(c["mentions"]) == 3 * len(c["specs"])


def test_method_and_mutants_behave_as_designed():
    inst = AnalogTestbenches(n_circuits=4).make(5)

    def score(m):
        out = m.run(inst.data, 0)
        fp = np.mean([all(o["verdicts"][s] == t["verdict"][s] for s in c["specs"])
                      for c, t, o in zip(inst.data["circuits"], inst.truth, out["circuits"])])
        viol = sum(violations(o["order"], c["specs"])[0]
                   for c, o in zip(inst.data["circuits"], out["circuits"]))
        err = max(abs(o["thresholds"][s] - t["threshold"][s]) / abs(t["threshold"][s])
                  for c, t, o in zip(inst.data["circuits"], inst.truth, out["circuits"])
                  for s in c["specs"])
        return fp, viol, err

    fp, viol, err = score(AnalogVerifier())
    assert fp == 1.0 and viol == 0 and err < 1e-9
    assert score(AnalogVerifier(mutant="no_oracle"))[2] > 0.01
    assert score(AnalogVerifier(mutant="plain_toposort"))[1] > 0
    assert score(AnalogVerifier(mutant="no_repair"))[0] < 1.0
    assert score(DirectTestbench(order="random"))[1] > 0
    with pytest.raises(ValueError):
        AnalogVerifier(mutant="bogus").run(inst.data, 0)


def test_parsers():
    assert parse_analysis("Use an AC sweep, not tran") == "ac"
    assert parse_analysis("xyzzy") is None
    assert parse_number("about 1.59e3 Hz") == 1590.0
    assert math.isnan(parse_number("no number"))


def test_llm_arm_runs_end_to_end_with_tiny_model():
    inst = AnalogTestbenches(n_circuits=1, arm="llm").make(0)
    out = AnalogVerifier(max_repairs=1).run(inst.data, 0)
    assert len(out["circuits"]) == 1 and out["unparsable"] >= 0
    d = DirectTestbench().run(inst.data, 0)
    c = inst.data["circuits"][0]
    assert set(d["circuits"][0]["thresholds"]) == set(c["specs"])
    assert DirectTestbench(max_repairs=3).applies_to(AnalogTestbenches(arm="llm"))
    assert AnalogVerifier(mutant="no_oracle").applies_to(AnalogTestbenches(arm="llm"))
