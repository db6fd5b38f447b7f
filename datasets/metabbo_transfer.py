"""Meta-BBO transfer tasks: train a learnable optimizer on simple shifted functions, test on BBOB.

An instance holds a training-task family (the data a learnable optimizer is trained on)
and one held-out BBOB problem (``datasets/bbob_functions.py``) on which every method is
scored by the final optimality gap.

Training family (the MetaDistill code's training set, ``tasks/cec_functions.py`` f2-f6,
each shifted by a uniform offset drawn anew per sampled instance):

===================  =====================================  ==========  =========
name                 f(z), z = x - offset                   box         offset
===================  =====================================  ==========  =========
abs_sum              sum |z_i|                              [-10, 10]   [-10, 10]
abs_pair_sum         sum |z_i + z_(i+1)| + sum |z_i|        [-10, 10]   [-10, 10]
scaled_sphere        1e-4 sum z_i^2                         [-100, 100] [-50, 50]
scaled_max_abs       0.1 max |z_i|                          [-100, 100] [-50, 50]
scaled_rosenbrock    1e-9 sum 100 (z_i^2 - z_(i+1))^2 +     [-100, 100] [-50, 50]
                     (z_i - 1)^2
===================  =====================================  ==========  =========

The training set is a function of ``split`` alone (not of the held-out function), so all
cells of one split share one trained optimizer, as one pretrained checkpoint is evaluated
on every BBOB function in the paper.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, ClassVar

import numpy as np

from claimbench.api import Dataset, Instance
from claimbench.datasets.bbob_functions import LOWER, UPPER, bbob_function, instance_of


def _abs_sum(z):
    return np.sum(np.abs(z), axis=-1)


def _abs_pair_sum(z):
    return np.sum(np.abs(z[..., :-1] + z[..., 1:]), axis=-1) + np.sum(np.abs(z), axis=-1)


def _scaled_sphere(z):
    return 1e-4 * np.sum(z * z, axis=-1)


def _scaled_max_abs(z):
    return 0.1 * np.max(np.abs(z), axis=-1)


def _scaled_rosenbrock(z):
    a, b = z[..., :-1], z[..., 1:]
    return 1e-9 * np.sum(100.0 * (a * a - b) ** 2 + (a - 1.0) ** 2, axis=-1)


TRAIN_FUNCTIONS = {  # name -> (function of the shifted point, box half-width, offset half-width)
    "abs_sum": (_abs_sum, 10.0, 10.0),
    "abs_pair_sum": (_abs_pair_sum, 10.0, 10.0),
    "scaled_sphere": (_scaled_sphere, 100.0, 50.0),
    "scaled_max_abs": (_scaled_max_abs, 100.0, 50.0),
    "scaled_rosenbrock": (_scaled_rosenbrock, 100.0, 50.0),
}


@dataclass
class ShiftedFunction:
    """A training task: ``core(x - offset)`` on the box ``[-half, half]^dim``."""

    core: Callable[[np.ndarray], np.ndarray]
    offset: np.ndarray  # (dim,)
    half: float
    name: str = ""

    def __call__(self, X: np.ndarray) -> np.ndarray:
        return self.core(np.asarray(X, dtype=float) - self.offset)


def sample_training_tasks(dim: int, rng: np.random.Generator,
                          names: tuple[str, ...] = tuple(TRAIN_FUNCTIONS)) -> list[tuple]:
    """One fresh instance of every training function: a list of (f, dim, lower, upper)."""
    tasks = []
    for name in names:
        core, half, off = TRAIN_FUNCTIONS[name]
        f = ShiftedFunction(core, rng.uniform(-off, off, dim), half, name)
        tasks.append((f, dim, -half, half))
    return tasks


@dataclass
class MetaBBOTransfer(Dataset):
    """Training family at ``train_dim`` (split ``split``) + held-out BBOB ``fid`` at ``dim``."""

    name: ClassVar[str] = "metabbo_transfer"
    fid: int = 1  # held-out BBOB function
    dim: int = 10  # held-out dimension (paper: 30-300; ours: 10-40)
    split: int = 0  # training replicate: seeds the training tasks and the training run
    train_dim: int = 5  # paper / code: 10; scaled down (our choice)
    budget: int = 1600  # evaluations on the held-out task: 50 generations of 32 (paper: 10,000 = 50 x 200)

    def make(self, seed: int) -> Instance:
        f = bbob_function(self.fid, self.dim, instance_of(seed))
        train_seed = 7919 * (self.split + 1) + 104729 * self.train_dim  # a function of the split only
        train = {"key": ("metabbo_transfer", self.split, self.train_dim, tuple(TRAIN_FUNCTIONS)),
                 "seed": train_seed, "dim": self.train_dim,
                 "sample_tasks": lambda rng: sample_training_tasks(self.train_dim, rng)}
        data = {"f": f.black_box(), "dim": self.dim, "lower": LOWER, "upper": UPPER,
                "budget": self.budget, "train": train}
        return Instance(data=data, truth={"f_opt": f.f_opt, "x_opt": f.x_opt, "fid": self.fid,
                                          "dim": self.dim, "instance": f.instance})
