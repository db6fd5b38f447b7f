"""RulePlanner: design rules as canvas matrices for RL 3-D floorplanning (state, mask, reward).

Paper: Zhong, Du, Yan, "RulePlanner: All-in-One Reinforcement Learner for Unifying Design Rules
in 3D Floorplanning", arXiv:2601.22476 (ICML 2026), https://arxiv.org/abs/2601.22476
(read: the abstract and the research note /work/shared/papers/ruleplanner.md. The body could not
be read: arxiv.org/html/2601.22476v1 is not in the stored pages (searched by title and number,
2026-12-06 and 2026-12-07). The code is not released: Thinklab-SJTU/EDA-AI holds no
RulePlanner/ folder. The training algorithm, PPO, is the one the research note and issue 30
name for the paper.)

Implemented (the abstract's mechanism): modules are placed one by one; for the current module
every design rule r is turned into a matrix M_r in {0,1}^{2 x G x G} (die, anchor x, anchor y)
of anchors that satisfy it. The matrices are used three ways:
  (1) state: [occupancy, keep-out, M_overlap, M_keepout, M_boundary, M_align, M_util,
      HPWL-increase map] per die, read by a fully convolutional policy (so it transfers to other
      canvas sizes);
  (2) action mask: pi(a|s) = softmax over anchors with prod_r M_r(a) = 1 (at a dead end, where the
      product is empty: the anchors breaking the fewest rules);
  (3) reward: r_t = -dHPWL_t / G - penalty * #{r : M_r(a_t) = 0} (constraint terms).
Trained by PPO (clipped surrogate, a value head on the shared trunk, GAE advantages) on circuits
drawn from the generator with the run's seed; evaluated greedily (arg max). The trained weights
are cached per configuration and seed (claimbench.checkpoints), so a seed trains once.

Ablations (the paper's comparisons; fields): ``mask=False`` is penalty-only RL (rules only in
reward and state); ``rule_state=False`` masks but leaves the rule matrices out of the state.

Deviations:
1. Generated two-die circuits (datasets/floorplan_rules.py), 8 modules on 8 x 8 per die for
   training/evaluation and 12 modules on 10 x 10 for transfer, instead of MCNC/GSRC benchmarks.
2. The rule list (boundary, pre-placed, alignment, keep-out, utilisation cap, non-overlap) is
   the research note's; the paper's list was not read.
3. A 3-layer CNN trunk with a 1x1 policy head and a pooled value head instead of the paper's
   network (unread), plus a learnable scalar gain from the HPWL-increase channel straight to the
   logits (starts at 0: no preference); discrete anchors only (no hybrid/aspect-ratio action as
   in FlexPlanner).
4. Episodes, learning rate, penalty, widths and the PPO settings (clip, epochs, GAE lambda,
   entropy and value weights) are ours, scaled for one CPU core. Until 2026-12-06 the agent was
   trained by REINFORCE with a batch-mean baseline for 240 episodes (issue 30: undertrained).
5. Extensibility (c8) is tested zero-shot: a new rule enters only the action mask of the
   trained policy (no new state channel, no retraining, no reward term). How the paper adds a
   rule (presumably a new matrix in state, mask and reward, then training) was not read; ours
   is the narrower, training-free reading.

Mutants for foils (field ``mutant``; default "" is the method unchanged):
- ``no_align_mask``: the alignment matrix is left out of the mask (kept in state and reward).
- ``no_wire_reward``: the HPWL term is dropped from the reward (rules only).
- ``no_rule_reward``: the constraint term is dropped from the reward (HPWL only); the paper's
  component 3) ablated (claim c7).
- ``no_new_rule``: at evaluation, a rule added after training (the region rule of
  ``floorplan_rules.add_region``) is left out of the mask; same trained weights (claim c8).

Extra rules (claim c8): a rule matrix that a circuit carries beyond RULES (``NEW_RULES``) joins
the action mask at evaluation without retraining; the state keeps the five trained rule
channels (deviation 5).
"""
from __future__ import annotations

import sys
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.datasets import floorplan_rules
from claimbench.datasets.floorplan_rules import RULES, FloorplanEnv, sample_circuit

MUTANTS = ("", "no_align_mask", "no_wire_reward", "no_rule_reward", "no_new_rule")
EVAL_ONLY = ("no_new_rule",)  # mutants that change evaluation only: they share the checkpoint
N_CHANNELS = 2 * (len(RULES) + 3)  # per die: occupancy, keep-out, 5 rule matrices, HPWL map


