"""NAS-Bench-201-style cell pools on scikit-learn's 8x8 digits: a tabular NAS benchmark built here.

Search space (Dong & Yang, NAS-Bench-201, ICLR 2020): one cell is a DAG of 4 nodes whose 6 edges
(1<-0, 2<-0, 2<-1, 3<-0, 3<-1, 3<-2) each carry one of 5 operations (none, skip, conv 1x1,
conv 3x3, avg-pool 3x3): 5^6 = 15625 cells. Node j is the sum over i < j of op_ij(node i);
node 3 is the cell's output. Here the network is stem (conv 3x3, 1 -> C, BN) -> one cell ->
ReLU -> 2x2 average pool -> linear(4C, 10) on 8x8 digit images (C = 8).

The table (computed once per ``table_seed`` and configuration, stored through the checkpoint
cache and shared by every cell): ``n_arch`` distinct cells drawn uniformly, each trained for
``epochs`` epochs with Adam (one-cycle schedule) from a seeded initialisation; its validation
accuracy is the "true evaluation" a searcher pays for, its test accuracy the truth; zero-cost
proxies (synflow, grad_norm, snip, NASWOT; :mod:`claimbench.baselines.zero_cost_proxies`) are
computed at initialisation on one training batch. The harness seed draws the search pool
(``n_pool`` of the table's cells) and the predictor probe set (``n_probe`` cells whose
validation accuracy a predictor may train on): every searcher sees the same pool for the same
seed.

``data``: ``archs`` (n_pool, 6) op indices, ``zcp`` (n_pool, 4), ``params`` (n_pool,),
``val_acc`` (n_pool,), which a searcher reads only through :class:`PoolOracle` (it counts true
evaluations; the predictor probe reads the ``probe`` cells' entries directly, outside the search
budget), ``probe`` (n_probe,) indices, ``budget``. ``truth``: ``test_acc`` and ``val_acc``
(n_pool,).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

OPS = ("none", "skip", "conv1x1", "conv3x3", "avgpool3x3")  # NAS-Bench-201's 5 operations
EDGES = ((1, 0), (2, 0), (2, 1), (3, 0), (3, 1), (3, 2))  # (to, from), NAS-Bench-201 order
N_ARCH_TOTAL = len(OPS) ** len(EDGES)  # 15625
ZCP_NAMES = ("synflow", "grad_norm", "snip", "naswot")


def index_to_arch(idx: int) -> tuple[int, ...]:
    """Base-5 digits of ``idx``: the op of each edge in EDGES order."""
    out = []
    for _ in EDGES:
        out.append(idx % len(OPS))
        idx //= len(OPS)
    return tuple(out)


def arch_to_str(arch) -> str:
    """NAS-Bench-201's string form: |op~0|+|op~0|op~1|+|op~0|op~1|op~2|."""
    ops = [OPS[int(o)] for o in arch]
    return "|{}~0|+|{}~0|{}~1|+|{}~0|{}~1|{}~2|".format(*ops)


def connected(arch) -> bool:
    """Whether some path of non-'none' edges joins the input (node 0) to the output (node 3)."""
    reach = {0}
    for (j, i), op in zip(EDGES, arch):
        if op != 0 and i in reach:
            reach.add(j)
    return 3 in reach


def hamming(a: np.ndarray, b) -> np.ndarray:
    """Number of differing edges between each row of ``a`` (n, 6) and ``b`` (6,)."""
    return (np.asarray(a) != np.asarray(b)[None, :]).sum(axis=1)  # (n,)


class PoolOracle:
    """The searcher's only access to validation accuracy: each new cell costs one true
    evaluation, up to ``budget``; ``queried`` keeps the order (metrics read it)."""

    def __init__(self, val_acc: np.ndarray, budget: int) -> None:
        self._val = np.asarray(val_acc, dtype=float)
        self.budget = int(budget)
        self.queried: list[int] = []
        self.cache: dict[int, float] = {}

    @property
    def remaining(self) -> int:
        return self.budget - len(self.queried)

    def __call__(self, i: int) -> float:
        i = int(i)
        if i in self.cache:
            return self.cache[i]
        if self.remaining <= 0:
            raise RuntimeError("true-evaluation budget exhausted")
        self.queried.append(i)
        self.cache[i] = float(self._val[i])
        return self.cache[i]


