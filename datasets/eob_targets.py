"""Target task sets for benchmark-design methods (EoB, arXiv 2601.21877): what a generated
suite should resemble, and where the "true" solver ranking is measured.

* :class:`BBOBTargets` -- a few noiseless BBOB functions on [-5, 5]^d, one COCO instance each
  (drawn from the seed), from :mod:`claimbench.datasets.bbob_functions`; default: one function
  per BBOB group, f1 sphere, f8 Rosenbrock, f10 rotated ellipsoid, f15 rotated Rastrigin,
  f20 Schwefel;
* :class:`TuningTargets` -- one hyper-parameter tuning surface (RBF kernel ridge on the
  diabetes data over log alpha x log gamma, :mod:`claimbench.datasets.tuning_surfaces`),
  the paper's "proxy for an expensive problem" use.

``data`` (what a method sees): the target specs (small dicts; turn one into a callable
(n, d) -> (n,) with :func:`target_function`), the dimension, the solver budget, the number of
runs and the landscape sample size. ``truth`` (metrics only): the portfolio's normalized
performance on every target and their ADC, measured with the shared protocol of
:mod:`claimbench.baselines.suite_assessment` and seeds independent of the methods'.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance


def target_function(spec: dict):
    """A callable (n, d) -> (n,) for a target spec."""
    if spec["kind"] == "bbob":
        from claimbench.datasets.bbob_functions import bbob_function

        return bbob_function(spec["fid"], spec["dim"], spec["instance"])
    if spec["kind"] == "surface":
        from claimbench.datasets.tuning_surfaces import surface_eval

        return lambda X: surface_eval(spec["values"], X)
    raise ValueError(spec["kind"])


def _instance(specs, dim, budget, reps, n_sample, seed) -> Instance:
    from claimbench.baselines.suite_assessment import assess_suite

    data = {"dim": dim, "targets": specs, "budget": budget, "reps": reps, "n_sample": n_sample}
    # Independent of the seeds the methods use for their own assessment.
    truth = assess_suite([target_function(s) for s in specs], dim, budget, reps,
                         seed=int(np.random.default_rng([seed, 3]).integers(2**62)),
                         n_sample=n_sample)
    return Instance(data=data, truth=truth)


@dataclass
class BBOBTargets(Dataset):
    name: ClassVar[str] = "bbob_targets"
    dim: int = 5  # paper: BBOB at d = 5 (note's plan; unverified)
    fids: tuple = (1, 8, 10, 15, 20)  # our choice: one per BBOB group, separable ... weak structure
    budget_per_dim: int = 500  # solver budget / d; note's plan 500 d (unverified)
    reps: int = 5  # solver runs per function; our choice
    sample_per_dim: int = 100  # landscape sample size / d; our choice (pflacco-style 50-250 d)

    def make(self, seed: int) -> Instance:
        from claimbench.datasets.bbob_functions import instance_of

        inst = np.random.default_rng(seed).integers(2**62, size=len(self.fids))
        specs = [{"kind": "bbob", "fid": int(f), "dim": self.dim, "instance": instance_of(i)}
                 for f, i in zip(self.fids, inst)]
        return _instance(specs, self.dim, self.budget_per_dim * self.dim, self.reps,
                         self.sample_per_dim * self.dim, seed)


@dataclass
class TuningTargets(Dataset):
    name: ClassVar[str] = "tuning_surface"
    n_grid: int = 15  # grid points per hyper-parameter; our choice
    budget_per_dim: int = 500  # as BBOBTargets
    reps: int = 5  # as BBOBTargets
    sample_per_dim: int = 100  # as BBOBTargets

    def make(self, seed: int) -> Instance:
        from claimbench.datasets.tuning_surfaces import kernel_ridge_surface

        split_seed = int(np.random.default_rng(seed).integers(2**31))
        surf = kernel_ridge_surface(split_seed, self.n_grid)
        spec = {"kind": "surface", "values": surf["values"], "model": "rbf_kernel_ridge",
                "axes": ("log10_alpha", "log10_gamma")}
        return _instance([spec], 2, self.budget_per_dim * 2, self.reps,
                         self.sample_per_dim * 2, seed)
