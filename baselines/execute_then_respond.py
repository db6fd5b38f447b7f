"""Execute-then-respond: the code-act loop that runs a whole simulation, reads its result, then
repairs and reruns (CodeAct-style; the paper's "execute-then-response" paradigm).

Per task: the code-writer writes a simulation (``baselines/octave_simulation.py``), the runtime
executes it over the whole horizon in one call, and only then does the agent look at what came
back: ``observe="final"`` sees the final state (and any error), ``observe="trajectory"`` sees
the whole returned trajectory and applies the same anomaly detectors as a perceiving loop, post
hoc. An anomaly (error, non-finite, beyond the plausibility bound, sawtooth, growing
oscillation, an unmet end condition) triggers the code-writer's repair rule and a rerun from
t = 0, up to ``max_repairs`` repairs. The first run without an anomaly is delivered.

``policy="scripted"`` is the deterministic code-writer; ``policy="llm"`` asks a language model
through ``claimbench.models`` for the solver, step and gain (an unreadable reply fails the task).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.octave_simulation import (Detectors, OctaveSession, TaskLog, detect,
                                                    halved, make_policy, simulate, spec_ok)


def delivered(y0, segs) -> list:
    return [list(map(float, y0))] + [list(map(float, s.y[-1])) if len(s.y) else
                                     [float("nan")] * len(y0) for s in segs]


@dataclass
class ExecuteThenRespond(Method):
    name: ClassVar[str] = "execute_then_respond"
    observe: str = "final"  # "final" (result only) or "trajectory" (post-hoc full check)
    max_repairs: int = 11  # repairs per task before giving up (ours; equal in every loop)
    policy: str = "scripted"  # "scripted" or "llm"
    n_steps0: int = 1000  # scripted code-writer: initial Euler steps over the horizon (ours)
    max_halvings: int = 2  # scripted code-writer: step halvings before ode15s (ours)
    model: str = "tiny:charlm-small"  # llm code-writer
    temperature: float = 0.0
    max_tokens: int = 48
    timeout_s: float = 60.0  # per Octave call
    max_tasks: int = 0  # attempt only the first max_tasks tasks (0 = all; small LLM arms)

    def run(self, data, seed: int) -> dict:
        policy = make_policy(self)
        logs = []
        with OctaveSession(self.timeout_s) as sess:
            tasks = data["tasks"][:self.max_tasks] if self.max_tasks else data["tasks"]
            for i, task in enumerate(tasks):
                logs.append(self.solve(sess, policy, task, seed + i).as_dict())
        return {"tasks": logs}

    def solve(self, sess: OctaveSession, policy, task: dict, seed: int) -> TaskLog:
        log = TaskLog()
        det = Detectors() if self.observe == "trajectory" else Detectors(sawtooth=False,
                                                                         growth=False)
        cfg, halvings = policy.initial(task, seed=seed), 0
        m = len(task["times"]) - 1
        while True:
            if cfg is None:
                log.anomalies.append("unreadable_code")
                return log
            segs, err = simulate(sess, task, cfg, task["y0"], task["times"])
            log.runs += 1
            steps = sum(s.steps for s in segs)
            log.steps_total += steps
            if err or len(segs) != m:
                anomaly = "error"
            else:
                seen = (np.concatenate([s.y for s in segs]) if self.observe == "trajectory"
                        else segs[-1].y[-1:])  # (n, d) or (1, d)
                anomaly = detect(seen, task["bound"], det)
                if not anomaly and not spec_ok(task, segs[-1].y[-1]):
                    anomaly = "growth" if task["design"] else "spec"
            if not anomaly:
                log.samples, log.steps_kept = delivered(task["y0"], segs), steps
                log.config = {"solver": cfg.solver, "h": cfg.h, "rtol": cfg.rtol,
                              "kp": cfg.kp, "kd": cfg.kd}
                return log
            log.anomalies.append(anomaly)
            if log.repairs >= self.max_repairs:
                return log
            new = policy.repair(task, cfg, anomaly, halvings, seed=seed + log.runs)
            halvings += halved(cfg, new)
            cfg = new
            log.repairs += 1
        return log
