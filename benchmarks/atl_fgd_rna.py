"""ATL-FGD: Learning Adaptive Topology with FiLM-Guided Distillation for Tertiary Structure-Based
RNA Design (ICML 2026 poster; abstract only).

Families of random RNA sequences, folded by ViennaRNA, given to the design models as noisy 2-D
layouts of their MFE structures; a static kNN message-passing network (k = 8, and k = 16 as the
"more edges" control), the same network with learned per-layer edge gates (ATL), and ATL with
FiLM-guided distillation from a BiGRU masked sequence model pretrained on further family members
that the design models never see (ATL-FGD), against ViennaRNA's
classical inverse folding and random design. Checked: ATL beats static kNN on recovery and on
the base-pair F1 of the refolded designs; distillation adds recovery; ATL-FGD ranks first.
"""
from __future__ import annotations

import numpy as np

from claimbench.api import TIMING_RTOL
from claimbench.api import (
    Amendment,
    Benchmark,
    Claim,
    Grid,
    Headline,
    Metric,
    Paper,
    Premise,
    cfg,
    output_metric,
    sweep,
)
from claimbench.baselines.knn_message_passing import KnnMPNN
from claimbench.baselines.rna_inverse_fold import RNAInverseFold
from claimbench.checks import Better, NotRun, Rank, Value
from claimbench.datasets.folded_rna import NUC, FoldedRNAFamilies, bp_f1, fold
from claimbench.methods.atl_fgd_rna import ATLFGD

# Used only by the amendments: an assignment rather than an import, so that the module's cell
# key (provenance.cell_hash drops judgement-only assignments, not imports) does not change.


def _recovery(inst, out):
    return float(np.mean([np.mean([a == b for a, b in zip(d, s)])
                          for d, s in zip(out["designs"], inst.truth["seq"])]))


def _macro_f1(inst, out):
    from sklearn.metrics import f1_score

    y = [c for s in inst.truth["seq"] for c in s]
    p = [c for d in out["designs"] for c in d]
    return float(f1_score(y, p, labels=list(NUC), average="macro", zero_division=0))


def _heldout_acc(inst, out):
    # the FGD teacher's accuracy on sequences it never saw; any other method's test recovery
    if "teacher_heldout_acc" in out:
        return float(out["teacher_heldout_acc"])
    return _recovery(inst, out)


def _bp_f1(inst, out):
    return float(np.mean([bp_f1(fold(d), t) for d, t in zip(out["designs"],
                                                           inst.truth["structure"])]))


METRICS = (
    Metric("recovery", _recovery, True,
           "mean fraction of positions where the design equals the native sequence"),
    Metric("macro_f1", _macro_f1, True,
           "Macro-F1 over the four nucleotides, pooled over all test positions"),
    Metric("bp_f1", _bp_f1, True,
           "mean base-pair F1 of the ViennaRNA MFE fold of the design against the target"),
    output_metric("edges_kept", higher_is_better=False,
                  description="fraction of candidate edges with gate > 0.5 (1 for static kNN)"),
    output_metric("teacher_acc", higher_is_better=True,
                  description="accuracy of the BiGRU masked-LM teacher on its own corpus "
                              "(FGD only)"),
    Metric("heldout_acc", _heldout_acc, True,
           "held-out per-nucleotide accuracy of a run's knowledge source: for FGD, its teacher's "
           "masked-LM accuracy on the student's training sequences (never in the teacher's "
           "corpus); for every other method, its recovery on the test structures"),
    output_metric("time_s", description="wall time of the run (training and design), seconds"),
)

STATIC = "knn_mpnn"
STATIC16 = "knn_mpnn[k=16]"
ATL = "atl"
FGD = "atl_fgd"
SHUF = "atl_fgd[mutant=shuffled_teacher]"
INV = "rna_inverse_fold"
RAND = "random_design"


def _methods(**train) -> tuple:
    return (cfg(ATLFGD, label=FGD, **train),
            cfg(ATLFGD, label=ATL, fgd=False, **train),
            cfg(ATLFGD, label=SHUF, mutant="shuffled_teacher", **train),
            cfg(KnnMPNN, label=STATIC, **train),
            cfg(KnnMPNN, label=STATIC16, k=16, **train),
            cfg(RNAInverseFold, label=INV),
            cfg(RNAInverseFold, label=RAND, search=False))


