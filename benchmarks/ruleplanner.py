"""RulePlanner: All-in-One Reinforcement Learner for Unifying Design Rules in 3D Floorplanning
(arXiv 2601.22476).

Generated two-die floorplans with design rules (boundary modules, a pre-placed block, cross-die
alignment, keep-outs, a utilisation cap, non-overlap), placed module by module by a masked
PPO agent over rule matrices and occupancy, against penalty-only RL, masking without rule
matrices in the state, greedy legal minimum-HPWL placement and random legal placement. Checked:
violation-free placements, far above penalty-only; HPWL at most greedy's; transfer to larger
unseen circuits.
"""
from __future__ import annotations

import numpy as np

from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Metric, Paper, Premise,
                            cfg, output_metric, sweep)
from claimbench.baselines.legal_placement import LegalPlacement
from claimbench.checks import Better, NotRun, Ratio, Value
from claimbench.datasets.floorplan_rules import RuleFloorplan, hpwl, violations
from claimbench.methods.ruleplanner import RulePlanner


def _viol_free(split: str):
    def fn(inst, out):
        return float(np.mean([sum(violations(c, p).values()) == 0
                              for c, p in zip(inst.truth[split], out[split])]))
    return fn


def _viol_mean(inst, out):
    return float(np.mean([sum(violations(c, p).values())
                          for c, p in zip(inst.truth["eval"], out["eval"])]))


def _hpwl(split: str):
    def fn(inst, out):
        return float(np.mean([hpwl(c, p) for c, p in zip(inst.truth[split], out[split])]))
    return fn


METRICS = (
    Metric("violation_free", _viol_free("eval"), True,
           "fraction of evaluation circuits placed with zero rule violations"),
    Metric("viol_mean", _viol_mean, False, "mean number of rule violations per circuit"),
    Metric("hpwl", _hpwl("eval"), False, "mean HPWL (grid units, module centres) per circuit"),
    Metric("transfer_violation_free", _viol_free("transfer"), True,
           "violation-free fraction on larger unseen circuits (12 modules, 10 x 10 per die)"),
    Metric("transfer_hpwl", _hpwl("transfer"), False, "mean HPWL on the transfer circuits"),
    output_metric("train_return", higher_is_better=True,
                  description="mean episode return over the last 5 training batches (RL only)"),
)

RP = "ruleplanner"
PEN = "penalty_only"
NOSTATE = "mask_no_rule_state"
GREEDY = "greedy_legal"
RANDOM = "random_legal"
NO_ALIGN = "ruleplanner[mutant=no_align_mask]"
NO_WIRE = "ruleplanner[mutant=no_wire_reward]"


def _methods(ablation: bool = True, **train) -> tuple:
    """``ablation``: include mask_no_rule_state (read by no claim or premise; tables only)."""
    nostate = (cfg(RulePlanner, label=NOSTATE, rule_state=False, **train),) if ablation else ()
    return (cfg(RulePlanner, label=RP, **train),
            cfg(RulePlanner, label=PEN, mask=False, **train),
            *nostate,
            cfg(RulePlanner, label=NO_ALIGN, mutant="no_align_mask", **train),
            cfg(RulePlanner, label=NO_WIRE, mutant="no_wire_reward", **train),
            cfg(LegalPlacement, label=GREEDY, rule="greedy"),
            cfg(LegalPlacement, label=RANDOM, rule="random"))


_ABS = ("\"2) constraints on the action space to filter out invalid actions that cause rule "
        "violations, and 3) quantitative analysis of constraint satisfaction as reward "
        "signals\" (abstract)")
_TRANSFER = "\"Furthermore, transferability are well shown on unseen circuits\" (abstract)"
_Q_MATRICES = "novel matrix representations to model the design rules"
_Q_MASK = "constraints on the action space to filter out invalid actions that cause rule violations"
_Q_REWARD = "quantitative analysis of constraint satisfaction as reward signals"
_Q_EXTENSIBLE = "Our framework is extensible to accommodate new design rules"
_NOT_BUILT = "not built yet (issue 30): "