@lru_cache(maxsize=None)
def torch_classes():
    import torch
    from torch import nn

    class RulePolicy(nn.Module):
        """Fully convolutional: (B, 2*C, G, G) state -> (B, 2, G, G) anchor logits per die and
        (B,) state values (mean-pooled trunk), so one net serves every canvas size."""

        def __init__(self, c_in: int, hidden: int):
            super().__init__()
            self.trunk = nn.Sequential(nn.Conv2d(c_in, hidden, 3, padding=1), nn.ReLU(),
                                       nn.Conv2d(hidden, hidden, 3, padding=1), nn.ReLU(),
                                       nn.Conv2d(hidden, hidden, 3, padding=1), nn.ReLU())
            self.pi = nn.Conv2d(hidden, 2, 1)
            self.v = nn.Linear(hidden, 1)
            # a learnable gain (per grid unit of HPWL increase) from the HPWL-increase channels
            # straight to the logits (deviation 3): it starts at 0 (no preference), so how far
            # to follow the one-step wirelength is learned, while the trunk learns what the
            # one-step view misses
            self.wire_gain = nn.Parameter(torch.zeros(()))

        def forward(self, s: "torch.Tensor"):
            h = self.trunk(s)  # (B, hidden, G, G)
            G = s.shape[-1]
            logits = self.pi(h) - self.wire_gain * G * s[:, -2:]  # (B, 2, G, G)
            return logits, self.v(h.mean((2, 3))).squeeze(1)  # (B, 2, G, G), (B,)

    return {"RulePolicy": RulePolicy, "torch": torch}


@lru_cache(maxsize=2)  # cells run seed by seed: the agents of one seed share the draws
def _train_circuits(seed: int, n_modules: int, grid: int, batch: int, n_batches: int) -> tuple:
    """The training circuits, ``n_batches`` batches of ``batch``, drawn in order from
    default_rng(seed) (exactly the draws made batch by batch during training)."""
    rng = np.random.default_rng(seed)
    return tuple(tuple(sample_circuit(rng, n_modules, grid) for _ in range(batch))
                 for _ in range(n_batches))


