"""Tabular VDN (value decomposition, Sunehag et al. 2018) with adversarial training and test-time
attacks for cooperative multi-agent tasks; the training attack is a parameter.

Q_tot(s, a) = sum_i Q_i(o_i, a_i); one TD target r + gamma * sum_i max_a Q_i(o_i', a) updates every
agent's table by the shared error (tabular VDN). Observation o_i = (own cell, teammate cell or
MASK, food-present flags) of ``datasets/level_foraging.py``.

Attacks (each step is attacked with probability ``p``; the victim is one agent per episode):
- ``noise``: the victim observes a uniformly random teammate cell (random observation noise);
- ``value``: the victim's action is replaced by argmin_a Q_victim(o, a) (value-based action
  attack, white-box, as in Lin et al. 2020 style action attacks);
- ``ib``: interaction breaking (see ``methods/ibal_marl.py``): the cross-group components of every
  agent's observation are masked and the victim group's action is replaced by an action drawn
  independently of the other group (mutual information between the groups' actions is zero);
- ``missing`` (test only): one agent is frozen at NOOP for the whole episode;
- ``mi`` (test only): the estimated-MI attacker (issue 30). Same budget as ``noise``/``value``
  (each step attacked with probability ``p``, the victim agent only). A candidate perturbation is
  a pair (victim's view of the teammate: keep / uniform random cell / MASK; victim's action:
  keep / uniform / NOOP), 9 candidates that include no attack and the ``noise`` attack. For each
  candidate the attacker rolls out a batch of ``mi_batch`` episodes on the defender and computes
  the plug-in estimate of the cross-group mutual information I(A_victim; A_teammate) between the
  two groups' executed actions over the batch's steps; it then plays the candidate whose estimate
  is smallest (``mi_objective="min"``; ``"max"`` is the sign-flipped mutant used as a foil).
  The estimate is unconditional on the state (a per-state plug-in table is far too sparse at
  this batch size), a deviation from the paper's state-conditional interaction measure.
Training arms: ``none`` (vanilla VDN), ``noise`` (random-noise training), ``value``
(value-attack adversarial training); ``ib`` is the paper's method (``methods/ibal_marl.py``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.datasets.level_foraging import NOOP, make_env
from claimbench.grid import derive_seed

TEST_ATTACKS = ("none", "noise", "value", "ib", "missing", "mi")
N_ACTIONS = 6
# The MI attacker's candidate perturbations: (victim's view of the teammate, victim's action).
PLANS = tuple((o, a) for o in ("keep", "uniform", "mask") for a in ("keep", "uniform", "noop"))


def cross_mi(pairs) -> float:
    """Plug-in (empirical) mutual information, in nats, between the two columns of ``pairs``."""
    from sklearn.metrics import mutual_info_score  # heavy: imported on first use only

    if len(pairs) == 0:
        return 0.0
    x = np.asarray(pairs)  # (n_steps, 2): victim's action, teammate's action
    return float(mutual_info_score(x[:, 0], x[:, 1]))


class ObsCoder:
    """Index of an agent's observation in its Q table (teammate cell MASK = size**2)."""

    def __init__(self, size: int, n_food: int):
        self.cells, self.n_food = size * size, n_food
        self.mask = self.cells
        self.n = self.cells * (self.cells + 1) * 2 ** n_food

    @staticmethod
    def flags(present) -> int:
        return sum(1 << f for f, p in enumerate(present) if p)

    def __call__(self, own: int, mate: int, present) -> int:
        return (own * (self.cells + 1) + mate) * 2 ** self.n_food + self.flags(present)


def greedy(q_row, rng: np.random.Generator) -> int:
    """Argmax of a row of 6 values, ties broken at random (unvisited rows are all 0). Plain
    Python on a list row (see ``train_vdn``): numpy's per-call overhead on 6 entries was the
    largest cost of an episode step; same maximum, same tie set, same draw."""
    m = max(q_row)
    best = [a for a, v in enumerate(q_row) if v == m]
    return best[0] if len(best) == 1 else int(rng.choice(best))


def argmin(q_row) -> int:
    """First index of the row's minimum (as ``np.argmin``)."""
    m = min(q_row)
    return next(a for a, v in enumerate(q_row) if v == m)