HEADLINES = (
    Headline(quote=_Q_MATRICES, claims=("c6_rule_matrices",)),
    Headline(quote=_Q_MASK, claims=("c1_violation_free", "c2_far_above_penalty_only",
                                    "c5_transfer_violation_free")),
    Headline(quote=_Q_REWARD, claims=("c7_constraint_reward",)),
    Headline(quote="Experiments on public benchmarks demonstrate the effectiveness and validity "
                   "of our approach", claims=("c1_violation_free", "c3_hpwl_at_most_greedy")),
    Headline(quote="transferability are well shown on unseen circuits",
             claims=("c4_transfer_unseen", "c5_transfer_violation_free")),
    Headline(quote=_Q_EXTENSIBLE, claims=("c8_extensible_rules",)),
)

PREMISES = (
    Premise(id="p1_policy_matches_greedy",
            text="the trained policy is competent: its HPWL is at most that of greedy legal "
                 "minimum-HPWL placement (geometric-mean ratio below 1)",
            check=Ratio(numerator=RP, denominator=GREEDY, metric="hpwl", at_most=1.0),
            claims=("c1_violation_free", "c2_far_above_penalty_only", "c4_transfer_unseen",
                    "c5_transfer_violation_free"),
            note="A policy that a one-step greedy heuristic beats measures undertraining: its "
                 "comparisons with penalty-only RL (trained as briefly) and with greedy on the "
                 "transfer circuits say nothing about the rule matrices, and its dead ends "
                 "(violations that greedy, under the same mask, does not meet) are its "
                 "training's, not the mask's. Bound 1 by definition "
                 "of 'at least matches' (ratio 1; decided strictly, so a tie fails it). The "
                 "same check is the research note's claim c3, which it does not gate (a claim "
                 "gated by its own check could never read not_reproduced). On the "
                 "violation axis greedy is legal by construction, so 'matching' it is c1."),
)

