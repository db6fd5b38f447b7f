"""GENEB: Why Genomic Models Are Hard to Compare (arXiv 2606.04525), as a protocol proxy.

GENEB probes frozen embeddings of 40 genomic foundation models with logistic regression on 100
tasks in 13 categories, at full data and 10-shot, and reads the results by category. Here the
protocol runs on generated DNA tasks in 13 categories with planted rules, and the "models" are
frozen featurisers computed here (k-mer spectra, random CNNs and position-aware random
projections of growing size). Checked: category rankings disagree with the aggregate, the
10-shot regime changes category winners, and both beyond what interchangeable models produce by
noise alone; scale helps only modestly; low-ceiling featurisers drop less in few-shot. Foils are
featuriser sets for which the findings should not appear: noisy copies of one featuriser (one
dominates everywhere), replicas of one random CNN (no real differences), and one featuriser
diluted with irrelevant dimensions (scale only hurts).
"""
from __future__ import annotations

from claimbench.api import TIMING_RTOL
from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Paper, cfg,
                            output_metric)
from claimbench.checks import NotRun, Value
from claimbench.datasets.genomic_tasks import GenomicTaskSuite
from claimbench.methods.geneb import GENEB

METRICS = (
    output_metric("tau_cat_agg", higher_is_better=False,
                  description="mean over categories of Kendall tau-b between the featurisers' "
                              "category MCC and their aggregate (macro over categories) MCC, "
                              "full data"),
    output_metric("winner_change_frac", higher_is_better=True,
                  description="fraction of categories whose best featuriser at full data is "
                              "not the best at 10-shot"),
    output_metric("selection_gain", higher_is_better=True,
                  description="held-out MCC of the category winner minus that of the aggregate "
                              "winner, both chosen on one half of each test set and scored on "
                              "the other (halves swapped, averaged), full data"),
    output_metric("fewshot_regret", higher_is_better=True,
                  description="held-out 10-shot MCC of the 10-shot category winner minus that "
                              "of the full-data category winner (chosen on one test half, scored "
                              "on the other)"),
    output_metric("scale_spearman", higher_is_better=True,
                  description="Spearman rho between feature dimension and aggregate full-data "
                              "MCC over the featurisers (undefined when all share one size)"),
    output_metric("ceiling_drop_spearman", higher_is_better=True,
                  description="Spearman rho between aggregate full-data MCC (test half A) and "
                              "the full-to-10-shot drop (half B)"),
    output_metric("best_agg_mcc", higher_is_better=True,
                  description="aggregate full-data MCC of the best featuriser"),
    output_metric("mean_fewshot_drop", higher_is_better=False,
                  description="mean over featurisers of aggregate MCC full minus 10-shot"),
    output_metric("time_s", description="wall time of the protocol run"),
)

ZOO = "geneb"
NOISY = "geneb[featurisers=noisy_copies]"
REPL = "geneb[featurisers=replicas]"
DILUTED = "geneb[featurisers=diluted]"


def _methods(**kw) -> tuple:
    return (cfg(GENEB, label=ZOO, **kw),
            cfg(GENEB, label=NOISY, featurisers="noisy_copies", **kw),
            cfg(GENEB, label=REPL, featurisers="replicas", **kw),
            cfg(GENEB, label=DILUTED, featurisers="diluted", **kw))


_QUICK_KW = dict(few_shot_draws=2, kmax=4, n_replicas=4)
_SMOKE_KW = dict(few_shot_draws=1, kmax=2, cnn_widths=(8,), proj_dims=(16,), n_replicas=3,
                 dilution_dims=(0, 256))

_PROXY = ("Proxy: generated tasks and frozen featurisers computed here, not the paper's 40 "
          "genomic foundation models and 100 real tasks. ")