def observe(state, coder: ObsCoder, masked: bool, noisy_agent: int, rng,
            masked_agent: int = -1) -> list[int]:
    """Observation index of each of the two agents under the step's attack."""
    pos, present = state
    flags = coder.flags(present)
    width, n_flags = coder.cells + 1, 2 ** coder.n_food
    obs = []
    for i in range(2):
        mate = pos[1 - i]
        if masked or i == masked_agent:
            mate = coder.mask
        elif i == noisy_agent:
            mate = int(rng.integers(coder.cells))
        obs.append((pos[i] * width + mate) * n_flags + flags)  # = coder(pos[i], mate, present)
    return obs


def episode(env, q, coder, rng, attack: str, p: float, eps: float = 0.0, learn: bool = False,
            alpha: float = 0.1, gamma: float = 0.95, mutant: str = "",
            plan: tuple[str, str] = ("keep", "keep"), log: list | None = None) -> float:
    """One episode under ``attack``; Q-learning updates (VDN) when ``learn``. Returns the return.
    ``attack="plan"`` applies the MI attacker's candidate ``plan``; ``log`` collects the executed
    (victim action, teammate action) pairs."""
    state = env.reset(rng)
    victim = int(rng.integers(2))
    frozen = victim if attack == "missing" else -1

    def draw():
        return attack in ("noise", "value", "ib", "plan") and rng.random() < p

    def see(state, hit):
        noisy = attack == "noise" or (attack == "plan" and plan[0] == "uniform")
        return observe(state, coder, hit and attack == "ib" and mutant != "no_mask",
                       victim if hit and noisy else -1, rng,
                       victim if hit and attack == "plan" and plan[0] == "mask" else -1)

    hit = draw()
    obs = see(state, hit)
    ret, done = 0.0, False
    while not done:
        acts = [int(rng.integers(N_ACTIONS)) if rng.random() < eps else greedy(q[i][obs[i]], rng)
                for i in range(2)]
        if hit and attack == "value":
            acts[victim] = argmin(q[victim][obs[victim]])
        elif hit and attack == "ib":
            acts[victim] = int(rng.integers(N_ACTIONS))  # independent of the other group
        elif hit and attack == "plan" and plan[1] != "keep":
            acts[victim] = int(rng.integers(N_ACTIONS)) if plan[1] == "uniform" else NOOP
        if frozen >= 0:
            acts[frozen] = NOOP
        if log is not None:
            log.append((acts[victim], acts[1 - victim]))
        state, r, done = env.step(acts)
        ret += r
        hit = draw()
        nobs = see(state, hit)
        if learn:
            boot = 0.0 if done else gamma * sum(max(q[i][nobs[i]]) for i in range(2))
            err = r + boot - sum(q[i][obs[i]][acts[i]] for i in range(2))
            for i in range(2):
                q[i][obs[i]][acts[i]] += alpha * err
        obs = nobs
    return ret


def train_vdn(data: dict, seed: int, attack: str, p: float, n_episodes: int, alpha: float,
              gamma: float, eps_end: float, mutant: str = ""):
    env = make_env(data)
    coder = ObsCoder(data["size"], len(data["food_cells"]))
    # Rows as Python lists of floats (the same float64 arithmetic as numpy scalars, without
    # numpy's per-call overhead on 6-entry rows); ``episode`` also takes (n, 6) arrays.
    q = [[[0.0] * N_ACTIONS for _ in range(coder.n)] for _ in range(2)]
    rng = np.random.default_rng(derive_seed(seed, "train"))
    for k in range(n_episodes):
        eps = max(eps_end, 1.0 - k / (0.6 * n_episodes))  # linear decay over 60% of training
        episode(env, q, coder, rng, attack, p, eps=eps, learn=True, alpha=alpha, gamma=gamma,
                mutant=mutant)
    return env, coder, q