BENCHMARK = Benchmark(
    slug="ruleplanner",
    paper=Paper(
        title="RulePlanner: All-in-One Reinforcement Learner for Unifying Design Rules in 3D "
              "Floorplanning",
        arxiv="2601.22476",
        url="https://arxiv.org/abs/2601.22476",
        version="arXiv v1 (abstract only; body, tables and code not read: the html is not in "
                "the stored pages and the code is not released)",
        authors="Ruizhe Zhong, Xingbo Du, Junchi Yan",
    ),
    area="rl_systems",
    fidelity="proxy",
    fidelity_note=("The paper places real MCNC/GSRC-style circuits on stacked dies with a "
                   "PPO-trained network; here generated 8-module two-die circuits on 8 x 8 "
                   "grids, the research note's rule list, a 3-layer CNN trained by PPO "
                   "for about a thousand episodes. The three uses of rule matrices (state, mask, "
                   "reward) are the paper's; everything else is ours, so only directions "
                   "compare, never numbers."),
    methods=(RulePlanner,),
    baselines=(LegalPlacement,),
    datasets=(RuleFloorplan,),
    metrics=METRICS,
    primary_metric="violation_free",
    unit=("seed",),
    claims=(
        Claim(id="c1_violation_free", where="abstract",
              text="masking actions by rule matrices gives placements without rule violations",
              paper_value=_ABS,
              check=Value(method=RP, metric="violation_free", lo=1.0, stat="min"),
              source="paper", foils=(PEN, NO_ALIGN),
              foil_note="Penalty-only RL has the rules only in reward and state; the mutant "
                        "leaves the alignment matrix out of the mask: both must leave "
                        "violations somewhere.",
              note="Every run (seed) must place all its evaluation circuits violation-free "
                   "(the note's '100% violation-free on maskable rules'); a dead end (empty "
                   "legal set) counts as a failure."),
        Claim(id="c2_far_above_penalty_only", where="abstract; research note plan",
              text="violation-free rate far above penalty-only RL",
              paper_value=_ABS,
              check=Better(method=RP, baseline=PEN, metric="violation_free", margin=0.5),
              source="paper", foils=(NO_ALIGN,),
              foil_note="The claim credits the mask built from all rule matrices: the mutant "
                        "whose mask leaves the alignment matrix out lets cross-die alignment "
                        "violations through, so it must not be far above penalty-only RL (as "
                        "in c1). Penalty-only RL, the baseline, cannot be a foil (it would "
                        "compare with itself).",
              note="'Far above' fixed as a paired shift of more than 0.5 in violation-free "
                   "fraction (our threshold)."),
        Claim(id="c3_hpwl_at_most_greedy", where="research note plan",
              text="its HPWL is at most greedy legal placement's",
              paper_value="abstract: \"Experiments on public benchmarks demonstrate the "
                          "effectiveness and validity of our approach\"",
              check=Ratio(numerator=RP, denominator=GREEDY, metric="hpwl", at_most=1.0),
              source="derived", foils=(RANDOM, NO_WIRE),
              foil_note="Random legal placement and the agent trained without the HPWL reward "
                        "ignore wirelength and must not reach greedy's HPWL.",
              note="Geometric mean over seeds of HPWL(ruleplanner) / HPWL(greedy) <= 1."),
        Claim(id="c4_transfer_unseen", where="abstract",
              text="transfers to larger unseen circuits",
              paper_value=_TRANSFER,
              check=Ratio(numerator=RP, denominator=GREEDY, metric="transfer_hpwl",
                          at_most=1.15),
              source="paper", foils=(RANDOM, NO_WIRE),
              foil_note="Placers that ignore wirelength must not come within 15% of greedy.",
              note="Trained on 8-module 8 x 8 circuits, evaluated zero-shot on 12-module "
                   "10 x 10 circuits; the note's '15% of the in-distribution ratio' fixed "
                   "as HPWL within 15% of greedy's (our threshold)."),
        Claim(id="c5_transfer_violation_free", where="abstract",
              text="transferred placements stay violation-free",
              paper_value=_TRANSFER,
              check=Value(method=RP, metric="transfer_violation_free", lo=1.0, stat="min"),
              source="paper", foils=(PEN, NO_ALIGN),
              foil_note="As c1, on the transfer circuits.",
              note="As c1 on the larger unseen circuits."),
        Claim(id="c6_rule_matrices", where="abstract, component 1)",
              text="the matrix representations of the design rules help the agent",
              paper_value="\"1) " + _Q_MATRICES + "\" (abstract)",
              check=NotRun(method=RP,
                           reason=_NOT_BUILT + "no claim reads the ablation "
                                  "mask_no_rule_state (rule matrices left out of the state), "
                                  "which runs in the smoke and full grids; the check would "
                                  "be RulePlanner's paired gain over it in HPWL at equal "
                                  "violation-free rate"),
              source="paper"),
        Claim(id="c7_constraint_reward", where="abstract, component 3)",
              text="constraint satisfaction as a reward signal helps the agent",
              paper_value="\"3) " + _Q_REWARD + "\" (abstract)",
              check=NotRun(method=RP,
                           reason=_NOT_BUILT + "no mutant without the constraint-satisfaction "
                                  "reward (no_wire_reward removes the wirelength term only); "
                                  "the check would compare violations with such a mutant's"),
              source="paper"),
        Claim(id="c8_extensible_rules", where="abstract",
              text="the framework accommodates new design rules",
              paper_value="\"" + _Q_EXTENSIBLE + "\" (abstract)",
              check=NotRun(method=RP,
                           reason=_NOT_BUILT + "no rule is held out of training; the check "
                                  "would add a rule unseen in training as one more rule matrix "
                                  "and test violation-free placement under it"),
              source="paper"),
    ),
    grids={
        "smoke": Grid(datasets=sweep(RuleFloorplan, n_eval=[4]), seeds=2,
                      methods=_methods(episodes=48),
                      note="48 training episodes: plumbing only"),
        "quick": Grid(datasets=sweep(RuleFloorplan, n_eval=[8]), seeds=8,
                      methods=_methods(ablation=False, episodes=1024),
                      note="1024 PPO episodes per agent (trained once per seed, cached), 8 eval "
                           "+ 8 transfer circuits; mask_no_rule_state, read by no claim, only "
                           "in smoke and full; about 3 CPU-min"),
        "full": Grid(datasets=sweep(RuleFloorplan, n_modules=[12], grid=[12],
                                    transfer_modules=[20], transfer_grid=[16], n_eval=[32]),
                     seeds=10, methods=_methods(episodes=4000, hidden=32),
                     note="the note's 16-grid scale on transfer, 4000 episodes; roughly "
                          "1 CPU-hour"),
    },
    amendments=(
        Amendment(date="2026-12-03", claims=("c1_violation_free", "c5_transfer_violation_free"),
                  what="Environment dead-end handling changed after the first smoke run: at an "
                       "empty legal set the anchors breaking the fewest rules are allowed "
                       "(before: every in-bounds anchor); aligned pairs are placed back to back "
                       "and the first of a pair is masked to anchors leaving room for the "
                       "second (cap and free footprint on the other die).",
                  why="The first fallback released every rule at a dead end, so the 'legal' "
                      "greedy placer broke rules on 49% of circuits: a bug of the environment, "
                      "not of the method. Claims and thresholds unchanged.",
                  results_seen=True),
        Amendment(date="2026-12-03", claims=("c2_far_above_penalty_only",),
                  what="quick grid seeds 5 -> 8.",
                  why="With 5 paired seeds the signed-rank test's smallest p-value (1/32) "
                      "cannot pass the Holm-corrected alpha (0.01), so c2 was inconclusive "
                      "by construction; a power fix, threshold unchanged.",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c2_far_above_penalty_only", "c4_transfer_unseen",
                          "c5_transfer_violation_free"),
                  what="source derived -> paper; c2's only foil, penalty_only (its own "
                       "baseline), removed; paper_values quote the ICML abstract verbatim",
                  why="all three are placed in the abstract; penalty_only in the subject's "
                      "place compared with itself (Y against Y), so it could never fail",
                  results_seen=True,
                  rule="issue 26: a claim placed in the abstract is source='paper'; Y-vs-Y "
                       "foils removed"),
        Amendment(date="2026-12-06", claims=("c2_far_above_penalty_only",),
                  what="foil ruleplanner[mutant=no_align_mask] named (it was c1's foil already)",
                  why="with the Y-vs-Y foil gone c2 had none; the mask without the alignment "
                      "matrix is the component the claim's wording credits",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c6_rule_matrices", "c7_constraint_reward", "c8_extensible_rules",
                          "p1_policy_matches_greedy"),
                  what="headlines declared (6 statements of the ICML abstract), the three no "
                       "claim checked as not_run claims c6-c8; premise p1 (the policy's HPWL "
                       "at most greedy's) gates c2 and c4",
                  why="issue 30: greedy legal placement beats the policy on both axes, so the "
                      "comparisons measure undertraining; coverage of the abstract",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=('c1_violation_free', 'c2_far_above_penalty_only', 'c3_hpwl_at_most_greedy', 'c4_transfer_unseen', 'c5_transfer_violation_free', 'c6_rule_matrices', 'c7_constraint_reward', 'c8_extensible_rules'),
                  what='wire_delta computed once per step and summed per axis (exact on half-integer coordinates); rule masks from integer count tables; the keep-out mask cached',
                  why='issue 27 item 5: the quick suite must fit 30 minutes on 2 cores; this cuts CPU without changing what any cell computes',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
        Amendment(date="2026-12-06",
                  claims=("c1_violation_free", "c2_far_above_penalty_only",
                          "c3_hpwl_at_most_greedy", "c4_transfer_unseen",
                          "c5_transfer_violation_free", "c6_rule_matrices",
                          "c7_constraint_reward", "c8_extensible_rules",
                          "p1_policy_matches_greedy"),
                  what="method: PPO (clipped surrogate, value head, GAE; batched lockstep "
                       "rollouts; weights cached per seed) replaces REINFORCE; a 3-layer trunk "
                       "and a learnable gain from the HPWL-increase channel to the logits "
                       "(starts at 0); quick grid 240 -> 1024 episodes per agent, "
                       "mask_no_rule_state (read by no claim) moved out of the quick grid (c6's "
                       "not_run reason says so); p1 now gates c1 and c5 too (before: c2, c4). "
                       "Thresholds, seeds, data and every claim's check unchanged.",
                  why="issue 30: greedy legal placement beat the policy on HPWL (ratio 1.47) "
                      "and violation-free rate, so every comparison measured undertraining; "
                      "the paper trains with PPO. Training settings were chosen on "
                      "development circuits and seeds (1000-1005), never the grid's, with the "
                      "aim fixed beforehand: HPWL below greedy's. c1/c5's violations came from "
                      "dead ends that greedy under the same mask avoids: the same "
                      "undertraining, so p1 gates them as it gates c2/c4 (not c3, p1's own "
                      "check). The ablation moved out to pay for the longer training within "
                      "the quick suite's budget (issue 27 item 5).",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c1_violation_free", "c2_far_above_penalty_only",
                          "c3_hpwl_at_most_greedy", "c4_transfer_unseen",
                          "c5_transfer_violation_free", "c6_rule_matrices",
                          "c7_constraint_reward", "c8_extensible_rules",
                          "p1_policy_matches_greedy"),
                  what="PPO training circuits drawn once per seed (the same draws from "
                       "default_rng(seed)) and shared by the agents of that seed; the policy "
                       "state written channel by channel into one float32 batch array (was a "
                       "per-env concatenation and stack); evaluation rollouts under "
                       "torch.inference_mode; environment: per-size in-bounds / keep-out / edge "
                       "anchors built once per circuit, overlap and alignment-room box tests by "
                       "OR-ed shifted slices (same booleans as the summed-area table), module "
                       "centres kept as placed for wire_delta (same exact half-integer values), "
                       "legal() returns the AND of the rule matrices directly when it is "
                       "non-empty (then exactly the fewest-broken set)",
                  why="issue 27 item 5: quick grid CPU 111.9 -> 99.4 CPU-s (whole grid, old "
                      "and new code run back to back on the loaded 2-core machine; 123.2 in the "
                      "round-4 store; the 12 agents of seeds 2-4 alternated in one process: "
                      "48.8 -> 45.2)",
                  results_seen=True,
                  rule="issue 27: faster code, same experiment; every non-timing metric of the "
                       "committed quick cells unchanged (compared cell by cell with a fresh run: "
                       "0 differences)"),
        Amendment(date="2026-12-06", claims=('c1_violation_free', 'c2_far_above_penalty_only', 'c3_hpwl_at_most_greedy', 'c4_transfer_unseen', 'c5_transfer_violation_free', 'c6_rule_matrices', 'c7_constraint_reward', 'c8_extensible_rules'),
                  what='datasets/floorplan_rules.py keeps one box test: the summed-area-table version of _box_any is removed and the OR-of-shifted-slices version (added by the speed-up) takes its name for every caller, the keep-out anchors included (exact booleans either way)',
                  why='review of the issue 27 speed-up: two implementations of the same test were left side by side; quick grid re-run: 272 values, 0 differences',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
    ),
    headlines=HEADLINES,
    premises=PREMISES,
    cost_note=(
        "About 100 CPU-s on a loaded machine (46 before round 4; 123 before the bit-identical "
        "speed-up of 2026-12-06): 4 PPO agents x 8 seeds, 1024 "
        "episodes each (~4 CPU-s a run; 240 REINFORCE episodes before). More than before "
        "because premise p1_policy_matches_greedy needs a trained policy: at 240 episodes its "
        "HPWL was 1.47x greedy's, so every gated claim measured undertraining. Paid in part by "
        "moving mask_no_rule_state (~16 CPU-s at this length; read by no claim) to the smoke "
        "and full grids. Weights are cached per configuration and seed (claimbench."
        "checkpoints), so a re-run of the grid only evaluates."),
    description=__doc__.split("\n\n")[1].replace("\n", " "),
)
