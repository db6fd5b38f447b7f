"""Run a testbench (an ordered list of tasks of datasets/analog_testbenches.py) in ngspice, and
the testbench generators every method shares.

``run_testbench(circuit, order)`` writes the device-under-test netlist with a ``.control`` block
of the tasks' commands in that order, runs ``ngspice -b`` (Debian package ``ngspice``, through
``claimbench.tools.run_tool`` with a timeout) and parses each measured spec (``name = value``
lines); a failed measurement, a crash or a timeout leaves the spec unmeasured, and the
simulator's error text comes back as feedback.

Generators turn a circuit's specification into atomic tasks (task serialization) and, asked
again with simulator feedback, re-emit the prerequisites of a spec (repair):

* ``ScriptedGenerator``: reads the document's task mentions in order; each stimulus / analysis
  task is dropped with probability ``p_omit`` (an incomplete serialization), also on re-asking;
  ``guess`` gives an "LLM-like" numeric threshold: the textbook formula with a log-normal
  relative error ``sigma`` and, with probability ``p_slip``, a known formula slip.
* ``LLMGenerator``: asks a language model (``claimbench.models.load_model``) which analysis
  measures each spec and, for direct generation, the threshold number; unparsable answers are
  failures (no task, NaN threshold), never errors.
"""
from __future__ import annotations

import math
import os
import re
import subprocess
import tempfile

import numpy as np

from claimbench.datasets.analog_testbenches import (SPEC_TEXT, STIMULUS_OF, commands,
                                                    tasks_of_spec)

_NUM = re.compile(r"^\s*([a-z_0-9]+)\s*=\s*([-+]?\d*\.?\d+(?:[eE][-+]?\d+)?)\s*$")
_FLOAT = re.compile(r"[-+]?\d*\.?\d+(?:[eE][-+]?\d+)?")


def control_block(circuit: dict, order: list[str]) -> str:
    lines = [c for t in order for c in commands(t, circuit)]
    return circuit["dut_netlist"] + ".control\n" + "\n".join(lines) + "\n.endc\n.end\n"


def run_testbench(circuit: dict, order: list[str], timeout: float = 20.0) -> tuple[dict, str]:
    """({spec: measured value}, feedback text) of one ngspice batch run."""
    from claimbench.tools import run_tool

    fd, path = tempfile.mkstemp(suffix=".cir", prefix="tb_")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(control_block(circuit, order))
        try:
            p = run_tool(["ngspice", "-b", path], "ngspice", timeout=timeout)
            status = f"\nexit status {p.returncode}" if p.returncode else ""
            out, err = p.stdout, p.stderr + status
        except subprocess.TimeoutExpired:  # the run measured nothing
            out, err = "", f"timeout after {timeout} s"
    finally:
        os.unlink(path)
    found = {}
    for line in out.splitlines():
        m = _NUM.match(line)
        if m and m.group(1) in circuit["specs"]:
            v = float(m.group(2))
            if math.isfinite(v):
                found[m.group(1)] = v
    return found, err


def dedup(tasks) -> list[str]:
    seen, out = set(), []
    for t in tasks:
        if t not in seen:
            seen.add(t)
            out.append(t)
    return out


# -- numeric guesses ------------------------------------------------------------------------------
def textbook(kind: str, spec: str, v: dict, slip: bool) -> float:
    """The ideal-op-amp textbook formula of a spec; ``slip`` makes the known mistake."""
    two_pi = 1.0 if slip else 2 * math.pi
    if kind == "rc_lowpass" and spec == "dc_gain":
        return 1.0
    if spec == "fc":
        return 1 / (two_pi * v["R"] * v["C"])
    if spec == "settling":
        return (5.0 if slip else math.log(50)) * v["R"] * v["C"]
    if spec == "f0":
        return 1 / (two_pi * math.sqrt(v["L"] * v["C"]))
    if spec == "bw":
        return v["R"] / v["L"] / two_pi
    r = v["Rf"] / v["Rin"]
    if kind == "inv_amp":
        g = r if slip else -r  # the slip drops the sign
    else:
        g = r if slip else 1 + r  # the slip drops the 1
    return g if spec == "dc_gain" else abs(g)


