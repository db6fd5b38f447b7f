"""RulePlanner: All-in-One Reinforcement Learner for Unifying Design Rules in 3D Floorplanning
(arXiv 2601.22476).

Generated two-die floorplans with design rules (boundary modules, a pre-placed block, cross-die
alignment, keep-outs, a utilisation cap, non-overlap), placed module by module by a masked
PPO agent over rule matrices and occupancy, against penalty-only RL, masking without rule
matrices in the state, greedy legal minimum-HPWL placement and random legal placement. Checked:
violation-free placements, far above penalty-only; HPWL at most greedy's; transfer to larger
unseen circuits; ablations of the rule matrices in the state and of the constraint reward; a
region rule unseen in training added to the mask at evaluation.
"""
from __future__ import annotations

import numpy as np

from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Metric, Paper, Premise,
                            cfg, output_metric, sweep)
from claimbench.baselines.legal_placement import LegalPlacement
from claimbench.checks import Better, Ratio, Value
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
    Metric("newrule_violation_free", _viol_free("newrule"), True,
           "violation-free fraction (the five rules and a region rule unseen in training) on "
           "the evaluation circuits with the region rule added"),
    Metric("newrule_hpwl", _hpwl("newrule"), False,
           "mean HPWL on the evaluation circuits with the region rule added"),
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
NO_RULE_REWARD = "ruleplanner[mutant=no_rule_reward]"
NO_NEW = "ruleplanner[mutant=no_new_rule]"


def _methods(**train) -> tuple:
    return (cfg(RulePlanner, label=RP, **train),
            cfg(RulePlanner, label=PEN, mask=False, **train),
            cfg(RulePlanner, label=NOSTATE, rule_state=False, **train),
            cfg(RulePlanner, label=NO_ALIGN, mutant="no_align_mask", **train),
            cfg(RulePlanner, label=NO_WIRE, mutant="no_wire_reward", **train),
            cfg(RulePlanner, label=NO_RULE_REWARD, mutant="no_rule_reward", **train),
            cfg(RulePlanner, label=NO_NEW, mutant="no_new_rule", **train),  # evaluation only
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
            text="the trained policy is competent: it at least matches greedy legal "
                 "minimum-HPWL placement (issue 30's words), read as non-inferiority: its HPWL "
                 "is at most 5% above greedy's (geometric-mean ratio below 1.05)",
            check=Ratio(numerator=RP, denominator=GREEDY, metric="hpwl", at_most=1.05),
            claims=("c1_violation_free", "c2_far_above_penalty_only", "c4_transfer_unseen",
                    "c5_transfer_violation_free", "c6_rule_matrices", "c7_constraint_reward",
                    "c8_extensible_rules"),
            note="A policy that a one-step greedy heuristic beats measures undertraining: its "
                 "comparisons with penalty-only RL (trained as briefly) and with greedy on the "
                 "transfer circuits say nothing about the rule matrices, and its dead ends "
                 "(violations that greedy, under the same mask, does not meet) are its "
                 "training's, not the mask's; and ablations (c6, c7) compare agents that must "
                 "first be trained to competence. 'At least matches' is non-inferiority: the "
                 "upper bound of the ratio's interval below 1 + 5% (a conventional "
                 "non-inferiority margin for a cost ratio; tighter than c4's 15% because in "
                 "distribution). Until 2026-12-07 the bound was 1, which asked for HPWL "
                 "significantly BELOW greedy's, not what the words say. Claim c3 (HPWL at "
                 "most greedy's, strictly) is not gated: it is the stronger form of this "
                 "check. On the violation axis greedy is legal by construction, so 'matching' "
                 "it is c1."),
)