@dataclass
class RulePlanner(Method):
    name: ClassVar[str] = "ruleplanner"
    episodes: int = 1024  # ours (deviation 4)
    batch: int = 16  # ours: episodes per PPO update
    epochs: int = 4  # ours: PPO passes over each batch
    clip: float = 0.2  # PPO's usual clip
    gae_lambda: float = 0.95  # ours
    entropy: float = 0.01  # ours: entropy bonus weight
    value_coef: float = 0.5  # ours
    lr: float = 3e-3  # ours
    gain_lr: float = 3e-2  # ours: Adam step of the wire gain
    penalty: float = 2.0  # ours: one rule violation costs about 2 grid lengths of HPWL / G
    hidden: int = 16  # ours
    mask: bool = True  # the paper's use (2); False = penalty-only RL
    rule_state: bool = True  # the paper's use (1); False = masking without rule matrices in state
    mutant: str = ""

    def _state(self, env: FloorplanEnv, masks: dict, wire: np.ndarray,
               out: np.ndarray | None = None) -> np.ndarray:
        """``wire``: env.wire_delta() / G at this step. Channels (2*8, G, G): occupancy,
        keep-out, the 5 rule matrices (zeros without rule_state), the HPWL map on both dies;
        written into ``out`` (zeros, float32) when given."""
        G = env.c["grid"]
        s = np.zeros((N_CHANNELS, G, G), np.float32) if out is None else out
        s[0:2] = env.occ
        s[2:4] = env.c["keepout"]
        if self.rule_state:
            for k, r in enumerate(RULES):
                s[4 + 2 * k:6 + 2 * k] = masks[r]
        s[-2:] = wire  # float64 -> float32, rounded as np.asarray(wire, np.float32)
        return s

    def _action_mask(self, env: FloorplanEnv, masks: dict) -> np.ndarray:
        if not self.mask:
            return env.in_bounds()
        used = [r for r in RULES if not (self.mutant == "no_align_mask" and r == "align")]
        if self.mutant != "no_new_rule":  # rules beyond the trained five: mask only
            used += [r for r in masks if r not in RULES]
        return env.legal(masks, used)

    def _rollout(self, net, circs: list, gen, greedy: bool) -> dict:
        """Place ``circs`` (same size, so the same number of steps) in lockstep, one batched
        forward per step. Returns placements and, per step, states (T, B, C, G, G), masks,
        actions, log-probs, values and rewards (T, B)."""
        T = torch_classes()["torch"]
        envs = [FloorplanEnv(c) for c in circs]
        G = circs[0]["grid"]
        S, M, A, LP, V, R = [], [], [], [], [], []
        while not envs[0].done:
            masks = [e.rule_masks() for e in envs]
            wds = [e.wire_delta() / G for e in envs]  # (G, G) each: state channel, reward term
            s_np = np.zeros((len(envs), N_CHANNELS, G, G), np.float32)
            for e, m, w, out in zip(envs, masks, wds, s_np):
                self._state(e, m, w, out)
            s = T.from_numpy(s_np)  # (B, C, G, G)
            am = T.from_numpy(np.stack([self._action_mask(e, m).reshape(-1)
                                        for e, m in zip(envs, masks)]))  # (B, 2*G*G)
            with T.no_grad():
                logits, v = net(s)
            logits = logits.reshape(len(envs), -1).masked_fill(~am, -1e9)  # (B, 2*G*G)
            logp = T.log_softmax(logits, 1)  # (B, 2*G*G)
            a = logits.argmax(1) if greedy else \
                T.multinomial(logp.exp(), 1, generator=gen).squeeze(1)  # (B,)
            rew = []
            for e, m, wd, ai in zip(envs, masks, wds, a.tolist()):
                d, x, y = np.unravel_index(ai, (2, G, G))
                wire = 0.0 if self.mutant == "no_wire_reward" else wd[x, y]
                broken = sum(int(not m[r][d, x, y]) for r in RULES)
                pen = 0.0 if self.mutant == "no_rule_reward" else self.penalty
                rew.append(-wire - pen * broken)
                e.step(int(d), int(x), int(y))
            S.append(s), M.append(am), A.append(a), V.append(v), R.append(rew)
            LP.append(logp.gather(1, a[:, None]).squeeze(1))
        return {"place": [e.place for e in envs], "s": T.stack(S), "mask": T.stack(M),
                "a": T.stack(A), "logp": T.stack(LP), "v": T.stack(V),
                "r": T.as_tensor(np.array(R), dtype=T.float32)}

    def _gae(self, r, v):
        """GAE(lambda) advantages and returns for undiscounted finite episodes: r, v (T, B)."""
        T = torch_classes()["torch"]
        adv = T.zeros_like(r)
        last = T.zeros(r.shape[1])
        for t in reversed(range(r.shape[0])):
            nxt = v[t + 1] if t + 1 < r.shape[0] else T.zeros(r.shape[1])
            last = r[t] + nxt - v[t] + self.gae_lambda * last
            adv[t] = last
        return adv, adv + v

    def _fit(self, net, data: dict, seed: int) -> dict:
        T = torch_classes()["torch"]
        gen = T.Generator().manual_seed(seed)
        rest = [p for n, p in net.named_parameters() if n != "wire_gain"]
        opt = T.optim.Adam([{"params": rest},  # the gain is one scalar: its own, larger step
                            {"params": [net.wire_gain], "lr": self.gain_lr}], lr=self.lr)
        curve = []
        n_batches = max(1, self.episodes // self.batch)
        # the training circuits depend on (seed, sizes, batch, episodes) only, not on the
        # agent: drawn once and shared by the agents of a seed (the same draws from
        # default_rng(seed), which nothing else reads)
        batches = _train_circuits(seed, data["n_modules"], data["grid"], self.batch, n_batches)
        for circs in batches:
            ro = self._rollout(net, circs, gen, greedy=False)
            adv, ret = self._gae(ro["r"], ro["v"])  # (T, B) each
            adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            s = ro["s"].flatten(0, 1)  # (T*B, C, G, G)
            am, a, old = ro["mask"].flatten(0, 1), ro["a"].flatten(), ro["logp"].flatten()
            adv, ret = adv.flatten(), ret.flatten()  # (T*B,)
            for _ in range(self.epochs):
                logits, v = net(s)
                logp_all = T.log_softmax(logits.reshape(len(a), -1).masked_fill(~am, -1e9), 1)
                logp = logp_all.gather(1, a[:, None]).squeeze(1)  # (T*B,)
                ratio = (logp - old).exp()
                surr = T.minimum(ratio * adv, ratio.clamp(1 - self.clip, 1 + self.clip) * adv)
                ent = -(logp_all.exp() * logp_all).sum(1)  # masked anchors have p = 0
                loss = -surr.mean() + self.value_coef * ((v - ret) ** 2).mean() \
                    - self.entropy * ent.mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
            curve.append(float(ro["r"].sum(0).mean()))
        return {"return": curve}

    def run(self, data, seed):
        if self.mutant not in MUTANTS:
            raise ValueError(f"unknown mutant {self.mutant!r}")
        from claimbench.checkpoints import cached_train

        C = torch_classes()
        T = C["torch"]

        def build():
            T.manual_seed(seed)  # conv weight init
            return C["RulePolicy"](N_CHANNELS, self.hidden)

        fields = asdict(self)
        if self.mutant in EVAL_ONLY:  # same training as the method: share its checkpoint
            fields["mutant"] = ""
        key = {"model": "ruleplanner_ppo", **fields, "seed": seed,
               "n_modules": data["n_modules"], "grid": data["grid"]}
        net, hist, _ = cached_train(key, build, lambda net: self._fit(net, data, seed),
                                    sources=(sys.modules[__name__], floorplan_rules))
        curve = hist["return"]
        gen = T.Generator().manual_seed(seed)
        with T.inference_mode():  # evaluation: no autograd state at all
            out = {k: self._rollout(net, data[k], gen, greedy=True)["place"]
                   if data.get(k) else [] for k in ("eval", "transfer", "newrule")}
        out["train_return"] = float(np.mean(curve[-5:]))
        out["traces"] = {"return": {"x": list(range(len(curve))), "y": curve}}
        return out