def guess(circuit: dict, spec: str, rng, sigma: float, p_slip: float) -> float:
    slip = bool(rng.random() < p_slip)
    return textbook(circuit["kind"], spec, circuit["values"], slip) * float(
        np.exp(rng.normal(0.0, sigma)))


# -- generators -----------------------------------------------------------------------------------
class ScriptedGenerator:
    def __init__(self, p_omit: float, sigma: float, p_slip: float, rng) -> None:
        self.p_omit, self.sigma, self.p_slip, self.rng = p_omit, sigma, p_slip, rng
        self.unparsable = 0

    def serialize(self, circuit: dict) -> list[str]:
        tasks = dedup(circuit["mentions"])
        return [t for t in tasks if t.startswith("m_") or self.rng.random() >= self.p_omit]

    def regenerate(self, circuit: dict, spec: str, feedback: str) -> list[str]:
        st, an, _ = tasks_of_spec(spec)
        return [t for t in (st, an) if self.rng.random() >= self.p_omit]

    def threshold(self, circuit: dict, spec: str) -> float:
        return guess(circuit, spec, self.rng, self.sigma, self.p_slip)


def parse_analysis(text: str) -> str | None:
    """The first of op / ac / tran named as a word in ``text``."""
    hits = [(m.start(), m.group(1)) for m in re.finditer(r"\b(op|ac|tran)\b", text.lower())]
    return min(hits)[1] if hits else None


def parse_number(text: str) -> float:
    m = _FLOAT.search(text)
    try:
        v = float(m.group(0)) if m else float("nan")
    except ValueError:
        v = float("nan")
    return v if math.isfinite(v) else float("nan")


class LLMGenerator:
    def __init__(self, model: str, temperature: float, max_tokens: int, seed: int) -> None:
        from claimbench.models import load_model

        self.lm = load_model(model)
        self.temperature, self.max_tokens, self.seed = temperature, max_tokens, seed
        self.unparsable = 0
        self.calls = 0

    def _ask(self, prompt: str) -> str:
        self.calls += 1
        msgs = [{"role": "system", "content": "You write ngspice testbenches. Answer briefly."},
                {"role": "user", "content": prompt}]
        return self.lm.chat(msgs, max_tokens=self.max_tokens, temperature=self.temperature,
                            seed=self.seed + self.calls).text

    def _analysis(self, circuit: dict, spec: str, feedback: str = "") -> list[str]:
        q = (f"Spec: {SPEC_TEXT[spec]}.\n"
             + (f"The measurement failed: {feedback[-80:]}\n" if feedback else "")
             + "Which ngspice analysis measures it: op, ac or tran?")
        an = parse_analysis(self._ask(q))
        if an is None:
            self.unparsable += 1
            return []
        return [STIMULUS_OF[an], an]

    def serialize(self, circuit: dict) -> list[str]:
        tasks = []
        for t in dedup(circuit["mentions"]):
            if t.startswith("m_"):
                tasks += self._analysis(circuit, t[2:]) + [t]
        return dedup(tasks)

    def regenerate(self, circuit: dict, spec: str, feedback: str) -> list[str]:
        return self._analysis(circuit, spec, feedback)

    def threshold(self, circuit: dict, spec: str) -> float:
        q = (f"Netlist:\n{circuit['netlist']}Give the nominal {SPEC_TEXT[spec]} as one number "
             f"in SI units.")
        v = parse_number(self._ask(q))
        self.unparsable += not math.isfinite(v)
        return v


def make_generator(method, data: dict, rng, seed: int):
    """The generator a method's fields name for this dataset arm."""
    if data.get("arm") == "llm":
        return LLMGenerator(method.model, method.temperature, method.max_tokens, seed)
    return ScriptedGenerator(method.p_omit, method.sigma, method.p_slip, rng)


def verdicts(circuit: dict, thresholds: dict, measured: dict) -> dict:
    """Per spec: True (meets), False (violates) or None (not measured / no threshold)."""
    out = {}
    for s in circuit["specs"]:
        thr, m = thresholds.get(s, float("nan")), measured.get(s)
        if m is None or not math.isfinite(thr):
            out[s] = None
        else:
            out[s] = bool(abs(m - thr) <= circuit["tol"] * abs(thr))
    return out
