"""EmbodiedAct's perception-execution loop: stream the simulation, detect anomalies while it
runs, hot-fix and continue.

Paper: Zhang, Zhou, Chen, Yin, Huang, Wang, "Grounding LLMs in Scientific Discovery via Embodied
Actions" (EmbodiedAct), arXiv:2602.20639 (ICML 2026), https://arxiv.org/abs/2602.20639
(read: the abstract, third-party summaries and the code README of thu-coai/EmbodiedAct; the body,
its tables and its prompts were not read; the benchmarks are not released).

Implemented (the abstract's and the README's mechanism, four modules M_plan, M_code, M_perc,
M_ref in a "dual loop"): the horizon [0, T] is cut at the task's sample times t_0 < ... < t_m.
With config c (solver, step, tolerance, gains) chosen by the code-writer (M_code), segment k is
executed by the runtime from the checkpoint y(t_k):
    Y_k = Run(c, y(t_k), [t_k, t_{k+1}])          (every solver step streamed back)
and the runtime-perception engine (M_perc) inspects the stream so far, H + Y_k, for
    a(H + Y_k) in {nonfinite, beyond bound, sawtooth (explicit-integrator instability),
                   growing oscillation envelope, error}.
The reflective decision maker (M_ref) then either accepts Y_k (H <- H + Y_k, k <- k + 1), or
repairs c <- Repair(c, a) and
  - local hot fix (numerical anomaly): resumes from the checkpoint y(t_{k-r}) with the
    repaired code (r = ``rollback`` = 1 segment: an anomaly can begin undetected just before
    the checkpoint, so the last accepted segment is re-run too);
  - global re-plan (a growing physical oscillation of a design task, or an unmet end
    condition at T): restarts from t_0 with the new design.
Wasted simulation steps = steps executed but not in the delivered trajectory.
The execute-then-respond loop (baselines/execute_then_respond.py) uses the same code-writer,
repair rules and runtime, but observes only after the whole horizon has run.

Deviations:
1. GNU Octave (Debian's ``octave``) through a persistent pipe replaces MATLAB/Simulink through a
   WebSocket server; tasks are generated stiff / transiently stiff / unstable ODE and
   control-design problems (datasets/stiff_control_odes.py), not EngDesign or SciBench-107.
2. The default code-writer is scripted (naive explicit Euler, fixed repair rules:
   baselines/octave_simulation.py); the LLM code-writer (``policy="llm"``) only chooses solver,
   step and gain in a fixed template, not free Octave code, and an unreadable reply ends the
   task (no re-asking).
3. No strategic planner (M_plan): each task is one simulation; re-planning is the restart.
4. The anomaly detectors and their thresholds (sawtooth run 6, growth 2x; peak growth 1.05x
   per half period) are ours: the paper's perception prompts/rules were not read.
5. Segments = the task's sample times (20 per horizon, ours); the repair budget (11 per task) is ours.
6. The one-segment rollback of the hot fix is ours (added after a unit test showed a checkpoint
   contaminated by an excursion that began just before it).

Mutants for foils (field ``mutant``; "" is the method unchanged):
- ``nan_only``: perception sees only non-finite values and errors (no bound, sawtooth or
  growth detector) - the crash signals an error-driven agent gets.
- ``no_stream``: the whole horizon runs in one call before perception looks (streaming
  removed; with the same detectors this is execute-then-respond with a post-hoc check).
- ``restart``: anomalies are perceived while streaming, but every repair restarts from t_0
  (the hot fix from the checkpoint removed).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.execute_then_respond import delivered
from claimbench.baselines.octave_simulation import (Detectors, OctaveSession, TaskLog, detect,
                                                    halved, make_policy, simulate, spec_ok)

MUTANTS = ("", "nan_only", "no_stream", "restart")


@dataclass
class EmbodiedAct(Method):
    name: ClassVar[str] = "embodiedact"
    mutant: str = ""  # see MUTANTS
    max_repairs: int = 11  # repairs per task before giving up (ours; equal in every loop)
    policy: str = "scripted"  # "scripted" or "llm" (the paper: an LLM, GPT-5.2 class)
    n_steps0: int = 1000  # scripted code-writer: initial Euler steps (ours)
    max_halvings: int = 2  # scripted code-writer: halvings before ode15s (ours)
    model: str = "tiny:charlm-small"  # llm code-writer (the paper: GPT-5.2 and others)
    temperature: float = 0.0
    max_tokens: int = 48
    rollback: int = 1  # accepted segments discarded before a hot fix resumes (ours)
    timeout_s: float = 60.0  # per Octave call
    max_tasks: int = 0  # attempt only the first max_tasks tasks (0 = all; small LLM arms)

    def __post_init__(self) -> None:
        if self.mutant not in MUTANTS:
            raise ValueError(f"unknown mutant {self.mutant!r}")

    def run(self, data, seed: int) -> dict:
        policy = make_policy(self)
        logs = []
        with OctaveSession(self.timeout_s) as sess:
            tasks = data["tasks"][:self.max_tasks] if self.max_tasks else data["tasks"]
            for i, task in enumerate(tasks):
                logs.append(self.solve(sess, policy, task, seed + i).as_dict())
        return {"tasks": logs}

    def detectors(self) -> Detectors:
        if self.mutant == "nan_only":
            return Detectors(bound=False, sawtooth=False, growth=False)
        return Detectors()

    def solve(self, sess: OctaveSession, policy, task: dict, seed: int) -> TaskLog:
        log, det = TaskLog(), self.detectors()
        times, m = task["times"], len(task["times"]) - 1
        per_call = m if self.mutant == "no_stream" else 1
        cfg, halvings = policy.initial(task, seed=seed), 0
        y0 = np.asarray(task["y0"], dtype=float)
        hist, segs_kept, k = np.zeros((0, len(y0))), [], 0  # accepted stream, its segments
        while True:
            if cfg is None:
                log.anomalies.append("unreadable_code")
                return log
            start = segs_kept[-1].y[-1] if segs_kept else y0
            segs, err = simulate(sess, task, cfg, start, times[k:k + per_call + 1])
            log.runs += 1
            log.steps_total += sum(s.steps for s in segs)
            if err or len(segs) != min(per_call, m - k):
                anomaly = "error"
            else:
                new = np.concatenate([hist] + [s.y for s in segs])  # (n, d) stream so far
                anomaly = detect(new, task["bound"], det)
            if not anomaly:
                hist = new
                segs_kept += segs
                k += len(segs)
                if k < m:
                    continue
                if spec_ok(task, segs_kept[-1].y[-1]):
                    log.samples = delivered(y0, segs_kept)
                    log.steps_kept = sum(s.steps for s in segs_kept)
                    log.config = {"solver": cfg.solver, "h": cfg.h, "rtol": cfg.rtol,
                                  "kp": cfg.kp, "kd": cfg.kd}
                    return log
                anomaly = "growth" if task["design"] else "spec"
            log.anomalies.append(anomaly)
            if log.repairs >= self.max_repairs:
                return log
            replan = (anomaly in ("growth", "spec") and task["design"]) or k == m
            new_cfg = policy.repair(task, cfg, anomaly, halvings, seed=seed + log.runs)
            halvings += halved(cfg, new_cfg)
            cfg = new_cfg
            log.repairs += 1
            if replan or self.mutant == "restart":
                hist, segs_kept, k = np.zeros((0, len(y0))), [], 0
            elif self.rollback and segs_kept:
                # the anomaly may have begun just before the checkpoint: resume one earlier
                segs_kept = segs_kept[:-self.rollback]
                k = len(segs_kept)
                hist = (np.concatenate([s.y for s in segs_kept]) if segs_kept
                        else np.zeros((0, len(y0))))
        return log
