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
An extra rule that no training circuit carries, for the extensibility check: a region (fence)
constraint, ``add_region``: one movable module must lie inside a quadrant of one die. It is one
more rule matrix ("region") when a circuit has it; RULES (the trained state's) stay five. A
fenced module is placed first, so that no earlier module fills its region.

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
NEW_RULES = ("region",)  # rules no training circuit carries (added at evaluation time)


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


def add_region(circ: dict, rng: np.random.Generator) -> dict:
    """A copy of ``circ`` with a region rule: one movable module outside the boundary and
    alignment sets must lie inside a G/2 x G/2 quadrant of one die, chosen among the (die,
    quadrant) pairs where it has an anchor clear of the keep-outs and the pre-placed block."""
    G, sz = circ["grid"], circ["sizes"]
    half = G // 2
    aligned = {k for pair in circ["align"] for k in pair}
    free = [i for i in range(len(sz)) if i not in circ["preplaced"] and i not in aligned
            and i not in circ["boundary"]]
    m = int(rng.choice(free))
    w, h = int(sz[m][0]), int(sz[m][1])
    blocked = circ["keepout"].copy()
    for i, (d, x, y) in circ["preplaced"].items():
        blocked[d, x:x + sz[i][0], y:y + sz[i][1]] = True
    ok = ~_box_any(blocked, w, h)  # (2, G, G) anchors clear of keep-outs and the block
    cands = [(d, x0, y0) for d in range(2) for x0 in (0, G - half) for y0 in (0, G - half)
             if ok[d, x0:x0 + half - w + 1, y0:y0 + half - h + 1].any()]
    d, x0, y0 = cands[int(rng.integers(len(cands)))]
    return {**circ, "region": {m: (d, x0, y0, x0 + half, y0 + half)}}


def _region_ok(circ: dict, i: int, d: int, x: int, y: int) -> bool:
    rd, x0, y0, x1, y1 = circ["region"][i]
    w, h = circ["sizes"][i]
    return d == rd and x >= x0 and y >= y0 and x + w <= x1 and y + h <= y1


def order(circ: dict) -> list[int]:
    """Placement order of the movable modules: largest area first (stable); a module under a
    region rule first of all."""
    n = len(circ["sizes"])
    area = np.prod(circ["sizes"], axis=1)
    seq = [int(i) for i in sorted(range(n), key=lambda i: -area[i]) if i not in circ["preplaced"]]
    for a, b in circ["align"]:  # an aligned pair back to back, so its overlap region stays free
        first, second = (a, b) if seq.index(a) < seq.index(b) else (b, a)
        seq.remove(second)
        seq.insert(seq.index(first) + 1, second)
    for i in sorted(circ.get("region", ()), reverse=True):  # fenced modules first, before
        seq.remove(i)  # others fill their region (a dead end no sequential placer would see)
        seq.insert(0, i)
    return seq


def _box_any(a: np.ndarray, w: int, h: int) -> np.ndarray:
    """For every anchor (x, y) of a boolean array, whether a[..., x:x+w, y:y+h] has any True;
    out-of-canvas = True. OR-ed shifted slices (rows, then columns): few array operations for
    the small modules here (w, h <= 3)."""
    G = a.shape[-1]
    nx, ny = G - w + 1, G - h + 1
    out = np.ones(a.shape, bool)
    r = a[..., 0:nx, :]
    for dx in range(1, w):
        r = r | a[..., dx:dx + nx, :]
    c = r[..., 0:ny]
    for dy in range(1, h):
        c = c | r[..., dy:dy + ny]
    out[..., :nx, :ny] = c
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
    if "region" in circ:  # only circuits that carry the extra rule count it
        v["region"] = sum(int(not _region_ok(circ, i, *place[i])) for i in circ["region"])
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
        G = circ["grid"]
        self._xs, self._ys = np.arange(G)[:, None], np.arange(G)[None, :]
        self._ar = np.arange(G) + 0.0  # anchor coordinates as floats (exact)
        self._wh = [(int(w), int(h)) for w, h in circ["sizes"]]
        # (w, h) -> (in-bounds anchors, in-bounds anchors whose footprint misses the keep-outs,
        # in-bounds anchors touching the canvas edge): fixed per circuit and module size, so
        # built once per size (read-only; masks handed out are fresh arrays)
        self._per_size: dict = {}
        self.reset()

    def reset(self) -> None:
        G, n = self.c["grid"], len(self.c["sizes"])
        self.place = np.full((n, 3), -1, int)
        self.occ = np.zeros((2, G, G), bool)  # (die, x, y)
        self.area = np.zeros(2, int)
        self._placed = [False] * n  # plain lists for wire_delta (same values as place/sizes)
        self._cen = [(0.0, 0.0)] * n  # centre (x + w / 2, y + h / 2) of each placed module
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
        self._placed[i] = True
        self._cen[i] = (float(x + w / 2.0), float(y + h / 2.0))

    def _sized(self, w: int, h: int) -> tuple:
        """(in-bounds, keep-out-free & in-bounds, edge & in-bounds) anchors of a w x h module."""
        key = (w, h)
        if key not in self._per_size:
            G = self.c["grid"]
            inb = np.zeros((2, G, G), bool)
            inb[:, :G - w + 1, :G - h + 1] = True
            xs, ys = self._xs, self._ys
            edge = (xs == 0) | (ys == 0) | (xs + w == G) | (ys + h == G)  # (G, G)
            out = (inb, ~_box_any(self.c["keepout"], w, h) & inb, edge[None] & inb)
            for a in out:
                a.flags.writeable = False
            self._per_size[key] = out
        return self._per_size[key]

    def in_bounds(self) -> np.ndarray:
        w, h = self._wh[self.module]
        return self._sized(w, h)[0].copy()

    def rule_masks(self) -> dict:
        """Legal-anchor matrix (2, G, G) of the current module under each rule."""
        G, i = self.c["grid"], self.module
        w, h = self._wh[i]
        inb, keep_free, edge = self._sized(w, h)  # the keep-outs never change: once per size
        xs, ys = self._xs, self._ys
        m = {"overlap": ~_box_any(self.occ, w, h) & inb, "keepout": keep_free.copy()}
        if i in self.c["boundary"]:
            m["boundary"] = edge.copy()
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
        m["util"] = inb.copy() if ok.all() else inb & ok[:, None, None]
        if "region" in self.c:  # the extra rule: one more matrix, only where a circuit has it
            m["region"] = inb.copy()
            if i in self.c["region"]:
                d, x0, y0, x1, y1 = self.c["region"][i]
                m["region"][:] = False
                m["region"][d, x0:x1 - w + 1, y0:y1 - h + 1] = True
                m["region"] &= inb
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
            free = ~_box_any(blocked, int(wj), int(hj))  # (G, G) legal anchors of j
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
        w, h = self._wh[i]
        cx = self._ar + w / 2.0  # (G,) centre x of each anchor
        cy = self._ar + h / 2.0
        placed, cen = self._placed, self._cen  # kept by _put: (x + w / 2, y + h / 2), exact
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
        xpart = (np.maximum(0, b[:, :1] - cx) + np.maximum(0, cx - b[:, 1:2])).sum(0)
        ypart = (np.maximum(0, b[:, 2:3] - cy) + np.maximum(0, cy - b[:, 3:4])).sum(0)
        return xpart[:, None] + ypart[None, :]  # (G, G)

    def legal(self, masks: dict, rules=None) -> np.ndarray:
        """AND of the rule matrices (``rules``; None: every matrix in ``masks``, the extra rule
        included where the circuit has it); at a dead end (empty AND) the in-bounds anchors that
        break the fewest rules, so that one broken rule does not release all the others."""
        rules = tuple(masks) if rules is None else tuple(rules)
        both = masks[rules[0]].copy()
        for r in rules[1:]:
            both = both & masks[r]
        if both.any():  # every rule matrix lies inside the canvas, so when some anchor keeps
            return both  # every rule, the fewest broken (0) is exactly the AND
        stack = np.stack([masks[r] for r in rules])  # (R, 2, G, G)
        w, h = self._wh[self.module]
        broken = np.where(self._sized(w, h)[0], (~stack).sum(0), len(rules) + 1)  # (2, G, G)
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
        # the eval circuits again with the extra region rule, from their own stream (the eval
        # and transfer draws above are unchanged)
        rrng = np.random.default_rng((seed, 1))
        nr = [add_region(c, rrng) for c in ev]
        data = {"eval": ev, "transfer": tr, "newrule": nr, "n_modules": self.n_modules,
                "grid": self.grid}
        return Instance(data=data, truth={"eval": ev, "transfer": tr, "newrule": nr})
