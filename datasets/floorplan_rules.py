"""Generated two-die floorplanning instances with design rules, and their placement environment.

Written here: no maintained PyPI package ships a 3-D (two-die) floorplanning environment with
design rules (FlexPlanner/RulePlanner code is research code, not a package). A circuit is a set
of rectangular modules on a G x G cell grid per die, random 2-4-pin nets, and five rules:
  - boundary modules must touch the canvas edge;
  - one pre-placed block is fixed before placement starts;
  - cross-die alignment pairs must sit on different dies with overlapping xy footprints (the
    first of a pair is masked to anchors that leave a free overlapping anchor for the second);
  - one keep-out rectangle per die must stay empty;
  - per-die utilisation cap: the module area on a die may not exceed ``cap_area``.
Non-overlap of modules is counted as a rule too (legality).

``FloorplanEnv`` places the movable modules one at a time (largest first). At each step it
builds one legal-anchor matrix per rule, shape (2, G, G) (die, x, y of the lower-left corner):
the paper's "rule matrices". HPWL is the half-perimeter wirelength over module centres (the die
coordinate is ignored, as for inter-die nets through vias).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

RULES = ("overlap", "keepout", "boundary", "align", "util")


def sample_circuit(rng: np.random.Generator, n_modules: int, grid: int) -> dict:
    """One seeded circuit; module 0 is the pre-placed block."""
    G = grid
    sizes = rng.integers(1, 4, size=(n_modules, 2))  # (n, 2) widths, heights in 1..3
    n_nets = int(round(1.5 * n_modules))
    nets = [rng.choice(n_modules, size=int(rng.integers(2, 5)), replace=False)
            for _ in range(n_nets)]
    keepout = np.zeros((2, G, G), bool)  # (die, x, y)
    for d in range(2):
        kx, ky = rng.integers(1, G - 3, size=2)
        keepout[d, kx:kx + 2, ky:ky + 2] = True
    pre_die, pre_x, pre_y = 0, 0, 0
    sizes[0] = (2, 2)
    keepout[0, :2, :2] = False  # the pre-placed block sits in the corner of die 0
    movable = np.arange(1, n_modules)
    picks = rng.permutation(movable)
    boundary = picks[:2]
    align = [(int(picks[2]), int(picks[3]))]
    total = int(np.prod(sizes, axis=1).sum())
    return dict(grid=G, sizes=sizes, nets=nets, keepout=keepout,
                preplaced={0: (pre_die, pre_x, pre_y)}, boundary=set(int(b) for b in boundary),
                align=align, cap_area=int(np.ceil(0.6 * total)))


def order(circ: dict) -> list[int]:
    """Placement order of the movable modules: largest area first (stable)."""
    n = len(circ["sizes"])
    area = np.prod(circ["sizes"], axis=1)
    seq = [int(i) for i in sorted(range(n), key=lambda i: -area[i]) if i not in circ["preplaced"]]
    for a, b in circ["align"]:  # an aligned pair back to back, so its overlap region stays free
        first, second = (a, b) if seq.index(a) < seq.index(b) else (b, a)
        seq.remove(second)
        seq.insert(seq.index(first) + 1, second)
    return seq


def _sat(a: np.ndarray) -> np.ndarray:
    """Summed-area table with a zero border: (..., G+1, G+1)."""
    s = np.zeros(a.shape[:-2] + (a.shape[-2] + 1, a.shape[-1] + 1))
    s[..., 1:, 1:] = a.cumsum(-2).cumsum(-1)
    return s


def _box_any(a: np.ndarray, w: int, h: int) -> np.ndarray:
    """For every anchor (x, y), whether a[..., x:x+w, y:y+h] has any True; out-of-canvas = True."""
    G = a.shape[-1]
    out = np.ones(a.shape, bool)
    s = _sat(a.astype(float))
    nx, ny = G - w + 1, G - h + 1
    tot = (s[..., w:w + nx, h:h + ny] - s[..., :nx, h:h + ny] - s[..., w:w + nx, :ny]
           + s[..., :nx, :ny])
    out[..., :nx, :ny] = tot > 0.5
    return out


def hpwl(circ: dict, place: np.ndarray) -> float:
    """Half-perimeter wirelength over module centres of a full placement (n, 3) = (die, x, y)."""
    c = place[:, 1:3] + circ["sizes"] / 2.0  # (n, 2) centres
    return float(sum(np.ptp(c[net, 0]) + np.ptp(c[net, 1]) for net in circ["nets"]))


def violations(circ: dict, place: np.ndarray) -> dict:
    """Number of violations of each rule by a full placement (n, 3)."""
    G, sz = circ["grid"], circ["sizes"]
    n = len(sz)
    occ = np.zeros((2, G, G), int)
    v = dict.fromkeys(RULES, 0)
    for i in range(n):
        d, x, y = place[i]
        w, h = sz[i]
        if x < 0 or y < 0 or x + w > G or y + h > G:
            raise ValueError("module outside the canvas")
        occ[d, x:x + w, y:y + h] += 1
        v["keepout"] += int(circ["keepout"][d, x:x + w, y:y + h].any())
        if i in circ["boundary"]:
            v["boundary"] += int(not (x == 0 or y == 0 or x + w == G or y + h == G))
    v["overlap"] = int(np.maximum(occ - 1, 0).sum())  # doubly-covered cells
    for i, j in circ["align"]:
        (di, xi, yi), (dj, xj, yj) = place[i], place[j]
        ox = min(xi + sz[i][0], xj + sz[j][0]) > max(xi, xj)
        oy = min(yi + sz[i][1], yj + sz[j][1]) > max(yi, yj)
        v["align"] += int(di == dj or not (ox and oy))
    area = np.prod(sz, axis=1)
    for d in range(2):
        v["util"] += int(area[place[:, 0] == d].sum() > circ["cap_area"])
    return v


class FloorplanEnv:
    """Sequential placement of one circuit; ``rule_masks`` gives the per-rule legal anchors."""

    def __init__(self, circ: dict):
        self.c = circ
        self.seq = order(circ)
        # per module, its nets as plain int lists (wire_delta runs at every step; iterating
        # numpy nets element by element cost more than the arithmetic)
        nets = [[int(k) for k in net] for net in circ["nets"]]
        self._nets_of = [[net for net in nets if i in net] for i in range(len(circ["sizes"]))]
        self._keepout_free: dict = {}  # (w, h) -> anchors whose footprint misses the keep-outs
        self.reset()

    def reset(self) -> None:
        G, n = self.c["grid"], len(self.c["sizes"])
        self.place = np.full((n, 3), -1, int)
        self.occ = np.zeros((2, G, G), bool)  # (die, x, y)
        self.area = np.zeros(2, int)
        self.t = 0
        for i, (d, x, y) in self.c["preplaced"].items():
            self._put(i, d, x, y)

    @property
    def done(self) -> bool:
        return self.t >= len(self.seq)

    @property
    def module(self) -> int:
        return self.seq[self.t]

    def _put(self, i: int, d: int, x: int, y: int) -> None:
        w, h = self.c["sizes"][i]
        self.place[i] = (d, x, y)
        self.occ[d, x:x + w, y:y + h] = True
        self.area[d] += w * h

    def in_bounds(self) -> np.ndarray:
        G = self.c["grid"]
        w, h = self.c["sizes"][self.module]
        m = np.zeros((2, G, G), bool)
        m[:, :G - w + 1, :G - h + 1] = True
        return m

    def rule_masks(self) -> dict:
        """Legal-anchor matrix (2, G, G) of the current module under each rule."""
        G, i = self.c["grid"], self.module
        w, h = self.c["sizes"][i]
        inb = self.in_bounds()
        xs, ys = np.arange(G)[:, None], np.arange(G)[None, :]
        if (w, h) not in self._keepout_free:  # the keep-outs never change: once per size
            self._keepout_free[w, h] = ~_box_any(self.c["keepout"], w, h)
        m = {"overlap": ~_box_any(self.occ, w, h) & inb,
             "keepout": self._keepout_free[w, h] & inb}
        if i in self.c["boundary"]:
            edge = (xs == 0) | (ys == 0) | (xs + w == G) | (ys + h == G)  # (G, G)
            m["boundary"] = np.broadcast_to(edge, (2, G, G)) & inb
        else:
            m["boundary"] = inb.copy()
        m["align"] = inb.copy()
        for a, b in self.c["align"]:
            j = b if a == i else a if b == i else None
            if j is None:
                continue
            if self.place[j, 0] < 0:  # first of the pair: keep room for the partner above it
                m["align"] = self._align_room(i, j) & inb
                continue
            dj, xj, yj = self.place[j]
            wj, hj = self.c["sizes"][j]
            ov = (np.minimum(xs + w, xj + wj) > np.maximum(xs, xj)) & \
                 (np.minimum(ys + h, yj + hj) > np.maximum(ys, yj))
            m["align"] = np.zeros((2, G, G), bool)
            m["align"][1 - dj] = ov
            m["align"] &= inb
        ok = self.area + w * h <= self.c["cap_area"]  # (2,)
        m["util"] = inb & ok[:, None, None]
        return m

    def _align_room(self, i: int, j: int) -> np.ndarray:
        """Anchors of i whose footprint still overlaps some free anchor of j on the other die."""
        G = self.c["grid"]
        (w, h), (wj, hj) = self.c["sizes"][i], self.c["sizes"][j]
        out = np.zeros((2, G, G), bool)
        for d in range(2):
            if self.area[1 - d] + wj * hj > self.c["cap_area"]:
                continue  # no room for j under the other die's utilisation cap
            blocked = self.occ[1 - d] | self.c["keepout"][1 - d]
            free = ~_box_any(blocked, wj, hj)  # (G, G) legal anchors of j
            # any free anchor in the window [x - wj + 1, x + w) x [y - hj + 1, y + h) (clipped),
            # by a summed-area table of integer counts (exact; was a double loop)
            s = np.zeros((G + 1, G + 1), int)
            s[1:, 1:] = free.astype(int).cumsum(0).cumsum(1)
            x = np.arange(G - w + 1)[:, None]
            y = np.arange(G - h + 1)[None, :]
            x0, x1 = np.maximum(0, x - wj + 1), np.minimum(G, x + w)
            y0, y1 = np.maximum(0, y - hj + 1), np.minimum(G, y + h)
            out[d, :G - w + 1, :G - h + 1] = (s[x1, y1] - s[x0, y1] - s[x1, y0] + s[x0, y0]) > 0
        return out

    def wire_delta(self) -> np.ndarray:
        """HPWL increase (G, G) of putting the current module's centre at each anchor."""
        G, i = self.c["grid"], self.module
        w, h = self.c["sizes"][i]
        cx = np.arange(G)[:, None] + w / 2.0
        cy = np.arange(G)[None, :] + h / 2.0
        placed = (self.place[:, 0] >= 0).tolist()
        cen = (self.place[:, 1:3] + self.c["sizes"] / 2.0).tolist()  # (n, 2) exact floats
        box = []  # (x0, x1, y0, y1) of the placed modules of each net holding i
        for net in self._nets_of[i]:
            p = [k for k in net if placed[k] and k != i]
            if p:
                xs, ys = [cen[k][0] for k in p], [cen[k][1] for k in p]
                box.append((min(xs), max(xs), min(ys), max(ys)))
        if not box:
            return np.zeros((G, G))
        # All coordinates are multiples of 1/2 far below 2^52, so every sum here is exact and
        # the per-axis sums over nets equal the per-net (G, G) accumulation bit for bit.
        b = np.array(box)  # (k, 4)
        xpart = (np.maximum(0, b[:, :1] - cx[:, 0]) + np.maximum(0, cx[:, 0] - b[:, 1:2])).sum(0)
        ypart = (np.maximum(0, b[:, 2:3] - cy[0]) + np.maximum(0, cy[0] - b[:, 3:4])).sum(0)
        return xpart[:, None] + ypart[None, :]  # (G, G)

    def legal(self, masks: dict, rules=RULES) -> np.ndarray:
        """AND of the rule matrices; at a dead end (empty AND) the in-bounds anchors that break
        the fewest rules, so that one broken rule does not release all the others."""
        stack = np.stack([masks[r] for r in rules])  # (R, 2, G, G)
        broken = np.where(self.in_bounds(), (~stack).sum(0), len(rules) + 1)  # (2, G, G)
        return broken == broken.min()

    def step(self, d: int, x: int, y: int) -> None:
        self._put(self.module, d, x, y)
        self.t += 1


@dataclass
class RuleFloorplan(Dataset):
    """Evaluation circuits in distribution (``n_modules``, ``grid``) and larger unseen transfer
    circuits (``transfer_modules``, ``transfer_grid``); the method samples its own training
    circuits from the same generator with its seed."""

    name: ClassVar[str] = "rule_floorplan"
    n_modules: int = 8  # ours: the note's 10-20 scaled down
    grid: int = 8  # ours: the note's 16 x 16 scaled down
    transfer_modules: int = 12
    transfer_grid: int = 10
    n_eval: int = 8

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        ev = [sample_circuit(rng, self.n_modules, self.grid) for _ in range(self.n_eval)]
        tr = [sample_circuit(rng, self.transfer_modules, self.transfer_grid)
              for _ in range(self.n_eval)]
        data = {"eval": ev, "transfer": tr, "n_modules": self.n_modules, "grid": self.grid}
        return Instance(data=data, truth={"eval": ev, "transfer": tr})