PREMISES += (
    Premise(id="p2_new_rule_satisfiable",
            text="the new (region) rule can be met by sequential legal placement on this "
                 "setting: greedy legal placement, with the new rule's matrix in its mask, is "
                 "violation-free on at least 95% of the new-rule circuits (mean over seeds)",
            check=Value(method=GREEDY, metric="newrule_violation_free", lo=0.95),
            claims=("c8_extensible_rules",),
            note="The reference placer that is legal by construction on the five trained rules "
                 "must also meet the added one; if it cannot, c8 would measure dead ends of "
                 "the generator, not whether the framework accommodates the rule. Bound 0.95 "
                 "(our threshold): nearly always, allowing a rare dead end."),
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
              check=Ratio(numerator=RP, denominator=NOSTATE, metric="hpwl", at_most=1.0),
              source="paper", foils=(RANDOM,),
              foil_note="A placer that reads no state at all (uniform over the legal anchors) "
                        "must not beat the masked agent without rule matrices.",
              note="Ablation of use (1): mask_no_rule_state is the same masked PPO agent, "
                   "trained alike, with the five rule-matrix channels zeroed in its state (mask "
                   "and reward kept). 'Help' has no size in the abstract: any HPWL gain, i.e. "
                   "geometric-mean ratio RulePlanner / ablation below 1 (our threshold). Both "
                   "are masked, so the violation axis is c1's."),
        Claim(id="c7_constraint_reward", where="abstract, component 3)",
              text="constraint satisfaction as a reward signal helps the agent",
              paper_value="\"3) " + _Q_REWARD + "\" (abstract)",
              check=Better(method=RP, baseline=NO_RULE_REWARD, metric="viol_mean", margin=0.0),
              source="paper", foils=(PEN, NO_ALIGN),
              foil_note="Both keep the constraint reward but lose the mask (penalty-only) or "
                        "its alignment matrix: the reward cannot stand in for the mask, so they "
                        "must not have fewer violations than the fully masked agent without it.",
              note="Ablation of use (3): the mutant no_rule_reward drops the constraint term "
                   "from the reward (mask, state and HPWL term kept). 'Helps' has no size: "
                   "fewer violations per circuit, any paired improvement (margin 0, our "
                   "threshold). Under a full mask violations arise only at dead ends, so a "
                   "tie (both 0) is possible and reads as not shown."),
        Claim(id="c8_extensible_rules", where="abstract",
              text="the framework accommodates new design rules",
              paper_value="\"" + _Q_EXTENSIBLE + "\" (abstract)",
              check=Value(method=RP, metric="newrule_violation_free", lo=1.0, stat="min"),
              source="paper", foils=(NO_NEW,),
              foil_note="The same trained policy without the new rule's matrix in its mask must "
                        "break the new rule somewhere (else the rule does not bind and the "
                        "check cannot discriminate).",
              note="A region (fence) rule that no training circuit carries (one movable module "
                   "inside a quadrant of one die) is added at evaluation as one more rule "
                   "matrix in the mask, without retraining (method deviation 5); as c1, every "
                   "seed must place all 8 such circuits with no violation of any rule."),
    ),
    grids={
        "smoke": Grid(datasets=sweep(RuleFloorplan, n_eval=[4]), seeds=2,
                      methods=_methods(episodes=48),
                      note="48 training episodes: plumbing only"),
        "quick": Grid(datasets=sweep(RuleFloorplan, n_eval=[8]), seeds=8,
                      methods=_methods(episodes=1024),
                      note="1024 PPO episodes per agent (trained once per seed, cached; 6 "
                           "trained agents, no_new_rule shares the method's weights), 8 eval, "
                           "8 transfer and 8 new-rule circuits"),
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
        Amendment(date="2026-12-07", claims=("p1_policy_matches_greedy",),
                  what="p1's bound 1 -> 1.05 (ratio of HPWL to greedy's; non-inferiority with "
                       "a 5% margin, stated in its text); p1 also gates the new checks c6, c7, "
                       "c8. Other thresholds unchanged.",
                  why="correction of a mis-transcribed premise: its words (issue 30: 'at least "
                      "matches greedy') are non-inferiority, but its check asked for HPWL "
                      "significantly below greedy's. Its verdict had been seen (inconclusive, "
                      "0.996 [0.966, 1.027] in the committed quick run); the margin comes from "
                      "the words (a conventional 5% non-inferiority margin for a cost ratio), "
                      "not from that interval.",
                  results_seen=True),
        Amendment(date="2026-12-07",
                  claims=("c6_rule_matrices", "c7_constraint_reward", "c8_extensible_rules"),
                  what="not_run -> checks. c6: Ratio(ruleplanner / mask_no_rule_state, hpwl) "
                       "< 1, foil random_legal; mask_no_rule_state back in the quick grid. c7: "
                       "Better(ruleplanner over the new mutant no_rule_reward, viol_mean, margin "
                       "0), foils penalty_only and no_align_mask. c8: a region rule unseen in "
                       "training added at evaluation as one more mask matrix (new 'newrule' "
                       "split: the eval circuits plus the rule, from their own random stream), "
                       "Value(newrule_violation_free, min >= 1), foil the eval-only mutant "
                       "no_new_rule (same weights, mask without the new matrix).",
                  why="issue 30 round 6: each component the abstract names gets an ablation "
                      "check; thresholds fixed (in /tmp/hb/r6/ruleplanner/plan.md, 02:38 UTC) "
                      "before any run of these checks; none had results.",
                  results_seen=False),
        Amendment(date="2026-12-07",
                  claims=("c1_violation_free", "c2_far_above_penalty_only",
                          "c3_hpwl_at_most_greedy", "c4_transfer_unseen",
                          "c5_transfer_violation_free"),
                  what="design they read: the dataset adds a 'newrule' split (own random "
                       "stream), every method and baseline also places it (after eval and "
                       "transfer), the quick grid adds three methods (mask_no_rule_state, "
                       "no_rule_reward, no_new_rule); rule_masks/legal/violations handle an "
                       "extra rule only on circuits that carry it. Their claims, thresholds, "
                       "and the cells they read are unchanged (compared with the committed "
                       "quick cells).",
                  why="the plumbing for c6-c8 (issue 30 round 6); no change to what c1-c5 "
                      "compute.",
                  results_seen=True),
        Amendment(date="2026-12-07", claims=("c8_extensible_rules", "p2_new_rule_satisfiable"),
                  what="setting: a module under the region rule is placed first (right after "
                       "the pre-placed block; only circuits that carry the rule). New premise "
                       "p2_new_rule_satisfiable (greedy legal's new-rule violation-free rate, "
                       "mean >= 0.95) gates c8. c8's check, threshold and foil unchanged.",
                  why="in the first private quick run (c8: not_reproduced, 7/8 seeds with a "
                      "violation) greedy legal placement, legal by construction on the five "
                      "trained rules, also broke the new rule on 28% of circuits: the fenced "
                      "module came late in the largest-first order and found its quadrant "
                      "filled, a dead end no sequential placer avoids without lookahead (the "
                      "same class of environment defect as the 2026-12-03 alignment fix). c8 "
                      "measured the generator, not the framework. p2 makes that a judged "
                      "premise; it was fixed (in the plan, 02:47 UTC) before the re-run.",
                  results_seen=True),
    ),
    headlines=HEADLINES,
    premises=PREMISES,
    cost_note=(
        "About 160 CPU-s (measured 2026-12-07 on the loaded 2-core machine; 86 in the committed "
        "run): 6 PPO agents x 8 seeds, 1024 episodes each (~3.3 CPU-s a run), evaluation of "
        "8 eval, 8 transfer and 8 new-rule circuits per cell. The 2026-12-07 increase (~+75 "
        "CPU-s, of which ~52 are the two added agents) is what c6_rule_matrices and "
        "c7_constraint_reward need: their ablations "
        "(mask_no_rule_state, back from smoke/full, and no_rule_reward) must be trained as the "
        "method is; c8_extensible_rules's foil no_new_rule shares the method's weights "
        "(evaluation only, <1 CPU-s). 1024 episodes because premise p1_policy_matches_greedy "
        "needs a trained policy (at 240 REINFORCE episodes its HPWL was 1.47x greedy's). "
        "Weights are cached per configuration and seed (claimbench.checkpoints), "
        "so a re-run of the grid only evaluates."),
    description=__doc__.split("\n\n")[1].replace("\n", " "),
)
