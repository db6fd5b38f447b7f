"""Checkpoints of varied plasticity from continual training of a small numpy MLP on digits.

The model is a plain multilayer perceptron (ReLU or tanh hidden layers, softmax output,
cross-entropy loss) with hand-written backpropagation and Adam, its parameters one flat vector,
on scikit-learn's 8x8 ``load_digits`` (1797 images, 64 pixels, 10 classes; split 1197 train /
300 validation / 300 test; pixels centred per pixel and scaled by one global std). A *task* is
the digits problem seen through a random pixel permutation and/or label permutation (the
permuted-MNIST / label-shuffling protocols of the loss-of-plasticity literature, at digits
scale). Every task starts with a fresh Adam state.

Two regimes (two Dataset classes):

* ``ContinualCheckpoints``: ``n_runs`` continual-training runs, Adam learning rates spread
  geometrically over [lr_min, lr_max], each on its own seeded sequence of ``n_tasks`` tasks of
  ``steps_per_task`` steps; a checkpoint is saved at the end of every task. Plasticity varies
  with the learning rate (large Adam steps kill ReLU units and inflate the weights) and with
  the number of tasks seen.
* ``PlateauCheckpoints`` (our reconstruction of "pretraining checkpoint selection where
  validation loss plateaus"): one continual pre-training run at one learning rate over
  ``n_tasks`` tasks; its per-task checkpoints have all fitted their current task to about the
  same validation loss (~0.1 nats against 2.3 at initialisation) while downstream accuracy
  keeps drifting down. (A stationary pre-training run on one task was tried first: after its
  validation loss flattened, downstream accuracy moved by under one point over 2000 more steps,
  so the choice of checkpoint did not matter; that was judged on the truth alone, before any
  measure was run.)

For every checkpoint the truth holds its *downstream accuracy*: a copy of all parameters is
fine-tuned with Adam for a fixed budget on a fresh task (new pixel and label permutations, the
same new task(s) and minibatch order for every checkpoint of an instance) and scored on that
task's held-out test split, averaged over ``n_downstream`` fresh tasks.

``data`` (what a measure may see): the checkpoints, the layer sizes, the activation, each
checkpoint's own current-task probe batch (real inputs and labels, for the real-data measures),
and its current-task validation loss. ``truth``: downstream accuracies (K,) and each
checkpoint's run, learning rate and task index (metadata kept from the measures).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance
from claimbench.optim import Adam

Params = list  # [(W (d_in, d_out), b (d_out,)), ...]: views into one flat parameter vector


# -- the MLP ----------------------------------------------------------------------------------
def n_params(sizes: tuple[int, ...]) -> int:
    return sum(a * b + b for a, b in zip(sizes[:-1], sizes[1:]))


def layers(theta: np.ndarray, sizes: tuple[int, ...]) -> Params:
    """Views (W, b) of each layer into the flat vector theta (no copies)."""
    out, i = [], 0
    for a, b in zip(sizes[:-1], sizes[1:]):
        out.append((theta[i:i + a * b].reshape(a, b), theta[i + a * b:i + a * b + b]))
        i += a * b + b
    return out


def init_mlp(rng: np.random.Generator, sizes: tuple[int, ...], activation: str = "relu") -> np.ndarray:
    """He (ReLU) or LeCun (tanh) normal initialisation, zero biases; flat vector (P,)."""
    gain = 2.0 if activation == "relu" else 1.0
    theta = np.zeros(n_params(sizes))
    for W, _ in layers(theta, sizes):
        W[...] = rng.standard_normal(W.shape) * np.sqrt(gain / W.shape[0])
    return theta


def _act(z: np.ndarray, activation: str) -> np.ndarray:
    return np.maximum(z, 0.0) if activation == "relu" else np.tanh(z)


def _act_deriv(z: np.ndarray, h: np.ndarray, activation: str) -> np.ndarray:
    return (z > 0.0).astype(z.dtype) if activation == "relu" else 1.0 - h * h


def forward(theta: np.ndarray, sizes: tuple, X: np.ndarray, activation: str = "relu"):
    """Logits (n, C), layer inputs [X, h_1, ..., h_{L-1}] and hidden pre-activations."""
    acts, pres = [X], []
    h = X
    net = layers(theta, sizes)
    for W, b in net[:-1]:
        z = h @ W + b  # (n, width)
        h = _act(z, activation)
        pres.append(z)
        acts.append(h)
    W, b = net[-1]
    return h @ W + b, acts, pres


def softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)  # (n, C)


def xent(logits: np.ndarray, y: np.ndarray) -> float:
    """Mean cross-entropy of integer labels y under softmax(logits)."""
    z = logits - logits.max(axis=1, keepdims=True)
    logz = np.log(np.exp(z).sum(axis=1))
    return float(np.mean(logz - z[np.arange(len(y)), y]))


def backward_deltas(theta: np.ndarray, sizes: tuple, acts, pres, dlogits: np.ndarray,
                    activation: str) -> list:
    """Back-propagate output errors dlogits (n, C): deltas[l] = dL/dz_l pairs with acts[l]."""
    net = layers(theta, sizes)
    deltas = [dlogits]
    d = dlogits
    for l in range(len(net) - 1, 0, -1):
        d = (d @ net[l][0].T) * _act_deriv(pres[l - 1], acts[l], activation)  # (n, width)
        deltas.append(d)
    return deltas[::-1]


def output_error(logits: np.ndarray, y: np.ndarray) -> np.ndarray:
    """d l / d logits = softmax(logits) - onehot(y), per example (n, C)."""
    p = softmax(logits)
    p[np.arange(len(y)), y] -= 1.0
    return p


def grad(theta: np.ndarray, sizes: tuple, X: np.ndarray, y: np.ndarray,
         activation: str = "relu") -> np.ndarray:
    """Gradient (P,) of the mean cross-entropy over the batch."""
    logits, acts, pres = forward(theta, sizes, X, activation)
    deltas = backward_deltas(theta, sizes, acts, pres, output_error(logits, y) / len(y),
                             activation)
    g = np.empty_like(theta)
    for (gW, gb), a, d in zip(layers(g, sizes), acts, deltas):
        np.dot(a.T, d, out=gW)
        gb[...] = d.sum(axis=0)
    return g


def loss(theta: np.ndarray, sizes: tuple, X: np.ndarray, y: np.ndarray,
         activation: str = "relu") -> float:
    return xent(forward(theta, sizes, X, activation)[0], y)


def per_example_sq_grad_norms(theta: np.ndarray, sizes: tuple, X: np.ndarray, y: np.ndarray,
                              activation: str = "relu") -> np.ndarray:
    """||grad_theta l(f_theta(x_i), y_i)||^2 for every example, without forming the gradients.

    The weight gradient of one example at layer l is the outer product a_i d_i^T, whose squared
    Frobenius norm is ||a_i||^2 ||d_i||^2; its bias gradient is d_i.
    """
    logits, acts, pres = forward(theta, sizes, X, activation)
    deltas = backward_deltas(theta, sizes, acts, pres, output_error(logits, y), activation)
    out = np.zeros(len(y))
    for a, d in zip(acts, deltas):
        out += (np.einsum("ij,ij->i", a, a) + 1.0) * np.einsum("ij,ij->i", d, d)
    return out  # (n,)


def accuracy(theta: np.ndarray, sizes: tuple, X: np.ndarray, y: np.ndarray,
             activation: str = "relu") -> float:
    return float(np.mean(forward(theta, sizes, X, activation)[0].argmax(axis=1) == y))


def train(theta: np.ndarray, sizes: tuple, task: dict, steps: int, lr: float,
          rng: np.random.Generator, batch: int = 64, weight_decay: float = 0.0,
          activation: str = "relu") -> np.ndarray:
    """Minibatch Adam (L2 weight decay added to the gradient) on a task's training split, in
    place, from a fresh optimiser state."""
    X, y = task["X_train"], task["y_train"]
    opt = Adam(lr, weight_decay=weight_decay)
    for idx in rng.integers(0, len(y), (steps, batch)):
        opt.step([theta], [grad(theta, sizes, X[idx], y[idx], activation)])
    return theta


# -- digits tasks --------------------------------------------------------------------------------
def load_digit_splits(rng: np.random.Generator, n_val: int = 300, n_test: int = 300) -> dict:
    """Digits, shuffled and split; pixels centred per pixel and scaled by one global std."""
    from sklearn.datasets import load_digits

    X, y = load_digits(return_X_y=True)
    order = rng.permutation(len(y))
    X, y = X[order].astype(float), y[order].astype(int)
    n_train = len(y) - n_val - n_test
    mu = X[:n_train].mean(axis=0)
    sd = float((X[:n_train] - mu).std())
    X = (X - mu) / sd  # (1797, 64)
    return {"X_train": X[:n_train], "y_train": y[:n_train],
            "X_val": X[n_train:n_train + n_val], "y_val": y[n_train:n_train + n_val],
            "X_test": X[n_train + n_val:], "y_test": y[n_train + n_val:]}


def make_task(base: dict, rng: np.random.Generator, kind: str) -> dict:
    """The base digits problem through a random pixel ("pixel_perm"), label ("label_perm") or
    pixel and label ("both") permutation."""
    if kind not in ("pixel_perm", "label_perm", "both"):
        raise ValueError(f"unknown task kind {kind!r}")
    d, C = base["X_train"].shape[1], int(base["y_train"].max()) + 1
    px = np.arange(d) if kind == "label_perm" else rng.permutation(d)
    lb = np.arange(C) if kind == "pixel_perm" else rng.permutation(C)
    task = {}
    for split in ("train", "val", "test"):
        task[f"X_{split}"] = base[f"X_{split}"][:, px]
        task[f"y_{split}"] = lb[base[f"y_{split}"]]
    return task


def _layers_many(thetas: np.ndarray, sizes: tuple) -> Params:
    """Views (W (K, d_in, d_out), b (K, 1, d_out)) of each layer into K flat vectors (K, P)."""
    K, out, i = thetas.shape[0], [], 0
    for a, b in zip(sizes[:-1], sizes[1:]):
        out.append((thetas[:, i:i + a * b].reshape(K, a, b), thetas[:, None, i + a * b:i + a * b + b]))
        i += a * b + b
    return out


def _grad_many(net: Params, gnet: Params, X: np.ndarray, y: np.ndarray, activation: str) -> None:
    """`grad` of K networks (layer views `net`) on one batch, written into the views `gnet`.

    The same operations as `grad`, each on a stack of K operands: a stacked matrix product is
    the same BLAS product per network and the elementwise operations act per element, so slice k
    equals grad(theta_k) bit for bit (tests/test_local_redundancy.py)."""
    acts, pres, h = [X], [], X
    for W, b in net[:-1]:
        z = h @ W + b  # (K, n, width)
        h = _act(z, activation)
        pres.append(z)
        acts.append(h)
    W, b = net[-1]
    logits = h @ W + b  # (K, n, C)
    z = logits - logits.max(axis=2, keepdims=True)
    e = np.exp(z)
    p = e / e.sum(axis=2, keepdims=True)  # softmax, as `softmax`
    p[:, np.arange(len(y)), y] -= 1.0  # as `output_error`
    d = p / len(y)
    deltas = [d]
    for l in range(len(net) - 1, 0, -1):
        d = (d @ net[l][0].transpose(0, 2, 1)) * _act_deriv(pres[l - 1], acts[l], activation)  # (K, n, width)
        deltas.append(d)
    for (gW, gb), a, d in zip(gnet, acts, deltas[::-1]):
        np.matmul(a.T if a.ndim == 2 else a.transpose(0, 2, 1), d, out=gW)
        gb[...] = d.sum(axis=1, keepdims=True)


def _train_many(thetas: np.ndarray, sizes: tuple, task: dict, steps: int, lr: float,
                rng: np.random.Generator, batch: int, activation: str) -> np.ndarray:
    """`train` (no weight decay) of K networks (K, P) in place on the same minibatches: one Adam
    over the stack updates each network as its own Adam would (elementwise)."""
    X, y = task["X_train"], task["y_train"]
    opt = Adam(lr)
    net, g = _layers_many(thetas, sizes), np.empty_like(thetas)
    gnet = _layers_many(g, sizes)
    for idx in rng.integers(0, len(y), (steps, batch)):
        _grad_many(net, gnet, X[idx], y[idx], activation)
        opt.step([thetas], [g])
    return thetas


def downstream_accuracies(thetas: list, sizes: tuple, tasks: list, steps: int, lr: float,
                          seed: int, activation: str, batch: int = 64, chunk: int = 4) -> np.ndarray:
    """`downstream_accuracy` of every checkpoint (K,), the same numbers: all checkpoints are
    fine-tuned on the same minibatches, so `chunk` of them are trained as one stack (about a
    fifth less CPU than one at a time at 4; stacks of 8 or more were slower, out of cache)."""
    accs = np.empty((len(thetas), len(tasks)))
    for k, task in enumerate(tasks):
        for i in range(0, len(thetas), chunk):
            tuned = _train_many(np.stack(thetas[i:i + chunk]), sizes, task, steps, lr,
                                np.random.default_rng([seed, k]), batch, activation)
            for j, th in enumerate(tuned):
                accs[i + j, k] = accuracy(th, sizes, task["X_test"], task["y_test"], activation)
    return np.array([float(np.mean(list(a))) for a in accs])


def downstream_accuracy(theta: np.ndarray, sizes: tuple, tasks: list, steps: int, lr: float,
                        seed: int, activation: str, batch: int = 64) -> float:
    """Mean test accuracy after fine-tuning a copy of theta for `steps` Adam steps per task."""
    accs = []
    for k, task in enumerate(tasks):
        tuned = train(theta.copy(), sizes, task, steps, lr, np.random.default_rng([seed, k]),
                      batch, activation=activation)
        accs.append(accuracy(tuned, sizes, task["X_test"], task["y_test"], activation))
    return float(np.mean(accs))


class _Recorder:
    """Collects checkpoints with what a measure may see about each."""

    def __init__(self, n_probe: int, activation: str, sizes: tuple):
        self.n_probe, self.activation, self.sizes = n_probe, activation, sizes
        self.ckpts, self.probes, self.vals, self.meta = [], [], [], []

    def save(self, theta: np.ndarray, task: dict, **meta) -> None:
        self.ckpts.append(theta.copy())
        self.probes.append((task["X_train"][:self.n_probe], task["y_train"][:self.n_probe]))
        self.vals.append(loss(theta, self.sizes, task["X_val"], task["y_val"], self.activation))
        self.meta.append(meta)

    def instance(self, base: dict, rng: np.random.Generator, ds) -> Instance:
        new_tasks = [make_task(base, rng, ds.task_kind) for _ in range(ds.n_downstream)]
        ft_seed = int(rng.integers(2**31))
        acc = downstream_accuracies(self.ckpts, self.sizes, new_tasks, ds.finetune_steps,
                                    ds.finetune_lr, ft_seed, ds.activation, ds.batch)  # (K,)
        data = {"checkpoints": self.ckpts, "sizes": self.sizes, "activation": ds.activation,
                "probes": self.probes, "val_loss": np.array(self.vals)}
        return Instance(data=data, truth={"downstream_acc": acc, "meta": self.meta})


def _lrs(lr_min: float, lr_max: float, n: int) -> np.ndarray:
    return np.geomspace(lr_min, lr_max, n) if n > 1 else np.array([lr_min])


@dataclass
class ContinualCheckpoints(Dataset):
    """Continual Adam training on a sequence of permuted-digits tasks; one checkpoint per task."""

    name: ClassVar[str] = "continual_digits"
    n_runs: int = 4  # runs with learning rates spread over [lr_min, lr_max] (research note plan)
    n_tasks: int = 5  # tasks per run (research note: 10; fewer for the CPU budget)
    steps_per_task: int = 200  # Adam steps per task (brief: "few hundred steps")
    first_ckpt: int = 0  # checkpoints are saved after tasks first_ckpt..n_tasks-1
    hidden: tuple = (64, 64)  # MLP widths (brief: 64 hidden; research note: 256-256)
    activation: str = "relu"  # the loss-of-plasticity literature's default
    lr_min: float = 1e-3  # our choice: from the Adam default ...
    lr_max: float = 3e-2  # ... to steps large enough to lose plasticity (our choice)
    weight_decay: float = 0.0  # our choice: none, so plasticity can be lost
    task_kind: str = "both"  # pixel + label permutation per task (research note plan)
    finetune_steps: int = 200  # downstream Adam budget (research note plan: 200 steps)
    finetune_lr: float = 1e-3  # downstream Adam step (our choice: Adam default)
    n_downstream: int = 1  # fresh downstream tasks averaged per checkpoint (our choice)
    n_probe: int = 256  # real current-task examples given to the real-data measures (our choice)
    batch: int = 64  # minibatch size (our choice)

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        base = load_digit_splits(rng)
        sizes = (base["X_train"].shape[1], *self.hidden, 10)
        rec = _Recorder(self.n_probe, self.activation, sizes)
        for r, lr in enumerate(_lrs(self.lr_min, self.lr_max, self.n_runs)):
            theta = init_mlp(rng, sizes, self.activation)
            for k in range(self.n_tasks):
                task = make_task(base, rng, self.task_kind)
                train(theta, sizes, task, self.steps_per_task, float(lr), rng, self.batch,
                      self.weight_decay, self.activation)
                if k >= self.first_ckpt:
                    rec.save(theta, task, run=r, lr=float(lr), task_index=k)
        return rec.instance(base, rng, self)


@dataclass
class PlateauCheckpoints(ContinualCheckpoints):
    """One continual pre-training run; its per-task checkpoints sit on a validation-loss plateau.

    Every checkpoint has fitted its current task to about the same validation loss (~0.1 nats
    against 2.3 at initialisation) while plasticity keeps falling task after task; choosing
    among them is our stand-in for the paper's checkpoint selection on a validation plateau.
    """

    name: ClassVar[str] = "plateau_digits"
    n_runs: int = 1  # one pre-training run: selection among its own checkpoints
    n_tasks: int = 10  # our choice: enough tasks for downstream accuracy to drift well apart
    first_ckpt: int = 1  # our choice: after task 0 the per-task validation loss is on its plateau
    lr_min: float = 1e-2  # our choice: an Adam step at which plasticity drifts task after task
    lr_max: float = 1e-2
