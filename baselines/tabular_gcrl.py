"""Tabular offline goal-conditioned RL on discrete mazes: a goal-conditioned value from the
offline dataset graph, a greedy low-level controller, and three high levels: flat (no subgoals),
time-based subgoals (HIQL-like) and a subgoal graph over k-means nodes (GAS-like). The graph
planner (``SubgoalGraph``) is shared with any method that brings its own nodes.

Value model (ours; stands in for a learned GC value such as GCIQL's): d(s, g) is the shortest
path from s to g in the directed graph of transitions observed in the dataset, and the estimate
is d_hat(s, g) = d(s, g) * (1 + sigma * z_sg), z_sg ~ N(0, 1) drawn once per (s, g) from the
run seed (a fixed function, like a trained network), so its error grows with the horizon, the
failure that subgoals are meant to avoid (HIQL, Park et al. 2023, Sec. 4). The low level moves to
the dataset successor s' of s (excluding no-ops) with the smallest d_hat(s', subgoal).

References: HIQL: Park, Ghosh, Eysenbach, Levine, "HIQL: Offline Goal-Conditioned RL with Latent
States as Actions", NeurIPS 2023 (subgoal = the state k steps ahead). GAS: Baek et al.,
"Graph-Assisted Stitching for Offline Hierarchical RL", ICML 2025 (clustered nodes, shortest path
over a graph of temporally close nodes). Both reduced to tabular versions here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.datasets.grid_mazes import make_env
from claimbench.grid import derive_seed


class GCValue:
    """Noisy dataset-graph distance d_hat(s, g) and the greedy low-level controller."""

    def __init__(self, cells: np.ndarray, actions: np.ndarray, n_cells: int, sigma: float,
                 seed: int):
        from scipy.sparse import csr_matrix
        from scipy.sparse.csgraph import shortest_path

        self.states = np.unique(cells)  # (n,) visited cells
        self.index = np.full(n_cells, -1)
        self.index[self.states] = np.arange(len(self.states))
        src, dst = self.index[cells[:, :-1]].ravel(), self.index[cells[:, 1:]].ravel()
        n = len(self.states)
        self.succ = np.full((n, 4), -1)  # succ[s, a] = observed next state (compact), -1 unseen
        self.succ[src, actions.ravel()] = dst
        moved = src != dst
        adj = csr_matrix((np.ones(moved.sum()), (src[moved], dst[moved])), shape=(n, n))
        self.adj = adj
        self.D = shortest_path(adj, method="D", unweighted=True, directed=True)  # (n, n)
        z = np.random.default_rng(derive_seed("gc_value", seed)).standard_normal((n, n))
        self.Dhat = self.D * np.clip(1.0 + sigma * z, 0.05, None)  # (n, n), inf stays inf

    def dist(self, s_cell: int, g_cell: int) -> float:
        i, j = self.index[s_cell], self.index[g_cell]
        return np.inf if i < 0 or j < 0 else float(self.Dhat[i, j])

    def act(self, s_cell: int, g_cell: int, rng: np.random.Generator) -> int:
        i, j = self.index[s_cell], self.index[g_cell]
        if i < 0 or j < 0:
            return int(rng.integers(4))
        acts = [a for a in range(4) if self.succ[i, a] >= 0 and self.succ[i, a] != i]
        if not acts:
            return int(rng.integers(4))
        vals = np.array([self.Dhat[self.succ[i, a], j] for a in acts])
        best = np.flatnonzero(vals == vals.min())
        return acts[int(rng.choice(best))]


def rollout(data: dict, value: GCValue, high, start: int, goal: int,
            rng: np.random.Generator) -> tuple[bool, int, int]:
    """One episode in the maze environment: (success, steps, distinct subgoals used)."""
    env = make_env(data["env"], start, goal)
    s, _ = env.reset(seed=int(rng.integers(2**31)))
    high.reset(s, goal)
    used = set()
    for t in range(env.max_steps):
        sg = high.subgoal(s, goal)
        if sg != goal:
            used.add(sg)
        s, _, terminated, truncated, _ = env.step(value.act(s, sg, rng))
        if terminated:
            return True, t + 1, len(used)
        if truncated:
            break
    return False, env.max_steps, len(used)


def evaluate(data: dict, value: GCValue, high, seed: int) -> dict:
    rng = np.random.default_rng(derive_seed("rollouts", seed))
    res = [rollout(data, value, high, s, g, rng) for s, g in data["tasks"]]
    ok = np.array([r[0] for r in res])
    return {"success": ok.astype(float).tolist(),
            "success_rate": float(ok.mean()),
            "mean_steps": float(np.mean([r[1] for r in res])),
            "n_subgoals": float(np.mean([r[2] for r in res]))}


class _Flat:
    def reset(self, s, goal):
        pass

    def subgoal(self, s, goal):
        return goal


class _TimeSubgoals:
    """HIQL-like high level: among dataset states exactly k steps from s, the one with the
    smallest estimated distance to the goal; the goal itself once it is within k."""

    def __init__(self, value: GCValue, k: int):
        self.v, self.k = value, k

    def reset(self, s, goal):
        pass

    def subgoal(self, s, goal):
        v = self.v
        if v.dist(s, goal) <= self.k or v.index[s] < 0 or v.index[goal] < 0:
            return goal
        cand = np.flatnonzero(v.D[v.index[s]] == self.k)
        if cand.size == 0:
            return goal
        return int(v.states[cand[np.argmin(v.Dhat[cand, v.index[goal]])]])


class SubgoalGraph:
    """Directed graph over subgoal nodes (cells). An edge i -> j exists when some dataset
    trajectory visits node i and then node j within ``horizon`` steps; its weight is the fewest
    such steps. Start and goal are attached to nodes whose estimated distance is at most
    ``horizon`` (the nearest node when none is). The next node on the shortest path is the
    subgoal; the plan is remade when it is reached or after ``2 * horizon`` steps without."""

    def __init__(self, nodes, cells: np.ndarray, value: GCValue, horizon: int):
        import networkx as nx

        self.nodes = [int(n) for n in dict.fromkeys(int(n) for n in nodes)]
        self.v, self.h = value, horizon
        g = nx.DiGraph()
        g.add_nodes_from(self.nodes)
        pos = {n: i for i, n in enumerate(self.nodes)}
        for traj in cells:
            hits = [(t, int(c)) for t, c in enumerate(traj) if int(c) in pos]
            for a in range(len(hits)):
                ta, na = hits[a]
                for b in range(a + 1, len(hits)):
                    tb, nb = hits[b]
                    if tb - ta > horizon:
                        break
                    if nb != na and (not g.has_edge(na, nb) or g[na][nb]["weight"] > tb - ta):
                        g.add_edge(na, nb, weight=tb - ta)
        self.graph = g
        self.plan: list[int] = []

    def _attach(self, dists: np.ndarray) -> list[int]:
        near = np.flatnonzero(dists <= self.h)
        if near.size == 0 and np.isfinite(dists).any():
            near = np.array([int(np.argmin(dists))])
        return near.tolist()

    def reset(self, s, goal):
        import networkx as nx

        self.plan, self.since = [], 0
        if self.v.dist(s, goal) <= self.h or not self.nodes:
            return
        g = self.graph.copy()
        to_n = np.array([self.v.dist(s, n) for n in self.nodes])
        from_n = np.array([self.v.dist(n, goal) for n in self.nodes])
        for i in self._attach(to_n):
            g.add_edge("start", self.nodes[i], weight=float(to_n[i]))
        for i in self._attach(from_n):
            g.add_edge(self.nodes[i], "goal", weight=float(from_n[i]))
        try:
            path = nx.shortest_path(g, "start", "goal", weight="weight")
        except (nx.NetworkXNoPath, nx.NodeNotFound):
            return  # no plan: act flat
        self.plan = [int(n) for n in path[1:-1]]

    def subgoal(self, s, goal):
        self.since += 1
        if self.plan and s == self.plan[0]:
            self.plan.pop(0)
            self.since = 0
        elif self.plan and self.since > 2 * self.h:
            self.reset(s, goal)
        return self.plan[0] if self.plan else goal


def _value(data: dict, sigma: float, seed: int) -> GCValue:
    return GCValue(data["cells"], data["actions"], data["side"] ** 2, sigma, seed)


@dataclass
class FlatGCPolicy(Method):
    """Flat goal-conditioned policy: the low level aimed at the final goal."""

    name: ClassVar[str] = "flat_gc"
    sigma: float = 0.05  # ours: relative error of the value estimate per unit distance

    def run(self, data, seed):
        return evaluate(data, _value(data, self.sigma, seed), _Flat(), seed)


@dataclass
class TimeSubgoalPolicy(Method):
    """HIQL-like: subgoal = the state k steps ahead that the value rates closest to the goal."""

    name: ClassVar[str] = "time_subgoals"
    sigma: float = 0.05  # ours, as FlatGCPolicy
    k: int = 8  # ours: HIQL uses 25 on AntMaze episodes of ~1000 steps; our mazes are ~20 wide

    def run(self, data, seed):
        v = _value(data, self.sigma, seed)
        return evaluate(data, v, _TimeSubgoals(v, self.k), seed)


@dataclass
class KMeansSubgoalGraph(Method):
    """GAS-like: k-means over the coordinates of the dataset's states, each centroid snapped to
    the nearest visited cell, planned over with ``SubgoalGraph``."""

    name: ClassVar[str] = "kmeans_graph"
    sigma: float = 0.05  # ours, as FlatGCPolicy
    n_nodes: int = 24  # ours: as many nodes as the sixteen-room maze has doorways
    horizon: int = 15  # ours: edge / attachment horizon, about two room widths

    def run(self, data, seed):
        from sklearn.cluster import KMeans

        v = _value(data, self.sigma, seed)
        xy = np.stack(np.divmod(v.states, data["side"]), axis=1).astype(float)  # (n, 2)
        km = KMeans(n_clusters=min(self.n_nodes, len(xy)), n_init=4,
                    random_state=derive_seed("kmeans", seed) % 2**31).fit(xy)
        d2 = ((xy[None, :, :] - km.cluster_centers_[:, None, :]) ** 2).sum(-1)  # (k, n)
        nodes = v.states[np.argmin(d2, axis=1)]
        out = evaluate(data, v, SubgoalGraph(nodes, data["cells"], v, self.horizon), seed)
        out["keypoints"] = [int(n) for n in nodes]
        return out
