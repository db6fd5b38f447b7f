"""Direct testbench generation: the generator's tasks run in the order it emits them, with the
thresholds it states itself (no scheduler, no symbolic oracle), as a generic LLM writes a
testbench; optionally a generic simulator-feedback repair (AnalogCoder-style: re-ask for the
failed measurement and insert what comes back right before it, then rerun).

``order="document"`` keeps the generator's order (the order the specification mentions tasks);
``order="random"`` shuffles it (random ordering). ``max_repairs=0`` is one-shot generation.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.ngspice_testbench import make_generator, run_testbench, verdicts


def generic_repair(order: list[str], spec: str, new: list[str]) -> list[str]:
    """Insert the re-emitted tasks right before the failed measurement (a missing measurement is
    appended first); an analysis is inserted again even if present (re-run before measuring)."""
    m = "m_" + spec
    order = list(order) + ([m] if m not in order else [])
    add = [t for t in new if t.startswith("stim_") and t not in order]
    add += [t for t in new if not t.startswith("stim_")]
    i = order.index(m)
    return order[:i] + add + order[i:]


@dataclass
class DirectTestbench(Method):
    name: ClassVar[str] = "direct_generation"
    order: str = "document"  # "document" | "random"
    max_repairs: int = 0  # 0: one-shot; >0: generic feedback repair rounds
    p_omit: float = 0.25  # ours: scripted generator drops a stimulus/analysis task
    sigma: float = 0.1  # ours: log-normal relative error of a numeric guess
    p_slip: float = 0.2  # ours: probability of a formula slip in a numeric guess
    model: str = "tiny:charlm-small"  # the LLM arm's generator (claimbench run --model)
    temperature: float = 0.0  # greedy decoding
    max_tokens: int = 16  # ours: short answers

    def applies_to(self, dataset) -> str | None:
        if getattr(dataset, "arm", "scripted") == "llm" and (self.order != "document"
                                                             or self.max_repairs):
            return "the LLM arm runs the one-shot document-order baseline only (model calls)"
        return None

    def run(self, data, seed):
        if self.order not in ("document", "random"):
            raise ValueError(f"unknown order {self.order!r}")
        rng = np.random.default_rng(seed)
        gen = make_generator(self, data, rng, seed)
        out, runs = [], 0
        for c in data["circuits"]:
            order = gen.serialize(c)
            if self.order == "random":
                order = [order[i] for i in rng.permutation(len(order))]
            thr = {s: gen.threshold(c, s) for s in c["specs"]}
            for r in range(self.max_repairs + 1):
                measured, fb = run_testbench(c, order)
                runs += 1
                failed = [s for s in c["specs"] if s not in measured]
                if not failed or r == self.max_repairs:
                    break
                for s in failed:
                    order = generic_repair(order, s, gen.regenerate(c, s, fb))
            out.append({"order": order, "thresholds": thr, "measured": measured,
                        "verdicts": verdicts(c, thr, measured)})
        return {"circuits": out, "sim_runs": runs, "unparsable": gen.unparsable}
