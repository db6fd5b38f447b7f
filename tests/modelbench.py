"""A toy benchmark whose method asks a language model (for the model-adapter tests)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Benchmark, Claim, Dataset, Grid, Instance, Method, Paper, cfg, output_metric
from claimbench.checks import Better
from claimbench.models import load_model

WORDS = ("return", "lambda", "class", "yield", "import", "while")


@dataclass
class Keywords(Dataset):
    name: ClassVar[str] = "keywords"
    n: int = 2

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        picks = [str(w) for w in rng.choice(WORDS, size=self.n, replace=False)]
        return Instance(data={"prompts": [f"The {w} statement" for w in picks]})


@dataclass
class AskModel(Method):
    name: ClassVar[str] = "ask_model"
    model: str = "tiny:charlm-small"  # the spec `claimbench run --model` replaces
    max_tokens: int = 4
    temperature: float = 0.0

    def run(self, data, seed):
        lm = load_model(self.model)
        texts = [lm.generate(p, max_tokens=self.max_tokens, temperature=self.temperature,
                             seed=seed).text for p in data["prompts"]]
        lp = [np.mean(lm.logprobs(p, " is")) for p in data["prompts"]]
        return {"chars": float(sum(len(t) for t in texts)), "mean_logprob": float(np.mean(lp))}


@dataclass
class NoModel(Method):
    name: ClassVar[str] = "no_model"

    def run(self, data, seed):
        return {"chars": 0.0, "mean_logprob": float(np.log(1 / 100))}


def make_bench(seeds: int = 2) -> Benchmark:
    claim = Claim("c1", "Table 1", "the model beats a uniform guess", source="derived",
                  check=Better("ask_model", "no_model", "mean_logprob"), foils=("ask_model_mute",),
                  needs_capable_model=True)
    plain = Claim("c2", "Table 1", "the model writes characters", source="derived",
                  check=Better("ask_model", "no_model", "chars"), foils=("ask_model_mute",))
    grid_m = Grid(datasets=(cfg(Keywords),), seeds=seeds,
                  methods=(cfg(AskModel), cfg(NoModel), cfg(AskModel, "ask_model_mute", max_tokens=0)))
    return Benchmark(
        slug="modeltoy", paper=Paper(title="Model toy"), area="games", fidelity="proxy",
        methods=(AskModel,), baselines=(NoModel,), datasets=(Keywords,),
        metrics=(output_metric("chars", True), output_metric("mean_logprob", True)),
        primary_metric="mean_logprob", claims=(claim, plain),
        grids={"smoke": grid_m, "quick": grid_m, "full": grid_m})


BENCH = make_bench()