def cached_train_vdn(data: dict, seed: int, attack: str, p: float, n_episodes: int, alpha: float,
                     gamma: float, eps_end: float, mutant: str = ""):
    """``train_vdn`` through the checkpoint array cache: arms that differ only at test time
    (vanilla VDN and the ``mi_objective="max"`` foil) share one training; the Q tables
    round-trip exactly (float64 .npz). The key holds every argument."""
    import sys

    from claimbench.checkpoints import cached_arrays
    from claimbench.datasets import level_foraging

    key = {"kind": "vdn_adversarial_q", "data": dict(data), "seed": seed, "attack": attack,
           "p": p, "n_episodes": n_episodes, "alpha": alpha, "gamma": gamma, "eps_end": eps_end,
           "mutant": mutant}

    def compute() -> dict:
        _, _, q = train_vdn(data, seed, attack, p, n_episodes, alpha, gamma, eps_end, mutant)
        return {"q": np.asarray(q, dtype=np.float64)}  # (2, n_obs, 6)

    q = cached_arrays(key, compute, sources=(sys.modules[__name__], level_foraging))["q"]
    return make_env(data), ObsCoder(data["size"], len(data["food_cells"])), [qi.tolist() for qi in q]


def fit_mi_attack(env, coder, q, rng, p: float, batch: int, objective: str = "min"):
    """The candidate perturbation whose plug-in cross-group MI estimate over a rollout batch is
    smallest (``"max"``: largest); returns (plan, {plan: estimate})."""
    est = {}
    for plan in PLANS:
        log: list = []
        for _ in range(batch):
            episode(env, q, coder, rng, "plan", p, plan=plan, log=log)
        est[plan] = cross_mi(log)
    pick = (min if objective == "min" else max)(PLANS, key=lambda k: est[k])
    return pick, est


def evaluate(env, coder, q, seed: int, p: float, n_eval: int, mi_batch: int = 20,
             mi_objective: str = "min") -> dict:
    out = {}
    plan, _ = fit_mi_attack(env, coder, q, np.random.default_rng(derive_seed(seed, "mi_fit")), p,
                            mi_batch, mi_objective)
    for attack in TEST_ATTACKS:
        rng = np.random.default_rng(derive_seed(seed, "eval", attack))
        name = attack if attack != "none" else "clean"
        log: list = []
        out[f"return_{name}"] = float(np.mean(
            [episode(env, q, coder, rng, "plan" if attack == "mi" else attack, p, plan=plan,
                     log=log) for _ in range(n_eval)]))
        out[f"interaction_{name}"] = cross_mi(log)  # held-out estimate, fresh episodes
    out["mi_plan"] = float(PLANS.index(plan))
    out["interaction_drop_mi_vs_noise"] = out["interaction_noise"] - out["interaction_mi"]
    out["return_drop_mi_vs_noise"] = out["return_noise"] - out["return_mi"]
    return out


@dataclass
class VDN(Method):
    """Tabular VDN trained vanilla (``train_attack="none"``), with random observation noise
    (``"noise"``) or against the value-based action attack (``"value"``)."""

    name: ClassVar[str] = "vdn"
    train_attack: str = "none"
    train_p: float = 0.3  # ours: per-step attack probability during training (= test budget)
    test_p: float = 0.3  # research note: action attack p = 0.3
    n_episodes: int = 4000  # ours (CPU budget)
    alpha: float = 0.1  # ours
    gamma: float = 0.95  # ours
    eps_end: float = 0.05  # ours
    n_eval: int = 200  # ours
    mutant: str = ""
    mi_batch: int = 20  # ours: episodes per candidate in the MI attacker's rollout batch
    mi_objective: str = "min"  # the MI attacker minimises its estimate; "max" is a foil's mutant

    def run(self, data, seed):
        env, coder, q = cached_train_vdn(data, seed, self.train_attack, self.train_p,
                                         self.n_episodes, self.alpha, self.gamma, self.eps_end,
                                         self.mutant)
        if self.mi_objective not in ("min", "max"):
            raise ValueError(f"unknown mi_objective {self.mi_objective!r}")
        out = evaluate(env, coder, q, seed, self.test_p, self.n_eval, self.mi_batch,
                       self.mi_objective)
        out["visited_masked_rows"] = float(
            sum(int((np.abs(np.asarray(qi)).sum(1) > 0)  # q rows are lists (train_vdn)
                    .reshape(-1, coder.cells + 1, 2 ** coder.n_food)
                    [:, coder.mask].sum()) for qi in q))
        return out
