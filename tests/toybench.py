"""A toy benchmark whose methods misbehave on purpose, for harness tests."""
from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import (Benchmark, Dataset, Grid, Instance, Method, Metric, Paper, output_metric, sweep)


@dataclass
class Noise(Dataset):
    name: ClassVar[str] = "noise"
    n: int = 10

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        x = rng.normal(size=self.n)
        return Instance(data=x, truth=float(x.mean()))


@dataclass
class MeanEstimator(Method):
    name: ClassVar[str] = "mean"
    bias: float = 0.0
    sleep_s: float = 0.0

    def run(self, data, seed):
        if self.sleep_s:
            time.sleep(self.sleep_s)
        return {"estimate": float(np.mean(data)) + self.bias, "n": len(data),
                "traces": {"err": {"x": [1, 2, 3], "y": [1.0, 0.5, 0.25]}}}


@dataclass
class Noop(Method):
    name: ClassVar[str] = "noop"

    def run(self, data, seed):
        return {"estimate": 0.0}


@dataclass
class Spin(Method):
    """CPU-bound for ``seconds`` (for parallel speed-up measurements)."""

    name: ClassVar[str] = "spin"
    seconds: float = 0.01

    def run(self, data, seed):
        end = time.process_time() + self.seconds
        x = 0
        while time.process_time() < end:
            x += 1
        return {"estimate": 0.0}


@dataclass
class Misbehave(Method):
    name: ClassVar[str] = "misbehave"
    how: str = "raise"
    mb: int = 0

    def run(self, data, seed):
        if self.how == "raise":
            raise ValueError("deliberate failure")
        if self.how == "abort":
            os.abort()
        if self.how == "hang":
            while True:
                time.sleep(0.05)
        if self.how == "alloc":
            blocks = [np.ones(self.mb * 1024 * 128) for _ in range(64)]  # 64 x mb MiB
            return {"estimate": float(sum(b[0] for b in blocks))}
        if self.how == "nan":
            return {"estimate": float("nan")}
        if self.how == "inf":
            return {"estimate": float("inf")}
        if self.how == "wrongtype":
            return {"estimate": "not a number"}
        if self.how == "notdict":
            return 3.0
        raise AssertionError(self.how)


def abs_error(inst: Instance, out: dict) -> float:
    return abs(out["estimate"] - inst.truth) if isinstance(out["estimate"], float) else out["estimate"]


def make_bench(slug: str = "toy", methods=None, datasets=None, seeds: int = 2, claims=()) -> Benchmark:
    datasets = datasets or sweep(Noise, n=[10, 40])
    grid = Grid(datasets=datasets, seeds=seeds, methods=methods)
    return Benchmark(
        slug=slug, paper=Paper(title="Toy", arxiv="0000.00000"), area="games",
        fidelity="faithful", methods=(MeanEstimator,), baselines=(Noop,), datasets=(Noise,),
        metrics=(Metric("abs_error", abs_error), output_metric("n", higher_is_better=True)),
        primary_metric="abs_error", claims=tuple(claims),
        grids={"smoke": grid, "quick": grid, "full": grid})


BENCH = make_bench()
