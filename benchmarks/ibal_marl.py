"""Interaction-Breaking Adversarial Learning for robust MARL (arXiv 2605.18024): IBAL.

Tabular VDN learners on a small level-based foraging task, trained vanilla, with random
observation noise, against a value-based action attack, and against the interaction-breaking
(IB) attacker (IBAL), then tested with no attack, noise, the action attack, the IB attack, an
attacker that minimises a plug-in estimate of the cross-group mutual information, and a missing
agent; ERNIE (adversarial Lipschitz regularisation, an existing robust MARL method) is trained
alongside. Claims (the research note's plan): IBAL is the most robust under the IB attack and
under a missing agent, and its clean return stays within 10 % of vanilla VDN.
"""
from __future__ import annotations

from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Paper, Premise, cfg,
                            output_metric, sweep)
from claimbench.baselines.ernie import ERNIE
from claimbench.baselines.vdn_adversarial import VDN
from claimbench.checks import NotRun, Rank, Ratio, Value
from claimbench.datasets.level_foraging import LevelForaging
from claimbench.methods.ibal_marl import IBAL

METRICS = (
    output_metric("return_clean", True, "mean normalised team return (food levels collected / "
                  "total), no attack"),
    output_metric("return_noise", True, "return with random observation noise on 30% of steps"),
    output_metric("return_value", True, "return with the value-based action attack on 30% of steps"),
    output_metric("return_ib", True, "return with the interaction-breaking attack on 30% of steps"),
    output_metric("return_missing", True, "return with one agent frozen at NOOP (agent missing)"),
    output_metric("visited_masked_rows", True, "Q-table rows with a masked teammate ever updated"),
    output_metric("return_mi", True, "return with the estimated-MI attacker (minimises a plug-in "
                  "cross-group MI estimate over a rollout batch) on 30% of steps"),
    *(output_metric(f"interaction_{a}", False, f"plug-in MI (nats) between the victim's and the "
                    f"teammate's actions over the {a} test episodes")
      for a in ("clean", "noise", "value", "ib", "missing", "mi")),
    output_metric("interaction_drop_mi_vs_noise", True, "interaction_noise - interaction_mi"),
    output_metric("return_drop_mi_vs_noise", True, "return_noise - return_mi"),
)

TRAIN_ARMS = ("ibal", "vdn", "vdn_noise", "vdn_value", "ernie")
NO_MASK, ALWAYS, MI_MAX = "ibal_no_mask", "ibal_always", "vdn_mi_max"
# The level-1 food alone is 1/3 of the total food level: a team return above 1/3 needs the
# level-2 food, which only both agents loading together can collect (datasets/level_foraging.py).
SOLO_SHARE = 1 / 3


def methods(n_episodes: int, n_eval: int):
    kw = {"n_episodes": n_episodes, "n_eval": n_eval}
    return (cfg(IBAL, label="ibal", **kw), cfg(IBAL, label=NO_MASK, mutant="no_mask", **kw),
            cfg(IBAL, label=ALWAYS, mutant="always", **kw),
            cfg(VDN, label="vdn", **kw), cfg(VDN, label="vdn_noise", train_attack="noise", **kw),
            cfg(VDN, label="vdn_value", train_attack="value", **kw),
            cfg(VDN, label=MI_MAX, mi_objective="max", **kw), cfg(ERNIE, label="ernie", **kw))


_Q_DIVERSE = ("our approach improves robustness over existing robust MARL baselines across "
              "diverse attack settings")
_Q_ATTACK = ("takes an information-theoretic view to construct attacks that impede coordination "
             "by perturbing agents’ observations and actions")
_NOTE = ("The research note's plan (the paper reports SMAC/SMACv2/LBF tables, not seen); "
         "threshold from the note.")

