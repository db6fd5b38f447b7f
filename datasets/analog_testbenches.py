"""Small analog circuits with specifications, for testbench generation (SPICE, ngspice dialect).

Each instance holds ``n_circuits`` generated circuits: an RC low-pass, a series-RLC band-pass
(output across R), an inverting and a non-inverting amplifier (ideal op-amp as a VCVS of gain
``A``). A circuit comes with

* the *schematic* (nominal component values and its netlist): what the specification refers to;
* the *device under test* netlist: the schematic, or with probability ``p_fault`` one component
  scaled by a factor in [1.2, 1.6] up or down (a manufacturing / design fault);
* its specifications: each spec is a quantity (cut-off frequency, gain ...) whose threshold is
  the schematic's nominal value, passed when the measured value is within ``tol`` of it;
* the *document mentions*: for each spec, in a shuffled spec order, its atomic tasks (stimulus,
  analysis, measurement) in shuffled order, as a dispersed specification mentions them.

The testbench language (ngspice ``.control`` commands) and its port semantics live here too,
since the metrics need them: a stimulus task writes a port of the input source, an analysis reads
it and makes the current plot, a measurement reads the current plot of its analysis.

The truth: every threshold in closed form (finite-gain op-amp included), the DUT's true value and
so each spec's correct verdict, and the dependency constraints of a testbench.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

KINDS = ("rc_lowpass", "rlc_bandpass", "inv_amp", "noninv_amp")
SPECS = {"rc_lowpass": ("dc_gain", "fc", "settling"),
         "rlc_bandpass": ("f0", "bw"),
         "inv_amp": ("dc_gain", "ac_gain"),
         "noninv_amp": ("dc_gain", "ac_gain")}
SPEC_TEXT = {"dc_gain": "DC voltage gain v(out)/v(in)",
             "ac_gain": "small-signal gain magnitude |v(out)/v(in)| at 1 kHz",
             "fc": "-3 dB cut-off frequency in Hz",
             "f0": "centre frequency in Hz (geometric mean of the -3 dB edges)",
             "bw": "-3 dB bandwidth in Hz",
             "settling": "2% settling time in s of the 0-to-1 V step response"}
ANALYSIS_OF = {"dc_gain": "op", "ac_gain": "ac", "fc": "ac", "f0": "ac", "bw": "ac",
               "settling": "tran"}
STIMULUS_OF = {"op": "stim_dc", "ac": "stim_ac", "tran": "stim_step"}
ANALYSES = ("op", "ac", "tran")


def tasks_of_spec(spec: str) -> tuple[str, str, str]:
    """(stimulus, analysis, measurement) a spec needs."""
    an = ANALYSIS_OF[spec]
    return STIMULUS_OF[an], an, "m_" + spec


def task_kind(task: str) -> str:
    if task.startswith("stim_"):
        return "stimulus"
    return "analysis" if task in ANALYSES else "measure"


def ports(task: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(reads, writes) of a task: the port semantics of the testbench language."""
    if task.startswith("stim_"):
        return (), ("vin." + task[5:],)
    if task in ANALYSES:
        return ("vin." + STIMULUS_OF[task][5:],), ("plot." + task, "plot")
    return ("plot." + ANALYSIS_OF[task[2:]],), ()


def commands(task: str, circuit: dict) -> list[str]:
    """ngspice control commands of one task."""
    tstep, tstop = circuit["tran"]
    table = {
        "stim_dc": ["alter vin dc = 1"],
        "stim_ac": ["alter vin ac = 1"],
        "stim_step": ["alter @vin[pulse] = [ 0 1 0 1n 1n 1 2 ]"],
        "op": ["op"],
        "ac": ["ac dec 100 1 1e8"],
        "tran": [f"tran {tstep:.4g} {tstop:.4g}"],
        "m_dc_gain": ["let dc_gain = v(out)/v(in)", "print dc_gain"],
        "m_ac_gain": ["meas ac ac_gain find vm(out) at=1e3"],
        "m_fc": ["meas ac fc when vdb(out)=-3.0103"],
        "m_f0": ["meas ac f0lo when vdb(out)=-3.0103 rise=1",
                 "meas ac f0hi when vdb(out)=-3.0103 fall=1",
                 "let f0 = sqrt(f0lo*f0hi)", "print f0"],
        "m_bw": ["meas ac bwlo when vdb(out)=-3.0103 rise=1",
                 "meas ac bwhi when vdb(out)=-3.0103 fall=1",
                 "let bw = bwhi-bwlo", "print bw"],
        "m_settling": ["meas tran settling when v(out)=0.98 cross=1"],
    }
    return table[task]


def constraints(specs) -> tuple[list[tuple[str, str]], list[str]]:
    """The truth of a testbench's order: precedence edges (stimulus -> analysis -> measurement)
    and the measurements that must read their own analysis's plot (no other analysis between)."""
    edges, meas = set(), []
    for s in specs:
        st, an, m = tasks_of_spec(s)
        edges |= {(st, an), (an, m)}
        meas.append(m)
    return sorted(edges), meas


