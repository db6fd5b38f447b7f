"""A discrete-event simulation (simpy) of real-time DNN inference jobs sharing one edge GPU.

Written here (no PyPI package simulates GPU inference scheduling); simpy is the clock. Model:

* Processor sharing with a concurrency overhead: the k ready jobs running together share a
  capacity 1 - OVERHEAD (k - 1) by water-filling, each job capped at the fraction u_v of the GPU
  its variant can occupy (a small network's kernels do not fill the device: u = U_FULL x width
  multiplier). One job alone therefore runs at rate u_v < 1, which is what concurrency recovers.
* Activation memory: a contiguous arena of ARENA units; a started job holds one block (its
  variant's activation size) until it finishes or is dropped, also while preempted. Allocation
  is first-fit or best-fit; with ``compact`` a failed allocation whose size fits in the total
  free space slides every block to the bottom, stalling the started jobs for moved / COPY_BW.
* Weights: an LRU cache of WEIGHT_CAP units holding (task, variant) weights; a miss transfers
  them over PCIe at PCIE_BW. ``eager`` loads the whole model before the job starts,
  ``on_demand`` streams it layer by layer while the earlier layers compute (the job stalls for
  the first of N_LAYERS layers only). ``preload`` loads everything up front: before serving,
  the weights of every variant the policy can run (all full models, then width 0.75, then 0.5,
  in task order; each one that still fits in WEIGHT_CAP) cross PCIe, every job admitted before
  that transfer ends waits for it, and a later miss loads the whole model as ``eager`` does.
* Jobs are dropped at their deadline (a miss; a late answer is useless to a real-time stream).

A policy is ``Policy(concurrency, variant_rule, alloc, compact, loading)``; variant rules:
``full`` (always the full model), ``slack`` (the most accurate variant whose estimated finish
meets the deadline), ``early_exit`` (the full multi-exit model; at each exit the job stops if a
burst is queued, >= BURST_QUEUE other released jobs, or if the next exit cannot be reached by
the deadline at the current rate).

Outputs: dmr (missed / released), acc (mean accuracy over released jobs, 0 for a miss),
acc_met (mean accuracy of the jobs that met their deadline), throughput (jobs meeting their
deadline per second), frag (mean external fragmentation 1 - largest hole / free space over all
allocation attempts), blocked (allocation failures with enough total free space), load_stall
(host-to-GPU latency: mean ms a started job waits for its weights before it computes; 0 on a
cache hit).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

U_FULL = 0.5  # ours: GPU fraction a full-width job fills alone (matches datasets/inference_workloads)
OVERHEAD = 0.05  # ours: capacity lost per extra co-running job (interference, context switches)
ARENA = 1.0  # ours: activation arena (units; a mean-size full job takes 0.15)
WEIGHT_CAP = 0.6  # ours: weight cache (units; a mean-size full model's weights take 0.25)
PCIE_BW = 0.1  # ours: units per ms (a mean full model loads in 2.5 ms)
COPY_BW = 2.0  # ours: device-to-device copy, units per ms, for compaction
N_LAYERS = 4  # layers of the variant CNNs (datasets/inference_workloads.variant_profile)
BURST_QUEUE = 2  # ours: early exit treats >= 2 other queued jobs as a burst
WIDTHS = (1.0, 0.75, 0.5)
EPS = 1e-9


@dataclass(frozen=True)
class Policy:
    concurrency: int = 1
    variant_rule: str = "full"  # full | slack | early_exit
    alloc: str = "first_fit"  # first_fit | best_fit
    compact: bool = False
    loading: str = "eager"  # eager | on_demand | preload


@dataclass
class Job:
    id: int
    task: int
    release: float
    deadline: float
    variant: int = 0
    started: bool = False
    work_left: float = 0.0
    done: float = 0.0
    ready_at: float = 0.0
    block: tuple | None = None  # (start, size) in the arena
    exit_idx: int = 0  # early exit: index of the next exit point


@dataclass
class Arena:
    size: float = ARENA
    blocks: dict = field(default_factory=dict)  # job id -> (start, size)

    def holes(self) -> list[tuple[float, float]]:
        """Free intervals (start, length), in address order."""
        out, pos = [], 0.0
        for s, n in sorted(self.blocks.values()):
            if s - pos > EPS:
                out.append((pos, s - pos))
            pos = s + n
        if self.size - pos > EPS:
            out.append((pos, self.size - pos))
        return out

    def free(self) -> float:
        return self.size - sum(n for _, n in self.blocks.values())

    def fragmentation(self) -> float | None:
        free = self.free()
        if free <= EPS:
            return None
        return 1.0 - max((n for _, n in self.holes()), default=0.0) / free

    def allocate(self, jid: int, n: float, rule: str) -> bool:
        fits = [(s, m) for s, m in self.holes() if m >= n - EPS]
        if not fits:
            return False
        s, _ = fits[0] if rule == "first_fit" else min(fits, key=lambda h: (h[1], h[0]))
        self.blocks[jid] = (s, n)
        return True

    def compact(self) -> float:
        """Slide every block to the bottom in address order; returns the units moved."""
        moved, pos = 0.0, 0.0
        for jid, (s, n) in sorted(self.blocks.items(), key=lambda kv: kv[1][0]):
            if s - pos > EPS:
                moved += n
            self.blocks[jid] = (pos, n)
            pos += n
        return moved

    def release(self, jid: int) -> None:
        self.blocks.pop(jid, None)


def water_fill(caps: np.ndarray, capacity: float) -> np.ndarray:
    """Max-min fair shares of ``capacity`` with per-job caps (processor sharing)."""
    rates = np.zeros_like(caps)
    left, active = capacity, list(np.argsort(caps))
    while active:
        share = left / len(active)
        i = active[0]
        if caps[i] <= share:
            rates[i] = caps[i]
            left -= caps[i]
            active.pop(0)
        else:
            for j in active:
                rates[j] = share
            break
    return rates


def capacity(k: int) -> float:
    return max(0.0, 1.0 - OVERHEAD * (k - 1))


def preload(tasks: list, cache: dict, policy: Policy) -> float:
    """Fill ``cache`` up front with every variant the policy can run that still fits (all full
    models first, in task order, then the lighter widths); returns when the transfer ends (ms)."""
    variants = range(len(WIDTHS)) if policy.variant_rule == "slack" else (0,)
    used = 0.0
    for v in variants:
        for i, t in enumerate(tasks):
            if used + t["weights"][v] <= WEIGHT_CAP + EPS:
                cache[(i, v)] = 0.0
                used += t["weights"][v]
    return used / PCIE_BW


def simulate(data: dict, policy: Policy) -> dict:
    import simpy

    tasks, releases, horizon = data["tasks"], list(data["jobs"]), data["horizon"]
    arena = Arena()
    cache: dict = {}  # (task, variant) -> last use time (LRU)
    state = {"next": 0, "pending": [], "missed": 0, "acc": [], "frag": [], "blocked": 0,
             "stall": []}
    served_from = preload(tasks, cache, policy) if policy.loading == "preload" else 0.0

    def weights_stall(j: Job, now: float) -> float:
        key = (j.task, j.variant)
        size = tasks[j.task]["weights"][j.variant]
        if key in cache:
            cache[key] = now
            return 0.0
        in_use = {(p.task, p.variant) for p in state["pending"] if p.started}
        while cache and sum(tasks[t]["weights"][v] for t, v in cache) + size > WEIGHT_CAP:
            victims = [k for k in cache if k not in in_use]
            if not victims:
                break  # every resident model is in use: stream over capacity
            del cache[min(victims, key=cache.get)]
        cache[key] = now
        full = size / PCIE_BW
        return full if policy.loading != "on_demand" else full / N_LAYERS

    def choose_variant(j: Job, now: float) -> int:
        t = tasks[j.task]
        if policy.variant_rule != "slack":
            return 0
        ahead = [p for p in state["pending"] if p.started and p.deadline <= j.deadline]
        backlog = sum(p.work_left for p in ahead)
        k = min(policy.concurrency, len([p for p in state["pending"] if p.started]) + 1)
        for v in range(len(t["work"])):  # most accurate first
            u = U_FULL * WIDTHS[v]
            stall = max(0.0, served_from - now) + (0.0 if (j.task, v) in cache else (
                t["weights"][v] / PCIE_BW / (N_LAYERS if policy.loading == "on_demand" else 1)))
            est = now + stall + max(t["work"][v] / u, (backlog + t["work"][v]) / capacity(k))
            if est <= j.deadline:
                return v
        return len(t["work"]) - 1

    def admit(j: Job, now: float) -> bool:
        j.variant = choose_variant(j, now)
        size = tasks[j.task]["act"][j.variant]
        f = arena.fragmentation()
        if f is not None:
            state["frag"].append(f)
        stall = 0.0
        if not arena.allocate(j.id, size, policy.alloc):
            if arena.free() + EPS < size:
                return False
            state["blocked"] += 1
            if not policy.compact:
                return False
            moved = arena.compact()
            stall = moved / COPY_BW
            for p in state["pending"]:
                if p.started:
                    p.ready_at = max(p.ready_at, now) + stall
            arena.allocate(j.id, size, policy.alloc)
        t = tasks[j.task]
        j.work_left = t["exit_work"][-1] if policy.variant_rule == "early_exit" else t["work"][j.variant]
        j.started = True
        w_stall = max(0.0, served_from - now) + weights_stall(j, now)
        state["stall"].append(w_stall)
        j.ready_at = now + stall + w_stall
        return True

    def finish(j: Job, acc: float | None) -> None:
        state["pending"].remove(j)
        arena.release(j.id)
        if acc is None:
            state["missed"] += 1
            state["acc"].append(0.0)
        else:
            state["acc"].append(acc)

    def gpu(env):
        running, rates = [], np.zeros(0)
        while True:
            now = env.now
            while state["next"] < len(releases) and releases[state["next"]][0] <= now + EPS:
                r, i = releases[state["next"]]
                state["pending"].append(Job(state["next"], i, r, r + tasks[i]["period"]))
                state["next"] += 1
            for j in list(state["pending"]):
                t = tasks[j.task]
                if j.started and j.work_left <= EPS:
                    acc = t["acc"][::-1][j.exit_idx] if policy.variant_rule == "early_exit" \
                        else t["acc"][j.variant]
                    finish(j, acc)
                elif j.deadline <= now + EPS:
                    finish(j, None)
                elif policy.variant_rule == "early_exit" and j.started and \
                        j.exit_idx < 2 and j.done >= t["exit_work"][j.exit_idx] - EPS:
                    others = sum(1 for p in state["pending"] if p is not j)
                    rate = U_FULL  # serial early exit runs alone
                    nxt = t["exit_work"][j.exit_idx + 1] - j.done
                    if others >= BURST_QUEUE or now + nxt / rate > j.deadline:
                        finish(j, t["acc"][::-1][j.exit_idx])
                    else:
                        j.exit_idx += 1
            order = sorted(state["pending"], key=lambda p: (p.deadline, p.id))
            running = []
            for j in order:
                if len(running) == policy.concurrency:
                    break
                if j.started or admit(j, now):
                    running.append(j)
            ready = [j for j in running if j.ready_at <= now + EPS]
            caps = np.array([U_FULL * WIDTHS[j.variant] for j in ready])
            rates = water_fill(caps, capacity(len(ready))) if ready else np.zeros(0)
            cands = []
            if state["next"] < len(releases):
                cands.append(releases[state["next"]][0] - now)
            cands += [p.deadline - now for p in state["pending"]]
            cands += [j.ready_at - now for j in running if j.ready_at > now + EPS]
            for j, r in zip(ready, rates):
                if r > EPS:
                    cands.append(j.work_left / r)
                    if policy.variant_rule == "early_exit" and j.exit_idx < 2:
                        cands.append((tasks[j.task]["exit_work"][j.exit_idx] - j.done) / r)
            cands = [c for c in cands if c > EPS]
            if not cands:
                return
            dt = min(cands)
            yield env.timeout(dt)
            for j, r in zip(ready, rates):
                j.work_left -= r * dt
                j.done += r * dt

    env = simpy.Environment()
    env.process(gpu(env))
    env.run()
    n = len(state["acc"])
    met = [a for a in state["acc"] if a > 0]
    return {
        "dmr": state["missed"] / max(n, 1),
        "acc": float(np.mean(state["acc"])) if n else 0.0,
        "acc_met": float(np.mean(met)) if met else 0.0,
        "throughput": 1000.0 * len(met) / horizon,
        "frag": float(np.mean(state["frag"])) if state["frag"] else 0.0,
        "blocked": float(state["blocked"]),
        "load_stall": float(np.mean(state["stall"])) if state["stall"] else 0.0,
        "n_jobs": float(n),
    }