BENCHMARK = Benchmark(
    slug="ibal_marl",
    paper=Paper(
        title="Interaction-Breaking Adversarial Learning for Robust Multi-Agent Reinforcement "
              "Learning",
        arxiv="2605.18024",
        url="https://arxiv.org/abs/2605.18024",
        version="abstract and method summary, as summarised in the project's research note",
        authors="Sunwoo Lee, Mingu Kang, Yonghyeon Jo, Seungyul Han",
    ),
    area="rl_systems",
    fidelity="proxy",
    fidelity_note=("Tabular VDN on a 5x5, two-agent, two-food level-based foraging task written "
                   "here (lbforaging not installed) stands in for QMIX/VDN networks on SMAC and "
                   "LBF; the IB attacker is the closed-form MI minimiser (mask cross-group "
                   "features, victim action independent of the other group), not a learned "
                   "adversary trained by alternating min-max; the test-time MI attacker picks "
                   "among 9 fixed perturbations the one minimising a plug-in estimate of the "
                   "MI between the two agents' actions, unconditional on the state; the one "
                   "existing robust MARL baseline is ERNIE's adversarial Lipschitz regulariser "
                   "on tabular VDN (the paper's ROMANCE, EGA and Wolfpack are not built)."),
    methods=(IBAL,),
    baselines=(VDN, ERNIE),
    datasets=(LevelForaging,),
    metrics=METRICS,
    primary_metric="return_ib",
    unit=("seed",),
    claims=(
        Claim(id="c1_ibal_top_under_ib_attack", where="abstract; research note plan",
              text="IBAL is the most robust training under the interaction-breaking attack",
              paper_value="\"our approach improves robustness over existing robust MARL "
                          "baselines across diverse attack settings\" (abstract); top-1 under "
                          "the IB attack is the research note's plan",
              check=Rank(method="ibal", metric="return_ib", k=1, among=TRAIN_ARMS),
              source="paper",
              foils=(NO_MASK,),
              foil_note="IBAL without the mask removes the interaction-breaking component. "
                        "(vdn and vdn_value, former foils, are ranked arms of the check: Y "
                        "against Y.)",
              note=_NOTE),
        *(Claim(id=f"c1{tag}_ibal_top_under_{attack}_attack", where="abstract",
                text=f"IBAL is the most robust training under the {what}",
                paper_value="\"" + _Q_DIVERSE + "\" (abstract)",
                check=Rank(method="ibal", metric=f"return_{attack}", k=1, among=TRAIN_ARMS),
                source="paper",
                foils=(NO_MASK,),
                foil_note="As c1: IBAL without the mask removes the interaction-breaking "
                          "component, so it must not be top-1.",
                note=f"'Across diverse attack settings' (issue 30: c1 read the IB attack only): "
                     f"c1 under the {what}, among the same five trained arms"
                     + (" (one of them trained against this very attack)" if tag != "d" else
                        " (none trained against it; declared before any run of the attacker)")
                     + ". The arms are VDN variants and ERNIE (adversarial regularisation, one "
                       "existing robust MARL method; the paper's ROMANCE, EGA, Wolfpack are not "
                       "built). "
                     + _NOTE)
          for tag, attack, what in (("b", "noise", "random observation-noise attack"),
                                    ("c", "value", "value-based action attack"),
                                    ("d", "mi", "estimated-MI attacker (issue 30)"))),
        Claim(id="c2_ibal_top_agent_missing", where="abstract; research note plan",
              text="IBAL is the most robust training when a teammate is missing",
              paper_value="\"yields stronger performance even under agent-missing "
                          "scenarios\" (abstract); top-1 is the research note's plan",
              check=Rank(method="ibal", metric="return_missing", k=1, among=TRAIN_ARMS),
              source="paper",
              foils=(NO_MASK,),
              foil_note="The wording credits IBAL's interaction-breaking training: IBAL without "
                        "the mask lacks it, so it must not be top-1 when a teammate is missing. "
                        "(vdn and vdn_noise, former foils, are ranked arms of the check: Y "
                        "against Y.)",
              note=_NOTE),
        Claim(id="c3_clean_within_10pct",
              where="research note plan (no statement of the paper on clean return read)",
              text="IBAL keeps clean return within 10% of vanilla VDN",
              paper_value="\"its clean return is within 10% of vanilla\" (note's plan; paper: "
                          "little loss in clean performance)",
              check=Ratio(numerator="ibal", denominator="vdn", metric="return_clean",
                          at_least=0.9),
              source="derived",
              foils=(ALWAYS,),
              foil_note="A defender attacked on every training step never learns clean "
                        "coordination and must lose clean return.",
              note=_NOTE + " Seen after the quick run: tabular IBAL learns more slowly than "
                           "vanilla (masked rows bootstrap into clean rows through the shared VDN "
                           "error); one seed at 4000/12000/30000 episodes gave clean return "
                           "0.77/0.91/0.96 (vanilla 1.0), so the quick grid's 4000 episodes "
                           "under-train it; the grid was not changed."),
        Claim(id="c4_smac_tables", where="abstract; experiments",
              text="IBAL is best or near-best on SMAC/SMACv2 under every attack",
              paper_value="\"Empirically, our approach improves robustness over existing robust "
                          "MARL baselines across diverse attack settings and yields stronger "
                          "performance even under agent-missing scenarios\" (abstract); best "
                          "or near-best under every attack type (experiments, per research "
                          "note; not verified)",
              check=NotRun(method="ibal", reason="SMAC/SMACv2 need StarCraft II and GPU-scale "
                                                 "QMIX training"),
              source="paper"),
        Claim(id="c5_information_theoretic_attack", where="abstract",
              text="an attacker built from an information-theoretic view (minimising the "
                   "information between agent groups) impedes coordination",
              paper_value="\"" + _Q_ATTACK + "\" (abstract)",
              check=NotRun(method="ibal",
                           reason="the paper's learned adversary (a neural MI estimate trained "
                                  "by alternating min-max against the defenders) is not built; "
                                  "the plug-in estimated-MI attacker that is built here is "
                                  "checked by c5b and c5c"),
              source="paper"),
        *(Claim(id=f"c5{tag}_mi_attack_{short}", where="abstract",
                text=f"an attacker that minimises the estimated information between agent "
                     f"groups impedes coordination: {what}",
                paper_value="\"" + _Q_ATTACK + "\" (abstract)",
                check=Value(method="vdn", metric=metric, lo=0.0, stat="mean"),
                source="paper",
                foils=(MI_MAX,),
                foil_note="The information-theoretic view is that the attacker minimises the "
                          "information between the groups: the same attacker maximising the "
                          "same estimate (its sign flipped) is not built from that view and "
                          "must not beat random noise of the same budget.",
                note=f"Ours: the vanilla VDN team (subject: the attack, not a defence) under "
                     f"the estimated-MI attacker against random observation noise of the same "
                     f"budget (30% of steps, the victim agent only). Threshold: 'impede "
                     f"coordination' read as {words}; no number in the paper's words, so the "
                     f"threshold is the direction (mean difference > 0). Held-out episodes: the "
                     f"attacker fits its choice on its own rollout batch, the metric is read on "
                     f"fresh test episodes. Declared before any run of the attacker.")
          for tag, short, metric, what, words in (
              ("b", "cuts_interaction", "interaction_drop_mi_vs_noise",
               "the plug-in cross-group MI of the actions falls below that under random noise",
               "less information between the groups' decisions than noise leaves"),
              ("c", "lowers_return", "return_drop_mi_vs_noise",
               "the team return falls below that under random noise",
               "a lower team return than under noise"))),
    ),
    headlines=(
        Headline(quote="Prior robust MARL methods have primarily considered value-oriented "
                       "attacks, leaving a gap in robustness when interaction structures "
                       "themselves are corrupted", claims=("c1_ibal_top_under_ib_attack",)),
        Headline(quote=_Q_ATTACK, claims=("c5_information_theoretic_attack",
                                          "c5b_mi_attack_cuts_interaction",
                                          "c5c_mi_attack_lowers_return")),
        Headline(quote="trains agents to perform reliably under such disruptions",
                 claims=("c1_ibal_top_under_ib_attack",)),
        Headline(quote=_Q_DIVERSE, claims=("c1_ibal_top_under_ib_attack",
                                           "c1b_ibal_top_under_noise_attack",
                                           "c1c_ibal_top_under_value_attack",
                                           "c1d_ibal_top_under_mi_attack",
                                           "c4_smac_tables")),
        Headline(quote="yields stronger performance even under agent-missing scenarios",
                 claims=("c2_ibal_top_agent_missing",)),
    ),
    amendments=(
        Amendment(date="2026-12-03", claims=("c3_clean_within_10pct",),
                  what="added the sentence on training length to the claim's note; check, "
                       "threshold, foils and grids unchanged",
                  why="record that the not-reproduced verdict at quick scale is tied to the "
                      "training budget (a diagnostic run outside the grid)",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c1_ibal_top_under_ib_attack", "c2_ibal_top_agent_missing"),
                  what="foils that are ranked arms of the check removed (c1: vdn, vdn_value; "
                       "c2: vdn, vdn_noise); source derived -> paper; decided on the full grid "
                       "only",
                  why="a ranked arm as foil ranks against itself (Y against Y); placed in the "
                      "abstract; 5 quick units give a Rank floor of 0.125 against a worst-case "
                      "Holm level of 0.0167 (the quick grid cannot decide them)",
                  results_seen=True,
                  rule="issue 26: Y-vs-Y foil removed; source by placement; full-grid-only for "
                       "an undecidable design"),
        Amendment(date="2026-12-06", claims=("c2_ibal_top_agent_missing",),
                  what="foil ibal_no_mask named (c2 had no foil left)",
                  why="the wording credits the interaction-breaking training; IBAL without the "
                      "mask is the method without it (chosen, not mandated)",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c1b_ibal_top_under_noise_attack", "c1c_ibal_top_under_value_attack",
                          "c5_information_theoretic_attack"),
                  what="c1b, c1c: c1's rank under the noise and the value-based attacks (full "
                       "grid only, as c1); headlines declared (5 statements of the ICML "
                       "abstract); the information-theoretic attacker gets the not_run claim c5",
                  why="issue 30: 'across diverse attack settings' was read under the IB attack "
                      "only though every attack is evaluated; the attacker has no "
                      "mutual-information estimate, so the abstract's attack statement has no "
                      "check yet",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c1d_ibal_top_under_mi_attack", "c5b_mi_attack_cuts_interaction",
                          "c5c_mi_attack_lowers_return"),
                  what="new attack type 'mi' (an attacker that picks, among 9 observation/action "
                       "perturbations of the victim within the 30% budget, the one minimising a "
                       "plug-in cross-group MI estimate over a rollout batch) evaluated for every "
                       "method; new claims c1d (c1 under it, full grid only as c1), c5b, c5c "
                       "(vanilla team: MI estimate and return below random noise of the same "
                       "budget) with foil vdn_mi_max (a new grid arm: the attacker maximising "
                       "the estimate), gated by premises p1, p2",
                  why="issue 30: the abstract's information-theoretic attack had no MI estimate "
                      "and no check",
                  results_seen=False),
        Amendment(date="2026-12-06", claims=("c5_information_theoretic_attack",),
                  what="NotRun reason: the learned (min-max, neural MI) adversary is not built; "
                       "the plug-in attacker is checked by c5b/c5c",
                  why="issue 30: the old reason ('not built yet') no longer holds for the "
                      "plug-in attacker",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c1_ibal_top_under_ib_attack", "c1b_ibal_top_under_noise_attack",
                          "c1c_ibal_top_under_value_attack", "c2_ibal_top_agent_missing",
                          "c3_clean_within_10pct", "c4_smac_tables"),
                  what="the shared VDN baseline gains the test-time 'mi' attack (its own rollout "
                       "streams, run after training) and the action log for the interaction "
                       "metrics; the method file's header gains deviation 5; the grids gain the "
                       "arm vdn_mi_max, which these claims do not read. Checks, foils, "
                       "thresholds unchanged",
                  why="issue 30: the lock covers the sources every claim's cells run",
                  results_seen=True,
                  rule="issue 28-30 review: a change these claims do not read (new configs, "
                       "cells or branches); every non-timing metric of the committed quick "
                       "cells unchanged (compared cell by cell with the fresh run)"),
        Amendment(date="2026-12-06", claims=("p1_vanilla_coordinates", "p2_noise_leaves_room"),
                  what="premises declared for c5b/c5c: vanilla VDN's mean clean return and mean "
                       "return under noise above 1/3 (the level-1 food's share: more needs the "
                       "level-2 food, i.e. both agents loading together)",
                  why="issue 30 (rule 4: the phenomenon present, room for the effect to show)",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=('c1_ibal_top_under_ib_attack', 'c1b_ibal_top_under_noise_attack', 'c1c_ibal_top_under_value_attack', 'c1d_ibal_top_under_mi_attack', 'c2_ibal_top_agent_missing', 'c3_clean_within_10pct', 'c4_smac_tables', 'c5_information_theoretic_attack', 'c5b_mi_attack_cuts_interaction', 'c5c_mi_attack_lowers_return'),
                  what="VDN Q rows as Python lists (same float64 arithmetic and draws), training through the checkpoint cache (vdn_mi_max reuses vdn's tables); level-foraging moves precomputed",
                  why='issue 27 item 5: the quick suite must fit 30 minutes on 2 cores; this cuts CPU without changing what any cell computes',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
        Amendment(date="2026-12-06", claims=('c1_ibal_top_under_ib_attack', 'c1b_ibal_top_under_noise_attack', 'c1c_ibal_top_under_value_attack', 'c1d_ibal_top_under_mi_attack', 'c2_ibal_top_agent_missing', 'c3_clean_within_10pct', 'c4_smac_tables', 'c5_information_theoretic_attack', 'c5b_mi_attack_cuts_interaction', 'c5c_mi_attack_lowers_return'),
                  what='the VDN Q tables are cached as float64 arrays (claimbench.checkpoints.cached_arrays) instead of a torch buffer through cached_train, so the worker no longer imports torch',
                  why="review: the array cache is the project's tool for results that are not a model; the Q tables round-trip exactly",
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
        Amendment(date="2026-12-06",
                  claims=("c1_ibal_top_under_ib_attack", "c1b_ibal_top_under_noise_attack",
                          "c1c_ibal_top_under_value_attack", "c1d_ibal_top_under_mi_attack",
                          "c2_ibal_top_agent_missing"),
                  what="new baseline ERNIE (baselines/ernie.py: adversarial Lipschitz "
                       "regularisation of each agent's values in its observation, tabular VDN, "
                       "lam 0.5, radius 1, fixed before any run of it) added to the grids as the "
                       "arm 'ernie' and to the ranked arms of every rank claim (4 -> 5 arms); "
                       "checks' k, metrics and foils unchanged",
                  why="issue 30: the ranked arms were VDN variants, not the 'existing robust "
                      "MARL baselines' the abstract compares against; ERNIE is a "
                      "regularisation-based robust MARL method that fits a tabular learner "
                      "(the paper's ROMANCE, EGA, Wolfpack need learned attacker populations)",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c1_ibal_top_under_ib_attack", "c1b_ibal_top_under_noise_attack",
                          "c1c_ibal_top_under_value_attack", "c1d_ibal_top_under_mi_attack",
                          "c2_ibal_top_agent_missing", "c3_clean_within_10pct",
                          "c5b_mi_attack_cuts_interaction", "c5c_mi_attack_lowers_return",
                          "p1_vanilla_coordinates",
                          "p2_noise_leaves_room"),
                  what="the rank claims c1-c2 are decided on the quick grid as well (grids "
                       "'full' -> every grid); the quick grid's seeds 5 -> 10, which every "
                       "claim and premise read on quick; the grids gain the arm 'ernie'",
                  why="issue 30 round 4: the quick grid must decide c1-c2 if a size within "
                      "about 1.5 CPU-minutes can: with 5 ranked arms the Holm floor of the "
                      "rank check is 4 x 2^-n against a worst-case level of 0.05 / 8 (8 claims "
                      "with p-values on quick), so n = 10 is the fewest seeds (n = 9 gives "
                      "0.0078); chosen from that arithmetic, not from any verdict",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c4_smac_tables", "c5_information_theoretic_attack"),
                  what="the grids gain the arm 'ernie' and the quick grid's seeds 5 -> 10; these "
                       "not_run claims read no cell",
                  why="issue 30 round 4: the lock covers the design every claim's cells run",
                  results_seen=True,
                  rule="issue 28-30 review: a change these claims do not read (new configs, "
                       "cells or branches)"),
        Amendment(date="2026-12-06", claims=("p3_ernie_coordinates",),
                  what="premise declared for c1-c2: ERNIE's mean clean return above 1/3 (the "
                       "level-1 food's share, as p1)",
                  why="rule 4: the new ranked baseline must be competent for a rank against it "
                      "to mean anything; declared after ERNIE's quick results were seen",
                  results_seen=True),
    ),
    premises=(
        Premise(id="p1_vanilla_coordinates",
                text="the vanilla VDN team coordinates with no attack: its mean clean return is "
                     "above 1/3, which only collecting the level-2 food (both agents loading "
                     "together) can give",
                check=Value(method="vdn", metric="return_clean", lo=SOLO_SHARE, stat="mean"),
                claims=("c5b_mi_attack_cuts_interaction", "c5c_mi_attack_lowers_return")),
        Premise(id="p2_noise_leaves_room",
                text="random noise of the same budget leaves coordination to break: the vanilla "
                     "team's mean return under noise is above 1/3",
                check=Value(method="vdn", metric="return_noise", lo=SOLO_SHARE, stat="mean"),
                claims=("c5b_mi_attack_cuts_interaction", "c5c_mi_attack_lowers_return")),
        Premise(id="p3_ernie_coordinates",
                text="the existing robust MARL baseline is competent: ERNIE's mean clean return "
                     "is above 1/3, which only collecting the level-2 food (both agents loading "
                     "together) can give",
                check=Value(method="ernie", metric="return_clean", lo=SOLO_SHARE, stat="mean"),
                claims=("c1_ibal_top_under_ib_attack", "c1b_ibal_top_under_noise_attack",
                        "c1c_ibal_top_under_value_attack", "c1d_ibal_top_under_mi_attack",
                        "c2_ibal_top_agent_missing")),
    ),
    grids={
        "smoke": Grid(datasets=sweep(LevelForaging, size=[5]), seeds=2,
                      methods=methods(600, 50), note="600 training episodes, two seeds"),
        "quick": Grid(datasets=sweep(LevelForaging, size=[5]), seeds=10,
                      methods=methods(4000, 200),
                      note="4000 training episodes, 200 test episodes per attack (and 9 x 20 "
                           "for the MI attacker's choice), ten seeds (the fewest that let the "
                           "five-arm rank claims c1-c2 be decided: 4 x 2^-10 < 0.05 / 8)"),
        "full": Grid(datasets=sweep(LevelForaging, size=[5, 6]), seeds=20,
                     methods=methods(20000, 1000),
                     note="20000 training episodes, 5x5 and 6x6 grids, 20 seeds; roughly 2.5 "
                          "CPU-hours"),
    },
    cost_note=(
        "Over its former share since 2026-12-06 round 4: 94 CPU-s measured on 2 shared, busy "
        "cores (34 before, on idle cores) for 7 tabular trainings (6 VDN variants and ERNIE) "
        "x 10 seeds on the 5x5 foraging task; vdn_mi_max reuses vdn's cached Q tables. The ten "
        "seeds are what the rank claims (c1_ibal_top_under_ib_attack to "
        "c2_ibal_top_agent_missing) need to be decidable on quick (five gave a floor above any "
        "Holm level); ERNIE adds one training per seed, and premise p3_ernie_coordinates reads it. "
        "The committed run (2026-12-06) stored 70 CPU-s."),
    description=__doc__.split("\n\n")[1].replace("\n", " "),
)