def violations(order: list[str], specs) -> tuple[int, int]:
    """(violated, checked) ordering constraints among the tasks present in ``order``: an edge
    whose two ends are present but reversed (first occurrences), and a measurement whose most
    recent preceding analysis is not its own (when its own is present)."""
    edges, meas = constraints(specs)
    first = {}
    for i, t in enumerate(order):
        first.setdefault(t, i)
    bad = tot = 0
    for a, b in edges:
        if a in first and b in first:
            tot += 1
            bad += first[a] > first[b]
    for m in meas:
        an = ANALYSIS_OF[m[2:]]
        if m in first and an in first:
            tot += 1
            last = [t for t in order[:first[m]] if t in ANALYSES]
            bad += (not last) or last[-1] != an
    return bad, tot


# -- circuits -------------------------------------------------------------------------------------
def netlist(kind: str, v: dict, A: float) -> str:
    head = ["* " + kind, "vin in 0 dc 0 ac 0 pulse(0 0 0 1n 1n 1 2)"]
    if kind == "rc_lowpass":
        body = [f"r1 in out {v['R']:.6g}", f"c1 out 0 {v['C']:.6g}"]
    elif kind == "rlc_bandpass":
        body = [f"l1 in n1 {v['L']:.6g}", f"c1 n1 out {v['C']:.6g}", f"r1 out 0 {v['R']:.6g}"]
    elif kind == "inv_amp":
        body = [f"rin in n {v['Rin']:.6g}", f"rf n out {v['Rf']:.6g}",
                f"e1 out 0 0 n {A:.6g}"]
    else:
        body = [f"rin n 0 {v['Rin']:.6g}", f"rf n out {v['Rf']:.6g}",
                f"e1 out 0 in n {A:.6g}"]
    return "\n".join(head + body) + "\n"


def closed_form(kind: str, v: dict, A: float) -> dict:
    """Every spec's value in closed form (the finite-gain VCVS included)."""
    if kind == "rc_lowpass":
        tau = v["R"] * v["C"]
        return {"dc_gain": 1.0, "fc": 1 / (2 * math.pi * tau), "settling": tau * math.log(50)}
    if kind == "rlc_bandpass":
        w0 = 1 / math.sqrt(v["L"] * v["C"])
        return {"f0": w0 / (2 * math.pi), "bw": v["R"] / v["L"] / (2 * math.pi)}
    r = v["Rf"] / v["Rin"]
    g = -r / (1 + (1 + r) / A) if kind == "inv_amp" else (1 + r) / (1 + (1 + r) / A)
    return {"dc_gain": g, "ac_gain": abs(g)}


def sample_values(kind: str, rng) -> dict:
    lu = lambda lo, hi: float(np.exp(rng.uniform(np.log(lo), np.log(hi))))  # noqa: E731
    if kind == "rc_lowpass":
        return {"R": lu(1e3, 1e5), "C": lu(1e-9, 1e-6)}
    if kind == "rlc_bandpass":
        L, C = lu(1e-3, 1e-1), lu(1e-9, 1e-6)
        return {"L": L, "C": C, "R": math.sqrt(L / C) / lu(1.0, 5.0)}
    Rin = lu(1e3, 1e4)
    return {"Rin": Rin, "Rf": Rin * lu(2.0, 20.0)}


def sig6(x: float) -> float:
    """Six significant digits: the netlist prints values exactly as the truth uses them."""
    return float(f"{x:.6g}")


def sample_circuit(rng, kind: str, p_fault: float, A: float, tol: float) -> tuple[dict, dict]:
    nominal = {k: sig6(x) for k, x in sample_values(kind, rng).items()}
    dut = dict(nominal)
    fault = None
    if rng.random() < p_fault:
        comp = str(rng.choice(sorted(nominal)))
        f = float(rng.uniform(1.2, 1.6))
        dut[comp] = sig6(nominal[comp] * (f if rng.random() < 0.5 else 1 / f))
        fault = comp
    specs = list(SPECS[kind])
    order = rng.permutation(len(specs))
    mentions = []
    for i in order:
        ts = list(tasks_of_spec(specs[i]))
        mentions += [ts[j] for j in rng.permutation(3)]
    tau = nominal.get("R", 1.0) * nominal.get("C", 1.0)
    circuit = {"kind": kind, "specs": specs, "tol": tol, "values": nominal,
               "netlist": netlist(kind, nominal, A), "dut_netlist": netlist(kind, dut, A),
               "mentions": mentions, "tran": (tau / 200, 10 * tau)}
    thr = closed_form(kind, nominal, A)
    actual = closed_form(kind, dut, A)
    verdict = {s: abs(actual[s] - thr[s]) <= tol * abs(thr[s]) for s in specs}
    return circuit, {"threshold": thr, "actual": actual, "verdict": verdict, "fault": fault}


@dataclass
class AnalogTestbenches(Dataset):
    name: ClassVar[str] = "analog_testbenches"
    n_circuits: int = 8  # ours (the paper: five industrial circuits)
    p_fault: float = 0.5  # ours
    tol: float = 0.05  # ours: +-5% acceptance band around the nominal value
    opamp_gain: float = 1e5  # ours: the ideal op-amp's VCVS gain
    arm: str = "scripted"  # "scripted" (non-LLM generators) or "llm" (generators through a model)

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        circuits, truth = [], []
        kinds = [KINDS[i % len(KINDS)] for i in rng.permutation(self.n_circuits)]
        for kind in kinds:
            c, t = sample_circuit(rng, kind, self.p_fault, self.opamp_gain, self.tol)
            circuits.append(c)
            truth.append(t)
        return Instance(data={"circuits": circuits, "arm": self.arm}, truth=truth)
