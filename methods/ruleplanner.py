"""RulePlanner: design rules as canvas matrices for RL 3-D floorplanning (state, mask, reward).

Paper: Zhong, Du, Yan, "RulePlanner: All-in-One Reinforcement Learning Framework for Design
Rules in 3D Floorplanning", arXiv:2601.22476 (ICML 2026), https://arxiv.org/abs/2601.22476
(read: the abstract and the research note /work/shared/papers/ruleplanner.md; the body, the
network and the hyperparameters were not read; the code is not released).

Implemented (the abstract's mechanism): modules are placed one by one; for the current module
every design rule r is turned into a matrix M_r in {0,1}^{2 x G x G} (die, anchor x, anchor y)
of anchors that satisfy it. The matrices are used three ways:
  (1) state: [occupancy, keep-out, M_overlap, M_keepout, M_boundary, M_align, M_util,
      HPWL-increase map] per die, read by a fully convolutional policy (so it transfers to other
      canvas sizes);
  (2) action mask: pi(a|s) = softmax over anchors with prod_r M_r(a) = 1 (at a dead end, where the
      product is empty: the anchors breaking the fewest rules);
  (3) reward: r_t = -dHPWL_t / G - penalty * #{r : M_r(a_t) = 0} (constraint terms).
Trained by REINFORCE with a batch-mean baseline and Adam; evaluated greedily (arg max).

Ablations (the paper's comparisons; fields): ``mask=False`` is penalty-only RL (rules only in
reward and state); ``rule_state=False`` masks but leaves the rule matrices out of the state.

Deviations:
1. Generated two-die circuits (datasets/floorplan_rules.py), 8 modules on 8 x 8 per die for
   training/evaluation and 12 modules on 10 x 10 for transfer, instead of MCNC/GSRC benchmarks.
2. The rule list (boundary, pre-placed, alignment, keep-out, utilisation cap, non-overlap) is
   the research note's; the paper's list was not read.
3. REINFORCE instead of PPO (the note: "PPO-like, unverified"); a 2-layer CNN instead of the
   paper's network; discrete anchors only (no hybrid/aspect-ratio action as in FlexPlanner).
4. Episodes, learning rate, penalty and widths are ours (scaled down for one CPU core).

Mutants for foils (field ``mutant``; default "" is the method unchanged):
- ``no_align_mask``: the alignment matrix is left out of the mask (kept in state and reward).
- ``no_wire_reward``: the HPWL term is dropped from the reward (rules only).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.datasets.floorplan_rules import RULES, FloorplanEnv, sample_circuit

MUTANTS = ("", "no_align_mask", "no_wire_reward")


@lru_cache(maxsize=None)
def torch_classes():
    import torch
    from torch import nn

    class RulePolicy(nn.Module):
        """Fully convolutional: (B, 2*C, G, G) state -> (B, 2, G, G) anchor logits per die."""

        def __init__(self, c_in: int, hidden: int):
            super().__init__()
            self.net = nn.Sequential(nn.Conv2d(c_in, hidden, 3, padding=1), nn.ReLU(),
                                     nn.Conv2d(hidden, hidden, 3, padding=1), nn.ReLU(),
                                     nn.Conv2d(hidden, 2, 1))

        def forward(self, s: "torch.Tensor") -> "torch.Tensor":
            # = self.net(s), the layers' own functional calls without the per-module call
            # overhead (one state per step, thousands of steps a run)
            c1, _, c2, _, c3 = self.net
            F = torch.nn.functional
            h = F.relu(F.conv2d(s, c1.weight, c1.bias, padding=1))  # (B, hidden, G, G)
            h = F.relu(F.conv2d(h, c2.weight, c2.bias, padding=1))  # (B, hidden, G, G)
            return F.conv2d(h, c3.weight, c3.bias)  # (B, 2, G, G)

    return {"RulePolicy": RulePolicy, "torch": torch}


@dataclass
class RulePlanner(Method):
    name: ClassVar[str] = "ruleplanner"
    episodes: int = 400  # ours: the note's 1-2k scaled down
    batch: int = 8  # ours
    lr: float = 3e-3  # ours
    penalty: float = 2.0  # ours: one rule violation costs about 2 grid lengths of HPWL / G
    hidden: int = 16  # ours
    mask: bool = True  # the paper's use (2); False = penalty-only RL
    rule_state: bool = True  # the paper's use (1); False = masking without rule matrices in state
    mutant: str = ""

    def _state(self, env: FloorplanEnv, masks: dict,
               wire: np.ndarray | None = None) -> np.ndarray:
        """``wire``: env.wire_delta() / G when the caller has it (it is the same at this step)."""
        G = env.c["grid"]
        wire = env.wire_delta() / G if wire is None else wire  # (G, G)
        rules = [masks[r] if self.rule_state else np.zeros((2, G, G), bool) for r in RULES]
        chans = [env.occ, env.c["keepout"], *rules, np.broadcast_to(wire, (2, G, G))]
        return np.concatenate([np.asarray(c, np.float32) for c in chans], 0)  # (2*8, G, G)

    def _action_mask(self, env: FloorplanEnv, masks: dict) -> np.ndarray:
        if not self.mask:
            return env.in_bounds()
        used = [r for r in RULES if not (self.mutant == "no_align_mask" and r == "align")]
        return env.legal(masks, used)

    def _episode(self, net, circ: dict, gen, greedy: bool):
        T = torch_classes()["torch"]
        env = FloorplanEnv(circ)
        logps, rewards = [], []
        G = circ["grid"]
        while not env.done:
            masks = env.rule_masks()
            wd = env.wire_delta() / G  # (G, G) once per step: state channel and reward term
            s = T.from_numpy(self._state(env, masks, wd))[None]  # (1, 16, G, G)
            am = T.from_numpy(self._action_mask(env, masks).reshape(-1))  # (2*G*G,)
            logits = net(s).reshape(-1).masked_fill(~am, -1e9)  # (2*G*G,)
            if greedy:
                a = int(logits.argmax())
            else:
                logp = T.log_softmax(logits, 0)
                a = int(T.multinomial(logp.exp(), 1, generator=gen))
                logps.append(logp[a])
            d, x, y = np.unravel_index(a, (2, G, G))
            wire = 0.0 if self.mutant == "no_wire_reward" else wd[x, y]
            broken = sum(int(not masks[r][d, x, y]) for r in RULES)
            rewards.append(-wire - self.penalty * broken)
            env.step(int(d), int(x), int(y))
        return env.place, logps, rewards

    def run(self, data, seed):
        if self.mutant not in MUTANTS:
            raise ValueError(f"unknown mutant {self.mutant!r}")
        C = torch_classes()
        T = C["torch"]
        T.manual_seed(seed)  # conv weight init
        gen = T.Generator().manual_seed(seed)
        rng = np.random.default_rng(seed)
        net = C["RulePolicy"](2 * (len(RULES) + 3), self.hidden)
        opt = T.optim.Adam(net.parameters(), lr=self.lr)
        curve = []
        for _ in range(max(1, self.episodes // self.batch)):
            eps = [self._episode(net, sample_circuit(rng, data["n_modules"], data["grid"]),
                                 gen, False) for _ in range(self.batch)]
            rets = [np.cumsum(r[::-1])[::-1] for _, _, r in eps]  # reward-to-go per step
            R = np.concatenate(rets)
            adv = (R - R.mean()) / (R.std() + 1e-8)
            lp = T.stack([l for _, lps, _ in eps for l in lps])  # (batch * steps,)
            loss = -(lp * T.as_tensor(adv, dtype=T.float32)).sum() / self.batch
            opt.zero_grad()
            loss.backward()
            opt.step()
            curve.append(float(np.mean([r[0] for r in rets])))
        with T.no_grad():
            out = {k: [self._episode(net, c, gen, True)[0] for c in data[k]]
                   for k in ("eval", "transfer")}
        out["train_return"] = float(np.mean(curve[-5:]))
        out["traces"] = {"return": {"x": list(range(len(curve))), "y": curve}}
        return out