BENCHMARK = Benchmark(
    slug="geneb",
    paper=Paper(
        title="GENEB: Why Genomic Models Are Hard to Compare",
        arxiv="2606.04525",
        url="https://arxiv.org/abs/2606.04525",
        version="arXiv v1 abstract, the authors' probe code and third-party summaries of the "
                "body (tables not read)",
        authors="Daria Ledneva, Mikhail Nuridinov, Denis Kuznetsov",
    ),
    area="llm_agents",
    fidelity="proxy",
    fidelity_note=("The analysis protocol only, not the paper's models. The 40 genomic "
                   "foundation models become 10 frozen featurisers of three families and "
                   "growing size (k-mer spectra k = 1-4, random CNNs of width 8/32/128, "
                   "position-aware random projections of dimension 16/64/256; no pretrained "
                   "model); the 100 real tasks become 39 generated tasks (13 categories x 3) "
                   "whose category rules make different families win by construction, so "
                   "disagreement in the zoo is expected and the question each claim asks is "
                   "whether the protocol's statistic separates it from featuriser sets without "
                   "it (the foils). Probe as in the authors' harness (logistic regression, "
                   "max_iter 1000, 10 examples per class for 10-shot, MCC) but on standardised "
                   "features and 2 few-shot draws instead of 5 in the quick grid."),
    methods=(GENEB,),
    baselines=(),
    datasets=(GenomicTaskSuite,),
    metrics=METRICS,
    primary_metric="selection_gain",
    cost_note=("84 CPU-s of featurising and logistic-regression probes (lbfgs, max_iter 1000) on "
               "frozen features: per seed 39 tasks x 21 featurisers x 3 fits (full data + 2 "
               "ten-shot draws), ~2.5k fits, over 10 seeds. The 10-featuriser zoo (36 s) is read "
               "by c1_rankings_vary_by_category and c2-c6; noisy copies (13 s) and replicas (20 s)"
               " are the foils of c1-c4, the diluted set (14 s) of c5-c6, so every config is read."
               " The quick grid already thins the defaults: k-mers to k = 4 (not 6), 4 replicas "
               "(not 6), 2 ten-shot draws (the authors' harness: 5)."),
    nondeterministic={"time_s": TIMING_RTOL},
    claims=(
        Claim(id="c1_rankings_vary_by_category", where="abstract; research note",
              text="model rankings vary sharply across task categories",
              paper_value="\"aggregate leaderboards are unstable: model rankings vary sharply "
                          "across task categories\" (abstract; no tau reported)",
              check=Value(method=ZOO, metric="tau_cat_agg", hi=0.6),
              source="derived", basis="construction", foils=(NOISY, REPL),
              foil_note="Noisy copies of one featuriser (one dominates in every category) must "
                        "rank alike in every category. Replicas of one random CNN have no real "
                        "differences: if they pass, the raw statistic cannot tell real "
                        "disagreement from noise (c2 is the noise-controlled version).",
              note=_PROXY + "Mean over the 13 categories of Kendall tau-b between the category "
                   "ranking and the aggregate ranking (full data); 'vary sharply' fixed as "
                   "mean tau < 0.6, the research note's threshold. By construction: our tasks "
                   "plant one kind of signal per category so that different featuriser "
                   "families win different categories; the disagreement is ours, not "
                   "evidence about the paper's 40 models."),
        Claim(id="c2_category_selection_beats_aggregate", where="abstract (category-aware "
                                                               "model selection)",
              text="category-aware model selection beats picking the aggregate leaderboard's "
                   "winner",
              paper_value="GENEB is positioned \"as a reference framework for principled "
                          "comparison and category-aware model selection\" (abstract)",
              check=Value(method=ZOO, metric="selection_gain", lo=0.02),
              source="derived", basis="construction", foils=(NOISY, REPL),
              foil_note="With one dominant featuriser the category and aggregate winners "
                        "coincide; with interchangeable replicas the category winner's edge is "
                        "noise and vanishes on held-out data.",
              note=_PROXY + "Held-out gain in category MCC of the category winner over the "
                   "aggregate winner, both chosen on one half of each test set and scored on "
                   "the other. Margin 0.02 MCC (ours: the smallest gain we count as a "
                   "different choice that matters). By construction: category winners differ "
                   "because our category rules make different families win (as c1)."),
        Claim(id="c3_fewshot_reranks_winner", where="Sec. 4 / App. F (few-shot robustness), "
                                                    "via summary",
              text="the model winning under full supervision reranks in most categories under "
                   "10-shot evaluation",
              paper_value="the full-supervision winner reranks in 8 of 13 categories under "
                          "10-shot (Sec. 4 / App. F, per a third-party summary of the body; not "
                          "verified)",
              check=Value(method=ZOO, metric="winner_change_frac", lo=0.5),
              source="derived", basis="construction", foils=(NOISY, REPL),
              foil_note="Noisy copies: the noise-free copy wins in both regimes. Replicas: any "
                        "change is noise; if they pass, the raw count cannot separate a real "
                        "re-ranking from noise (c4 is the noise-controlled version).",
              note=_PROXY + "Fraction of categories whose full-data best featuriser is not the "
                   "10-shot best; the summary's 8/13 read as 'more than half' (lo = 0.5). A "
                   "protocol check (issue 30), ours by construction: which featurisers win each "
                   "category at full data and at 10-shot is fixed by the families, sizes and "
                   "category rules we built; the paper's finding on its 40 models is c11 (not "
                   "run)."),
        Claim(id="c4_fewshot_changes_the_choice", where="Sec. 4 / App. F (few-shot), derived",
              text="choosing by the 10-shot ranking beats reusing the full-data winner when "
                   "only 10 examples per class exist",
              paper_value="the full-supervision winner reranks in 8 of 13 categories under "
                          "10-shot (third-party summary of the body)",
              check=Value(method=ZOO, metric="fewshot_regret", lo=0.02),
              source="derived", foils=(NOISY, REPL),
              foil_note="One dominant featuriser wins both regimes (regret 0); replicas' "
                        "re-rankings are noise and give no held-out gain.",
              note=_PROXY + "Held-out 10-shot category MCC of the 10-shot winner minus that of "
                   "the full-data winner, both chosen on one test half and scored on the "
                   "other. Margin 0.02 MCC (ours, as c2)."),
        Claim(id="c5_scale_modest_gains", where="abstract; Sec. 4 (scale analysis), via summary",
              text="scale provides only modest and inconsistent gains",
              paper_value="\"scale provides only modest and inconsistent gains\" (abstract); "
                          "Spearman rho = 0.565 (p < 0.001) between parameter count and "
                          "performance, 0.685 without a prokaryotic outlier (Sec. 4, per a "
                          "third-party summary; not verified)",
              check=Value(method=ZOO, metric="scale_spearman", lo=0.0, hi=0.8),
              source="derived", basis="construction", foils=(DILUTED,),
              foil_note="A featuriser padded with more and more irrelevant dimensions grows in "
                        "size and only loses: scale brings no gain (rho < 0).",
              note=_PROXY + "Spearman rho between feature dimension (our scale axis; k-mers have "
                   "no parameters) and aggregate full-data MCC. Band (0, 0.8): positive as the "
                   "paper's p < 0.001, and below 0.8 for 'modest' (ours). By construction: "
                   "the sizes of our three featuriser families and the tasks they suit are "
                   "ours, so the size-performance relation is fixed by our zoo."),
        Claim(id="c6_low_ceiling_drops_less", where="Sec. 4 / App. F (few-shot), via summary",
              text="models with low full-shot ceilings show smaller absolute drops in few-shot",
              paper_value="few-shot robustness follows an inverse pattern: models with low "
                          "full-shot ceilings show smaller absolute drops (App. F, per a "
                          "third-party summary; not verified)",
              check=Value(method=ZOO, metric="ceiling_drop_spearman", lo=0.0),
              source="derived", basis="construction", foils=(DILUTED,),
              foil_note="Diluting one featuriser with irrelevant dimensions lowers its ceiling "
                        "and hurts 10-shot most: lower ceilings drop more (rho < 0).",
              note=_PROXY + "Spearman rho between aggregate full-data MCC on test half A and the "
                   "full-to-10-shot drop on half B (halves keep the ceiling's noise out of the "
                   "drop; a floor effect near MCC 0 is part of what this measures). By "
                   "construction: which featurisers have low ceilings and small drops is "
                   "fixed by the families and tasks we built."),
        Claim(id="c7_transformers_beat_ssm", where="abstract; Sec. 4",
              text="Transformer models outperform the evaluated Mamba-SSM, most on "
                   "cross-species regulatory tasks",
              paper_value="\"architectural and pretraining alignment frequently outweigh "
                          "parameter count\" (abstract); Transformers generally outperform the "
                          "evaluated state-space alternative, largest gaps on cross-species "
                          "regulatory tasks (Sec. 4, per a third-party summary; not verified)",
              check=NotRun(method=ZOO, reason="needs the paper's pretrained genomic foundation "
                                              "models (Transformers and Mamba-SSM) and real "
                                              "tasks; no pretrained model runs here"),
              source="paper"),
        Claim(id="c8_pretraining_alignment", where="abstract; Sec. 4 (high-variance tasks)",
              text="architecture and pretraining alignment frequently outweigh parameter count",
              paper_value="\"architectural and pretraining alignment frequently outweigh "
                          "parameter count\" (abstract); on high-variance tasks, multi-species "
                          "and eukaryotic-gene pretraining take 32 of 39 top-tier placements; 31 "
                          "cases of a model >= 5x smaller beating a larger one among 36 models "
                          "(Sec. 4, per a third-party summary; not verified)",
              check=NotRun(method=ZOO, reason="needs the 40 real models' pretraining corpora "
                                              "and parameter counts; the featurisers here have "
                                              "no pretraining"),
              source="paper"),
        Claim(id="c9_rankings_vary_40_models", where="abstract",
              text="on the paper's 40 models and 100 tasks, aggregate leaderboards are unstable: "
                   "rankings vary sharply across task categories",
              paper_value="\"Our analysis shows that aggregate leaderboards are unstable: model "
                          "rankings vary sharply across task categories\" (abstract)",
              check=NotRun(method=ZOO, reason="needs the 40 pretrained genomic foundation models "
                                              "and GENEB's 100 real tasks; c1 and c2 run the "
                                              "protocol on featurisers and tasks we built, where "
                                              "the disagreement is ours by construction"),
              source="paper"),
        Claim(id="c10_scale_modest_40_models", where="abstract",
              text="on the paper's 40 models, scale provides only modest and inconsistent gains",
              paper_value="\"scale provides only modest and inconsistent gains\" (abstract)",
              check=NotRun(method=ZOO, reason="needs the 40 pretrained models and their "
                                              "parameter counts; c5 reads feature dimension in a "
                                              "zoo we built, whose size-performance relation is "
                                              "ours by construction"),
              source="paper"),
        Claim(id="c11_fewshot_reranks_40_models",
              where="Sec. 4 / App. F (few-shot robustness; body not read, per a third-party "
                    "summary)",
              text="on the paper's models, the full-supervision winner reranks in most categories "
                   "under 10-shot, and low-ceiling models drop less",
              paper_value="the full-supervision winner reranks in 8 of 13 categories under "
                          "10-shot; models with low full-shot ceilings show smaller absolute "
                          "drops (per a third-party summary of the body; not verified)",
              check=NotRun(method=ZOO, reason="needs the paper's pretrained models and real "
                                              "tasks at full data and 10-shot; c3, c4 and c6 are "
                                              "protocol checks on our featuriser zoo"),
              source="paper"),
    ),
    headlines=(
        Headline(quote="aggregate leaderboards are unstable: model rankings vary sharply across "
                       "task categories",
                 claims=("c9_rankings_vary_40_models", "c1_rankings_vary_by_category")),
        Headline(quote="scale provides only modest and inconsistent gains",
                 claims=("c10_scale_modest_40_models", "c5_scale_modest_gains")),
        Headline(quote="architectural and pretraining alignment frequently outweigh parameter "
                       "count",
                 claims=("c8_pretraining_alignment", "c7_transformers_beat_ssm")),
        Headline(quote="position GENEB as a reference framework for principled comparison and "
                       "category-aware model selection",
                 claims=("c2_category_selection_beats_aggregate",)),
    ),
    amendments=(
        Amendment(date="2026-12-06",
                  claims=("c1_rankings_vary_by_category", "c2_category_selection_beats_aggregate",
                          "c5_scale_modest_gains", "c6_low_ceiling_drops_less"),
                  what="basis construction; c1, c5, c6 source paper -> derived (c2 was derived)",
                  why="our generated tasks plant one signal per category so that different "
                      "featuriser families win, and the featurisers' families and sizes are "
                      "ours: category disagreement, the category winner's gain, the "
                      "size-performance relation and the ceiling-drop relation are fixed by "
                      "our construction, not evidence about the paper's 40 models",
                  results_seen=True, rule="issue 26: construction basis"),
        Amendment(date="2026-12-06", claims=("c3_fewshot_reranks_winner",),
                  what="source paper -> derived, basis construction; check, foils and scope "
                       "unchanged",
                  why="issue 30: a protocol check on featurisers and tasks we built (which "
                      "featuriser wins each category in each regime is fixed by our families, "
                      "sizes and category rules), with the paper's number from a third-party "
                      "summary; the paper's finding is kept as the not_run claim c11",
                  results_seen=True, rule="issue 26: construction basis"),
        Amendment(date="2026-12-06",
                  claims=("c9_rankings_vary_40_models", "c10_scale_modest_40_models",
                          "c11_fewshot_reranks_40_models"),
                  what="not_run paper claims added for the paper's findings on its 40 models "
                       "(rankings by category, scale, few-shot re-ranking); headlines declared (4 "
                       "statements of the ICML abstract)",
                  why="issue 30: c1, c3, c5 and c6 are derived protocol checks on our zoo, so the "
                      "paper's own findings are kept as not_run claims with their reasons",
                  results_seen=True),
    ),
    grids={
        "smoke": Grid(datasets=(cfg(GenomicTaskSuite, n_categories=4, tasks_per_category=1,
                                    seq_len=60, n_train=64, n_test=64),),
                      seeds=2, methods=_methods(**_SMOKE_KW),
                      note="4 categories x 1 task, 64 training sequences, 4-6 featurisers"),
        "quick": Grid(datasets=(cfg(GenomicTaskSuite, n_categories=13, tasks_per_category=3,
                                    seq_len=80, n_train=128, n_test=128),),
                      seeds=10, methods=_methods(**_QUICK_KW),
                      note="13 categories x 3 tasks of 80 bp, 128 train / 128 test sequences; "
                           "zoo of 10 featurisers; 2 few-shot draws"),
        "full": Grid(datasets=(cfg(GenomicTaskSuite),), seeds=10, methods=_methods(),
                     note="13 categories x 8 tasks (~100 as GENEB) of 100 bp, 256/256 "
                          "sequences, k-mers up to 6, 5 few-shot draws (the authors' harness)"),
    },
    description=__doc__.split("\n\n")[1].replace("\n", " "),
)