_STATIC_Q = ("\"Existing structure-to-sequence frameworks largely rely on static k-nearest neighbor "
             "graphs and rigid message passing schemes, which fail to capture the flexible and "
             "heterogeneous nature of RNA geometry\"; \"our approach achieves significant "
             "improvements in both sequence recovery and structural fidelity\"")
_FGD_Q = ("\"FGD bridges structural and sequence representations via feature-wise linear "
          "modulation, softly transferring the semantic knowledge from RNA foundation models\"")

BENCHMARK = Benchmark(
    slug="atl_fgd_rna",
    paper=Paper(
        title="Learning Adaptive Topology with FiLM-Guided Distillation for Tertiary "
              "Structure-Based RNA Design",
        arxiv="",
        url="https://icml.cc/virtual/2026/poster/66170",
        version="ICML 2026 poster abstract (no arXiv copy, body, tables or code found)",
    ),
    area="llm_agents",
    fidelity="proxy",
    fidelity_note=("The paper designs sequences for PDB tertiary structures (RDesign-style "
                   "benchmarks) with a GNN and an RNA foundation-model teacher; here ViennaRNA "
                   "MFE secondary structures of generated sequence families, as noisy 2-D "
                   "layouts, a 3-layer width-32 network trained for ~80 Adam steps, and as the "
                   "teacher a BiGRU masked LM pretrained on 4x as many further members of the "
                   "same families, which the student never sees. The gating, "
                   "FiLM and distillation forms are reconstructed from the abstract. Only the "
                   "directions of the comparisons carry over, never the numbers."),
    methods=(ATLFGD,),
    baselines=(KnnMPNN, RNAInverseFold),
    datasets=(FoldedRNAFamilies,),
    metrics=METRICS,
    primary_metric="recovery",
    nondeterministic={"time_s": TIMING_RTOL},
    claims=(
        Claim(id="c1_atl_beats_static_recovery", where="abstract",
              text="adaptive topology beats static kNN message passing on sequence recovery",
              paper_value=_STATIC_Q,
              check=Better(method=ATL, baseline=STATIC, metric="recovery"),
              source="paper", foils=(STATIC16, RAND),
              foil_note="A static kNN graph with the ATL candidate degree (k = 16) has more "
                        "edges but no learned topology; random design ignores the structure. "
                        "Both must fail to beat static k = 8.",
              note="ATL without FGD against the static k = 8 network, paired per training run "
                   "(seed); any positive shift (margin 0)."),
        Claim(id="c2_atl_beats_static_bp_f1", where="abstract; research note checks",
              text="adaptive topology beats static kNN on structural fidelity (refold bp-F1)",
              paper_value=_STATIC_Q,
              check=Better(method=ATL, baseline=STATIC, metric="bp_f1"),
              source="paper", foils=(STATIC16, RAND),
              foil_note="As c1, on the base-pair F1 of the ViennaRNA refold.",
              note="Structural fidelity instantiated as the base-pair F1 of RNA.fold(design) "
                   "against the target structure (the paper's fidelity metric is 3-D)."),
        Claim(id="c3_fgd_adds_recovery", where="abstract; research note checks",
              text="FiLM-guided distillation adds at least 1 point of recovery to ATL",
              paper_value=_FGD_Q,
              check=Better(method=FGD, baseline=ATL, metric="recovery", margin=0.01),
              source="paper", foils=(SHUF, STATIC16),
              foil_note="The shuffled-teacher mutant distils misaligned teacher features; the "
                        "static k = 16 network has no distillation: neither may add 1 point.",
              note="Margin 0.01 (one recovery point) is the research note's proposal; the "
                   "abstract gives no number. Placed in the abstract (FGD's transfer of "
                   "foundation-model knowledge), so the paper's claim (issue 26). Since issue "
                   "30 the teacher is a BiGRU pretrained on 4x as many further members of the "
                   "same families (a corpus disjoint from the student's training set), so this "
                   "tests the transfer of knowledge the student lacks, not self-distillation; "
                   "premise p1 checks that the teacher knows more on held-out data."),
        Claim(id="c4_atl_fgd_best_recovery", where="abstract",
              text="ATL-FGD achieves the best sequence recovery",
              paper_value="\"our approach achieves significant improvements in both sequence "
                          "recovery and structural fidelity\"",
              check=Rank(method=FGD, metric="recovery", k=1),
              source="paper", foils=(ATL, SHUF), grids=("full",),
              foil_note="ATL without distillation and the shuffled-teacher mutant must not "
                        "rank first while ATL-FGD is in the field.",
              note="Friedman over runs, then Holm-corrected signed-rank tests against every "
                   "other method of the grid."),
        Claim(id="c5_atl_fgd_beats_static_bp_f1", where="abstract",
              text="ATL-FGD improves structural fidelity over static kNN message passing",
              paper_value=_STATIC_Q,
              check=Better(method=FGD, baseline=STATIC, metric="bp_f1"),
              source="paper", foils=(STATIC16, RAND),
              foil_note="As c2.",
              note="Base-pair F1 of the ViennaRNA refold; margin 0."),
        Claim(id="c6_atl_fgd_beats_static_macro_f1", where="research note (metrics)",
              text="ATL-FGD improves Macro-F1 over static kNN message passing",
              paper_value="research note: metrics \"recovery, Macro-F1, and base-pair F1\"; "
                          "abstract: \"significant improvements\"",
              check=Better(method=FGD, baseline=STATIC, metric="macro_f1"),
              source="derived", foils=(STATIC16, RAND),
              foil_note="As c1, on Macro-F1 over nucleotides.",
              note="Macro-F1 is RDesign's second metric; margin 0."),
        Claim(id="c7_atl_prunes_edges", where="abstract",
              text="ATL learns a sparser, data-driven topology than its candidate kNN graph",
              paper_value="\"enabling the model to construct data-driven, layer-adaptive "
                          "graphs\"",
              check=Value(method=ATL, metric="edges_kept", hi=0.9),
              source="paper", foils=(STATIC16,),
              foil_note="The static k = 16 graph keeps every candidate edge: its edges_kept is "
                        "1.0 by definition (as knn_mpnn's), so the harness reports it identical "
                        "to knn_mpnn and it gives no evidence. The wording ('data-driven "
                        "graphs' against the candidate kNN graph) names no other foil in the "
                        "grid: every other gated method (atl_fgd, its shuffled-teacher mutant) "
                        "learns gates too.",
              note="Our threshold: on average at least 10% of the candidate edges have "
                   "gate <= 0.5 (mean over runs, t-interval). Placed in the abstract, so the "
                   "paper's claim (issue 26); the sparsity is pushed by our L1 gate penalty "
                   "(weight ours)."),
        Claim(id="c8_beats_classical_recovery", where="research note (baselines)",
              text="learned design recovers native sequences far better than classical "
                   "inverse folding",
              paper_value="research note: baselines RDesign, PiFold, StructGNN, ...; learned "
                          "structure-to-sequence models report recovery far above "
                          "secondary-structure inverse folding",
              check=Better(method=FGD, baseline=INV, metric="recovery", margin=0.05),
              source="derived", foils=(RAND,),
              foil_note="Random design must not exceed RNAinverse's recovery by 5 points.",
              note="Sanity check of the proxy: RNAinverse reaches the target fold but not the "
                   "native sequence; margin 5 recovery points (derived)."),
        Claim(id="c9_tertiary_benchmark", where="abstract (experiments)",
              text="significant improvements on tertiary structure-based RNA design benchmarks",
              paper_value="\"Extensive experiments on tertiary structure-based RNA design "
                          "benchmarks demonstrate that our approach achieves significant "
                          "improvements\"",
              check=NotRun(method=FGD,
                           reason="needs the PDB-derived tertiary-structure benchmarks "
                                  "(RDesign data) and a pretrained RNA foundation model as "
                                  "teacher; neither ships here, and the paper's table numbers "
                                  "are not public (abstract only)"),
              source="paper"),
        Claim(id="c10_fgd_transfers_foundation_knowledge", where="abstract",
              text="FGD transfers knowledge from an RNA foundation model that the structure "
                   "model lacks",
              paper_value="\"softly transferring the semantic knowledge from RNA foundation "
                          "models without relying on them during inference\" (abstract)",
              check=NotRun(method=FGD, reason="no pretrained RNA foundation model (RNA-FM and "
                           "the like) ships here; the proxy of the statement, a BiGRU teacher "
                           "pretrained on a generated family corpus the student never sees, is "
                           "checked by c3 (issue 30)"),
              source="paper"),
    ),
    premises=(
        Premise(id="p1_teacher_knows_more",
                text="the FGD teacher knows what the student lacks: its masked-LM accuracy on "
                     "sequences outside its corpus beats ATL's own recovery",
                check=Better(method=FGD, baseline=ATL, metric="heldout_acc"),
                claims=("c3_fgd_adds_recovery",),
                note="issue 30: distillation can only transfer knowledge the teacher has. The "
                     "teacher's held-out set is the student's training sequences (same families, "
                     "never in its corpus); ATL's is the test structures; paired per run, "
                     "margin 0. Declared before any run with this teacher."),
    ),
    headlines=(
        Headline(quote="Existing structure-to-sequence frameworks largely rely on static "
                       "k-nearest neighbor graphs and rigid message passing schemes, which fail "
                       "to capture the flexible and heterogeneous nature of RNA geometry",
                 claims=("c1_atl_beats_static_recovery", "c2_atl_beats_static_bp_f1")),
        Headline(quote="ATL introduces a differentiable edge gating mechanism to jointly learn "
                       "topology and representation, enabling the model to construct "
                       "data-driven, layer-adaptive graphs",
                 claims=("c7_atl_prunes_edges", "c1_atl_beats_static_recovery")),
        Headline(quote="FGD bridges structural and sequence representations via feature-wise "
                       "linear modulation, softly transferring the semantic knowledge from RNA "
                       "foundation models",
                 claims=("c10_fgd_transfers_foundation_knowledge", "c3_fgd_adds_recovery")),
        Headline(quote="Extensive experiments on tertiary structure-based RNA design benchmarks "
                       "demonstrate that our approach achieves significant improvements in both "
                       "sequence recovery and structural fidelity",
                 claims=("c9_tertiary_benchmark", "c4_atl_fgd_best_recovery",
                         "c5_atl_fgd_beats_static_bp_f1")),
    ),
    grids={
        "smoke": Grid(datasets=sweep(FoldedRNAFamilies, n_families=[3], train_per_family=[6],
                                     test_per_family=[2]),
                      seeds=2, methods=_methods(epochs=1, hidden=8, n_layers=1),
                      note="one epoch of a width-8 one-layer network: plumbing only"),
        "quick": Grid(datasets=sweep(FoldedRNAFamilies, n_families=[8]), seeds=8,
                      methods=_methods(epochs=20, batch_size=32, n_layers=3, lr=3e-3),
                      note="8 families x (16 train + 4 test) structures of 30-50 nt; 3-layer "
                           "width-32 networks, 20 epochs (~80 Adam steps) per run; 8 runs"),
        "full": Grid(datasets=sweep(FoldedRNAFamilies, n_families=[40], train_per_family=[75],
                                    test_per_family=[12], len_lo=[40], len_hi=[100],
                                    pretrain_per_family=[300]),
                     seeds=12, methods=_methods(epochs=100, hidden=128, n_layers=4),
                     note="the note's scale: 3k train / ~500 test structures of 40-100 nt, "
                          "4-layer width-128 networks, the teacher's corpus 4x the training set; "
                          "roughly 2 CPU-hours"),
    },
    cost_note=("56 runs (7 methods x 8 seeds) of 3-layer width-32 graph networks, 20 epochs on 8 "
               "RNA families: learned cells are ~95% of 120 CPU-s (backward ~55%, Linear layers "
               "over ~20k edge rows). atl_fgd is the largest (50 s) as its cells include the "
               "BiGRU teacher's training (~36 s, once per seed, cached), read by "
               "c3_fgd_adds_recovery, c5, c6, c8 and premise p1_teacher_knows_more; atl (18 s) "
               "and knn_mpnn[k=16] (16 s) feed c1 and c2. No method feeds tables only."),
    description=__doc__.split("\n\n")[1].replace("\n", " "),
    amendments=(
        Amendment(date="2026-12-06", claims=("c3_fgd_adds_recovery", "c7_atl_prunes_edges"),
                  what="source derived -> paper; checks, foils and scopes unchanged",
                  why="both are placed in the abstract (FGD's transfer of foundation-model "
                      "knowledge; ATL's 'data-driven, layer-adaptive graphs'): a claim placed "
                      "in the abstract is the paper's",
                  results_seen=True,
                  rule="issue 26: source by placement (a claim placed in the abstract is the "
                       "paper's)"),
        Amendment(date="2026-12-06", claims=("c4_atl_fgd_best_recovery",),
                  what="decided on the full grid only (grids=('full',)); the full grid's seeds "
                       "5 -> 12; check, foils and scope unchanged",
                  why="Rank against 6 others: the quick grid's 8 runs allow p >= 6/2^8 = 0.023, "
                      "above the claim's worst-case Holm level 0.05/8, and the full grid's 5 "
                      "could decide nothing; 12 runs allow 6/2^12",
                  results_seen=True,
                  rule="issue 26: an undecidable design is decided on the full grid only"),
        Amendment(date="2026-12-06", claims=("c10_fgd_transfers_foundation_knowledge",),
                  what="not_run paper claim added for FGD's transfer of foundation-model "
                       "knowledge; headlines declared (4 statements of the ICML abstract)",
                  why="issue 30: the 'foundation model' teacher is a BiGRU trained on the same "
                      "sequences, so c3 tests self-distillation; the abstract's statement is "
                      "kept as not_run until a teacher with knowledge the student lacks is "
                      "built",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c1_atl_beats_static_recovery", "c2_atl_beats_static_bp_f1",
                          "c3_fgd_adds_recovery", "c4_atl_fgd_best_recovery",
                          "c5_atl_fgd_beats_static_bp_f1", "c6_atl_fgd_beats_static_macro_f1",
                          "c7_atl_prunes_edges", "c8_beats_classical_recovery",
                          "c9_tertiary_benchmark", "c10_fgd_transfers_foundation_knowledge"),
                  what="baselines/knn_message_passing.py: message-passing gathers by index_select "
                       "instead of h[idx] (same rows; its backward sums them in the same order), "
                       "and each graph's tensors converted once instead of at every collate "
                       "(tests/test_atl_fgd_rna.py checks batches, outputs and gradients bit for "
                       "bit); grids, seeds, epochs, sizes, checks and foils unchanged",
                  why="issue 27 item 5: quick-grid CPU 2.39 -> 2.25 CPU-minutes as claimbench verify "
                      "measured it on a loaded machine (all 56 ok cells re-run: every non-timing "
                      "metric bit for bit, no verdict, estimate or foil verdict moved; 10 wall "
                      "times over their tolerance from the load); about 10-20% less CPU per learned "
                      "cell in paired in-process timings",
                  results_seen=True,
                  rule="issue 27: faster code, same experiment; every non-timing metric of the "
                       "committed quick cells unchanged (claimbench verify)"),
        Amendment(date="2026-12-06",
                  claims=("c3_fgd_adds_recovery", "c4_atl_fgd_best_recovery",
                          "c5_atl_fgd_beats_static_bp_f1", "c6_atl_fgd_beats_static_macro_f1",
                          "c8_beats_classical_recovery", "c10_fgd_transfers_foundation_knowledge"),
                  what="the FGD teacher (atl_fgd and its shuffled-teacher mutant) is pretrained "
                       "on a new unlabelled corpus of the dataset, further members of each family "
                       "drawn from a separate generator (4x the student's training members: 64 "
                       "per family on the quick grid, 300 on the full grid; the student never "
                       "sees them), instead of on the student's training sequences; the train "
                       "and test structures of every seed unchanged; c3 is gated by the new "
                       "premise p1_teacher_knows_more; c3's note and c10's not_run reason say "
                       "so; checks, thresholds, foils, seeds and grids unchanged",
                  why="issue 30: a teacher trained on the student's own sequences made c3 a test "
                      "of self-distillation; the abstract's FGD transfers knowledge from a "
                      "foundation model, which knows what the structure model lacks",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("p1_teacher_knows_more",),
                  what="premise added: the pretrained teacher's masked-LM accuracy on the "
                       "student's training sequences (outside its corpus) beats ATL's recovery, "
                       "paired per run (metric heldout_acc)",
                  why="issue 30: c3 can show a transfer only if the teacher knows more than the "
                      "student alone on held-out data; declared before any run with the new "
                      "teacher",
                  results_seen=False),
        Amendment(date="2026-12-06",
                  claims=("c1_atl_beats_static_recovery", "c2_atl_beats_static_bp_f1",
                          "c7_atl_prunes_edges", "c9_tertiary_benchmark"),
                  what="the sources they run changed (datasets/folded_rna.py gains the teacher's "
                       "pretrain corpus from a separate generator; methods/atl_fgd_rna.py the "
                       "teacher_data field); their methods (atl, knn_mpnn, knn_mpnn[k=16], "
                       "random_design, rna_inverse_fold) do not read the corpus and get the same "
                       "train and test structures (tests/test_atl_fgd_rna.py); checks, foils, "
                       "seeds and grids unchanged",
                  why="issue 30's teacher corpus is part of the dataset; these claims' "
                      "experiment is unchanged",
                  results_seen=True,
                  rule="issue 28-30 review: a change these claims do not read (new configs, "
                       "cells or branches); every non-timing metric of the committed quick "
                       "cells unchanged (compared cell by cell with the fresh run: 0 "
                       "differences; only atl_fgd and its mutant moved)"),
        Amendment(date="2026-12-06", claims=('c10_fgd_transfers_foundation_knowledge', 'c1_atl_beats_static_recovery', 'c2_atl_beats_static_bp_f1', 'c3_fgd_adds_recovery', 'c4_atl_fgd_best_recovery', 'c5_atl_fgd_beats_static_bp_f1', 'c6_atl_fgd_beats_static_macro_f1', 'c7_atl_prunes_edges', 'c8_beats_classical_recovery', 'c9_tertiary_benchmark'),
                  what="methods/atl_fgd_rna.py builds the teacher's batch tokens once per step instead of twice; grids, seeds, epochs, sizes, checks and foils unchanged",
                  why='issue 27 item 5 (quick-suite CPU): 280 values of the 56 quick cells compared with a fresh run (teacher retrained): 0 differences; teacher training about 0.8x (about 2 % of the benchmark)',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
        Amendment(date="2026-12-06", claims=('c4_atl_fgd_best_recovery',),
                  what="the lock's design of a rank over the whole grid (Rank with among=None) now lists every method of the grid, which its verdict reads; before, only the subject and foils were locked. Nothing else changed: checks, grids, cells and verdicts are the same",
                  why="review of issue 27's budget.readers: the lock missed methods a rank-all claim reads, so adding one to the grid would not have shown as a design change",
                  results_seen=True,
                  rule='issue 27 review: a lock fix (the design records every method a rank over the grid reads); no check, grid, cell or verdict changed'),
        Amendment(date="2026-12-06", claims=('c10_fgd_transfers_foundation_knowledge', 'c1_atl_beats_static_recovery', 'c2_atl_beats_static_bp_f1', 'c3_fgd_adds_recovery', 'c4_atl_fgd_best_recovery', 'c5_atl_fgd_beats_static_bp_f1', 'c6_atl_fgd_beats_static_macro_f1', 'c7_atl_prunes_edges', 'c8_beats_classical_recovery', 'c9_tertiary_benchmark'),
                  what="the BiGRU teacher and the kNN message-passing baselines train with foreach Adam/AdamW (one call per step for the parameter list, the per-tensor loop's arithmetic)",
                  why='issue 27 item 5: the quick suite must fit 30 minutes on 2 cores; this cuts CPU without changing what any cell computes',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
    ),
)