@lru_cache(maxsize=None)
def _cell_classes():
    import torch
    from torch import nn

    def make_op(op: int, c: int) -> nn.Module:
        if op == 1:
            return nn.Identity()
        if op in (2, 3):
            k = 1 if op == 2 else 3
            return nn.Sequential(nn.ReLU(), nn.Conv2d(c, c, k, padding=k // 2, bias=False),
                                 nn.BatchNorm2d(c))
        if op == 4:
            return nn.AvgPool2d(3, stride=1, padding=1, count_include_pad=False)
        raise ValueError(op)

    class CellNet(nn.Module):
        """(B, 1, 8, 8) images -> (B, 10) logits through one NAS-Bench-201 cell."""

        def __init__(self, arch, c: int = 8, n_classes: int = 10):
            super().__init__()
            self.arch = tuple(int(o) for o in arch)
            self.stem = nn.Sequential(nn.Conv2d(1, c, 3, padding=1, bias=False),
                                      nn.BatchNorm2d(c))
            self.ops = nn.ModuleDict({f"{j}{i}": make_op(op, c)
                                      for (j, i), op in zip(EDGES, self.arch) if op != 0})
            self.act = nn.ReLU()
            self.head = nn.Linear(c * 4, n_classes)

        def forward(self, x):
            nodes = [self.stem(x)]  # (B, C, 8, 8)
            for j in (1, 2, 3):
                acc = torch.zeros_like(nodes[0])  # (B, C, 8, 8)
                for i in range(j):
                    key = f"{j}{i}"
                    if key in self.ops:
                        acc = acc + self.ops[key](nodes[i])
                nodes.append(acc)
            h = nn.functional.adaptive_avg_pool2d(self.act(nodes[3]), 2).flatten(1)  # (B, 4C)
            return self.head(h)  # (B, 10)

    return CellNet


def build_net(arch, channels: int, seed: int):
    import torch

    CellNet = _cell_classes()
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(int(seed))  # local: restored on exit, no global seeding leaks
        return CellNet(arch, channels)


def digits_split(split_seed: int):
    """sklearn digits, pixels / 16, stratified train / val / test (~56% / 22% / 22%)."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    d = load_digits()
    x = (d.data / 16.0).astype(np.float32).reshape(-1, 1, 8, 8)  # (1797, 1, 8, 8)
    y = d.target.astype(np.int64)
    xtr, xrest, ytr, yrest = train_test_split(x, y, test_size=0.44, stratify=y,
                                              random_state=split_seed)
    xva, xte, yva, yte = train_test_split(xrest, yrest, test_size=0.5, stratify=yrest,
                                          random_state=split_seed)
    return (xtr, ytr), (xva, yva), (xte, yte)


def train_eval(arch, split, *, channels: int, epochs: int, lr: float, batch: int,
               seed: int) -> tuple[float, float]:
    """Train one cell network (Adam, one-cycle schedule: warm-up then cosine decay to ~0, so
    the final iterate is not a noisy snapshot); return (validation accuracy, test accuracy)."""
    import torch

    (xtr, ytr), (xva, yva), (xte, yte) = split
    net = build_net(arch, channels, seed)
    # foreach: the multi-tensor Adam step, the same float operations per parameter as the
    # default per-tensor loop on CPU (identical tables) with fewer Python-level op calls.
    opt = torch.optim.Adam(net.parameters(), lr=lr, foreach=True)
    g = torch.Generator().manual_seed(int(seed))
    xt, yt = torch.from_numpy(xtr), torch.from_numpy(ytr)
    steps = epochs * -(-len(xt) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    for _ in range(epochs):
        perm = torch.randperm(len(xt), generator=g)
        for s in range(0, len(xt), batch):
            idx = perm[s:s + batch]
            loss = torch.nn.functional.cross_entropy(net(xt[idx]), yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
    net.eval()
    with torch.no_grad():
        va = (net(torch.from_numpy(xva)).argmax(1).numpy() == yva).mean()
        te = (net(torch.from_numpy(xte)).argmax(1).numpy() == yte).mean()
    return float(va), float(te)


def compute_table(archs: np.ndarray, *, channels: int, epochs: int, lr: float, batch: int,
                  table_seed: int, zcp_batch: int) -> np.ndarray:
    """(n, 2 + 4 + 1): val acc, test acc, the four ZCPs at init, parameter count."""
    import torch

    from claimbench.baselines.zero_cost_proxies import all_proxies

    split = digits_split(table_seed)
    (xtr, ytr) = split[0]
    xb, yb = torch.from_numpy(xtr[:zcp_batch]), torch.from_numpy(ytr[:zcp_batch])
    rows = []
    for k, arch in enumerate(archs):
        seed = table_seed * 100003 + k
        va, te = train_eval(arch, split, channels=channels, epochs=epochs, lr=lr,
                            batch=batch, seed=seed)
        net = build_net(arch, channels, seed)
        z = all_proxies(net, xb, yb)
        n_params = sum(p.numel() for p in net.parameters())
        rows.append([va, te, *[z[n] for n in ZCP_NAMES], float(n_params)])
    return np.asarray(rows, dtype=np.float64)


def sample_archs(n: int, table_seed: int) -> np.ndarray:
    rng = np.random.default_rng(table_seed)
    idx = rng.choice(N_ARCH_TOTAL, size=n, replace=False)
    return np.array([index_to_arch(int(i)) for i in idx], dtype=np.int64)  # (n, 6)


def cached_table(n_arch: int, epochs: int, channels: int, lr: float, batch: int,
                 table_seed: int, zcp_batch: int, folder=None) -> tuple[np.ndarray, np.ndarray]:
    """(archs (n, 6), table (n, 7)), computed once per configuration (checkpoint cache)."""
    import sys

    import torch

    from claimbench.baselines import zero_cost_proxies
    from claimbench.checkpoints import cached_train

    archs = sample_archs(n_arch, table_seed)
    key = {"kind": "nas_cell_pool_table", "n_arch": n_arch, "epochs": epochs,
           "channels": channels, "lr": lr, "batch": batch, "table_seed": table_seed,
           "zcp_batch": zcp_batch}

    def build():
        m = torch.nn.Module()
        m.register_buffer("table", torch.zeros(n_arch, 7, dtype=torch.float64))  # (n, 7)
        return m

    def fit(m):
        t = compute_table(archs, channels=channels, epochs=epochs, lr=lr, batch=batch,
                          table_seed=table_seed, zcp_batch=zcp_batch)
        m.table.copy_(torch.from_numpy(t))
        return {"n_arch": n_arch}

    m, _, _ = cached_train(key, build, fit, sources=(sys.modules[__name__], zero_cost_proxies),
                           folder=folder)
    return archs, m.table.numpy().copy()


@dataclass
class NasCellPool(Dataset):
    """A seeded search pool over a tabulated NAS-Bench-201-style space on digits."""

    name: ClassVar[str] = "nas_cell_pool"
    n_arch: int = 200  # ours: cells tabulated (NAS-Bench-201 tabulates all 15625)
    n_pool: int = 150  # ours: cells a searcher may query in one run
    n_probe: int = 40  # ours: cells a predictor trains on for the rank-correlation probe
    budget: int = 50  # ours: true evaluations per search run
    epochs: int = 3  # ours: "short training" (NAS-Bench-201 trains 200 epochs)
    channels: int = 8  # ours (NAS-Bench-201: 16/32/64 channels, 15 cells)
    lr: float = 0.02  # ours (Adam, one-cycle peak)
    batch: int = 64  # ours
    table_seed: int = 0  # which table (split, sampled cells, initialisations)
    zcp_batch: int = 64  # ours: images per zero-cost proxy evaluation

    def make(self, seed: int) -> Instance:
        archs, table = cached_table(self.n_arch, self.epochs, self.channels, self.lr,
                                    self.batch, self.table_seed, self.zcp_batch)
        rng = np.random.default_rng(seed)
        pick = np.sort(rng.choice(self.n_arch, size=self.n_pool, replace=False))  # (n_pool,)
        probe = rng.choice(self.n_pool, size=self.n_probe, replace=False)  # (n_probe,)
        t = table[pick]
        data = {"archs": archs[pick], "val_acc": t[:, 0].copy(), "zcp": t[:, 2:6].copy(),
                "zcp_names": ZCP_NAMES, "params": t[:, 6].copy(), "probe": probe,
                "budget": self.budget}
        return Instance(data=data, truth={"val_acc": t[:, 0].copy(), "test_acc": t[:, 1].copy(),
                                          "probe": probe})
