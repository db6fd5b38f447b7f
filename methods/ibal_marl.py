"""IBAL: interaction-breaking adversarial learning for robust cooperative MARL.

Paper: Sunwoo Lee, Mingu Kang, Yonghyeon Jo, Seungyul Han, "Interaction-Breaking Adversarial
Learning for Robust Multi-Agent Reinforcement Learning", ICML 2026, arXiv 2605.18024 (read: the
abstract and a method summary, through the project's research note; no code or numbers seen).

Algorithm implemented:
1. CTDE value factorisation: VDN, Q_tot = sum_i Q_i(o_i, a_i) (``baselines/vdn_adversarial.py``).
2. Interaction = conditional mutual information between agent groups' decisions given the state.
   The interaction-breaking (IB) attacker partitions the agents into groups (two agents: the
   victim vs. its teammate), masks the observation components that carry cross-group information
   (each agent's view of the other group), and perturbs the victim group's actions with actions
   drawn independently of the other group, so the groups' conditional MI is zero (its minimum).
3. Defender: the VDN learners are trained with this attacker active on a fraction ``train_p`` of
   steps (adversarial training against the IB attacker), learning values for the
   coordination-broken situations as well as for clean ones.

Deviations:
1. Tabular VDN on a 5x5 two-agent level-based foraging task written here
   (``datasets/level_foraging.py``; the ``lbforaging`` package is not installed) instead of
   QMIX/VDN networks on SMAC, SMACv2 and LBF.
2. The attacker is not learned: the paper alternates min-max training of an MI-minimising
   adversary; here it is the closed-form minimiser (mask every cross-group feature; victim action
   independent of the other group, drawn uniformly), so no MI estimator is trained.
3. The partition is fixed by the two-agent case (victim = one agent drawn per episode).
4. All hyperparameters are ours (CPU budget); the attack budget p = 0.3 is the research note's.
5. The test-time "mi" attack (``baselines/vdn_adversarial.py``, issue 30) does estimate the
   cross-group MI: a plug-in estimate of I(A_victim; A_teammate) over a rollout batch, minimised
   over 9 fixed observation/action perturbations of the victim, not a learned perturbation, and
   unconditional on the state. IBAL is still trained against the closed-form attacker above.

Mutants for foils (field ``mutant``; "" is the method above):
- ``no_mask``: the IB attacker without the observation mask (action perturbation only), i.e.
  the cross-group information links are never cut during training;
- ``always``: the defender is attacked on every training step (``train_p`` = 1), so it never
  trains on clean coordination.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from claimbench.baselines.vdn_adversarial import VDN


@dataclass
class IBAL(VDN):
    name: ClassVar[str] = "ibal"
    train_attack: str = "ib"
    mutant: str = ""

    def run(self, data, seed):
        if self.mutant not in ("", "no_mask", "always"):
            raise ValueError(f"unknown mutant {self.mutant!r}")
        cfg = self if self.mutant != "always" else type(self)(
            **{**self.__dict__, "train_p": 1.0, "mutant": ""})
        return VDN.run(cfg, data, seed)
